import { pruneAccountTokens } from '../auth/account-tokens';
import {
  type AccountMail,
  changePassword,
  isEmailAvailable,
  normaliseEmail,
  register,
  requestPasswordReset,
  resendVerification,
  resetPassword,
  verifyEmail,
} from '../auth/accounts';
import { clientKey } from '../auth/client';
import { countCall, type Limit, peekWithin, pruneRequestLimits, spendWithin } from '../auth/request-limit';
import { BUSY_MESSAGE, lockMessage } from '../auth/session';
import type { AppEnv, Deps, Router } from '../contract/router';
import { registerPrune } from '../housekeeping';
import { MESSAGES } from '../http/errors';
import { pruneOutbox } from '../mail/outbox';
import { ACCOUNT_CALL_LIMIT, CHECK_EMAIL_LIMIT, CHECK_EMAIL_TAKEN_LIMIT } from '../quotas/limits';

export const ACCOUNT_MESSAGES = {
  mismatch: 'The passwords do not match.',
  wrongPassword: 'Your current password is not correct.',
  badVerifyLink: 'This verification link is not valid or has expired. Ask for a new one below.',
  badResetLink: 'This reset link is not valid or has expired. Ask for a new one.',
  tooMany: (seconds: number) =>
    `Too many requests from your network. Try again in ${seconds > 60 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} seconds`}.`,
} as const;

registerPrune('account tokens', pruneAccountTokens);
registerPrune('request limits', pruneRequestLimits);
registerPrune('mail outbox', pruneOutbox);

const mismatch = () => ({
  status: 422 as const,
  body: {
    success: false as const,
    message: MESSAGES.validation,
    errors: [{ path: '/body/password_confirmation', message: ACCOUNT_MESSAGES.mismatch }],
  },
});

const busy = (retryAfterSeconds: number) => ({
  status: 503 as const,
  body: { success: false as const, message: BUSY_MESSAGE },
  headers: { 'Retry-After': String(retryAfterSeconds) },
});

const tooMany = (retryAfterSeconds: number) => ({
  status: 429 as const,
  body: { success: false as const, message: ACCOUNT_MESSAGES.tooMany(retryAfterSeconds) },
  headers: { 'Retry-After': String(retryAfterSeconds) },
});

/** Counts a call of this client under `limit`; answers the 429's seconds when it is over, else null. */
async function overLimit(c: import('hono').Context<AppEnv>, deps: Deps, limit: Limit): Promise<number | null> {
  const counted = await countCall(deps.db, limit, clientKey(c, deps.trustedProxies ?? 0), deps.clock.now());
  return counted.allowed ? null : counted.retryAfterSeconds;
}

/**
 * Sign-up, email verification, password reset and change (issue 13). The calls that work without a login never
 * tell which addresses have accounts, except check-email, which sign-up needs and which is limited per client.
 */
export function accountFlowRoutes({ route }: Router, mail: AccountMail) {
  route('/auth/register', 'post', async ({ body, c }, deps) => {
    const wait = await overLimit(c, deps, ACCOUNT_CALL_LIMIT);
    if (wait !== null) return tooMany(wait);
    if (body.password !== body.password_confirmation) return mismatch();
    const result = await register(deps.db, deps.clock, mail, body);
    if (result.kind === 'busy') return busy(result.retryAfterSeconds);
    return {
      status: 200,
      body: {
        success: true,
        message: `Check your inbox: we sent a link to verify ${result.email}. It works for 24 hours.`,
        data: { email: result.email },
      },
    };
  });

  route('/auth/verify-email', 'post', async ({ body }, { db, clock }) => {
    const verified = await verifyEmail(db, clock, body.token);
    if (!verified) return { status: 404, body: { success: false, message: ACCOUNT_MESSAGES.badVerifyLink } };
    return {
      status: 200,
      body: {
        success: true,
        message: 'Your email address is verified. You can log in now.',
        data: { email: verified.email },
      },
    };
  });

  route('/auth/resend-verify-email', 'post', async ({ body, c }, deps) => {
    const wait = await overLimit(c, deps, ACCOUNT_CALL_LIMIT);
    if (wait !== null) return tooMany(wait);
    const email = await resendVerification(deps.db, deps.clock, mail, body.email);
    return {
      status: 200,
      body: {
        success: true,
        message: `If an account at ${email} is waiting to be verified, we sent it a new link.`,
        data: { email },
      },
    };
  });

  route('/auth/check-email', 'post', async ({ body, c }, deps) => {
    const wait = await overLimit(c, deps, CHECK_EMAIL_LIMIT);
    if (wait !== null) return tooMany(wait);
    // a client may be told "taken" a few times (CHECK_EMAIL_TAKEN_LIMIT); then every check waits, a free address's
    // too, so that the 429 itself says nothing of the address asked about
    const client = clientKey(c, deps.trustedProxies ?? 0);
    const now = deps.clock.now();
    const available = await isEmailAvailable(deps.db, body.email);
    if (available) {
      const told = await peekWithin(deps.db, CHECK_EMAIL_TAKEN_LIMIT, client, now);
      if (told.used >= CHECK_EMAIL_TAKEN_LIMIT.max) return tooMany(told.retryAfterSeconds);
    } else {
      const told = await spendWithin(deps.db, CHECK_EMAIL_TAKEN_LIMIT, client, 1, now);
      if (!told.allowed) return tooMany(told.retryAfterSeconds);
    }
    return {
      status: 200,
      body: {
        success: true,
        message: available ? 'This email address is free.' : 'An account already uses this email address.',
        data: { email: normaliseEmail(body.email), available },
      },
    };
  });

  route('/auth/password/reset-request', 'post', async ({ body, c }, deps) => {
    const wait = await overLimit(c, deps, ACCOUNT_CALL_LIMIT);
    if (wait !== null) return tooMany(wait);
    const email = await requestPasswordReset(deps.db, deps.clock, mail, body.email);
    return {
      status: 200,
      body: {
        success: true,
        message: `If an account uses ${email}, we sent it a link to reset the password. It works for 1 hour.`,
        data: { email },
      },
    };
  });

  route('/auth/reset-password', 'post', async ({ body }, { db, clock }) => {
    if (body.password !== body.password_confirmation) return mismatch();
    const result = await resetPassword(db, clock, body.token, body.password);
    if (result.kind === 'busy') return busy(result.retryAfterSeconds);
    if (result.kind === 'invalid')
      return { status: 404, body: { success: false, message: ACCOUNT_MESSAGES.badResetLink } };
    return {
      status: 200,
      body: {
        success: true,
        message: 'Your password is changed. Log in with your new password.',
        data: { email: result.email },
      },
    };
  });

  route('/auth/change-password', 'post', async ({ body, user, c }, { db, clock, trustedProxies }) => {
    if (body.password !== body.password_confirmation) return mismatch();
    const who = { ...user, client: clientKey(c, trustedProxies ?? 0) };
    const result = await changePassword(db, clock, mail, who, body.current_password, body.password);
    if (result.kind === 'busy') return busy(result.retryAfterSeconds);
    if (result.kind === 'locked') {
      return {
        status: 429,
        body: { success: false, message: lockMessage(result.retryAfterSeconds) },
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      };
    }
    if (result.kind === 'wrong-password') {
      return {
        status: 422,
        body: {
          success: false,
          message: MESSAGES.validation,
          errors: [{ path: '/body/current_password', message: ACCOUNT_MESSAGES.wrongPassword }],
        },
      };
    }
    return {
      status: 200,
      body: {
        success: true,
        message:
          result.sessionsEnded > 0
            ? 'Your password is changed. Every other session of your account was logged out.'
            : 'Your password is changed.',
        data: { sessions_ended: result.sessionsEnded },
      },
    };
  });
}
