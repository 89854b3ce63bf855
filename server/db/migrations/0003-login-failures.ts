import type { Kysely } from 'kysely';

/**
 * Failed logins are counted per email address, whether or not an account has it, so that the throttle
 * answers an unknown address exactly as it answers a known one (no account enumeration).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('login_failures')
    .addColumn('email', 'varchar(254)', (c) => c.primaryKey())
    .addColumn('failed_logins', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('last_failed_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  // upgrade-safe: made before the first release; no serving version read these columns
  await db.schema.alterTable('users').dropColumn('failed_logins').execute();
  // upgrade-safe: as above
  await db.schema.alterTable('users').dropColumn('locked_until').execute();
}
