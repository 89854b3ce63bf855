import { lockMessage, login, logout } from '../auth/session';
import type { Router } from '../contract/router';

export function authRoutes({ route }: Router) {
  route('/auth/login', 'post', async ({ body }, { db, clock }) => {
    const result = await login(db, clock, body.email, body.password);
    if (result.kind === 'invalid') {
      return { status: 401, body: { success: false, message: 'Incorrect email or password.' } };
    }
    if (result.kind === 'locked') {
      return {
        status: 429,
        body: { success: false, message: lockMessage(result.retryAfterSeconds) },
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
