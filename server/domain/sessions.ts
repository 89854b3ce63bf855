import { createHash } from 'node:crypto';
import type { AuthUser } from '../auth/session';
import { logActivity } from '../auth/session';
import type { Clock } from '../clock';
import type { Db } from '../db/database';

/**
 * The caller's active sessions (issue 13, item 4): the rows of `auth_tokens` of the user that are neither
 * revoked nor expired. A session's public id is derived from its token's hash (SHA-256 of it, 32 hex
 * characters): the token hash itself never leaves the server, and no column is needed for it.
 */
export const MAX_LISTED_SESSIONS = 100;

export const sessionIdOf = (tokenHash: string) =>
  createHash('sha256').update(`session:${tokenHash}`).digest('hex').slice(0, 32);

export interface SessionRow {
  id: string;
  current: boolean;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
  device: string | null;
  user_agent: string | null;
  client: string | null;
}

/** "Chrome on Linux" from a User-Agent: the browser and the system, or null when neither is known. */
export function deviceOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = (
    [
      [/Edg\//, 'Edge'],
      [/OPR\/|Opera/, 'Opera'],
      [/Firefox\//, 'Firefox'],
      [/Chrom(e|ium)\//, 'Chrome'],
      [/Safari\//, 'Safari'],
      [/curl\//, 'curl'],
    ] as const
  ).find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = (
    [
      [/Android/, 'Android'],
      [/iPhone|iPad|iPod/, 'iOS'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ] as const
  ).find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}

async function activeRows(db: Db, clock: Clock, userId: number) {
  return db
    .selectFrom('auth_tokens')
    .select(['token_hash', 'created_at', 'last_used_at', 'expires_at', 'user_agent', 'client'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', clock.now().toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('token_hash')
    .limit(MAX_LISTED_SESSIONS)
    .execute();
}

/** The caller's active sessions, newest first, the current one marked. */
export async function listSessions(db: Db, clock: Clock, user: AuthUser): Promise<SessionRow[]> {
  const rows = await activeRows(db, clock, user.id);
  return rows.map((row) => ({
    id: sessionIdOf(row.token_hash),
    current: row.token_hash === user.tokenHash,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    expires_at: row.expires_at,
    device: deviceOf(row.user_agent),
    user_agent: row.user_agent,
    client: row.client,
  }));
}

/**
 * Ends every session of the caller but the current one, at once, and the two-factor logins still waiting for a
 * code (a half-done login elsewhere would otherwise end in a session after it); answers how many sessions ended.
 */
export async function endOtherSessions(db: Db, clock: Clock, user: AuthUser): Promise<number> {
  const now = clock.now().toISOString();
  // the call is x-transaction: both statements commit together
  await db.deleteFrom('two_factor_challenges').where('user_id', '=', user.id).execute();
  const result = await db
    .updateTable('auth_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', user.id)
    .where('token_hash', '!=', user.tokenHash)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  const ended = Number(result.numUpdatedRows ?? 0);
  if (ended > 0) await logActivity(db, clock, user.id, 'sessions_ended', `Logged out of ${ended} other sessions`);
  return ended;
}

/**
 * Ends one active session of the caller by its public id; null when the caller has no such session (another
 * user's id, an ended one or a made-up one: the same 404).
 */
export async function endSession(
  db: Db,
  clock: Clock,
  user: AuthUser,
  id: string,
): Promise<{ current: boolean } | null> {
  const now = clock.now().toISOString();
  const rows = await db
    .selectFrom('auth_tokens')
    .select('token_hash')
    .where('user_id', '=', user.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .execute();
  const match = rows.find((row) => sessionIdOf(row.token_hash) === id);
  if (!match) return null;
  await db
    .updateTable('auth_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', match.token_hash)
    .where('user_id', '=', user.id)
    .execute();
  await logActivity(db, clock, user.id, 'session_ended', 'Logged out of one session');
  return { current: match.token_hash === user.tokenHash };
}
