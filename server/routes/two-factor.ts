import { clientKey } from '../auth/client';
import { deviceCookie, deviceCookieOf, overHttps } from '../auth/devices';
import type { LockScope } from '../auth/login-gate';
import { BUSY_MESSAGE, lockMessage } from '../auth/session';
import type { Router } from '../contract/router';
import {
  completeCodeLogin,
  disableTwoFactor,
  enableTwoFactor,
  pruneChallenges,
  startSetup,
  TWO_FACTOR_MESSAGES,
  twoFactorStatus,
} from '../domain/two-factor';
import { registerPrune } from '../housekeeping';
import { MESSAGES } from '../http/errors';

registerPrune('two-factor challenges', pruneChallenges);

const invalid = (path: string, message: string) => ({
  status: 422 as const,
  body: { success: false as const, message: MESSAGES.validation, errors: [{ path, message }] },
});

const locked = (retryAfterSeconds: number, scope: LockScope = 'email') => ({
  status: 429 as const,
  body: { success: false as const, message: lockMessage(retryAfterSeconds, scope) },
  headers: { 'Retry-After': String(retryAfterSeconds) },
});

/** Two-factor login with an authenticator app (issue 13, item 4; beyond the spec). */
export function twoFactorRoutes({ route }: Router) {
  route('/auth/login/two-factor', 'post', async ({ body, c }, { db, clock, trustedProxies }) => {
    const { challenge, code, recovery_code } = body;
    if ((code === undefined) === (recovery_code === undefined)) return invalid('/body', TWO_FACTOR_MESSAGES.oneOf);
    const factor = code !== undefined ? { code } : { recovery_code: recovery_code ?? '' };
    const result = await completeCodeLogin(db, clock, challenge, factor, {
      client: clientKey(c, trustedProxies ?? 0),
      userAgent: c.req.header('user-agent'),
      deviceCookie: deviceCookieOf(c),
    });
    if (result.kind === 'expired')
      return { status: 404, body: { success: false, message: TWO_FACTOR_MESSAGES.expired } };
    if (result.kind === 'locked') return locked(result.retryAfterSeconds, result.scope);
    if (result.kind === 'wrong-code') {
      return {
        status: 401,
        body: {
          success: false,
          message: code !== undefined ? TWO_FACTOR_MESSAGES.wrongLoginCode : TWO_FACTOR_MESSAGES.wrongRecovery,
        },
      };
    }
    const { user } = result;
    return {
      status: 200,
      headers: { 'Set-Cookie': deviceCookie(result.device, overHttps(c, trustedProxies ?? 0)) },
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

  route('/auth/two-factor', 'get', async ({ user }, { db }) => {
    const status = await twoFactorStatus(db, user.id);
    return {
      status: 200,
      body: {
        success: true,
        message: status.enabled ? 'Two-factor authentication is on.' : 'Two-factor authentication is off.',
        data: status,
      },
    };
  });

  route('/auth/two-factor/setup', 'post', async ({ user }, { db, clock }) => {
    const result = await startSetup(db, clock, user);
    if (result.kind === 'already-on') {
      return { status: 409, body: { success: false, message: TWO_FACTOR_MESSAGES.alreadyOn } };
    }
    const { kind: _kind, ...data } = result;
    return {
      status: 200,
      body: {
        success: true,
        message: 'Scan the QR code with your authenticator app, then enter the code it shows.',
        data,
      },
    };
  });

  route('/auth/two-factor/enable', 'post', async ({ body, user }, { db, clock }) => {
    const result = await enableTwoFactor(db, clock, user, body.code);
    if (result.kind === 'already-on') {
      return { status: 409, body: { success: false, message: TWO_FACTOR_MESSAGES.alreadyOn } };
    }
    if (result.kind === 'no-setup')
      return { status: 409, body: { success: false, message: TWO_FACTOR_MESSAGES.noSetup } };
    if (result.kind === 'wrong-code') return invalid('/body/code', TWO_FACTOR_MESSAGES.wrongCode);
    return {
      status: 200,
      body: {
        success: true,
        message: 'Two-factor authentication is on. Keep your recovery codes somewhere safe: they are shown only now.',
        data: {
          status: {
            enabled: true,
            enabled_at: result.enabledAt,
            recovery_codes_left: result.recoveryCodes.length,
          },
          recovery_codes: result.recoveryCodes,
        },
      },
    };
  });

  route('/auth/two-factor/disable', 'post', async ({ body, user, c }, { db, clock, trustedProxies }) => {
    const { password, code } = body;
    if ((password === undefined) === (code === undefined)) return invalid('/body', TWO_FACTOR_MESSAGES.oneOfDisable);
    const proof =
      password !== undefined
        ? { password }
        : /^[0-9]{6}$/.test(code ?? '')
          ? { code: code ?? '' }
          : { recovery_code: code ?? '' };
    const result = await disableTwoFactor(db, clock, { ...user, client: clientKey(c, trustedProxies ?? 0) }, proof);
    if (result.kind === 'not-on') return { status: 409, body: { success: false, message: TWO_FACTOR_MESSAGES.notOn } };
    if (result.kind === 'locked') return locked(result.retryAfterSeconds);
    if (result.kind === 'busy') {
      return {
        status: 503,
        body: { success: false, message: BUSY_MESSAGE },
        headers: { 'Retry-After': String(result.retryAfterSeconds) },
      };
    }
    if (result.kind === 'wrong') {
      return result.field === 'password'
        ? invalid('/body/password', TWO_FACTOR_MESSAGES.wrongPassword)
        : invalid('/body/code', TWO_FACTOR_MESSAGES.wrongLoginCode);
    }
    return {
      status: 200,
      body: {
        success: true,
        message: 'Two-factor authentication is off.',
        data: { enabled: false, enabled_at: null, recovery_codes_left: 0 },
      },
    };
  });
}
