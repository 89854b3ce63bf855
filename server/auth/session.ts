import { sql } from 'kysely';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import type { UserType } from '../db/schema';
import { decoyHash, verifyPassword } from './passwords';
import { hashToken, newToken, TOKEN_LIFETIME_MS } from './tokens';

export interface AuthUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  user_type: UserType;
  kyc_status: number;
  kyc_rejection_reason: string | null;
  team_owner_id: number | null;
  currency: string;
  user_token: string;
  created_at: string;
  tokenHash: string;
}

/** After this many failures in a row every try waits THROTTLE_MS; after LOCK_AFTER the account locks. */
export const THROTTLE_AFTER = 5;
export const THROTTLE_MS = 30_000;
export const LOCK_AFTER = 10;
export const LOCK_MS = 15 * 60_000;

export type LoginResult =
  | { kind: 'ok'; token: string; expiresAt: Date; user: AuthUser }
  | { kind: 'invalid' }
  | { kind: 'locked'; retryAfterSeconds: number };

export function lockMessage(retryAfterSeconds: number): string {
  return retryAfterSeconds > 60
    ? `Too many failed attempts. This account is locked; try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`
    : `Too many failed attempts. Try again in ${retryAfterSeconds} seconds.`;
}

const userColumns = [
  'users.id',
  'users.email',
  'users.first_name',
  'users.last_name',
  'users.user_type',
  'users.kyc_status',
  'users.kyc_rejection_reason',
  'users.team_owner_id',
  'users.currency',
  'users.user_token',
  'users.created_at',
] as const;

export async function logActivity(db: Db, clock: Clock, userId: number, type: string, description: string) {
  await db
    .insertInto('activity_log')
    .values({ user_id: userId, type, description, created_at: clock.now().toISOString() })
    .execute();
}

export async function login(db: Db, clock: Clock, email: string, password: string): Promise<LoginResult> {
  const user = await db
    .selectFrom('users')
    .select([...userColumns, 'users.password_hash', 'users.locked_until'])
    .where('email', '=', email.trim().toLowerCase())
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!user) {
    await verifyPassword(password, await decoyHash());
    return { kind: 'invalid' };
  }
  const now = clock.now();
  if (user.locked_until && new Date(user.locked_until) > now) {
    return { kind: 'locked', retryAfterSeconds: Math.ceil((Date.parse(user.locked_until) - now.getTime()) / 1000) };
  }
  if (!(await verifyPassword(password, user.password_hash))) {
    const { failed_logins } = await db
      .updateTable('users')
      .set({ failed_logins: sql`failed_logins + 1` })
      .where('id', '=', user.id)
      .returning('failed_logins')
      .executeTakeFirstOrThrow();
    const lockMs = failed_logins >= LOCK_AFTER ? LOCK_MS : failed_logins >= THROTTLE_AFTER ? THROTTLE_MS : 0;
    if (lockMs === 0) return { kind: 'invalid' };
    await db
      .updateTable('users')
      .set({ locked_until: new Date(now.getTime() + lockMs).toISOString() })
      .where('id', '=', user.id)
      .execute();
    return { kind: 'locked', retryAfterSeconds: lockMs / 1000 };
  }

  const token = newToken();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  const tokenHash = hashToken(token);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ failed_logins: 0, locked_until: null }).where('id', '=', user.id).execute();
    await trx
      .insertInto('auth_tokens')
      .values({
        token_hash: tokenHash,
        user_id: user.id,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        revoked_at: null,
      })
      .execute();
    await logActivity(trx, clock, user.id, 'logged_in', 'Logged in');
  });
  const { password_hash: _h, locked_until: _l, ...profile } = user;
  return { kind: 'ok', token, expiresAt, user: { ...profile, tokenHash } };
}

/** The user behind a bearer token, or null when the token is unknown, revoked, expired or its user deleted. */
export async function authenticate(db: Db, clock: Clock, authorization: string | undefined): Promise<AuthUser | null> {
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(authorization ?? '');
  if (!match?.[1]) return null;
  const tokenHash = hashToken(match[1]);
  const row = await db
    .selectFrom('auth_tokens')
    .innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .select(userColumns)
    .where('auth_tokens.token_hash', '=', tokenHash)
    .where('auth_tokens.revoked_at', 'is', null)
    .where('auth_tokens.expires_at', '>', clock.now().toISOString())
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? { ...row, tokenHash } : null;
}

export async function logout(db: Db, clock: Clock, user: AuthUser): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('auth_tokens')
      .set({ revoked_at: clock.now().toISOString() })
      .where('token_hash', '=', user.tokenHash)
      .execute();
    await logActivity(trx, clock, user.id, 'logged_out', 'Logged out');
  });
}
