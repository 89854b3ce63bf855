import type { ComponentType } from 'react';
import { matchPattern, type PublicRouteKey, type RouteKey, routes } from '../routes';

/** The page of the routes whose page is not built yet (its title comes from the shell). */
export const comingSoon = () => import('../features/access/coming-soon');

/**
 * The code of the shell and of each logged-in page (the route registry's keys), loaded on demand: the gated
 * routes render them through `lazy`, and `preloadRoute` asks for them before the session is ready. An import
 * asked for twice is fetched once (the browser's module map), so the preload and the render share it.
 */
export const shellModules = {
  layout: () => import('./shell/shell-layout'),
  gated: () => import('./gated-routes'),
};

export const pageModules = {
  dashboard: () => import('../features/dashboard/dashboard-page'),
  myAccount: () => import('../features/settings/my-account-page'),
  kyc: () => import('../features/settings/kyc-page'),
  changePassword: () => import('../features/auth/change-password-page'),
  addressBook: () => import('../features/settings/address-book-page'),
  myTeams: () => import('../features/settings/my-teams-page'),
  storedCards: () => import('../features/settings/stored-cards-page'),
  templates: () => import('../features/listings/templates-page'),
  bankAccounts: () => import('../features/settings/bank-accounts-page'),
  referrals: () => import('../features/settings/referrals-page'),
  sellerContacts: () => import('../features/settings/seller-contacts-page'),
  partnerSettings: () => import('../features/settings/partner-settings-page'),
  requestFeature: () => import('../features/settings/request-feature-page'),
  notifications: () => import('../features/notifications/notifications-page'),
  addListings: () => import('../features/listings/add-listings-page'),
  myListings: () => import('../features/listings/my-listings-page'),
  bulkListings: () => import('../features/listings/bulk-listings-page'),
  sales: () => import('../features/sales/sales-page'),
  reportHistory: () => import('../features/reports/report-history-page'),
  wallet: () => import('../features/wallet/wallet-page'),
  payouts: () => import('../features/payouts/payouts-page'),
  tradeHome: () => import('../features/trade/trade-home-page'),
  tradeEvent: () => import('../features/trade/event-page'),
  tradePurchase: () => import('../features/trade/purchase-page'),
  adminDeposits: () => import('../features/admin/admin-deposits-page'),
  adminPayouts: () => import('../features/admin/admin-payouts-page'),
  adminEventRequests: () => import('../features/admin/admin-event-requests-page'),
  adminKyc: () => import('../features/admin/admin-kyc-page'),
  kycVerification: () => import('../features/settings/kyc-page'),
  flows: () => import('../features/flows/flows-page'),
  flow: () => import('../features/flows/flow-page'),
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
