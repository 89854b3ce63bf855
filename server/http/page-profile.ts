import type { Hono } from 'hono';
import { parse as parseCookies } from 'hono/utils/cookie';
import type { AppEnv } from '../contract/router';
import type { Logger } from '../logger';
import type { ProfileForPage } from './static';

/** The app's three profile calls (machines/session.machine.ts `profileCalls`), by the name the page carries them. */
const PROFILE_CALLS = {
  account: '/settings/my-account',
  roles: '/account/roles-permissions',
  kyc: '/account/kyc-status',
} as const;

/**
 * What a page opened with a session carries of it (server/http/static.ts): the `data` of the three profile
 * calls, answered by the API itself (its own authentication, KYC hold and permissions, its own bodies), for the
 * token in the request's `auth_token` cookie, with that request's `auth_token_validity` as `issuedAt`. Null when
 * any of them does not answer 200 (no session, an expired or revoked token): the app then makes the calls, and
 * meets the same answers there.
 *
 * The cookie reads one's own profile into one's own page, nothing else: the cookies are SameSite=Strict (no
 * other site's request carries them), and the page is `private, no-store`.
 */
export function profileForPage(api: Hono<AppEnv>, log: Logger): ProfileForPage {
  return async (cookies) => {
    try {
      const { auth_token: token, auth_token_validity: validity } = parseCookies(cookies);
      const issuedAt = Number(validity);
      if (!token || !Number.isSafeInteger(issuedAt) || issuedAt <= 0) return null;
      const headers = { authorization: `Bearer ${token}` };
      const answers = await Promise.all(Object.values(PROFILE_CALLS).map((path) => api.request(path, { headers })));
      if (answers.some((answer) => answer.status !== 200)) return null;
      const [account, roles, kyc] = await Promise.all(
        answers.map(async (answer) => ((await answer.json()) as { data: unknown }).data),
      );
      return { issuedAt, account, roles, kyc };
    } catch (err) {
      // a failing read: the page goes without, and the app asks the API
      log.warn({ err }, 'a page went without its profile');
      return null;
    }
  };
}
