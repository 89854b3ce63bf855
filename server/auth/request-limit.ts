import { sql } from 'kysely';
import type { Db } from '../db/database';

export interface Limit {
  /** What is counted, e.g. `check-email` or `mail`. */
  name: string;
  /** How many calls a key may make in one window. */
  max: number;
  windowMs: number;
}

export type Counted = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one call of `key` under `limit` in a fixed window, in one statement (an upsert), so that several
 * server processes on one database count together. Answers whether the call is within the limit and, if not,
 * how long until the window ends.
 */
export async function countCall(db: Db, limit: Limit, key: string, now: Date): Promise<Counted> {
  const id = `${limit.name}:${key}`;
  const nowIso = now.toISOString();
  const windowOpenedAfter = new Date(now.getTime() - limit.windowMs).toISOString();
  const stale = sql`request_limits.window_start <= ${windowOpenedAfter}`;
  const result = await sql<{ window_start: string; hits: number }>`
    INSERT INTO request_limits (key, window_start, hits) VALUES (${id}, ${nowIso}, 1)
    ON CONFLICT (key) DO UPDATE SET
      hits = (CASE WHEN ${stale} THEN 1 ELSE request_limits.hits + 1 END),
      window_start = (CASE WHEN ${stale} THEN ${nowIso} ELSE request_limits.window_start END)
    RETURNING window_start, hits`.execute(db);
  const row = result.rows[0];
  if (!row || Number(row.hits) <= limit.max) return { allowed: true };
  const ends = Date.parse(row.window_start) + limit.windowMs;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((ends - now.getTime()) / 1000)) };
}

export type Spent = { allowed: true; used: number } | { allowed: false; used: number; retryAfterSeconds: number };

/**
 * Spends `amount` of `key`'s allowance under `limit` (a fixed window, like countCall) only if it stays within
 * it: one conditional upsert, so that of several calls at once, here or in another process, no more pass than the
 * limit allows, and a refused call changes nothing (unlike countCall, which counts refused calls too). `used` is
 * what the window has spent, this call included when allowed. Inside a transaction the spend goes with it.
 */
export async function spendWithin(db: Db, limit: Limit, key: string, amount: number, now: Date): Promise<Spent> {
  const id = `${limit.name}:${key}`;
  const nowIso = now.toISOString();
  const windowOpenedAfter = new Date(now.getTime() - limit.windowMs).toISOString();
  if (Number.isSafeInteger(amount) && amount >= 0 && amount <= limit.max) {
    // literals, not parameters: whole numbers of ours, and Postgres then needs no guess at a parameter's type
    const n = sql.lit(amount);
    const stale = sql`request_limits.window_start <= ${windowOpenedAfter}`;
    const result = await sql<{ hits: number }>`
      INSERT INTO request_limits (key, window_start, hits) VALUES (${id}, ${nowIso}, ${n})
      ON CONFLICT (key) DO UPDATE SET
        hits = (CASE WHEN ${stale} THEN ${n} ELSE request_limits.hits + ${n} END),
        window_start = (CASE WHEN ${stale} THEN ${nowIso} ELSE request_limits.window_start END)
      WHERE ${stale} OR request_limits.hits + ${n} <= ${sql.lit(limit.max)}
      RETURNING hits`.execute(db);
    const row = result.rows[0];
    if (row) return { allowed: true, used: Number(row.hits) };
  }
  const held = await peekWithin(db, limit, key, now);
  return { allowed: false, used: held.used, retryAfterSeconds: held.retryAfterSeconds };
}

const windowSeconds = (limit: Limit) => Math.max(1, Math.ceil(limit.windowMs / 1000));

/**
 * What `key` has spent under `limit` in its window now, and the seconds until the window ends (the whole window
 * when nothing is spent): a read that changes nothing.
 */
export async function peekWithin(
  db: Db,
  limit: Limit,
  key: string,
  now: Date,
): Promise<{ used: number; retryAfterSeconds: number }> {
  const row = await db
    .selectFrom('request_limits')
    .select(['window_start', 'hits'])
    .where('key', '=', `${limit.name}:${key}`)
    .executeTakeFirst();
  const start = row ? Date.parse(row.window_start) : Number.NaN;
  if (!row || start <= now.getTime() - limit.windowMs) return { used: 0, retryAfterSeconds: windowSeconds(limit) };
  const ends = start + limit.windowMs;
  return { used: Number(row.hits), retryAfterSeconds: Math.max(1, Math.ceil((ends - now.getTime()) / 1000)) };
}

/** Counters whose window ended more than a day ago. */
export async function pruneRequestLimits(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('request_limits')
    .where('window_start', '<', new Date(now.getTime() - 24 * 60 * 60_000).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
