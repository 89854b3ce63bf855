import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';
import { autoId } from './columns';

/**
 * The back office's audit log (server/domain/admin/audit.ts): one row per action an operator took (who, what,
 * which record, the amount it moved, when), written in the transaction of the action itself. Append-only: a
 * trigger refuses every UPDATE and DELETE on both engines, so that not even the application can rewrite it.
 * It keeps the operator's id and email (operators are staff, never erased) and the record's id, no copy of the
 * seller's personal data.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('admin_audit_log')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('actor_id', 'integer', (c) => c.notNull())
    .addColumn('actor_email', 'varchar(254)', (c) => c.notNull())
    .addColumn('action', 'varchar(40)', (c) => c.notNull())
    .addColumn('record_type', 'varchar(24)', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint')
    .addColumn('currency', 'varchar(3)')
    .addColumn('detail', 'varchar(500)')
    .execute();
  await db.schema.createIndex('admin_audit_log_created').on('admin_audit_log').columns(['created_at', 'id']).execute();
  await db.schema
    .createIndex('admin_audit_log_action')
    .on('admin_audit_log')
    .columns(['action', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('admin_audit_log_actor')
    .on('admin_audit_log')
    .columns(['actor_id', 'created_at', 'id'])
    .execute();
  if (engineOf(db) === 'postgres') {
    await sql`
      CREATE FUNCTION admin_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'admin_audit_log is append-only';
      END $$`.execute(db);
    await sql`
      CREATE TRIGGER admin_audit_log_append_only BEFORE UPDATE OR DELETE ON admin_audit_log
      FOR EACH ROW EXECUTE FUNCTION admin_audit_log_append_only()`.execute(db);
  } else {
    for (const op of ['UPDATE', 'DELETE']) {
      await sql`
        CREATE TRIGGER ${sql.id(`admin_audit_log_no_${op.toLowerCase()}`)} BEFORE ${sql.raw(op)} ON admin_audit_log
        BEGIN SELECT RAISE(ABORT, 'admin_audit_log is append-only'); END`.execute(db);
    }
  }
}
