import { type Kysely, sql } from 'kysely';

/**
 * A seller's kept totals by status in 16 rows per (seller, currency, status), the `shard` of each order its id
 * modulo 16 (docs/decisions/escrow-shards.md): every sale of one seller added to the same row, which every
 * purchase then locked until its commit (PostgreSQL: most waiting backends waited on it once the escrow was
 * split). Readers sum the shards. The totals are counted again from the orders, each in its shard. The table is
 * made again (SQLite cannot change a primary key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seller_order_totals_sharded')
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('orders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tickets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('seller_order_totals_shard_pk', ['seller_id', 'currency', 'status', 'shard'])
    .addCheckConstraint('seller_order_totals_shard_not_negative', sql`orders >= 0 AND tickets >= 0 AND amount >= 0`)
    .execute();
  // counted again from the orders, each in its own shard: a later status change takes an order from the shard of
  // its id, so totals copied into one shard would break on the first change of an older order
  await sql`INSERT INTO seller_order_totals_sharded (seller_id, currency, status, shard, orders, tickets, amount)
    SELECT seller_id, currency, status, id % 16, COUNT(*), SUM(quantity), SUM(amount) FROM orders
    GROUP BY seller_id, currency, status, id % 16`.execute(db);
  // upgrade-safe: made before the first release, so no serving version writes the totals by their old key
  await db.schema.dropTable('seller_order_totals').execute();
  // upgrade-safe: as above (once released, a key change is a new table beside the old one, see the decision)
  await db.schema.alterTable('seller_order_totals_sharded').renameTo('seller_order_totals').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seller_order_totals_single')
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('orders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tickets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('seller_order_totals_single_pk', ['seller_id', 'currency', 'status'])
    .addCheckConstraint('seller_order_totals_single_not_negative', sql`orders >= 0 AND tickets >= 0 AND amount >= 0`)
    .execute();
  await sql`INSERT INTO seller_order_totals_single (seller_id, currency, status, orders, tickets, amount)
    SELECT seller_id, currency, status, SUM(orders), SUM(tickets), SUM(amount) FROM seller_order_totals
    GROUP BY seller_id, currency, status`.execute(db);
  await db.schema.dropTable('seller_order_totals').execute();
  await db.schema.alterTable('seller_order_totals_single').renameTo('seller_order_totals').execute();
}
