import { afterEach, describe, expect, it } from 'vitest';
import { cookieSessionStore } from './auth-cookies';

const realDocument = Object.getOwnPropertyDescriptor(globalThis, 'document');
afterEach(() => {
  if (realDocument) Object.defineProperty(globalThis, 'document', realDocument);
  else delete (globalThis as { document?: unknown }).document;
});

/** A document whose cookie getter counts its reads (each is a round trip to the browser's cookie store). */
function documentWithCookies(cookies: string) {
  const reads = { count: 0 };
  Object.defineProperty(globalThis, 'document', {
    configurable: true,
    value: {
      get cookie() {
        reads.count += 1;
        return cookies;
      },
    },
  });
  return reads;
}

describe('cookieSessionStore.read', () => {
  it('reads the three session cookies from one read of document.cookie', () => {
    const reads = documentWithCookies('theme=dark; auth_token=t%201; auth_token_validity=1700000000000; user_token=u7');
    expect(cookieSessionStore.read()).toEqual({ token: 't 1', issuedAt: 1700000000000, userToken: 'u7' });
    expect(reads.count).toBe(1);
  });

  it('answers null without a token or a validity stamp', () => {
    documentWithCookies('auth_token_validity=1700000000000');
    expect(cookieSessionStore.read()).toBeNull();
    documentWithCookies('auth_token=t; auth_token_validity=soon');
    expect(cookieSessionStore.read()).toBeNull();
  });
});
