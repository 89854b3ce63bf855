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

/** A session as the cookies hold it: null without a token or a validity stamp. */
function parseSession(cookies: string): StoredSession | null {
  const token = readCookie('auth_token', cookies);
  const issuedAt = Number(readCookie('auth_token_validity', cookies));
  if (!token || !Number.isFinite(issuedAt) || issuedAt <= 0) return null;
  return { token, issuedAt, userToken: readCookie('user_token', cookies) };
}

/**
 * The session last read from `document.cookie`, and the document it was read from; undefined when it is to be
 * read again. Every API call asks for the token, and `document.cookie` is a round trip to the browser's cookie
 * store each time (2-4 ms a call on a loaded phone-speed main thread, ten calls as the dashboard opens): the
 * cookies change only when this page writes them (login, logout, a 401: `save` and `clear` below) or when
 * another tab of the portal does, and the page is read again when it is shown after that (visibilitychange).
 */
let cached: { doc: Document; session: StoredSession | null } | undefined;
let watched: Document | undefined;

/**
 * The session this page acts for: the one it found as it started, or logged in to, or none after its logout.
 * Another tab of the browser may log out, or in as someone else, meanwhile: the cookies then hold another
 * session than the one this page shows. The page never sends that other token (a stale tab saved its form into
 * the next user's account so), and reloads to show the browser's session of now.
 */
let bound: { doc: Document; token: string | null; reloading?: true } | undefined;

function sessionChangedElsewhere(page: NonNullable<typeof bound>) {
  if (page.reloading) return;
  page.reloading = true;
  globalThis.location?.reload();
}

/** Reads the cookies again at the next `read()` (after a change this module did not make). */
export function forgetCachedSession() {
  cached = undefined;
}

function readDocumentSession(): StoredSession | null {
  const doc = globalThis.document;
  if (!doc) return null;
  if (cached?.doc === doc) return cached.session;
  if (watched !== doc && typeof doc.addEventListener === 'function') {
    watched = doc;
    // another tab may have logged in or out while this one was hidden: shown again, the page reads the cookies
    // and reloads when they hold another session than its own
    doc.addEventListener('visibilitychange', () => {
      forgetCachedSession();
      if (doc.visibilityState !== 'hidden' && bound?.doc === doc) pageToken();
    });
  }
  const session = parseSession(doc.cookie ?? '');
  cached = { doc, session };
  if (bound?.doc !== doc) bound = { doc, token: session?.token ?? null };
  return session;
}

/**
 * The token this page's calls carry: its own session's, never another tab's. When the cookies hold another
 * session (or none), the page reloads and its calls meanwhile still carry its own token, which the server refuses
 * once that session has ended (a 401 that then leaves the other session's cookies alone: openapi/client.ts).
 */
export function pageToken(): string | null {
  const current = readDocumentSession()?.token ?? null;
  if (!bound) return current;
  if (current !== bound.token) sessionChangedElsewhere(bound);
  return bound.token;
}

const bindPage = (token: string | null) => {
  const doc = globalThis.document;
  if (doc) bound = { doc, token };
};

export const cookieSessionStore = {
  /**
   * The stored session, from one read of `document.cookie` (three cookies read on their own were 46 ms of a
   * /dashboard load's main thread on a busy machine), kept until the cookies may have changed (see `cached`).
   * Given `cookies`, reads those instead, uncached.
   */
  read(cookies?: string): StoredSession | null {
    return cookies === undefined ? readDocumentSession() : parseSession(cookies);
  },
  save(session: StoredSession) {
    const maxAge = Math.floor(SESSION_TTL_MS / 1000);
    writeCookie('auth_token', session.token, maxAge);
    writeCookie('auth_token_validity', String(session.issuedAt), maxAge);
    if (session.userToken) writeCookie('user_token', session.userToken, maxAge);
    forgetCachedSession();
    bindPage(session.token);
  },
  /** Logout's full sweep: the three cookies, local storage and session storage. */
  clear() {
    for (const name of AUTH_COOKIES) writeCookie(name, '', 0);
    forgetCachedSession();
    bindPage(null);
    globalThis.localStorage?.clear();
    globalThis.sessionStorage?.clear();
  },
};
