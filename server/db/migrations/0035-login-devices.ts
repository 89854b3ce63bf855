import type { Kysely } from 'kysely';

/**
 * Login locks per account and client, and the browsers an account has logged in with (server/auth/devices.ts,
 * server/auth/login-gate.ts):
 * - `login_pair_failures`: the throttle's counters per account address and client together, so that an attacker's
 *   wrong guesses from one place lock that place out of that account, not the owner elsewhere;
 * - `login_devices`: a browser that logged in (its device cookie's hash, never the cookie), bound to the account;
 * - `login_device_failures`: the throttle's counters per such browser, which passes the account's lock.
 * `login_failures` (per address) now counts the failures of browsers the account does not know.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const counters = (table: string, key: string, size: number) =>
    db.schema
      .createTable(table)
      .addColumn(key, `varchar(${size})`, (c) => c.primaryKey())
      .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'varchar(32)')
      .addColumn('last_failed_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('in_flight', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('in_flight_until', 'varchar(32)')
      .execute();
  await counters('login_pair_failures', 'pair', 330);
  await counters('login_device_failures', 'device', 64);
  await db.schema
    .createTable('login_devices')
    .addColumn('device_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_used_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_devices_user').on('login_devices').columns(['user_id', 'last_used_at']).execute();
}
