import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { autoId } from './columns';

/**
 * An account's request to be erased (server/domain/account-data/erasure.ts): it waits for the back office, which
 * erases the account or rejects the request with a reason. The row keeps only the account's id: no name or address
 * of the person is copied here, so that nothing of it stays once the account is anonymised.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .createTable('erasure_requests')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('requested_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('rejection_reason', 'varchar(500)')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id'))
    .addColumn('decided_at', 'varchar(32)')
    .addCheckConstraint('erasure_requests_status', sql`status IN ('requested', 'erased', 'rejected')`)
    .execute();
  await db.schema
    .createIndex('erasure_requests_status')
    .on('erasure_requests')
    .columns(['status', 'requested_at', 'id'])
    .execute();
  await db.schema.createIndex('erasure_requests_seller').on('erasure_requests').columns(['seller_id']).execute();
}
