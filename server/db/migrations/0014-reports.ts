import type { Kysely } from 'kysely';

/**
 * Reports (issue 14): one index that answers a period's report of one seller and currency by a range scan that
 * never reads the table: the orders placed in the period (`created_at`), with the status, quantity, amount and
 * match each figure, the series and the top matches sum. The history's count and rows use its first three columns.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('orders_seller_currency_created')
    .on('orders')
    .columns(['seller_id', 'currency', 'created_at', 'status', 'quantity', 'amount', 'event_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_seller_currency_created').execute();
}
