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
    // one session's cookies, once each: a second `auth_token` (another path's, or one a sibling domain tossed in)
    // could pair another account's profile with this browser's stamp, so the page goes without
    if ((cookies.match(ONE_OF_THE_SESSION_COOKIES) ?? []).length !== 2) return null;
    const { auth_token: token, auth_token_validity: validity } = parseCookies(cookies);
    const issuedAt = Number(validity);
    // a token as the server makes them (newToken: 43 characters of base64url), so nothing else reaches a header
    if (!token || !TOKEN_SHAPE.test(token) || !Number.isSafeInteger(issuedAt) || issuedAt <= 0) return null;
    const headers = { authorization: `Bearer ${token}` };
    const read = async () => {
      const answers = await Promise.all(Object.values(PROFILE_CALLS).map((path) => api.request(path, { headers })));
      if (answers.some((answer) => answer.status !== 200)) return null;
      const [account, roles, kyc] = await Promise.all(
        answers.map(async (answer) => ((await answer.json()) as { data: unknown }).data),
      );
      return { issuedAt, account, roles, kyc };
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      // the page waits for it no longer than this: a busy server sends the page without, and the app calls
      const late = new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), PROFILE_WAIT_MS);
      });
      return await Promise.race([read(), late]);
    } catch (err) {
      // a failing read: the page goes without, and the app asks the API (the message may quote the header: not logged)
      log.warn({ error: err instanceof Error ? err.name : typeof err }, 'a page went without its profile');
      return null;
    } finally {
      clearTimeout(timer);
    }
  };
}

const ONE_OF_THE_SESSION_COOKIES = /(?:^|;)\s*auth_token(?:_validity)?=/g;
const TOKEN_SHAPE = /^[\w-]{20,200}$/;
/** How long a page waits for its profile (about 1 ms when the server is idle). */
export const PROFILE_WAIT_MS = 250;
