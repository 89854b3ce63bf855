import type { components } from '../../openapi/schema';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import type { UserType } from '../db/schema';
import { decoyHash, verifyPassword } from './passwords';
import { hashToken, newToken, TOKEN_LIFETIME_MS } from './tokens';

export type PermissionName = components['schemas']['PermissionName'];

export interface UserProfile {
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
}

/** The caller of a secured operation: its profile, its token and the permissions it may use. */
export interface AuthUser extends UserProfile {
  tokenHash: string;
  /** The names whose `is_can_access` is 1; the router checks an operation's `x-permission` against them. */
  permissions: ReadonlySet<PermissionName>;
}

/** After this many failures in a row every try waits THROTTLE_MS; after LOCK_AFTER the account locks. */
export const THROTTLE_AFTER = 5;
export const THROTTLE_MS = 30_000;
export const LOCK_AFTER = 10;
export const LOCK_MS = 15 * 60_000;

export type LoginResult =
  | { kind: 'ok'; token: string; expiresAt: Date; user: UserProfile }
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
  const key = email.trim().toLowerCase();
  const now = clock.now();
  const nowIso = now.toISOString();
  const retryAfter = (lockedUntil: string) => Math.max(1, Math.ceil((Date.parse(lockedUntil) - now.getTime()) / 1000));
  const gate = await db.selectFrom('login_failures').select('locked_until').where('email', '=', key).executeTakeFirst();
  if (gate?.locked_until && gate.locked_until > nowIso) {
    return { kind: 'locked', retryAfterSeconds: retryAfter(gate.locked_until) };
  }
  // Count this try per email (an account's or not), and throttle or lock from the fifth or tenth on, BEFORE
  // the slow verification and in one statement: parallel tries cannot all slip past the throttle, and an
  // unknown address is throttled exactly like a known one. A success deletes the count below.
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const reserved = await db
    .insertInto('login_failures')
    .values({ email: key, failed_logins: 1, locked_until: null, last_failed_at: nowIso })
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet((eb) => ({
          failed_logins: eb('login_failures.failed_logins', '+', 1),
          last_failed_at: nowIso,
          locked_until: eb
            .case()
            .when('login_failures.failed_logins', '>=', LOCK_AFTER - 1)
            .then(at(LOCK_MS))
            .when('login_failures.failed_logins', '>=', THROTTLE_AFTER - 1)
            .then(at(THROTTLE_MS))
            .else(eb.ref('login_failures.locked_until'))
            .end(),
        }))
        .where((eb) =>
          eb.or([eb('login_failures.locked_until', 'is', null), eb('login_failures.locked_until', '<=', nowIso)]),
        ),
    )
    .returning('failed_logins')
    .executeTakeFirst();
  if (!reserved) {
    // another try locked this address since we read it
    const row = await db
      .selectFrom('login_failures')
      .select('locked_until')
      .where('email', '=', key)
      .executeTakeFirst();
    return { kind: 'locked', retryAfterSeconds: row?.locked_until ? retryAfter(row.locked_until) : THROTTLE_MS / 1000 };
  }
  const user = await db
    .selectFrom('users')
    .select([...userColumns, 'users.password_hash'])
    .where('email', '=', key)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  // an unknown address costs the same hashing time as a wrong password
  const verified = await verifyPassword(password, user?.password_hash ?? (await decoyHash()));
  if (!user || !verified) {
    const failed = reserved.failed_logins;
    const lockMs = failed >= LOCK_AFTER ? LOCK_MS : failed >= THROTTLE_AFTER ? THROTTLE_MS : 0;
    return lockMs === 0 ? { kind: 'invalid' } : { kind: 'locked', retryAfterSeconds: lockMs / 1000 };
  }

  const token = newToken();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  const tokenHash = hashToken(token);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('login_failures').where('email', '=', key).execute();
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
  const { password_hash: _h, ...profile } = user;
  return { kind: 'ok', token, expiresAt, user: profile };
}

/**
 * The user behind a bearer token, or null when the token is unknown, revoked or expired, its user deleted, or
 * (for a team member) the seller whose team it is deleted.
 */
export async function authenticate(db: Db, clock: Clock, authorization: string | undefined): Promise<AuthUser | null> {
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(authorization ?? '');
  if (!match?.[1]) return null;
  const tokenHash = hashToken(match[1]);
  const row = await db
    .selectFrom('auth_tokens')
    .innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .leftJoin('users as owner', 'owner.id', 'users.team_owner_id')
    .select(userColumns)
    .where('auth_tokens.token_hash', '=', tokenHash)
    .where('auth_tokens.revoked_at', 'is', null)
    .where('auth_tokens.expires_at', '>', clock.now().toISOString())
    .where('users.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('users.team_owner_id', 'is', null), eb('owner.deleted_at', 'is', null)]))
    .executeTakeFirst();
  if (!row) return null;
  const allowed = await db
    .selectFrom('user_permissions')
    .select('permission_name')
    .where('user_id', '=', row.id)
    .where('is_can_access', '=', 1)
    .execute();
  return { ...row, tokenHash, permissions: new Set(allowed.map((p) => p.permission_name as PermissionName)) };
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
