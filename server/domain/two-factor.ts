import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';
import { NO_SOCKET_CLIENT } from '../auth/client';
import { knownDevice, rememberDevice } from '../auth/devices';
import { type HashPool, hashPool, PoolFullError } from '../auth/hash-pool';
import { type Caller, enter, type LockScope, leaveFailed, leaveSucceeded, leaveUncounted } from '../auth/login-gate';
import { verifyPassword } from '../auth/passwords';
import { logActivity, type SessionMeta, startSession, type UserProfile, userColumns } from '../auth/session';
import { PAIR_SCOPE, pairKey, recordFailure, release, reserveSlot } from '../auth/throttle';
import { hashToken, newToken } from '../auth/tokens';
import type { Clock } from '../clock';
import type { Db } from '../db/database';

/**
 * Two-factor login with an authenticator app (issue 13, item 4): TOTP as RFC 6238 sets it out and every app
 * reads it (SHA-1, 6 digits, 30-second steps), a code accepted one step either side of now (a phone's clock a
 * little off), each time step accepted once. The secret is made and checked by `otpauth`; its otpauth:// URI is
 * drawn as a QR code by `uqr`, on the server, so the browser loads no QR library.
 */
export const TOTP_RULES = { algorithm: 'SHA1', digits: 6, period: 30, window: 1 } as const;
export const ISSUER = 'SB Portal';
export const RECOVERY_CODE_COUNT = 10;
/** How long the step between a right password and its code may take. */
export const CHALLENGE_LIFETIME_MS = 5 * 60_000;
/** Wrong codes one challenge takes before it is spent (each also counts as a failed login of the address). */
export const CHALLENGE_MAX_FAILURES = 5;

export const TWO_FACTOR_MESSAGES = {
  alreadyOn: 'Two-factor authentication is already on. Turn it off first to set up another app.',
  noSetup: 'Start the setup first: the code must come from the app that scanned the QR code.',
  notOn: 'Two-factor authentication is not on.',
  wrongCode: 'This code is not correct. Enter the 6-digit code your authenticator app shows now.',
  wrongLoginCode: 'This code is not correct, or it was already used. Enter the code your app shows now.',
  wrongRecovery: 'This recovery code is not correct, or it was already used.',
  expired: 'This login has expired. Enter your email and password again.',
  oneOf: 'Give either a code from your app or a recovery code.',
  oneOfDisable: 'Give either your password or a code from your app.',
  wrongPassword: 'Your password is not correct.',
  codeRequired: 'Enter the 6-digit code from your authenticator app.',
} as const;

function totpFor(secret: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: TOTP_RULES.algorithm,
    digits: TOTP_RULES.digits,
    period: TOTP_RULES.period,
    secret: Secret.fromBase32(secret),
  });
}

/** The time step a code is for, when it is right within one step of now; else null. */
function stepOf(totp: TOTP, code: string, now: Date): number | null {
  const delta = totp.validate({ token: code, timestamp: now.getTime(), window: TOTP_RULES.window });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_RULES.period, timestamp: now.getTime() }) + delta;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code: 16 characters (about 79 bits) in four groups, without look-alikes (0/o, 1/l/i). */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 16 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return [0, 4, 8, 12].map((i) => chars.slice(i, i + 4).join('')).join('-');
}

/** A recovery code as typed: any case, spaces and hyphens ignored. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]+/g, '');

export interface TwoFactorStatus {
  enabled: boolean;
  enabled_at: string | null;
  recovery_codes_left: number;
}

export async function twoFactorStatus(db: Db, userId: number): Promise<TwoFactorStatus> {
  const row = await db.selectFrom('two_factor').select('enabled_at').where('user_id', '=', userId).executeTakeFirst();
  const left = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  const enabled = Boolean(row?.enabled_at);
  return {
    enabled,
    enabled_at: row?.enabled_at ?? null,
    recovery_codes_left: enabled ? Number(left.n) : 0,
  };
}

export async function hasTwoFactor(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('two_factor')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('enabled_at', 'is not', null)
    .executeTakeFirst();
  return Boolean(row);
}

export type SetupResult =
  | { kind: 'started'; secret: string; otpauth_uri: string; qr_svg: string }
  | { kind: 'already-on' };

/** A new secret, pending until a code from the app confirms it; a pending one made before is replaced. */
export async function startSetup(db: Db, clock: Clock, user: { id: number; email: string }): Promise<SetupResult> {
  if (await hasTwoFactor(db, user.id)) return { kind: 'already-on' };
  const secret = new Secret({ size: 20 }).base32;
  const now = clock.now().toISOString();
  await db.deleteFrom('two_factor').where('user_id', '=', user.id).execute();
  await db
    .insertInto('two_factor')
    .values({ user_id: user.id, secret, created_at: now, enabled_at: null, last_step: null })
    .execute();
  const uri = totpFor(secret, user.email).toString();
  return { kind: 'started', secret, otpauth_uri: uri, qr_svg: renderSVG(uri, { border: 2 }) };
}

export type EnableResult =
  | { kind: 'enabled'; recoveryCodes: string[]; enabledAt: string }
  | { kind: 'already-on' }
  | { kind: 'no-setup' }
  | { kind: 'wrong-code' };

/** The first code from the app turns two-factor login on and makes the recovery codes (shown this once). */
export async function enableTwoFactor(
  db: Db,
  clock: Clock,
  user: { id: number; email: string },
  code: string,
): Promise<EnableResult> {
  const row = await db.selectFrom('two_factor').selectAll().where('user_id', '=', user.id).executeTakeFirst();
  if (!row) return { kind: 'no-setup' };
  if (row.enabled_at) return { kind: 'already-on' };
  const now = clock.now();
  const step = stepOf(totpFor(row.secret, user.email), code, now);
  if (step === null) return { kind: 'wrong-code' };
  const enabledAt = now.toISOString();
  const turnedOn = await db
    .updateTable('two_factor')
    .set({ enabled_at: enabledAt, last_step: step })
    .where('user_id', '=', user.id)
    .where('enabled_at', 'is', null)
    .where('secret', '=', row.secret)
    .executeTakeFirst();
  if (Number(turnedOn.numUpdatedRows ?? 0) !== 1) return { kind: 'no-setup' };
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', user.id).execute();
  await db
    .insertInto('two_factor_recovery_codes')
    .values(
      recoveryCodes.map((code) => ({
        user_id: user.id,
        code_hash: sha256(normaliseRecoveryCode(code)),
        created_at: enabledAt,
        used_at: null,
      })),
    )
    .execute();
  await logActivity(db, clock, user.id, 'two_factor_on', 'Two-factor authentication turned on');
  return { kind: 'enabled', recoveryCodes, enabledAt };
}

export type SecondFactor = { code: string } | { recovery_code: string };

/**
 * Whether a code from the app or a recovery code is right for this user, using it up: a code's time step (and
 * every step before it) is never accepted again, a recovery code only once. One conditional update each, so
 * two requests with the same code cannot both pass.
 */
export async function spendSecondFactor(
  db: Db,
  clock: Clock,
  user: { id: number; email: string },
  factor: SecondFactor,
): Promise<boolean> {
  const now = clock.now();
  if ('code' in factor) {
    const row = await db
      .selectFrom('two_factor')
      .select(['secret'])
      .where('user_id', '=', user.id)
      .where('enabled_at', 'is not', null)
      .executeTakeFirst();
    if (!row) return false;
    const step = stepOf(totpFor(row.secret, user.email), factor.code, now);
    if (step === null) return false;
    const used = await db
      .updateTable('two_factor')
      .set({ last_step: step })
      .where('user_id', '=', user.id)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .executeTakeFirst();
    return Number(used.numUpdatedRows ?? 0) === 1;
  }
  const used = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', user.id)
    .where('code_hash', '=', sha256(normaliseRecoveryCode(factor.recovery_code)))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows ?? 0) === 1;
}

/** The token a right password earns when a code is due: 256 random bits, only its SHA-256 kept. */
export async function newChallenge(
  db: Db,
  clock: Clock,
  userId: number,
): Promise<{ challenge: string; expiresAt: Date }> {
  const now = clock.now();
  const challenge = newToken();
  const expiresAt = new Date(now.getTime() + CHALLENGE_LIFETIME_MS);
  await db
    .insertInto('two_factor_challenges')
    .values({
      challenge_hash: hashToken(challenge),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      used_at: null,
    })
    .execute();
  return { challenge, expiresAt };
}

export type CodeLoginResult =
  /** `device`: the browser's device cookie to set (server/auth/devices.ts), kept or new. */
  | { kind: 'ok'; token: string; expiresAt: Date; user: UserProfile; device: string }
  /** Unknown, used, expired or spent challenge: log in with the password again (404). */
  | { kind: 'expired' }
  | { kind: 'wrong-code' }
  | { kind: 'locked'; scope: LockScope; retryAfterSeconds: number };

/**
 * The second step of a login: the challenge from the first and a code. A wrong code counts as a failed login of
 * the address and of the client, under the same throttle as a password (server/auth/throttle.ts), so a guessed
 * code is as slow as a guessed password; a right one clears the address's count and starts the session as a
 * password login does.
 */
export async function completeCodeLogin(
  db: Db,
  clock: Clock,
  challenge: string,
  factor: SecondFactor,
  meta: SessionMeta & { deviceCookie?: string },
): Promise<CodeLoginResult> {
  const challengeHash = hashToken(challenge);
  const found = await db
    .selectFrom('two_factor_challenges')
    .innerJoin('users', 'users.id', 'two_factor_challenges.user_id')
    .select(userColumns)
    .where('two_factor_challenges.challenge_hash', '=', challengeHash)
    .where('two_factor_challenges.used_at', 'is', null)
    .where('two_factor_challenges.expires_at', '>', clock.now().toISOString())
    .where('two_factor_challenges.failures', '<', CHALLENGE_MAX_FAILURES)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!found) return { kind: 'expired' };
  const user: UserProfile = found;

  // the gates of the login's first step: a browser the account knows meets its own
  const device = await knownDevice(db, meta.deviceCookie, user.email, clock.now());
  const caller: Caller = { email: user.email, client: meta.client, device };
  const entry = await enter(db, clock, caller);
  if (entry.kind === 'locked')
    return { kind: 'locked', scope: entry.scope, retryAfterSeconds: entry.retryAfterSeconds };
  if (entry.kind !== 'entered') return { kind: 'locked', scope: 'client', retryAfterSeconds: 5 };

  let right: boolean;
  try {
    right = await spendSecondFactor(db, clock, user, factor);
  } catch (error) {
    await leaveUncounted(db, caller, clock.now());
    throw error;
  }
  const now = clock.now();
  if (!right) {
    await db
      .updateTable('two_factor_challenges')
      .set((eb) => ({ failures: eb('failures', '+', 1) }))
      .where('challenge_hash', '=', challengeHash)
      .execute();
    const failed = await leaveFailed(db, caller, now);
    if (failed.retryAfterSeconds === 0) return { kind: 'wrong-code' };
    return { kind: 'locked', scope: failed.scope, retryAfterSeconds: failed.retryAfterSeconds };
  }

  const session = await db.transaction().execute(async (trx) => {
    const spent = await trx
      .updateTable('two_factor_challenges')
      .set({ used_at: now.toISOString() })
      .where('challenge_hash', '=', challengeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows ?? 0) !== 1) return null;
    await leaveSucceeded(trx, caller, now);
    const started = await startSession(trx, clock, user.id, { client: meta.client, userAgent: meta.userAgent });
    return { ...started, device: await rememberDevice(trx, user.id, meta.deviceCookie, now) };
  });
  if (!session) {
    await leaveUncounted(db, caller, now);
    return { kind: 'expired' };
  }
  return { kind: 'ok', ...session, user };
}

export type DisableResult =
  | { kind: 'disabled' }
  | { kind: 'not-on' }
  | { kind: 'wrong'; field: 'password' | 'code' }
  | { kind: 'locked'; retryAfterSeconds: number }
  | { kind: 'busy'; retryAfterSeconds: number };

/**
 * Turns two-factor login off, on the current password or a code (from the app, or a recovery code). A wrong one
 * counts as a failed login of the address, as changing the password does.
 */
export async function disableTwoFactor(
  db: Db,
  clock: Clock,
  user: { id: number; email: string; client?: string },
  proof: { password: string } | SecondFactor,
  pool: HashPool = hashPool,
): Promise<DisableResult> {
  if (!(await hasTwoFactor(db, user.id))) return { kind: 'not-on' };
  // a wrong one counts as a failed login of the account from this client (server/auth/login-gate.ts)
  const key = pairKey(user.email, user.client ?? NO_SOCKET_CLIENT);
  const reserved = await reserveSlot(db, clock, PAIR_SCOPE, key);
  if (reserved.kind === 'locked') return { kind: 'locked', retryAfterSeconds: reserved.retryAfterSeconds };
  if (reserved.kind === 'full') return { kind: 'locked', retryAfterSeconds: 5 };
  let right: boolean;
  try {
    if ('password' in proof) {
      const row = await db
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      right = await verifyPassword(proof.password, row.password_hash, (task) => pool.tryRun(task));
    } else {
      right = await spendSecondFactor(db, clock, user, proof);
    }
  } catch (error) {
    await release(db, PAIR_SCOPE, key, clock.now());
    if (error instanceof PoolFullError) return { kind: 'busy', retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
  if (!right) {
    const wait = await recordFailure(db, PAIR_SCOPE, key, clock.now());
    return wait > 0
      ? { kind: 'locked', retryAfterSeconds: wait }
      : { kind: 'wrong', field: 'password' in proof ? 'password' : 'code' };
  }
  await release(db, PAIR_SCOPE, key, clock.now());
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('two_factor').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('two_factor_challenges').where('user_id', '=', user.id).execute();
    await logActivity(trx, clock, user.id, 'two_factor_off', 'Two-factor authentication turned off');
  });
  return { kind: 'disabled' };
}

/** Challenges a day past their end: nothing can use them any more. */
export async function pruneChallenges(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('two_factor_challenges')
    .where('expires_at', '<', new Date(now.getTime() - 24 * 60 * 60_000).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
