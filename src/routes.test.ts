import { describe, expect, it } from 'vitest';
import { ALWAYS_ALLOWED, firstSegment, matchRoute, menuEntries, titleOf } from './app/route-access';
import { SETTINGS_MENU } from './features/settings/settings-menu';
import { documentTitle, href, type Route, type RouteKey, routes, safeNext } from './routes';

const all = Object.entries(routes) as Array<[RouteKey, Route<string, unknown>]>;

describe('the route registry', () => {
  it('builds every href from its pattern, and every href leads back to its page', () => {
    expect(routes.sales.href({ status: 'confirmed' })).toBe('/sales/confirmed');
    expect(href.sales('replaced')).toBe('/sales/replaced');
    expect(routes.dashboard.href({})).toBe('/dashboard');
    expect(href.kycHandle()).toBe('/settings/kyc?handle=true');
    for (const [key, r] of all) {
      const params = key === 'sales' ? { status: 'pending' } : key === 'tradeEvent' ? { matchId: 5 } : {};
      expect(matchRoute(r.href(params))?.key).toBe(key);
    }
  });

  it('matches paths with their query, and refuses what no page answers', () => {
    expect(matchRoute('/trade/purchase?success=true&booking_no=SB-1')?.key).toBe('tradePurchase');
    expect(matchRoute('/dashboard/')?.key).toBe('dashboard');
    expect(matchRoute('/sales/confirmed')?.params).toEqual({ status: 'confirmed' });
    expect(matchRoute('/sales/unknown')).toBeNull();
    expect(matchRoute('/sales')).toBeNull();
    expect(matchRoute('/sales/pending/more')).toBeNull();
    expect(matchRoute('/sales/%E0%A4%A')).toBeNull();
    expect(matchRoute('/Dashboard')).toBeNull();
  });

  it('keeps the spec’s header titles and gives every page a name', () => {
    const header = Object.fromEntries(all.filter(([, r]) => r.header === 'title').map(([k, r]) => [k, r.title]));
    expect(header).toEqual({ addListings: 'Add Inventory', myListings: 'Inventory', bulkListings: 'Bulk Inventory' });
    for (const [key, r] of all) {
      const match = matchRoute(
        r.href(key === 'sales' ? { status: 'delivered' } : key === 'tradeEvent' ? { matchId: 5 } : {}),
      );
      expect(match && titleOf(match)).toMatch(/\S/);
    }
    expect(documentTitle('Dashboard')).toBe('Dashboard · SB Portal');
    expect(documentTitle(null)).toBe('SB Portal');
  });

  it('lists the menu in the spec’s order, each entry with the permission that shows it', () => {
    expect(menuEntries.map((e) => [e.label, e.permission])).toEqual([
      ['My account', 'settings'],
      ['Dashboard', 'dashboard'],
      ['Notifications', 'notification'],
      ['Add Listings', 'event'],
      ['My Listings', 'event'],
      ['Bulk Listings', 'event'],
      ['Sales', 'sales'],
      ['Report History', 'reports'],
      ['Wallet', 'lmt-pay'],
      // beyond the spec's menu: payouts of the seller's earnings (issue 14), under the wallet's permission
      ['Payouts', 'lmt-pay'],
      ['Search Tickets', 'lmt-trade'],
      // the back office's entry: admin accounts only (adminOnly)
      ['Back office', 'dashboard'],
      ['Deposit requests', 'lmt-pay'],
      ['Bank statements', 'lmt-pay'],
      ['Payout requests', 'lmt-pay'],
      ['KYC submissions', 'settings'],
      ['Event requests', 'event'],
      ['Orders needing action', 'sales'],
      ['Buyer claims', 'sales'],
      ['Transfer windows', 'event'],
      ['Price caps', 'event'],
      ['Erasure requests', 'settings'],
      ['System', 'dashboard'],
      ['Audit log', 'dashboard'],
      ['Flows', 'dashboard'],
    ]);
    expect(menuEntries.filter((e) => e.adminOnly).map((e) => e.key)).toEqual([
      'adminHome',
      'adminDeposits',
      'adminBankStatements',
      'adminPayouts',
      'adminKyc',
      'adminEventRequests',
      'adminOrders',
      'adminDisputes',
      'adminTransferWindows',
      'adminPriceCaps',
      'adminErasures',
      'adminSystem',
      'adminAuditLog',
      'flows',
    ]);
  });

  it('agrees with the gate: an always-open page has an always-allowed first segment, the others a permission', () => {
    for (const [key, r] of all) {
      const always = (ALWAYS_ALLOWED as readonly string[]).includes(firstSegment(r.pattern));
      if (r.access === 'always' || r.access === 'public') expect(always).toBe(true);
      // a Settings page of its own permission: the one its sub-menu entry is shown with
      else if (always) expect(SETTINGS_MENU.find((e) => e.route === key)?.permission).toBe(r.access);
    }
    for (const [, r] of all) if (r.activeEntry) expect(routes[r.activeEntry as RouteKey]?.menu).toBeDefined();
  });

  it('comes back only to same-origin paths after login', () => {
    expect(safeNext('/sales/pending?x=1')).toBe('/sales/pending?x=1');
    expect(safeNext('//evil.example')).toBeNull();
    expect(safeNext('/\\evil.example')).toBeNull();
    expect(safeNext('https://evil.example')).toBeNull();
    // the URL parser drops tabs and line breaks: these are //evil.example to the browser
    expect(safeNext('/\t/evil.example')).toBeNull();
    expect(safeNext('/\n/evil.example')).toBeNull();
    expect(safeNext('/\r\n\\evil.example')).toBeNull();
    expect(safeNext('/sales/pending#x')).toBe('/sales/pending#x');
    expect(safeNext('/login?next=/x')).toBeNull();
    expect(href.login('/reports/wallet')).toBe('/login?next=%2Freports%2Fwallet');
    expect(href.login('//evil')).toBe('/login');
  });
});
