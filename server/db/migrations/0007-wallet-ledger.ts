import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * The SB Pay wallet on a double-entry ledger (server/domain/ledger.ts), and deposit requests.
 *
 * - `ledger_accounts`: one row per account (a user's wallet in one currency, the platform's bank account in one
 *   currency, later purchase accounts), with its balance kept by conditional atomic updates. An account that may
 *   not go below zero (`allow_negative` 0: every wallet) is also held there by a CHECK constraint.
 * - `ledger_entries`: one row per posting, unique by (kind, reference) so that the same business event (deposit
 *   17's approval, booking 42's payment) is posted once however often it is asked for.
 * - `ledger_lines`: the entry's lines, one per account touched, signed amounts that sum to zero per currency,
 *   each with the account's balance after it.
 * - `deposits`: top-up requests with their proof (a `files` row) and their decision.
 *
 * Amounts and balances are `bigint` (Postgres int8; SQLite's integers are 64-bit anyway): minor units.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'integer', id)
    .addColumn('account_key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.references('users.id').onDelete('restrict'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('allow_negative', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('ledger_accounts_not_below_zero', sql`allow_negative = 1 OR balance >= 0`)
    .execute();
  await db.schema.createIndex('ledger_accounts_owner').on('ledger_accounts').columns(['owner_id', 'kind']).execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'integer', id)
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    .addColumn('reference', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('ledger_entries_once', ['kind', 'reference'])
    .execute();

  await db.schema
    .createTable('ledger_lines')
    .addColumn('id', 'integer', id)
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('ledger_entries.id'))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('ledger_lines_not_zero', sql`amount <> 0`)
    .execute();
  await db.schema.createIndex('ledger_lines_entry').on('ledger_lines').column('entry_id').execute();
  await db.schema
    .createIndex('ledger_lines_account_created')
    .on('ledger_lines')
    .columns(['account_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('deposits')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('submitted_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('payment_transfer_by', 'varchar(8)', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('reference', 'varchar(32)', (c) => c.notNull())
    .addColumn('proof_file_id', 'varchar(32)', (c) => c.references('files.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('rejection_reason', 'text')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('ledger_entry_id', 'integer', (c) => c.references('ledger_entries.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('deposits_amount', sql`amount > 0`)
    .addCheckConstraint('deposits_status', sql`status IN ('pending', 'approved', 'rejected')`)
    .addCheckConstraint('deposits_method', sql`payment_transfer_by IN ('ONLINE', 'CASH', 'CHEQUE')`)
    .execute();
  await db.schema
    .createIndex('deposits_user_created')
    .on('deposits')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('deposits_status_created')
    .on('deposits')
    .columns(['status', 'created_at', 'id'])
    .execute();
  // orders by seller and date: a quarter's completed sales (seller levels)
  await db.schema
    .createIndex('orders_seller_status_created')
    .on('orders')
    .columns(['seller_id', 'status', 'created_at'])
    .execute();
}
