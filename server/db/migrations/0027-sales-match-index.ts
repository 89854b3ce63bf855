import type { Kysely } from 'kysely';

/**
 * The sales lists' match search (issue 12, bench:sales `q=united`): a seller's orders of one status whose match is
 * one of the matching matches. Its count scanned the status's orders in date order (20,000 in the bench), each
 * joined to its match, city and listing, to count 2,366; with this index it reads the matching matches' ranges
 * of the index alone. The page itself still reads the sort's index (0019) in order and checks each order's match.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('orders_seller_status_event')
    .on('orders')
    .columns(['seller_id', 'status', 'event_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_seller_status_event').execute();
}
