import type { Kysely } from 'kysely';

/**
 * The sales lists' sorts read an index each (bench:sales, issue 12): by amount, by deadline (the delivery cockpit)
 * and by match date, a seller's orders of one status were joined and sorted whole for every page (SQLite's plan:
 * "USE TEMP B-TREE FOR ORDER BY" over up to 30,000 rows); with these a page reads its 20 rows in order and sorts
 * only ties of the last term. The deadline index replaces 0011's, which could not serve `accept_by` after
 * `deliver_by`. Newest first stays on 0007's orders_seller_status_created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // ifExists: a database may get 0011 after this one (migrations landing out of order), which then adds it back
  await db.schema.dropIndex('orders_seller_status_deadline').ifExists().execute();
  await db.schema
    .createIndex('orders_seller_status_deadlines')
    .on('orders')
    .columns(['seller_id', 'status', 'deliver_by', 'accept_by', 'id desc'])
    .execute();
  await db.schema
    .createIndex('orders_seller_status_amount')
    .on('orders')
    .columns(['seller_id', 'status', 'amount', 'id'])
    .execute();
  await db.schema
    .createIndex('orders_seller_status_match')
    .on('orders')
    .columns(['seller_id', 'status', 'event_date', 'event_time', 'id desc'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_seller_status_match').execute();
  await db.schema.dropIndex('orders_seller_status_amount').execute();
  await db.schema.dropIndex('orders_seller_status_deadlines').execute();
  await db.schema
    .createIndex('orders_seller_status_deadline')
    .on('orders')
    .columns(['seller_id', 'status', 'deliver_by', 'id'])
    .execute();
}
