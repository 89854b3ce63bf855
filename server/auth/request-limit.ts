import { sql } from 'kysely';
import type { Db } from '../db/database';

export interface Limit {
  /** What is counted, e.g. `check-email` or `mail`. */
  name: string;
  /** How many calls a key may make in one window. */
  max: number;
  windowMs: number;
}

/** /auth/check-email tells whether an address is registered: 30 checks per client per 10 minutes. */
export const CHECK_EMAIL_LIMIT: Limit = { name: 'check-email', max: 30, windowMs: 10 * 60_000 };
/** Sign-up, resend and reset requests each: 10 per client per hour. */
export const ACCOUNT_CALL_LIMIT: Limit = { name: 'account-call', max: 10, windowMs: 60 * 60_000 };
/** Mails of the account flows to one address: 3 per hour (further calls answer the same and send nothing). */
export const MAIL_LIMIT: Limit = { name: 'mail', max: 3, windowMs: 60 * 60_000 };

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

/** Counters whose window ended more than a day ago. */
export async function pruneRequestLimits(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('request_limits')
    .where('window_start', '<', new Date(now.getTime() - 24 * 60 * 60_000).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
