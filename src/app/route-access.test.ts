import { describe, expect, it } from 'vitest';
import { settingsMenuLinks } from '../features/settings/settings-menu';
import { homeHref } from '../routes';
import {
  ALWAYS_ALLOWED,
  canOpen,
  firstSegment,
  headerTitle,
  menuEntries,
  pageAccess,
  pageTitle,
  SEGMENTS_BY_PERMISSION,
  shownInMenu,
} from './route-access';

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
    // report history is `reports`'; reports/wallet and reports/payouts are lmt-pay's (a payout moves the wallet's
    // money), and lmt-pay opens nothing else under reports/
    expect(canOpen('/report-history', ['lmt-pay'])).toBe(false);
    expect(canOpen('/reports/wallet/', ['lmt-pay'])).toBe(true);
    expect(canOpen('/reports/payouts', ['lmt-pay'])).toBe(true);
    expect(canOpen('/reports/payouts', ['reports'])).toBe(false);
    expect(canOpen('/reports/other', ['lmt-pay'])).toBe(false);
    expect(canOpen('/reports', ['lmt-pay'])).toBe(false);
    expect(canOpen('/reports/walletx', ['lmt-pay'])).toBe(false);
    expect(canOpen('/trade/purchase?success=true', ['lmt-trade'])).toBe(true);
    expect(canOpen('/notifications/home', ['notification'])).toBe(true);
    expect(canOpen('/my-listings', ['event'])).toBe(true);
    expect(canOpen('/unknown', ['sales', 'event', 'reports', 'lmt-pay', 'lmt-trade', 'notification'])).toBe(false);
    // the back office opens to admin accounts only, whatever the permissions
    expect(canOpen('/admin/deposits', ['lmt-pay', 'settings'])).toBe(false);
    expect(canOpen('/admin/deposits', [], true)).toBe(true);
    expect(pageAccess('/admin/deposits', ['lmt-pay']).kind).toBe('denied');
  });

  it('opens the flow viewer to admins, and to everyone in development and e2e builds only', () => {
    const everything = ['settings', 'dashboard', 'sales', 'event', 'reports', 'lmt-pay', 'lmt-trade'] as const;
    expect(canOpen('/flows', [...everything], false, false)).toBe(false);
    expect(canOpen('/flows/session', [...everything], false, false)).toBe(false);
    expect(canOpen('/flows/session', [], true, false)).toBe(true);
    expect(canOpen('/flows/session', [], false, true)).toBe(true);
    // the deposit back office stays admin-only in every build
    expect(canOpen('/admin/deposits', [...everything], false, true)).toBe(false);
  });

  it('derives the segments of each permission from the route registry (the spec’s list)', () => {
    expect(SEGMENTS_BY_PERMISSION).toEqual({
      notification: ['notifications'],
      event: ['add-listings', 'my-listings', 'bulk-listings'],
      sales: ['sales'],
      reports: ['report-history'],
      // the wallet lives at reports/wallet, payouts at reports/payouts: lmt-pay opens those paths, not the whole
      // reports/ segment
      'lmt-pay': ['reports/wallet', 'reports/payouts'],
      'lmt-trade': ['trade'],
    });
    expect(ALWAYS_ALLOWED).toContain('settings');
  });

  it('reads the first segment', () => {
    expect(firstSegment('/sales/pending?x=1')).toBe('sales');
    expect(firstSegment('/')).toBe('');
  });

  it('tells a mistyped address (Page not found) from a page the user may not open (Access Denied)', () => {
    expect(pageAccess('/dashbord', ['dashboard'])).toEqual({ kind: 'notFound' });
    expect(pageAccess('/sales/pendingg', ['sales'])).toEqual({ kind: 'notFound' });
    expect(pageAccess('/reports/history', ['lmt-pay'])).toEqual({ kind: 'notFound' });
    expect(pageAccess('/reports/wallet', ['sales'])).toMatchObject({ kind: 'denied', match: { key: 'wallet' } });
    expect(pageAccess('/sales/confirmed', ['sales'])).toMatchObject({
      kind: 'open',
      match: { key: 'sales', params: { status: 'confirmed' } },
    });
  });

  it('opens a Settings page with a permission of its own only with it (its sub-menu entry and calls need it)', () => {
    const member = ['dashboard', 'sales', 'notification'] as const;
    expect(pageAccess('/settings/myAccount', [...member]).kind).toBe('open');
    expect(pageAccess('/settings/password', [...member]).kind).toBe('open');
    for (const path of [
      '/settings/my-teams',
      '/settings/templates',
      '/settings/bank-accounts',
      '/settings/referrals',
    ]) {
      expect(pageAccess(path, [...member]).kind).toBe('denied');
      expect(pageAccess(path, [...member, 'settings']).kind).toBe('open');
    }
    expect(pageAccess('/settings/stored-cards', ['settings']).kind).toBe('denied');
    expect(pageAccess('/settings/stored-cards', ['lmt-pay']).kind).toBe('open');
    // the address book is the trade's (purchases bill to it): neither the page nor its menu entry without lmt-trade
    expect(pageAccess('/settings/address-book', [...member, 'settings']).kind).toBe('denied');
    expect(pageAccess('/settings/address-book', ['lmt-trade']).kind).toBe('open');
    expect(settingsMenuLinks([...member]).map((l) => l.label)).not.toContain('Address Book');
    expect(settingsMenuLinks(['lmt-trade']).map((l) => l.label)).toContain('Address Book');
  });

  it('titles the header by path (the spec’s listing titles, else a welcome)', () => {
    expect(headerTitle('/my-listings', 'Sam')).toBe('Inventory');
    expect(headerTitle('/add-listings', 'Sam')).toBe('Add Inventory');
    expect(headerTitle('/bulk-listings?x=1', 'Sam')).toBe('Bulk Inventory');
    expect(headerTitle('/dashboard', 'Sam')).toBe('Welcome Sam');
    expect(headerTitle('/nowhere', '')).toBe('Welcome');
  });

  it('names every page, and a missing one', () => {
    expect(pageTitle('/dashboard')).toBe('Dashboard');
    expect(pageTitle('/sales/confirmed')).toBe('Sales: Awaiting Delivery');
    expect(pageTitle('/settings/kyc?handle=true')).toBe('Identity verification (KYC)');
    expect(pageTitle('/trade/purchase?success=true&booking_no=SB-1')).toBe('Purchase');
    expect(pageTitle('/nowhere')).toBe('Page not found');
  });

  it('gives the operator the back office, not the seller’s workbench, and lands it on /admin', () => {
    const every = [
      'settings',
      'dashboard',
      'notification',
      'sales',
      'event',
      'reports',
      'lmt-pay',
      'lmt-trade',
    ] as const;
    const operator = menuEntries.filter((e) => shownInMenu(e, every, true)).map((e) => e.label);
    expect(operator).toEqual([
      'My account',
      'Back office',
      'Deposit requests',
      'Bank statements',
      'Payout requests',
      'KYC submissions',
      'Event requests',
      'Orders needing action',
      'Buyer claims',
      'Transfer windows',
      'Price caps',
      'Erasure requests',
      'System',
      'Audit log',
      'Flows',
    ]);
    const seller = menuEntries.filter((e) => shownInMenu(e, every, false)).map((e) => e.label);
    expect(seller).toContain('My Listings');
    expect(seller.some((l) => operator.includes(l) && l !== 'My account')).toBe(false);
    expect(homeHref(true)).toBe('/admin');
    expect(homeHref(false)).toBe('/dashboard');
  });
});
