import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { matchPattern, type PublicRouteKey, type RouteKey, routes } from '../routes';

/** The page of the routes whose page is not built yet (its title comes from the shell). */
export const comingSoon = () => import('../features/access/coming-soon');

/**
 * The code of the shell and of each logged-in page (the route registry's keys), loaded on demand: the gated
 * routes render them through `lazy`, and `preloadRoute` asks for them before the session is ready. An import
 * asked for twice is fetched once (the browser's module map), so the preload and the render share it.
 */
/** The modules that arrived, by the loader that asked for them. */
const arrived = new WeakMap<() => Promise<unknown>, unknown>();

/** A loader that remembers its module once it has arrived (for `lazyLoaded`). */
export function remembered<M>(load: () => Promise<M>): () => Promise<M> {
  const run = () =>
    load().then((module) => {
      arrived.set(run, module);
      return module;
    });
  return run;
}

/**
 * `React.lazy` that does not suspend when the module has already arrived (`preloadRoute` asked for it beside the
 * profile calls). A lazy component given a promise suspends on its first render even when the promise has long
 * resolved; the shell, the gated routes and the page did so one after the other, three suspended renders, and
 * React holds back the content of a boundary whose fallback has just shown (about 300 ms each time): the
 * dashboard's widgets painted 400 ms after the shell on a loaded machine. A thenable that answers at once lets
 * React take the module in the same render.
 */
// biome-ignore lint/suspicious/noExplicitAny: React.lazy's own constraint on the component
export function lazyLoaded<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): LazyExoticComponent<T> {
  return lazy(() => {
    const module = arrived.get(load) as { default: T } | undefined;
    if (!module) return load();
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, one that React reads at once
    const ready = { then: (done: (m: { default: T }) => void) => done(module) };
    return ready as unknown as Promise<{ default: T }>;
  });
}

export const shellModules = {
  layout: remembered(() => import('./shell/shell-layout')),
  gated: remembered(() => import('./gated-routes')),
};

export const pageModules = {
  dashboard: remembered(() => import('../features/dashboard/dashboard-page')),
  myAccount: remembered(() => import('../features/settings/my-account-page')),
  kyc: remembered(() => import('../features/settings/kyc-page')),
  changePassword: remembered(() => import('../features/auth/change-password-page')),
  addressBook: remembered(() => import('../features/settings/address-book-page')),
  myTeams: remembered(() => import('../features/settings/my-teams-page')),
  storedCards: remembered(() => import('../features/settings/stored-cards-page')),
  templates: remembered(() => import('../features/listings/templates-page')),
  bankAccounts: remembered(() => import('../features/settings/bank-accounts-page')),
  referrals: remembered(() => import('../features/settings/referrals-page')),
  sellerContacts: remembered(() => import('../features/settings/seller-contacts-page')),
  partnerSettings: remembered(() => import('../features/settings/partner-settings-page')),
  requestFeature: remembered(() => import('../features/settings/request-feature-page')),
  notifications: remembered(() => import('../features/notifications/notifications-page')),
  addListings: remembered(() => import('../features/listings/add-listings-page')),
  myListings: remembered(() => import('../features/listings/my-listings-page')),
  bulkListings: remembered(() => import('../features/listings/bulk-listings-page')),
  sales: remembered(() => import('../features/sales/sales-page')),
  reportHistory: remembered(() => import('../features/reports/report-history-page')),
  wallet: remembered(() => import('../features/wallet/wallet-page')),
  payouts: remembered(() => import('../features/payouts/payouts-page')),
  tradeHome: remembered(() => import('../features/trade/trade-home-page')),
  tradeEvent: remembered(() => import('../features/trade/event-page')),
  tradePurchase: remembered(() => import('../features/trade/purchase-page')),
  adminDeposits: remembered(() => import('../features/admin/admin-deposits-page')),
  adminPayouts: remembered(() => import('../features/admin/admin-payouts-page')),
  adminEventRequests: remembered(() => import('../features/admin/admin-event-requests-page')),
  adminKyc: remembered(() => import('../features/admin/admin-kyc-page')),
  kycVerification: remembered(() => import('../features/settings/kyc-page')),
  flows: remembered(() => import('../features/flows/flows-page')),
  flow: remembered(() => import('../features/flows/flow-page')),
} as const satisfies Record<Exclude<RouteKey, PublicRouteKey>, () => Promise<{ default: ComponentType<never> }>>;

/** The public account pages (sign-up, email verification, password reset): one chunk, outside the shell. */
export const accountPages = () => import('../features/auth/account-pages');

/** The wallet's top-up panel, for the Deposit button of the purchase panel (features do not import each other). */
export const topUpDrawer = () => import('../features/wallet/top-up-drawer');

const ignore = () => {};

/**
 * Starts loading the shell and the page at `path` now, beside the profile calls, instead of after them: the
 * route's chunks no longer wait for the session (a failure is left to the page's own load, which shows it).
 */
export function preloadRoute(path: string) {
  void shellModules.layout().catch(ignore);
  void shellModules.gated().catch(ignore);
  const key = (Object.keys(pageModules) as Array<keyof typeof pageModules>).find(
    (k) => matchPattern(routes[k].pattern, path) !== null,
  );
  if (key) void pageModules[key]().catch(ignore);
}
