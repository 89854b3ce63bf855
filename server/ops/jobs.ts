import { sql } from 'kysely';
import type { Db } from '../db/database';

/** What a job may leave beside its time: a backup its file and size. */
export type JobDetail = Record<string, unknown>;

export interface JobState {
  name: string;
  claimedAt: string;
  runs: number;
  lastOkAt: string | null;
  lastError: string | null;
  detail: JobDetail | null;
}

/** A run claimed this long after the last one counts as on time: timers of different processes drift. */
const EARLY = 0.1;

/**
 * Claims the run of `name` that is due at `now` for this process: one conditional update of the job's row
 * (`claimed_at` at least most of `everyMs` ago), so that of several processes, on one machine or many, one
 * claims each interval's run and the others find it taken. Answers whether this process should run it.
 * A process that dies during its run leaves the claim in place: the next interval's run is claimed anew.
 */
export async function claimRun(db: Db, name: string, now: Date, everyMs: number): Promise<boolean> {
  await db
    .insertInto('ops_jobs')
    .values({ name, claimed_at: new Date(0).toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const dueBefore = new Date(now.getTime() - Math.round(everyMs * (1 - EARLY))).toISOString();
  const claimed = await db
    .updateTable('ops_jobs')
    .set({ claimed_at: now.toISOString(), runs: sql`runs + 1` })
    .where('name', '=', name)
    .where('claimed_at', '<=', dueBefore)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

/** Records how a run of `name` ended: a good one its time (and what it left), a failed one its error. */
export async function recordRun(
  db: Db,
  name: string,
  now: Date,
  outcome: { ok: true; detail?: JobDetail } | { ok: false; error: string },
): Promise<void> {
  await db
    .insertInto('ops_jobs')
    .values({ name, claimed_at: now.toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  await db
    .updateTable('ops_jobs')
    .set(
      outcome.ok
        ? {
            last_ok_at: now.toISOString(),
            last_error: null,
            detail: outcome.detail ? JSON.stringify(outcome.detail) : null,
          }
        : { last_error: outcome.error.slice(0, 500) },
    )
    .where('name', '=', name)
    .execute();
}

/** The state of `name`, or null when it never ran. */
export async function jobState(db: Db, name: string): Promise<JobState | null> {
  const row = await db.selectFrom('ops_jobs').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row) return null;
  let detail: JobDetail | null = null;
  try {
    detail = row.detail ? (JSON.parse(row.detail) as JobDetail) : null;
  } catch {
    detail = null;
  }
  return {
    name: row.name,
    claimedAt: row.claimed_at,
    runs: row.runs,
    lastOkAt: row.last_ok_at,
    lastError: row.last_error,
    detail,
  };
}
