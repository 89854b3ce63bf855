import type { Kysely } from 'kysely';
import { autoId } from './columns';

/**
 * The public account flows (issue 13): whether a user's email is verified (every account made before this
 * migration, and every one the seed makes, is: the column defaults to 1; sign-up writes 0), the single-use
 * tokens of the emailed links (only their SHA-256 is kept), the per-client request limits of the calls that
 * work without a login, and the mail outbox used when no SMTP server is configured.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('account_tokens_user').on('account_tokens').columns(['user_id', 'purpose']).execute();
  await db.schema
    .createTable('request_limits')
    .addColumn('key', 'varchar(320)', (c) => c.primaryKey())
    .addColumn('window_start', 'varchar(32)', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('to_address', 'varchar(254)', (c) => c.notNull())
    .addColumn('subject', 'varchar(200)', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_outbox_created').on('mail_outbox').column('created_at').execute();
}
