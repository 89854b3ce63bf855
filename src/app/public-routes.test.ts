import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTE_KEYS, type Route, routes } from '../routes';
import { ALWAYS_ALLOWED, firstSegment, matchRoute } from './route-access';

describe('the public routes (spec section 2)', () => {
  it('are exactly the routes the registry marks public, each under an always-allowed segment', () => {
    const marked = (Object.entries(routes) as Array<[string, Route<string, unknown>]>)
      .filter(([, r]) => r.access === 'public')
      .map(([key]) => key);
    expect([...PUBLIC_ROUTE_KEYS].sort()).toEqual(marked.sort());
    for (const key of PUBLIC_ROUTE_KEYS) {
      expect(ALWAYS_ALLOWED as readonly string[]).toContain(firstSegment(routes[key].pattern));
    }
  });

  it('match the links the mails carry, and refuse a token that cannot be one', () => {
    expect(matchRoute('/verify-email/token/abc_DEF-123')).toMatchObject({
      key: 'verifyEmail',
      params: { token: 'abc_DEF-123' },
    });
    expect(matchRoute('/reset-password/token/abc_DEF-123')).toMatchObject({ key: 'resetPassword' });
    expect(matchRoute('/reset-password')).toMatchObject({ key: 'forgotPassword' });
    expect(matchRoute('/signup')).toMatchObject({ key: 'signup' });
    expect(matchRoute('/verify-email/token/a%20b')).toBeNull();
  });
});
