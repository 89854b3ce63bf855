import type { AccountMail } from '../auth/accounts';
import { clientKey } from '../auth/client';
import { deviceCookie, deviceCookieOf, overHttps, pruneDevices } from '../auth/devices';
import { BUSY_MESSAGE, CROWDED_MESSAGE, lockMessage, login, logout } from '../auth/session';
import { mailUnlockLink, unlockAccount } from '../auth/unlock';
import type { Router } from '../contract/router';
import { hasTwoFactor, newChallenge, TWO_FACTOR_MESSAGES } from '../domain/two-factor';
import { registerPrune } from '../housekeeping';

export const UNVERIFIED_MESSAGE =
  'Verify your email address before logging in: open the link we sent when you signed up, or ask for a new one.';

export const UNLOCK_MESSAGES = {
  unlocked: 'Your account is unlocked, and this browser will be let in even while someone keeps guessing. Log in now.',
  badLink: 'This unlock link is not valid, was used already or has expired. Log in, or reset your password.',
} as const;

registerPrune('login devices', pruneDevices);

/**
 * Login and logout; the device cookie of a browser that logged in (server/auth/devices.ts) is set with a
 * successful login and read back by the next, and a locked account's owner is mailed an unlock link.
 */
export function authRoutes({ route }: Router, mail: AccountMail) {
  route('/auth/login', 'post', async ({ body, c }, { db, clock, trustedProxies }) => {
    const result = await login(db, clock, body.email, body.password, {
      client: clientKey(c, trustedProxies ?? 0),
      userAgent: c.req.header('user-agent'),
      needsSecondFactor: hasTwoFactor,
      device: deviceCookieOf(c),
      onAccountLocked: (email) => mailUnlockLink(db, clock, mail, email),
    });
    if (result.kind === 'invalid') {
      return { status: 401, body: { success: false, message: 'Incorrect email or password.' } };
    }
    if (result.kind === 'locked') {
      return {
        status: 429,
        body: { success: false, message: lockMessage(result.retryAfterSeconds, result.scope) },
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      };
    }
    if (result.kind === 'crowded') {
      return {
        status: 429,
        body: { success: false, message: CROWDED_MESSAGE },
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      };
    }
    if (result.kind === 'unverified') {
      return { status: 403, body: { success: false, message: UNVERIFIED_MESSAGE } };
    }
    if (result.kind === 'busy') {
      return {
        status: 503,
        body: { success: false, message: BUSY_MESSAGE },
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      };
    }
    if (result.kind === 'second-factor') {
      // a right password of a user with two-factor login: no session until a code completes it
      const { challenge, expiresAt } = await newChallenge(db, clock, result.user.id);
      return {
        status: 202,
        body: {
          success: true,
          message: TWO_FACTOR_MESSAGES.codeRequired,
          data: { two_factor_required: true, challenge, expires_at: expiresAt.toISOString() },
        },
      };
    }
    const { user } = result;
    const remembered: Record<string, string> = {
      'Set-Cookie': deviceCookie(result.device, overHttps(c, trustedProxies ?? 0)),
    };
    return {
      status: 200,
      headers: remembered,
      body: {
        success: true,
        message: 'Logged in successfully.',
        data: {
          token: result.token,
          first_name: user.first_name,
          last_name: user.last_name,
          user_token: user.user_token,
          expires_at: result.expiresAt.toISOString(),
        },
      },
    };
  });

  route('/auth/unlock-account', 'post', async ({ body, c }, { db, clock, trustedProxies }) => {
    const unlocked = await unlockAccount(db, clock, body.token, deviceCookieOf(c));
    if (!unlocked) return { status: 404, body: { success: false, message: UNLOCK_MESSAGES.badLink } };
    return {
      status: 200,
      headers: { 'Set-Cookie': deviceCookie(unlocked.device, overHttps(c, trustedProxies ?? 0)) },
      body: { success: true, message: UNLOCK_MESSAGES.unlocked, data: { email: unlocked.email } },
    };
  });

  route('/auth/logout', 'post', async ({ user }, { db, clock }) => {
    await logout(db, clock, user);
    return { status: 200, body: { success: true, message: 'Logged out.' } };
  });
}
