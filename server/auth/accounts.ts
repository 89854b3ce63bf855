import { sql } from 'kysely';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { PERMISSIONS } from '../db/seed/index';
import { recordReferral } from '../domain/referrals';
import type { Mailer, MailMessage } from '../mail/port';
import { MAIL_LIMIT } from '../quotas/limits';
import { issueToken, peekToken, retireTokens, TOKEN_LIFETIMES, type TokenPurpose, useToken } from './account-tokens';
import { NO_SOCKET_CLIENT } from './client';
import { type HashPool, hashPool, PoolFullError } from './hash-pool';
import { hashPassword, verifyPassword } from './passwords';
import { countCall } from './request-limit';
import { logActivity } from './session';
import { ACCOUNT_SCOPE, PAIR_SCOPE, pairKey, recordFailure, release, tryReserve } from './throttle';
import { newUserToken } from './tokens';

/** What the account flows need besides the database: where mail goes and the app's address for its links. */
export interface AccountMail {
  mailer: Mailer;
  /** The app's public origin, e.g. http://localhost:8080 (APP_URL): links are built on it, never on a request's Host. */
  appUrl: string;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const hours = (ms: number) => ms / 3_600_000;
const link = (mail: AccountMail, path: string) => `${mail.appUrl.replace(/\/+$/, '')}${path}`;

export type Busy = { kind: 'busy'; retryAfterSeconds: number };

async function hashNew(password: string, pool: HashPool): Promise<string | Busy> {
  try {
    return await hashPassword(password, (task) => pool.tryRun(task));
  } catch (error) {
    if (error instanceof PoolFullError) return { kind: 'busy', retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
}

/**
 * The mail of a call that must not tell by its timing whether `email` has an account (sign-up, resend, reset
 * request): every address costs one transaction that counts it under MAIL_LIMIT and does the call's work;
 * `compose` answers the message (or null: nobody to send to; `mayMail` false: the address had its share) in the
 * same transaction, so that a registered
 * address and an unknown one both cost one commit (the outbox's row commits with the token; SMTP sends after it).
 * Before, a reset request for an unknown address answered after one read and for a registered one after four
 * commits: 27 against 5 ms (medians, in process, SQLite; account-enumeration.test.ts).
 */
async function mailInOneCommit(
  db: Db,
  clock: Clock,
  mail: AccountMail,
  email: string,
  compose: (trx: Db, mayMail: boolean) => Promise<MailMessage | null>,
): Promise<void> {
  const afterCommit = await db.transaction().execute(async (trx) => {
    // the address's mails this hour (MAIL_LIMIT): over it, the answer is the same and nothing is sent, so a flood
    // of requests cannot fill somebody's inbox
    const counted = await countCall(trx, MAIL_LIMIT, email, clock.now());
    const message = await compose(trx, counted.allowed);
    if (!message || !counted.allowed) return null;
    if (mail.mailer.kind === 'outbox') {
      await mail.mailer.send(trx, message);
      return null;
    }
    return message;
  });
  if (afterCommit) await mail.mailer.send(db, afterCommit);
}

/**
 * For an address with no link to send (no such account, or its mail limit reached): the statements a link costs
 * (retire the older links, keep the new one's hash, keep the mail in the outbox), each changing no row, so that
 * the answer costs the same database round trips as a registered address's. As the login hashes a password for
 * an unknown address. On Postgres every statement is a round trip: without these, a resend for a waiting account
 * took 50 ms and for an unknown address 30 ms (lower quartiles, account-enumeration.test.ts, load average 15).
 */
async function noLinkSameStatements(trx: Db, mail: AccountMail, purpose: TokenPurpose, now: Date): Promise<void> {
  await retireTokens(trx, 0, purpose, now);
  await sql`INSERT INTO account_tokens (token_hash, user_id, purpose, created_at, expires_at, used_at)
    SELECT token_hash, user_id, purpose, created_at, expires_at, used_at FROM account_tokens WHERE 1 = 0`.execute(trx);
  if (mail.mailer.kind === 'outbox')
    await sql`INSERT INTO mail_outbox (to_address, subject, body, created_at)
      SELECT to_address, subject, body, created_at FROM mail_outbox WHERE 1 = 0`.execute(trx);
}

function verificationMail(mail: AccountMail, to: string, token: string): MailMessage {
  return {
    to,
    subject: 'Verify your email address for SB Portal',
    text: [
      'Hello,',
      '',
      'Open this link to verify your email address and finish creating your SB Portal account:',
      link(mail, `/verify-email/token/${token}`),
      '',
      `The link works once, for ${hours(TOKEN_LIFETIMES.verify)} hours. If you did not sign up, ignore this email.`,
    ].join('\n'),
  };
}

function alreadyRegisteredMail(mail: AccountMail, to: string): MailMessage {
  return {
    to,
    subject: 'Someone tried to sign up to SB Portal with your address',
    text: [
      'Someone (perhaps you) tried to create an SB Portal account with this email address, which already has one.',
      '',
      `To log in: ${link(mail, '/login')}`,
      `Forgot your password? Reset it here: ${link(mail, '/reset-password')}`,
      '',
      'If it was not you, you need do nothing: no account was changed.',
    ].join('\n'),
  };
}

export interface RegisterInput {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  /** The code of the referral link the person signed up from, if any (its owner becomes the referrer). */
  referral_code?: string;
}

/**
 * Sign-up. The password is hashed first whatever happens next, so that a new address and a registered one
 * cost the same time; a registered address gets a note by mail instead of a second account, and the caller
 * the same answer. Answers 'busy' when the hashing pool is full.
 */
export async function register(
  db: Db,
  clock: Clock,
  mail: AccountMail,
  input: RegisterInput,
  pool: HashPool = hashPool,
): Promise<{ kind: 'accepted'; email: string } | Busy> {
  const email = normaliseEmail(input.email);
  const passwordHash = await hashNew(input.password, pool);
  if (typeof passwordHash !== 'string') return passwordHash;
  const now = clock.now();
  // the account is made whatever the mail limit says; only the mail is held back
  await mailInOneCommit(db, clock, mail, email, async (trx) => {
    const existing = await trx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    if (existing) return alreadyRegisteredMail(mail, email);
    const inserted = await trx
      .insertInto('users')
      .values({
        email,
        password_hash: passwordHash,
        first_name: input.first_name.trim(),
        last_name: input.last_name.trim(),
        user_type: 'sellers',
        kyc_status: 0,
        kyc_rejection_reason: null,
        team_owner_id: null,
        currency: 'GBP',
        user_token: newUserToken(),
        created_at: now.toISOString(),
        deleted_at: null,
        email_verified: 0,
      })
      .onConflict((oc) => oc.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    // a sign-up of the same address at the same moment made it first
    if (!inserted) return alreadyRegisteredMail(mail, email);
    await trx
      .insertInto('user_permissions')
      .values(PERMISSIONS.map((p) => ({ user_id: inserted.id, permission_name: p.name, is_can_access: 1 })))
      .execute();
    await recordReferral(trx, input.referral_code, inserted.id, now);
    await logActivity(trx, clock, inserted.id, 'signed_up', 'Signed up');
    const token = await issueToken(trx, inserted.id, 'verify', now);
    return verificationMail(mail, email, token);
  });
  return { kind: 'accepted', email };
}

/** Uses a verification token: the address is verified and the account may log in. */
export async function verifyEmail(db: Db, clock: Clock, token: string): Promise<{ email: string } | null> {
  return db.transaction().execute(async (trx) => {
    const userId = await useToken(trx, token, 'verify', clock.now());
    if (userId === null) return null;
    const user = await trx
      .updateTable('users')
      .set({ email_verified: 1 })
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .returning('email')
      .executeTakeFirst();
    if (!user) return null;
    await logActivity(trx, clock, userId, 'email_verified', 'Email address verified');
    return { email: user.email };
  });
}

/** A new verification link for an account still waiting for one; nothing for any other address. */
export async function resendVerification(db: Db, clock: Clock, mail: AccountMail, rawEmail: string): Promise<string> {
  const email = normaliseEmail(rawEmail);
  await mailInOneCommit(db, clock, mail, email, async (trx, mayMail) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'first_name'])
      .where('email', '=', email)
      .where('email_verified', '=', 0)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    // over the mail limit no new link is made, so the last one mailed still works
    if (!user || !mayMail) {
      await noLinkSameStatements(trx, mail, 'verify', clock.now());
      return null;
    }
    const token = await issueToken(trx, user.id, 'verify', clock.now());
    return verificationMail(mail, email, token);
  });
  return email;
}

/**
 * Whether check-email tells sign-up the address is free: no account has it (deleted ones included: the column is
 * unique), or only a back-office account does, whose address is nobody's business (a sign-up with it is answered
 * as any registered address is: the same 200, a note by mail to its owner, no account).
 */
export async function isEmailAvailable(db: Db, rawEmail: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('user_type')
    .where('email', '=', normaliseEmail(rawEmail))
    .executeTakeFirst();
  return !row || row.user_type === 'admin';
}

/** A reset link for an account that has the address; nothing for any other address. */
export async function requestPasswordReset(db: Db, clock: Clock, mail: AccountMail, rawEmail: string): Promise<string> {
  const email = normaliseEmail(rawEmail);
  await mailInOneCommit(db, clock, mail, email, async (trx, mayMail) => {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'first_name'])
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    // over the mail limit no new link is made, so the last one mailed still works
    if (!user || !mayMail) {
      await noLinkSameStatements(trx, mail, 'reset', clock.now());
      return null;
    }
    const token = await issueToken(trx, user.id, 'reset', clock.now());
    return {
      to: email,
      subject: 'Reset your SB Portal password',
      text: [
        'Hello,',
        '',
        'Open this link to choose a new password:',
        link(mail, `/reset-password/token/${token}`),
        '',
        `The link works once, for ${hours(TOKEN_LIFETIMES.reset)} hour. If you did not ask for it, ignore this email: your password stays as it is.`,
      ].join('\n'),
    };
  });
  return email;
}

/**
 * Ends the user's two-factor login challenges still waiting for a code: each was opened by the password that is
 * being replaced, so that a login begun with the old password cannot end in a session after the change (a
 * password change ends every other session; a half-done login is one too).
 */
async function endLoginChallenges(trx: Db, userId: number): Promise<void> {
  await trx.deleteFrom('two_factor_challenges').where('user_id', '=', userId).execute();
}

/**
 * Sets a new password with a reset token. The token is checked before the (costly) hash and used after it, in
 * one conditional update, so a token works once even when two calls race. Every session of the account ends,
 * its address counts as verified (the link reached the inbox) and any login lock on it is lifted: the owner's
 * way in when somebody keeps guessing its password.
 */
export async function resetPassword(
  db: Db,
  clock: Clock,
  token: string,
  password: string,
  pool: HashPool = hashPool,
): Promise<{ kind: 'reset'; email: string } | { kind: 'invalid' } | Busy> {
  if ((await peekToken(db, token, 'reset', clock.now())) === null) return { kind: 'invalid' };
  const passwordHash = await hashNew(password, pool);
  if (typeof passwordHash !== 'string') return passwordHash;
  const now = clock.now();
  const done = await db.transaction().execute(async (trx) => {
    const userId = await useToken(trx, token, 'reset', now);
    if (userId === null) return null;
    const user = await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, email_verified: 1 })
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .returning('email')
      .executeTakeFirst();
    if (!user) return null;
    await trx
      .updateTable('auth_tokens')
      .set({ revoked_at: now.toISOString() })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    await retireTokens(trx, userId, 'reset', now);
    await endLoginChallenges(trx, userId);
    await liftLoginLocks(trx, user.email);
    await logActivity(trx, clock, userId, 'password_reset', 'Password reset by email link');
    return user.email;
  });
  return done === null ? { kind: 'invalid' } : { kind: 'reset', email: done };
}

/**
 * Lifts the login locks of an account's address (a reset link, an unlock link: proof of the inbox): the
 * account's own from everywhere and its pairs with every client.
 */
export async function liftLoginLocks(db: Db, email: string): Promise<void> {
  await db
    .updateTable(ACCOUNT_SCOPE.table)
    .set({ failed_logins: 0, locked_until: null })
    .where('email', '=', email)
    .execute();
  const prefix = pairKey(email, '');
  await db
    .updateTable(PAIR_SCOPE.table)
    .set({ failed_logins: 0, locked_until: null })
    .where(sql`substr(pair, 1, ${prefix.length})`, '=', prefix)
    .execute();
}

export type ChangePasswordResult =
  | { kind: 'changed'; sessionsEnded: number }
  | { kind: 'wrong-password' }
  | { kind: 'locked'; retryAfterSeconds: number }
  | Busy;

/**
 * Changes the caller's password. The current one is checked under the login throttle of the address (a stolen
 * session cannot guess it faster than a login could); every other session of the user ends, the caller's stays.
 */
export async function changePassword(
  db: Db,
  clock: Clock,
  mail: AccountMail,
  user: { id: number; email: string; tokenHash: string; first_name: string; client?: string },
  current: string,
  next: string,
  pool: HashPool = hashPool,
): Promise<ChangePasswordResult> {
  // a wrong current password counts as a failed login of the account from this client (server/auth/login-gate.ts)
  const key = pairKey(user.email, user.client ?? NO_SOCKET_CLIENT);
  const reserved = await tryReserve(db, PAIR_SCOPE, key, clock.now());
  if (reserved.kind === 'locked') return { kind: 'locked', retryAfterSeconds: reserved.retryAfterSeconds };
  if (reserved.kind === 'full') return { kind: 'locked', retryAfterSeconds: 5 };
  let verified: boolean;
  let passwordHash: string | Busy;
  try {
    const row = await db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    verified = await verifyPassword(current, row.password_hash, (task) => pool.tryRun(task));
    if (!verified) {
      const wait = await recordFailure(db, PAIR_SCOPE, key, clock.now());
      return wait > 0 ? { kind: 'locked', retryAfterSeconds: wait } : { kind: 'wrong-password' };
    }
    passwordHash = await hashNew(next, pool);
  } catch (error) {
    await release(db, PAIR_SCOPE, key, clock.now());
    if (error instanceof PoolFullError) return { kind: 'busy', retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  }
  await release(db, PAIR_SCOPE, key, clock.now());
  if (typeof passwordHash !== 'string') return passwordHash;
  const now = clock.now();
  const ended = await db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
    const revoked = await trx
      .updateTable('auth_tokens')
      .set({ revoked_at: now.toISOString() })
      .where('user_id', '=', user.id)
      .where('token_hash', '!=', user.tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    await retireTokens(trx, user.id, 'reset', now);
    await endLoginChallenges(trx, user.id);
    await logActivity(trx, clock, user.id, 'password_changed', 'Password changed');
    return Number(revoked.numUpdatedRows ?? 0);
  });
  await mail.mailer.send(db, {
    to: user.email,
    subject: 'Your SB Portal password was changed',
    text: [
      'Hello,',
      '',
      'The password of your SB Portal account was just changed, and every other session of the account was logged out.',
      `If it was not you, reset your password now: ${link(mail, '/reset-password')}`,
    ].join('\n'),
  });
  return { kind: 'changed', sessionsEnded: ended };
}
