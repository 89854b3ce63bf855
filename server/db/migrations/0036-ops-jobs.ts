import type { Kysely } from 'kysely';

/**
 * The jobs that must run once across every server process on the database (housekeeping, the scheduled
 * backup): one row each. A process runs a job only after claiming it by one conditional update of its row
 * (`claimed_at` older than the job's interval), so several processes, on one machine or many, run it once an
 * interval (server/ops/jobs.ts). `last_ok_at` is when it last finished well (the back office shows the last
 * good backup), `last_error` what went wrong the last time it did not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ops_jobs')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('claimed_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_ok_at', 'varchar(32)')
    .addColumn('last_error', 'text')
    .addColumn('detail', 'text')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ops_jobs').execute();
}
