import { clientKey } from '../auth/client';
import { BUSY_MESSAGE, CROWDED_MESSAGE, lockMessage, login, logout } from '../auth/session';
import type { Router } from '../contract/router';
import { hasTwoFactor, newChallenge, TWO_FACTOR_MESSAGES } from '../domain/two-factor';

export const UNVERIFIED_MESSAGE =
  'Verify your email address before logging in: open the link we sent when you signed up, or ask for a new one.';

export function authRoutes({ route }: Router) {
  route('/auth/login', 'post', async ({ body, c }, { db, clock, trustedProxies }) => {
    const result = await login(db, clock, body.email, body.password, {
      client: clientKey(c, trustedProxies ?? 0),
      userAgent: c.req.header('user-agent'),
      needsSecondFactor: hasTwoFactor,
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
    return {
      status: 200,
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

  route('/auth/logout', 'post', async ({ user }, { db, clock }) => {
    await logout(db, clock, user);
    return { status: 200, body: { success: true, message: 'Logged out.' } };
  });
}
