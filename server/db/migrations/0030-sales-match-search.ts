import { type Kysely, sql } from 'kysely';

/**
 * The sales lists' match search under every sort (issue 12, bench:sales `delivered&q=united`). A page of a
 * seller's orders of one status reads the sort's index in order (0007's newest first, 0019's amount, deadline
 * and match date) and keeps the orders whose match is one of the matching matches; the index did not hold the
 * match, so each order read on the way cost a lookup of its row, matching or not (about 430 rows for a page
 * of 50 when 7 of 60 matches match). With the match at the end of each index the check reads the index
 * alone, and only the page's rows are looked up. The sort columns and their order are unchanged.
 *
 * The list's total counted every matching order from 0027's index (2,366 index entries); it is now the sum of
 * `seller_match_orders`, a seller's orders per status, match and currency, kept beside the other totals by
 * `recordOrder` and `changeOrderStatus` (server/domain/sales.ts): a few rows per matching match. A list filtered
 * by more than status, currency and match still counts its orders.
 *
 * On bench:sales' database (100,000 orders), through the app in one process, the same run for both: the page's
 * statement 427 → 337 µs, the total 186 → 92 µs (about 50 µs of it the matches' search), the call 1,150 → 894 µs.
 */
const SORTS = [
  { name: 'orders_seller_status_created', columns: ['seller_id', 'status', 'created_at'] },
  { name: 'orders_seller_status_amount', columns: ['seller_id', 'status', 'amount', 'id'] },
  { name: 'orders_seller_status_deadlines', columns: ['seller_id', 'status', 'deliver_by', 'accept_by', 'id desc'] },
  { name: 'orders_seller_status_match', columns: ['seller_id', 'status', 'event_date', 'event_time', 'id desc'] },
];

/** newest first also ends with the id, which the list's ties are ordered by, before the match */
const withMatch = (columns: string[]) =>
  columns.some((c) => c.startsWith('id')) ? [...columns, 'event_id'] : [...columns, 'id', 'event_id'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seller_match_orders')
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('orders', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('seller_match_orders_pk', ['seller_id', 'status', 'event_id', 'currency'])
    .addCheckConstraint('seller_match_orders_not_negative', sql`orders >= 0`)
    .execute();
  await sql`INSERT INTO seller_match_orders (seller_id, status, event_id, currency, orders)
    SELECT seller_id, status, event_id, currency, COUNT(*) FROM orders
    GROUP BY seller_id, status, event_id, currency`.execute(db);
  for (const { name, columns } of SORTS) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('orders').columns(withMatch(columns)).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('seller_match_orders').execute();
  for (const { name, columns } of SORTS) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('orders').columns(columns).execute();
  }
}
