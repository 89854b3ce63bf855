import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * Payouts (issue 14, item 3) and the bank accounts they pay to.
 *
 * - `bank_accounts`: a seller's payout bank accounts (holder, IBAN, SWIFT/BIC, normalised: upper case, no spaces).
 *   At most one is the payout account (`is_default` 1, a partial unique index). An account is never deleted while
 *   a payout names it: removing it sets `deleted_at`, so a payout's history still shows where it went.
 * - `payouts`: one request to pay `amount` of a currency to a bank account: `requested` (the money is in flight),
 *   then `sent` or `failed` by the back office (one conditional update decides, so two admins cannot both win).
 *   `fee` is kept when sent; `net` = amount - fee reaches the bank. Each step is one ledger entry (reference
 *   `payout:<id>`): server/domain/payouts.ts.
 * - `payout_orders`: which completed orders' earnings a payout covers, and how much of each (first earned, first
 *   paid; an order may be split over two payouts). A failed payout's rows stay (its history) but no longer count.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .createTable('bank_accounts')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('holder_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('iban', 'varchar(34)', (c) => c.notNull())
    .addColumn('bic', 'varchar(11)', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .addCheckConstraint('bank_accounts_default', sql`is_default IN (0, 1)`)
    .execute();
  await db.schema.createIndex('bank_accounts_seller').on('bank_accounts').columns(['seller_id', 'id']).execute();
  await db.schema
    .createIndex('bank_accounts_one_default')
    .on('bank_accounts')
    .column('seller_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();

  await db.schema
    .createTable('payouts')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('requested_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('bank_account_id', 'integer', (c) => c.notNull().references('bank_accounts.id'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .addColumn('net', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('payouts_amounts', sql`amount > 0 AND fee >= 0 AND net > 0 AND net = amount - fee`)
    .addCheckConstraint('payouts_status', sql`status IN ('requested', 'sent', 'failed')`)
    .execute();
  await db.schema
    .createIndex('payouts_seller_created')
    .on('payouts')
    .columns(['seller_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('payouts_status_created').on('payouts').columns(['status', 'created_at', 'id']).execute();

  await db.schema
    .createTable('payout_orders')
    .addColumn('payout_id', 'integer', (c) => c.notNull().references('payouts.id').onDelete('cascade'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('payout_orders_pk', ['payout_id', 'order_id'])
    .addCheckConstraint('payout_orders_amount', sql`amount > 0`)
    .execute();
  await db.schema.createIndex('payout_orders_order').on('payout_orders').column('order_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payout_orders').execute();
  await db.schema.dropTable('payouts').execute();
  await db.schema.dropTable('bank_accounts').execute();
}
