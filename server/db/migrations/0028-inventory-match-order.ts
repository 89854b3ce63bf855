import type { Kysely } from 'kysely';

/**
 * Inventory in match order (issue 11, bench:listings), its default: the seller's listings by their match's date
 * and time. The page scanned the matches in date order and, for each, every seller's listings of that match
 * (`listings_event`), then sorted each date's rows by time and id in a temporary tree. With
 * `events_date_time` the matches come in (date, time, id) order, and with `listings_event_seller` each match
 * gives only this seller's listings, in id order: the first 50 rows are the page, with no sort (the list orders
 * by date, time, match, listing: server/domain/listings/queries.ts SORTS). With 10,000 listings over 30
 * matches (bench:listings' database) the statement took 670 µs and takes 400; the whole page read (count, page,
 * sold and held, files, templates, matches) 1,200 µs and 600 (with server/db/database.ts shapedRows).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('listings_event_seller').on('listings').columns(['event_id', 'seller_id']).execute();
  await db.schema.createIndex('events_date_time').on('events').columns(['event_date', 'event_time']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_date_time').execute();
  await db.schema.dropIndex('listings_event_seller').execute();
}
