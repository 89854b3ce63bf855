import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { UNLOCK_MAIL_LIMIT } from '../quotas/limits';
import { issueToken, TOKEN_LIFETIMES, useToken } from './account-tokens';
import { type AccountMail, liftLoginLocks } from './accounts';
import { rememberDevice } from './devices';
import { countCall } from './request-limit';
import { logActivity } from './session';

const link = (mail: AccountMail, path: string) => `${mail.appUrl.replace(/\/+$/, '')}${path}`;

/**
 * When wrong passwords lock an account for the browsers it does not know (server/auth/login-gate.ts), its owner
 * is mailed a link that lifts the lock and makes the browser that opens it a known one: the owner's way in from a
 * new browser while somebody keeps guessing. At most UNLOCK_MAIL_LIMIT a day per address (each lock lasts 15
 * minutes; a newer link retires the older). Nothing is sent for an address without an account, and the login's
 * answer is the same either way. The mail names nothing a person typed.
 */
export async function mailUnlockLink(db: Db, clock: Clock, mail: AccountMail, email: string): Promise<void> {
  const now = clock.now();
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .where('deleted_at', 'is', null)
    .where('email_verified', '=', 1)
    .executeTakeFirst();
  if (!user) return;
  const message = await db.transaction().execute(async (trx) => {
    if (!(await countCall(trx, UNLOCK_MAIL_LIMIT, email, now)).allowed) return null;
    const token = await issueToken(trx, user.id, 'unlock', now);
    const message = {
      to: email,
      subject: 'Your SB Portal account was locked after wrong passwords',
      text: [
        'Hello,',
        '',
        'Someone tried to log in to your SB Portal account with wrong passwords many times, so logins from browsers',
        'the account has not used before are paused for 15 minutes. Browsers you have logged in with still get in.',
        '',
        'To lift the pause now and let this browser in whenever you log in, open this link:',
        link(mail, `/login/unlock/${token}`),
        '',
        `The link works once, for ${TOKEN_LIFETIMES.unlock / 3_600_000} hours. If the tries were not yours, your password was not`,
        `guessed, but a stronger one keeps it so: ${link(mail, '/reset-password')}`,
      ].join('\n'),
    };
    if (mail.mailer.kind === 'outbox') {
      await mail.mailer.send(trx, message);
      return null;
    }
    return message;
  });
  if (message) await mail.mailer.send(db, message);
}

/**
 * Uses an unlock link: once, before it expires. Lifts the account's login locks and remembers the browser that
 * opened it (answers its device cookie), or null for a link that is unknown, used or expired.
 */
export async function unlockAccount(
  db: Db,
  clock: Clock,
  token: string,
  deviceCookie: string | undefined,
): Promise<{ email: string; device: string } | null> {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const userId = await useToken(trx, token, 'unlock', now);
    if (userId === null) return null;
    const user = await trx
      .selectFrom('users')
      .select('email')
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!user) return null;
    await liftLoginLocks(trx, user.email);
    await logActivity(trx, clock, userId, 'login_unlocked', 'Login lock lifted by the emailed link');
    return { email: user.email, device: await rememberDevice(trx, userId, deviceCookie, now) };
  });
}
