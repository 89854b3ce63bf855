import { afterEach, describe, expect, it } from 'vitest';
import { cookieSessionStore, pageToken } from './auth-cookies';
import { reloadAfterUnauthorized } from './client';

const realDocument = Object.getOwnPropertyDescriptor(globalThis, 'document');
afterEach(() => {
  if (realDocument) Object.defineProperty(globalThis, 'document', realDocument);
  else delete (globalThis as { document?: unknown }).document;
});

/**
 * A document whose cookie getter counts its reads (each is a round trip to the browser's cookie store), whose
 * setter stores a cookie as a browser does (Max-Age=0 deletes it), and which keeps its event listeners.
 */
function documentWithCookies(initial: string) {
  const jar = new Map(
    initial.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const reads = { count: 0 };
  const listeners = new Map<string, () => void>();
  Object.defineProperty(globalThis, 'document', {
    configurable: true,
    value: {
      get cookie() {
        reads.count += 1;
        return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
      },
      set cookie(line: string) {
        const [pair = '', ...attributes] = line.split('; ');
        const name = pair.slice(0, pair.indexOf('='));
        if (attributes.includes('Max-Age=0')) jar.delete(name);
        else jar.set(name, pair.slice(pair.indexOf('=') + 1));
      },
      addEventListener(type: string, listener: () => void) {
        listeners.set(type, listener);
      },
    },
  });
  return { reads, fire: (type: string) => listeners.get(type)?.(), jar };
}

describe('cookieSessionStore.read', () => {
  it('reads the three session cookies from one read of document.cookie', () => {
    const { reads } = documentWithCookies(
      'theme=dark; auth_token=t%201; auth_token_validity=1700000000000; user_token=u7',
    );
    expect(cookieSessionStore.read()).toEqual({ token: 't 1', issuedAt: 1700000000000, userToken: 'u7' });
    expect(reads.count).toBe(1);
  });

  it('keeps what it read for the calls after (one read of document.cookie for many API calls)', () => {
    const { reads } = documentWithCookies('auth_token=t1; auth_token_validity=1700000000000');
    for (let i = 0; i < 10; i++) expect(cookieSessionStore.read()?.token).toBe('t1');
    expect(reads.count).toBe(1);
  });

  it('reads the cookies again after this page wrote them: a login saved, a logout or a 401 cleared', () => {
    const { reads } = documentWithCookies('theme=dark');
    expect(cookieSessionStore.read()).toBeNull();
    cookieSessionStore.save({ token: 't2', issuedAt: 1700000000000, userToken: null });
    expect(cookieSessionStore.read()).toEqual({ token: 't2', issuedAt: 1700000000000, userToken: null });
    expect(reads.count).toBe(2);
    cookieSessionStore.clear();
    expect(cookieSessionStore.read()).toBeNull();
    expect(reads.count).toBe(3);
  });

  it('reads the cookies again when the page is shown again (another tab may have logged in or out)', () => {
    const { reads, fire, jar } = documentWithCookies('auth_token=t1; auth_token_validity=1700000000000');
    expect(cookieSessionStore.read()?.token).toBe('t1');
    jar.set('auth_token', 't3');
    expect(cookieSessionStore.read()?.token).toBe('t1');
    fire('visibilitychange');
    expect(cookieSessionStore.read()?.token).toBe('t3');
    expect(reads.count).toBe(2);
  });

  it('reads the cookies given to it as they are, without keeping them', () => {
    documentWithCookies('auth_token=t1; auth_token_validity=1700000000000');
    expect(cookieSessionStore.read('auth_token=t9; auth_token_validity=5')?.token).toBe('t9');
    expect(cookieSessionStore.read()?.token).toBe('t1');
  });

  it('answers null without a token or a validity stamp', () => {
    documentWithCookies('auth_token_validity=1700000000000');
    expect(cookieSessionStore.read()).toBeNull();
    documentWithCookies('auth_token=t; auth_token_validity=soon');
    expect(cookieSessionStore.read()).toBeNull();
  });
});

describe('the session a page acts for', () => {
  const realLocation = Object.getOwnPropertyDescriptor(globalThis, 'location');
  afterEach(() => {
    if (realLocation) Object.defineProperty(globalThis, 'location', realLocation);
    else delete (globalThis as { location?: unknown }).location;
  });
  /** A page shown again (visibilitychange), and a location whose reloads are counted. */
  function page(initial: string) {
    const doc = documentWithCookies(initial);
    Object.assign(globalThis.document, { visibilityState: 'visible' });
    const reloads = { count: 0 };
    Object.defineProperty(globalThis, 'location', {
      configurable: true,
      value: { protocol: 'http:', reload: () => (reloads.count += 1) },
    });
    return { ...doc, reloads };
  }

  it("never sends another tab's session: a login as someone else there reloads this page, which kept its own", () => {
    const { jar, fire, reloads } = page('auth_token=seller; auth_token_validity=1700000000000');
    expect(cookieSessionStore.read()?.token).toBe('seller');
    expect(pageToken()).toBe('seller');
    // tab B logs out and in as another user while this tab is hidden; this tab is shown again
    jar.set('auth_token', 'rival');
    fire('visibilitychange');
    expect(reloads.count).toBe(1);
    // a call made before the reload lands still carries this page's own token, never the new one
    expect(pageToken()).toBe('seller');
    expect(reloads.count).toBe(1);
  });

  it('reloads when another tab logged out, and follows its own login and logout without reloading', () => {
    const { jar, fire, reloads } = page('auth_token=t1; auth_token_validity=1700000000000');
    expect(pageToken()).toBe('t1');
    cookieSessionStore.save({ token: 't2', issuedAt: 1700000000001, userToken: null });
    expect(pageToken()).toBe('t2');
    cookieSessionStore.clear();
    expect(pageToken()).toBeNull();
    fire('visibilitychange');
    expect(reloads.count).toBe(0);
    cookieSessionStore.save({ token: 't3', issuedAt: 1700000000002, userToken: null });
    jar.delete('auth_token');
    fire('visibilitychange');
    expect(reloads.count).toBe(1);
  });

  it('a 401 clears the cookies of the token refused, never those of a session another tab started since', () => {
    const { jar, reloads } = page('auth_token=old; auth_token_validity=1700000000000');
    expect(pageToken()).toBe('old');
    jar.set('auth_token', 'new');
    reloadAfterUnauthorized('old');
    expect(jar.get('auth_token')).toBe('new');
    expect(reloads.count).toBeGreaterThan(0);
    reloadAfterUnauthorized('new');
    expect(jar.has('auth_token')).toBe(false);
  });
});
