import type { ComponentType } from 'react';
import type { PublicRouteKey, RouteKey } from '../routes';
import { remembered } from './lazy-loaded';

/** The page of the routes whose page is not built yet (its title comes from the shell). */
export const comingSoon = () => import('../features/access/coming-soon');

/**
 * The code of each logged-in page (the route registry's keys), loaded on demand: the gated routes render them
 * through `lazyLoaded`, and `preloadRoute` (pages.ts) asks for them before the session is ready.
 */
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
  apiTokens: remembered(() => import('../features/settings/api-tokens-page')),
  apiDocs: remembered(() => import('../features/settings/api-reference-page')),
  referrals: remembered(() => import('../features/settings/referrals-page')),
  sellerContacts: remembered(() => import('../features/settings/seller-contacts-page')),
  partnerSettings: remembered(() => import('../features/settings/partner-settings-page')),
  requestFeature: remembered(() => import('../features/settings/request-feature-page')),
  yourData: remembered(() => import('../features/settings/your-data-page')),
  notifications: remembered(() => import('../features/notifications/notifications-page')),
  addListings: remembered(() => import('../features/listings/add-listings/page')),
  myListings: remembered(() => import('../features/listings/my-listings/page')),
  bulkListings: remembered(() => import('../features/listings/bulk-listings-page')),
  sales: remembered(() => import('../features/sales/sales-page')),
  reportHistory: remembered(() => import('../features/reports/report-history-page')),
  wallet: remembered(() => import('../features/wallet/wallet-page/page')),
  payouts: remembered(() => import('../features/payouts/payouts-page')),
  tradeHome: remembered(() => import('../features/trade/trade-home-page')),
  tradeEvent: remembered(() => import('../features/trade/event-page')),
  tradePurchase: remembered(() => import('../features/trade/purchase-page')),
  adminHome: remembered(() => import('../features/admin/admin-home-page')),
  adminOrders: remembered(() => import('../features/admin/admin-orders-page')),
  adminBankStatements: remembered(() => import('../features/admin/admin-bank-statements-page')),
  adminAuditLog: remembered(() => import('../features/admin/admin-audit-log-page')),
  adminDeposits: remembered(() => import('../features/admin/admin-deposits-page')),
  adminPayouts: remembered(() => import('../features/admin/admin-payouts-page')),
  adminErasures: remembered(() => import('../features/admin/admin-erasures-page')),
  adminDisputes: remembered(() => import('../features/admin/admin-disputes-page')),
  adminTransferWindows: remembered(() => import('../features/admin/admin-transfer-windows-page')),
  adminPriceCaps: remembered(() => import('../features/admin/admin-price-caps-page')),
  adminEventRequests: remembered(() => import('../features/admin/admin-event-requests-page')),
  adminKyc: remembered(() => import('../features/admin/admin-kyc-page')),
  adminSystem: remembered(() => import('../features/admin/admin-system-page')),
  kycVerification: remembered(() => import('../features/settings/kyc-page')),
  flows: remembered(() => import('../features/flows/flows-page')),
  flow: remembered(() => import('../features/flows/flow-page')),
} as const satisfies Record<Exclude<RouteKey, PublicRouteKey>, () => Promise<{ default: ComponentType<never> }>>;
