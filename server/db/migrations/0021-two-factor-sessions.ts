import type { Kysely } from 'kysely';
import { autoId } from './columns';

/**
 * Two-factor login and the list of active sessions (issue 13, item 4).
 *
 * - `two_factor`: a user's TOTP secret (base32, stored as is: the codebase has no key facility; it is a seed
 *   like the password reset link's, see the README), pending until a first code confirms it (`enabled_at`),
 *   and the last time step a code was accepted for (`last_step`), so a code is never accepted twice.
 * - `two_factor_recovery_codes`: the SHA-256 of each of the 10 recovery codes, each single-use (`used_at`).
 * - `two_factor_challenges`: the SHA-256 of the short-lived token a right password earns when a code is due.
 * - `auth_tokens` gains what the sessions list shows: when the session was last used, its user agent and the
 *   client address (an IPv6 address by its /64) it logged in from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('two_factor')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('enabled_at', 'varchar(32)')
    .addColumn('last_step', 'integer')
    .execute();
  await db.schema
    .createTable('two_factor_recovery_codes')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('two_factor_recovery_codes_user')
    .on('two_factor_recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();
  await db.schema
    .createTable('two_factor_challenges')
    .addColumn('challenge_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('used_at', 'varchar(32)')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('two_factor_challenges_expires')
    .on('two_factor_challenges')
    .column('expires_at')
    .execute();
  await db.schema.alterTable('auth_tokens').addColumn('last_used_at', 'varchar(32)').execute();
  await db.schema.alterTable('auth_tokens').addColumn('user_agent', 'varchar(300)').execute();
  await db.schema.alterTable('auth_tokens').addColumn('client', 'varchar(64)').execute();
}
