import { clientKey } from '../auth/client';
import { BUSY_MESSAGE, CROWDED_MESSAGE, lockMessage, login, logout } from '../auth/session';
import type { Router } from '../contract/router';

export const UNVERIFIED_MESSAGE =
  'Verify your email address before logging in: open the link we sent when you signed up, or ask for a new one.';

export function authRoutes({ route }: Router) {
  route('/auth/login', 'post', async ({ body, c }, { db, clock, trustedProxies }) => {
    const result = await login(db, clock, body.email, body.password, { client: clientKey(c, trustedProxies ?? 0) });
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
