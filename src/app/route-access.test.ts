import { describe, expect, it } from 'vitest';
import { canOpen, firstSegment, headerTitle } from './route-access';

describe('route access', () => {
  it('always opens the spec’s fixed segments', () => {
    for (const path of ['/dashboard', '/settings/kyc?handle=true', '/settings/myAccount']) {
      expect(canOpen(path, [])).toBe(true);
    }
  });

  it('opens the rest by permission', () => {
    expect(canOpen('/sales/pending', ['sales'])).toBe(true);
    expect(canOpen('/sales/pending', ['dashboard'])).toBe(false);
    expect(canOpen('/reports/wallet', ['lmt-pay'])).toBe(true);
    expect(canOpen('/reports/wallet', ['reports', 'sales', 'notification', 'dashboard'])).toBe(false);
    expect(canOpen('/report-history', ['reports'])).toBe(true);
    expect(canOpen('/trade/purchase?success=true', ['lmt-trade'])).toBe(true);
    expect(canOpen('/notifications/home', ['notification'])).toBe(true);
    expect(canOpen('/my-listings', ['event'])).toBe(true);
    expect(canOpen('/unknown', ['sales', 'event', 'reports', 'lmt-pay', 'lmt-trade', 'notification'])).toBe(false);
  });

  it('reads the first segment', () => {
    expect(firstSegment('/sales/pending?x=1')).toBe('sales');
    expect(firstSegment('/')).toBe('');
  });

  it('titles the header by path', () => {
    expect(headerTitle('/my-listings', 'Sam')).toBe('Inventory');
    expect(headerTitle('/add-listings', 'Sam')).toBe('Add Inventory');
    expect(headerTitle('/bulk-listings', 'Sam')).toBe('Bulk Inventory');
    expect(headerTitle('/dashboard', 'Sam')).toBe('Welcome Sam');
  });
});
