import { type Kysely, sql } from 'kysely';

/**
 * The event page reads an index in its order (issue 9, bench:search).
 *
 * `listings_event_price`: the event page lists an event's offered listings (tickets left, other sellers) by price
 * converted to GBP, which no index holds; but inside one currency that order is the order of `price`. So the
 * page reads, for each currency, the first listings of this range in price order and merges them
 * (server/domain/purchase/catalog.ts), instead of converting and sorting the event's ~1,700 listings a request.
 * The index carries the columns the page's filters read (seller, tickets left, split rule, ticket type), so a
 * filtered page's count reads the index alone. Partial on `available > 0`, as the page never shows a sold-out
 * listing (listings_stock_price, 0009, is the same shape for the kept stock's lowest price).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX listings_event_price
    ON listings (event_id, currency, price, id, seller_id, available, split_type, ticket_type_id)
    WHERE available > 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('listings_event_price').execute();
}
