import type { Kysely } from 'kysely';

/**
 * Login throttling across processes (server/auth/throttle.ts): each email row keeps how many tries are being
 * verified right now, and a second table keeps the same counters per client address. Both live in the database
 * so that several server processes on one Postgres agree.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('login_failures')
    .addColumn('in_flight', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('login_failures').addColumn('in_flight_until', 'varchar(32)').execute();
  await db.schema
    .createTable('login_client_failures')
    .addColumn('client', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('last_failed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('in_flight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('in_flight_until', 'varchar(32)')
    .execute();
}
