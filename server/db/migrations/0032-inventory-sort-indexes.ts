import type { Kysely } from 'kysely';

/**
 * Inventory's other sorts (issue 11): newest listing first, price either way and quantity, with or without a
 * status filter. Only the match order (the default) was read in index order (migration 0028); the others read
 * every listing of the seller, joined to its match, and sorted them in a temporary tree for each page: with
 * 10,000 listings, 4 to 12 ms a page against 0.4 for the match order, and bench:listings' 180 views in turn
 * (`ANSWER_CACHE=0`) answered 301 a second with p99 546 ms. With these, and the match joined only when a filter
 * or the sort reads it (server/domain/listings/queries.ts filteredListings), a page is the first rows of an
 * index, forwards or backwards (ties by id: the listing's rowid ends every index entry): at most 1.7 ms, 0.4 at
 * the median. Two per sort: the seller's listings but the deleted (Inventory as it opens), and those of one
 * status (its filter). Without the second, a filter on the rarer status walked the first past most of the
 * seller's rows (14 ms for the unpublished by quantity); one index with the status first cannot serve the
 * first kind, whose range of statuses SQLite does not merge in order.
 */
const SORTED = [
  ['created', 'created_at'],
  ['price', 'price'],
  ['quantity', 'quantity'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, column] of SORTED) {
    await db.schema.createIndex(`listings_seller_${name}`).on('listings').columns(['seller_id', column]).execute();
    await db.schema
      .createIndex(`listings_seller_status_${name}`)
      .on('listings')
      .columns(['seller_id', 'status', column])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of SORTED) {
    await db.schema.dropIndex(`listings_seller_status_${name}`).execute();
    await db.schema.dropIndex(`listings_seller_${name}`).execute();
  }
}
