import type { Kysely } from 'kysely';
import { autoId } from './columns';

/**
 * Bank statements imported by the back office and their credit lines (server/domain/bank/). A line's identity
 * (`line_key`, unique) is the bank's entry reference or a hash of what the line says, so that a statement
 * imported twice, or a line it repeats, is stored once and credits once. A line credits at most one top-up
 * (`deposit_id` unique; NULLs are distinct on both engines).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bank_statements')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('format', 'varchar(8)', (c) => c.notNull())
    .addColumn('imported_by', 'integer', (c) => c.notNull())
    .addColumn('imported_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('lines_total', 'integer', (c) => c.notNull())
    .addColumn('credited', 'integer', (c) => c.notNull())
    .addColumn('to_review', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('bank_statement_lines')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('statement_id', 'integer', (c) => c.notNull().references('bank_statements.id'))
    .addColumn('line_key', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('booked_on', 'varchar(10)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('text', 'varchar(500)', (c) => c.notNull())
    .addColumn('payer', 'varchar(200)')
    .addColumn('bank_reference', 'varchar(100)')
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('reason', 'varchar(24)')
    .addColumn('seller_id', 'integer')
    .addColumn('deposit_id', 'integer', (c) => c.unique().references('deposits.id'))
    .addColumn('decided_by', 'integer')
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('bank_statement_lines_status')
    .on('bank_statement_lines')
    .columns(['status', 'created_at', 'id'])
    .execute();
}
