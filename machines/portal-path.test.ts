import { describe, expect, it } from 'vitest';
import { isPortalPath } from './portal-path';

describe('isPortalPath', () => {
  it('takes a path of the portal, with its query', () => {
    for (const p of ['/', '/sales/pending?order=12', '/trade/purchase?booking_no=B-1', '/sb-pay/wallet'])
      expect(isPortalPath(p), p).toBe(true);
  });
  it('refuses another host, a scheme, a relative path, blanks and controls, and a path over 200 characters', () => {
    for (const p of [
      '',
      '//evil.test',
      '/\\evil.test',
      'https://evil.test/',
      'javascript:alert(1)',
      'sales',
      '/sales pending',
      '/sales\n',
      '/ventes/é',
      `/${'a'.repeat(200)}`,
    ])
      expect(isPortalPath(p), JSON.stringify(p)).toBe(false);
    expect(isPortalPath(`/${'a'.repeat(199)}`)).toBe(true);
  });
});
