import { sql } from 'kysely';
import type { components } from '../../openapi/schema';
import type { Clock } from '../clock';
import { type Db, directSqlite, engineOf } from '../db/database';
import { prepared } from '../db/prepared';
import type { UserType } from '../db/schema-users';
import { NO_SOCKET_CLIENT } from './client';
import { knownDevice, rememberDevice } from './devices';
import { type HashPool, hashPool, PoolFullError } from './hash-pool';
import { type Caller, enter, type LockScope, leaveFailed, leaveSucceeded, leaveUncounted } from './login-gate';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from './passwords';
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
  /**
   * The KYC status that holds this caller: a seller's own, a team member's seller's (a member inherits its
   * seller's hold), anyone else's own.
   */
  seller_kyc_status: number;
  /** The rejection reason that goes with `seller_kyc_status`. */
  seller_kyc_rejection_reason: string | null;
  /** The names whose `is_can_access` is 1; the router checks an operation's `x-permission` against them. */
  permissions: ReadonlySet<PermissionName>;
  /** A caller by a seller's API token (server/auth/api-tokens.ts): the scopes it may use; absent for a session. */
  apiScopes?: ReadonlySet<components['schemas']['ApiScope']>;
}

export type LoginResult =
  /** `device`: the browser's device cookie to set (server/auth/devices.ts), kept or new. */
  | { kind: 'ok'; token: string; expiresAt: Date; user: UserProfile; device: string }
  | { kind: 'invalid' }
  /** A lock of server/auth/login-gate.ts (the account at this client, the client...): 429 with `Retry-After`. */
  | { kind: 'locked'; scope: LockScope; retryAfterSeconds: number }
  /** This client has as many tries being verified as it may have, all the while we waited: 429. */
  | { kind: 'crowded'; retryAfterSeconds: number }
  /** Too many logins are being verified right now: 503 with `Retry-After`. */
  | { kind: 'busy'; retryAfterSeconds: number }
  /** The password is right but the address is not verified yet (the link sent at sign-up): 403. */
  | { kind: 'unverified' }
  /**
   * The password is right and the user turned two-factor login on: no session yet, and no success counted (the
   * address's failures stand until a code completes the login, so a guessed code is as slow as a password).
   */
  | { kind: 'second-factor'; user: UserProfile };

export function lockMessage(retryAfterSeconds: number, scope: LockScope = 'email'): string {
  const wait = retryAfterSeconds > 60 ? `${Math.ceil(retryAfterSeconds / 60)} minutes` : `${retryAfterSeconds} seconds`;
  if (scope === 'client') return `Too many failed attempts from your network. Try again in ${wait}.`;
  if (scope === 'device') return `Too many failed attempts from this browser. Try again in ${wait}.`;
  if (scope === 'account')
    return retryAfterSeconds > 60
      ? `Too many failed attempts on this account from browsers it does not know. Try again in ${wait}, log in from a browser you used before, or open the link we emailed to the account's address.`
      : `Too many failed attempts on this account from browsers it does not know. Try again in ${wait}.`;
  return retryAfterSeconds > 60
    ? `Too many failed attempts. This account is locked; try again in ${wait}.`
    : `Too many failed attempts. Try again in ${wait}.`;
}

export const CROWDED_MESSAGE = 'Too many logins at once from your network. Try again in a few seconds.';
export const BUSY_MESSAGE = 'Too many people are logging in right now. Please try again in a few seconds.';

const BUSY_RETRY_SECONDS = 5;

/** The columns of a user's profile (UserProfile), as a session and a login read them. */
export const userColumns = [
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

export interface LoginOptions {
  /** Who is calling (server/auth/client.ts); every try without one counts as the same client. */
  client?: string;
  /** The pool that bounds password hashing (tests give a pool of their own). */
  pool?: HashPool;
  /** The login's User-Agent, kept with the session for the sessions list. */
  userAgent?: string;
  /** Whether this user must also give a code (two-factor login): then the answer is 'second-factor'. */
  needsSecondFactor?: (db: Db, userId: number) => Promise<boolean>;
  /** The browser's device cookie (server/auth/devices.ts), if it sent one. */
  device?: string;
  /** Told when a wrong password locks the account for browsers it does not know (the owner's unlock mail). */
  onAccountLocked?: (email: string) => Promise<void>;
}

/** What the sessions list shows of a session besides its times. */
export interface SessionMeta {
  client: string;
  userAgent?: string;
}

/**
 * Starts a session of `userId` (one `auth_tokens` row, valid 24 hours) and logs it in the activity: the end of
 * a login, with a password or with a password and a code.
 */
export async function startSession(
  trx: Db,
  clock: Clock,
  userId: number,
  meta: SessionMeta,
): Promise<{ token: string; expiresAt: Date }> {
  const now = clock.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + TOKEN_LIFETIME_MS);
  await trx
    .insertInto('auth_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      revoked_at: null,
      last_used_at: now.toISOString(),
      user_agent: meta.userAgent ? meta.userAgent.slice(0, 300) : null,
      client: meta.client.slice(0, 64),
    })
    .execute();
  await logActivity(trx, clock, userId, 'logged_in', 'Logged in');
  return { token, expiresAt };
}

/**
 * Checks an email and password under the throttles of server/auth/login-gate.ts: a browser the account knows (its
 * device cookie) meets its own; any other meets its client's, the account's at this client and the account's from
 * everywhere. The slow password check runs in the bounded hashing pool, in the known browsers' lane for those:
 * when its lane's queue is full the answer is 'busy' at once, and nothing is counted. A success remembers the
 * browser (`device` in the answer).
 */
export async function login(
  db: Db,
  clock: Clock,
  email: string,
  password: string,
  options: LoginOptions = {},
): Promise<LoginResult> {
  const key = email.trim().toLowerCase();
  const pool = options.pool ?? hashPool;
  const busy = { kind: 'busy', retryAfterSeconds: BUSY_RETRY_SECONDS } as const;
  // a full pool answers before any database write: a flood costs one comparison per request (and a browser
  // that sends a device cookie one read, to learn its lane)
  if (!options.device && pool.isFull()) return busy;
  const device = options.device ? await knownDevice(db, options.device, key, clock.now()) : null;
  const lane = device ? 'known' : 'unknown';
  if (pool.isFull(lane)) return busy;
  const caller: Caller = { email: key, client: options.client ?? NO_SOCKET_CLIENT, device };

  const entry = await enter(db, clock, caller);
  if (entry.kind === 'locked')
    return { kind: 'locked', scope: entry.scope, retryAfterSeconds: entry.retryAfterSeconds };
  // this client's (or browser's) tries held every slot all the while: it is the one too busy, not the server
  if (entry.kind === 'crowded') return { kind: 'crowded', retryAfterSeconds: BUSY_RETRY_SECONDS };
  if (entry.kind === 'busy') return busy;

  let user: (UserProfile & { password_hash: string; email_verified: number }) | undefined;
  let verified: boolean;
  try {
    user = await db
      .selectFrom('users')
      .select([...userColumns, 'users.password_hash', 'users.email_verified'])
      .where('email', '=', key)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    // an unknown address costs the same hashing time as a wrong password
    const stored = user?.password_hash ?? (await decoyHash());
    verified = await verifyPassword(password, stored, (task) => pool.tryRun(task, lane));
  } catch (error) {
    await leaveUncounted(db, caller, clock.now());
    if (error instanceof PoolFullError) return { kind: 'busy', retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }

  const now = clock.now();
  if (!user || !verified) {
    const failed = await leaveFailed(db, caller, now);
    if (failed.accountLocked && options.onAccountLocked) await options.onAccountLocked(key);
    if (failed.retryAfterSeconds === 0) return { kind: 'invalid' };
    return { kind: 'locked', scope: failed.scope, retryAfterSeconds: failed.retryAfterSeconds };
  }

  if (user.email_verified !== 1) {
    // a right password is no failure; the account just cannot have a session before its address is verified
    await leaveSucceeded(db, caller, now);
    return { kind: 'unverified' };
  }

  const account = user;
  if (options.needsSecondFactor && (await options.needsSecondFactor(db, account.id))) {
    // the slots go back uncounted: neither a failure nor the success that would clear the address's count
    await leaveUncounted(db, caller, now);
    await rehashIfOutdated(db, account.id, account.password_hash, password, pool);
    const { password_hash: _h, email_verified: _v, ...profile } = account;
    return { kind: 'second-factor', user: profile };
  }
  const started = await db.transaction().execute(async (trx) => {
    await leaveSucceeded(trx, caller, now);
    const session = await startSession(trx, clock, account.id, {
      client: caller.client,
      userAgent: options.userAgent,
    });
    return { ...session, device: await rememberDevice(trx, account.id, options.device, now) };
  });
  await rehashIfOutdated(db, account.id, account.password_hash, password, pool);
  const { password_hash: _h, email_verified: _v, ...profile } = account;
  return { kind: 'ok', token: started.token, expiresAt: started.expiresAt, device: started.device, user: profile };
}

/**
 * A hash made with older scrypt parameters is replaced by one at today's, now that the password is known. Best
 * effort: skipped when the pool is full (the next login does it), and only if nobody changed the hash meanwhile.
 */
async function rehashIfOutdated(db: Db, userId: number, stored: string, password: string, pool: HashPool) {
  if (!needsRehash(stored)) return;
  let fresh: string;
  try {
    fresh = await hashPassword(password, (task) => pool.tryRun(task));
  } catch (error) {
    if (error instanceof PoolFullError) return;
    throw error;
  }
  await db
    .updateTable('users')
    .set({ password_hash: fresh })
    .where('id', '=', userId)
    .where('password_hash', '=', stored)
    .execute();
}

/**
 * The user behind a bearer token, or null when the token is unknown, revoked or expired, its user deleted, or
 * (for a team member) the seller whose team it is deleted.
 */
export async function authenticate(db: Db, clock: Clock, authorization: string | undefined): Promise<AuthUser | null> {
  const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(authorization ?? '');
  if (!match?.[1]) return null;
  const tokenHash = hashToken(match[1]);
  const now = clock.now();
  // SQLite outside a transaction: the database's version now, before the query that runs at once after it
  const connection = directSqlite(db);
  const version = connection?.version();
  const known = connection ? knownCallersOf(connection) : undefined;
  if (known) {
    const kept = known.get(tokenHash);
    if (
      kept &&
      kept.version === version &&
      kept.expiresAt > now.getTime() &&
      kept.usedAt > now.getTime() - LAST_USED_EVERY_MS
    )
      return kept.user;
  }
  // one query, built and compiled once: it runs on every secured call
  const row = await callerByToken.takeFirst(db, { tokenHash, now: now.toISOString() });
  if (!row) return null;
  const { owner_kyc_status, owner_reason, permission_names, last_used_at, expires_at, ...profile } = row;
  const usedAt = last_used_at ? Date.parse(last_used_at) : Number.NEGATIVE_INFINITY;
  const touch = usedAt <= now.getTime() - LAST_USED_EVERY_MS;
  if (touch) await touchSession.execute(db, { tokenHash, now: now.toISOString() });
  const inherits = profile.user_type === 'team_members' && owner_kyc_status !== null;
  const user: AuthUser = Object.freeze({
    ...profile,
    tokenHash,
    seller_kyc_status: inherits ? Number(owner_kyc_status) : profile.kyc_status,
    seller_kyc_rejection_reason: inherits ? owner_reason : profile.kyc_rejection_reason,
    permissions: new Set(permission_names ? (permission_names.split(',') as PermissionName[]) : []),
  });
  // kept only when read at `version` (a touch is a write, so the next call reads again and keeps that)
  if (known && version !== undefined && !touch) {
    if (known.size >= KNOWN_CALLERS_LIMIT) known.clear();
    known.set(tokenHash, { user, version, expiresAt: Date.parse(expires_at), usedAt });
  }
  return user;
}

/**
 * The callers of this process by database connection and token hash, each with the database version it was
 * read at (SQLite only): a secured call whose token was read at the database's current version needs no query,
 * since no row it was read from can have changed (a logout, a revoked session, a permission or KYC decision, a deleted user, by
 * this process or another, each moves the version). The clock is still checked: expiry, and the session's
 * last use written once a minute. On Postgres every call reads (other processes write without our knowing).
 */
type KnownCallers = Map<string, { user: AuthUser; version: string; expiresAt: number; usedAt: number }>;
const knownCallers = new WeakMap<object, KnownCallers>();
function knownCallersOf(connection: object): KnownCallers {
  let known = knownCallers.get(connection);
  if (!known) {
    known = new Map();
    knownCallers.set(connection, known);
  }
  return known;
}
/** Bounds the memory of a flood of distinct valid tokens: the map starts again when full. */
const KNOWN_CALLERS_LIMIT = 10_000;

/**
 * The caller behind a token hash, with its allowed permissions as one comma-separated list (permission names
 * have no commas): one row, where a row per permission costs better-sqlite3 several times more to hand over.
 */
const callerByToken = prepared((db, $: { tokenHash: string; now: string }) => {
  const names =
    engineOf(db) === 'postgres'
      ? sql<string>`string_agg(permission_name, ',')`
      : sql<string>`group_concat(permission_name, ',')`;
  return db
    .selectFrom('auth_tokens')
    .innerJoin('users', 'users.id', 'auth_tokens.user_id')
    .leftJoin('users as owner', 'owner.id', 'users.team_owner_id')
    .select((eb) => [
      ...userColumns,
      'owner.kyc_status as owner_kyc_status',
      'auth_tokens.last_used_at',
      'auth_tokens.expires_at',
      'owner.kyc_rejection_reason as owner_reason',
      eb
        .selectFrom('user_permissions')
        .select(names.as('names'))
        .whereRef('user_permissions.user_id', '=', 'users.id')
        .where('user_permissions.is_can_access', '=', 1)
        .as('permission_names'),
    ])
    .where('auth_tokens.token_hash', '=', $.tokenHash)
    .where('auth_tokens.revoked_at', 'is', null)
    .where('auth_tokens.expires_at', '>', $.now)
    .where('users.deleted_at', 'is', null)
    .where((eb) => eb.or([eb('users.team_owner_id', 'is', null), eb('owner.deleted_at', 'is', null)]));
});

/** A session's last use is written at most this often (a write on every call would cost every call). */
export const LAST_USED_EVERY_MS = 60_000;

const touchSession = prepared((db, $: { tokenHash: string; now: string }) =>
  db.updateTable('auth_tokens').set({ last_used_at: $.now }).where('token_hash', '=', $.tokenHash),
);

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
