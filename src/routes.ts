import { SALES_STATUS_LABELS, type SalesStatus } from '../machines/sales-statuses';
import { type components, orderStatusValues } from '../openapi/schema';

type PermissionName = components['schemas']['PermissionName'];

/** The product's name: every page's document title ends with it (the spec: the page title is the product name). */
export const PRODUCT_NAME = 'SB Portal';

/** The side menu's icons, by name (src/app/shell/icons.tsx draws them). */
export type MenuIcon =
  | 'user'
  | 'dashboard'
  | 'bell'
  | 'add'
  | 'list'
  | 'upload'
  | 'sales'
  | 'reports'
  | 'wallet'
  | 'search';

export interface MenuEntry {
  label: string;
  icon: MenuIcon;
  /** Place in the menu, lowest first. */
  order: number;
  /** Shown only with this permission (spec section 2, Side menu). */
  permission: PermissionName;
  /**
   * How the menu shows it: a link (default), the account entry under the user's name, the notifications
   * popup (the route is its View all page), or Sales with its sub-list of statuses.
   */
  kind?: 'link' | 'account' | 'notifications' | 'sales';
  /** Shown to back-office accounts only (the admin pages). */
  adminOnly?: boolean;
}

/** `{ status: string }` for '/sales/:status': the parameters a pattern names. */
export type ParamsOf<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & ParamsOf<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;

interface RouteConfig<P extends string, Params> {
  /** The path, with `:name` for a parameter (one segment). */
  pattern: P;
  /** The page's name: its one h1 and its document title ('Dashboard · SB Portal'). */
  title: string | ((params: Params) => string);
  /**
   * What the header says (spec section 2, Header): the page's own title on the listing pages ('Inventory',
   * 'Add Inventory', 'Bulk Inventory'), else 'Welcome' and the user's first name above the page's title.
   */
  header?: 'title' | 'welcome';
  /**
   * Who may open it: 'public' (no session), 'always' (any logged-in user: its first segment is one the spec
   * always allows), 'admin' (back-office accounts, user_type admin, whatever their permissions), or the
   * permission its first segment is derived from. A page under an always-open segment may name a permission too
   * (the Settings pages of the team, the cards, the templates...): it then needs it, as its sub-menu entry and its
   * server calls do (src/app/route-access.ts pageAccess).
   */
  access: 'public' | 'always' | 'admin' | PermissionName;
  /**
   * What its permission opens: its first path segment (default, the spec's gate), or 'path' its own path and
   * what lies under it, for a page inside a segment that belongs to another permission (the wallet at
   * reports/wallet is lmt-pay's; the rest of reports/ is not).
   */
  gate?: 'segment' | 'path';
  menu?: MenuEntry;
  /** An admin page any logged-in user may open in development and e2e builds (the flow viewer). */
  devOpen?: boolean;
  /** The key of the route whose menu entry is active on this page, when not its own (a trade path: Search Tickets). */
  activeEntry?: string;
  /** Checks and types the parameters; null means there is no such page (Page not found). */
  parse?: (raw: ParamsOf<P>) => Params | null;
}

export interface Route<P extends string = string, Params = unknown> extends RouteConfig<P, Params> {
  header: 'title' | 'welcome';
  /** The href of this page for these parameters: the only way links are built. */
  href: (params: Params) => string;
}

function route<const P extends string, Params = ParamsOf<P>>(config: RouteConfig<P, Params>): Route<P, Params> {
  return {
    header: 'welcome',
    ...config,
    href: (params) =>
      config.pattern.replace(/:([A-Za-z_]\w*)/g, (_, name: string) =>
        encodeURIComponent(String((params as Record<string, unknown>)[name])),
      ),
  };
}

const isOrderStatus = (value: string): value is SalesStatus => (orderStatusValues as readonly string[]).includes(value);

/**
 * Every page of the app, written once: its path, its title, who may open it, its menu entry and its href.
 * The side menu, the gates, the header and every link read from here.
 */
export const routes = {
  login: route({ pattern: '/login', title: 'Log in', access: 'public' }),
  signup: route({ pattern: '/signup', title: 'Create your account', access: 'public' }),
  accessibility: route({ pattern: '/accessibility', title: 'Accessibility statement', access: 'public' }),
  verifyEmail: route<'/verify-email/token/:token', { token: string }>({
    pattern: '/verify-email/token/:token',
    title: 'Verify your email address',
    access: 'public',
    parse: ({ token }) => (/^[\w-]{1,200}$/.test(token) ? { token } : null),
  }),
  forgotPassword: route({ pattern: '/reset-password', title: 'Forgot your password?', access: 'public' }),
  resetPassword: route<'/reset-password/token/:token', { token: string }>({
    pattern: '/reset-password/token/:token',
    title: 'Choose a new password',
    access: 'public',
    parse: ({ token }) => (/^[\w-]{1,200}$/.test(token) ? { token } : null),
  }),
  invite: route<'/signup/invite/:token', { token: string }>({
    pattern: '/signup/invite/:token',
    title: 'Join your team',
    access: 'public',
    parse: ({ token }) => (/^[\w-]{1,200}$/.test(token) ? { token } : null),
  }),
  unlockAccount: route<'/login/unlock/:token', { token: string }>({
    pattern: '/login/unlock/:token',
    title: 'Unlock your account',
    access: 'public',
    parse: ({ token }) => (/^[\w-]{1,200}$/.test(token) ? { token } : null),
  }),
  dashboard: route({
    pattern: '/dashboard',
    title: 'Dashboard',
    access: 'always',
    menu: { label: 'Dashboard', icon: 'dashboard', order: 20, permission: 'dashboard' },
  }),
  myAccount: route({
    pattern: '/settings/myAccount',
    title: 'My account',
    access: 'always',
    menu: { label: 'My account', icon: 'user', order: 10, permission: 'settings', kind: 'account' },
  }),
  kyc: route({ pattern: '/settings/kyc', title: 'Identity verification (KYC)', access: 'always' }),
  kycVerification: route({ pattern: '/kyc-verification', title: 'Identity verification (KYC)', access: 'always' }),
  changePassword: route({ pattern: '/settings/password', title: 'Change password', access: 'always' }),
  addressBook: route({ pattern: '/settings/address-book', title: 'Address book', access: 'lmt-trade' }),
  myTeams: route({ pattern: '/settings/my-teams', title: 'My teams', access: 'settings' }),
  storedCards: route({ pattern: '/settings/stored-cards', title: 'Stored cards', access: 'lmt-pay' }),
  templates: route({ pattern: '/settings/templates', title: 'Templates', access: 'settings' }),
  bankAccounts: route({ pattern: '/settings/bank-accounts', title: 'Bank accounts', access: 'settings' }),
  apiTokens: route({ pattern: '/settings/api-tokens', title: 'API tokens', access: 'settings' }),
  apiDocs: route({ pattern: '/settings/api-reference', title: 'Seller API reference', access: 'settings' }),
  referrals: route({ pattern: '/settings/referrals', title: 'Referrals', access: 'settings' }),
  sellerContacts: route({ pattern: '/settings/seller-contacts', title: 'Seller contacts', access: 'settings' }),
  partnerSettings: route({ pattern: '/settings/partner-settings', title: 'Partner settings', access: 'settings' }),
  requestFeature: route({ pattern: '/settings/request-feature', title: 'Request a feature', access: 'settings' }),
  yourData: route({ pattern: '/settings/your-data', title: 'Your data', access: 'always' }),
  notifications: route({
    pattern: '/notifications/home',
    title: 'Notifications',
    access: 'notification',
    menu: { label: 'Notifications', icon: 'bell', order: 30, permission: 'notification', kind: 'notifications' },
  }),
  addListings: route({
    pattern: '/add-listings',
    title: 'Add Inventory',
    header: 'title',
    access: 'event',
    menu: { label: 'Add Listings', icon: 'add', order: 40, permission: 'event' },
  }),
  myListings: route({
    pattern: '/my-listings',
    title: 'Inventory',
    header: 'title',
    access: 'event',
    menu: { label: 'My Listings', icon: 'list', order: 50, permission: 'event' },
  }),
  bulkListings: route({
    pattern: '/bulk-listings',
    title: 'Bulk Inventory',
    header: 'title',
    access: 'event',
    menu: { label: 'Bulk Listings', icon: 'upload', order: 60, permission: 'event' },
  }),
  sales: route<'/sales/:status', { status: SalesStatus }>({
    pattern: '/sales/:status',
    title: ({ status }) => `Sales: ${SALES_STATUS_LABELS[status]}`,
    access: 'sales',
    parse: ({ status }) => (isOrderStatus(status) ? { status } : null),
    menu: { label: 'Sales', icon: 'sales', order: 70, permission: 'sales', kind: 'sales' },
  }),
  reportHistory: route({
    pattern: '/report-history',
    title: 'Report History',
    access: 'reports',
    menu: { label: 'Report History', icon: 'reports', order: 80, permission: 'reports' },
  }),
  wallet: route({
    pattern: '/reports/wallet',
    title: 'Wallet',
    access: 'lmt-pay',
    gate: 'path',
    menu: { label: 'Wallet', icon: 'wallet', order: 90, permission: 'lmt-pay' },
  }),
  payouts: route({
    pattern: '/reports/payouts',
    title: 'Payouts',
    access: 'lmt-pay',
    gate: 'path',
    menu: { label: 'Payouts', icon: 'wallet', order: 95, permission: 'lmt-pay' },
  }),
  tradeHome: route({
    pattern: '/trade/home',
    title: 'Search Tickets',
    access: 'lmt-trade',
    menu: { label: 'Search Tickets', icon: 'search', order: 100, permission: 'lmt-trade' },
  }),
  tradeEvent: route<'/trade/events/:matchId', { matchId: number }>({
    pattern: '/trade/events/:matchId',
    title: 'Buy Tickets',
    access: 'lmt-trade',
    activeEntry: 'tradeHome',
    parse: ({ matchId }) => (/^[1-9]\d{0,9}$/.test(matchId) ? { matchId: Number(matchId) } : null),
  }),
  tradePurchase: route({
    pattern: '/trade/purchase',
    title: 'Purchase',
    access: 'lmt-trade',
    activeEntry: 'tradeHome',
  }),
  adminHome: route({
    pattern: '/admin',
    title: 'Back office',
    access: 'admin',
    menu: { label: 'Back office', icon: 'dashboard', order: 105, permission: 'dashboard', adminOnly: true },
  }),
  adminDeposits: route({
    pattern: '/admin/deposits',
    title: 'Deposit requests',
    access: 'admin',
    menu: { label: 'Deposit requests', icon: 'wallet', order: 110, permission: 'lmt-pay', adminOnly: true },
  }),
  adminBankStatements: route({
    pattern: '/admin/bank-statements',
    title: 'Bank statements',
    access: 'admin',
    menu: { label: 'Bank statements', icon: 'wallet', order: 110.5, permission: 'lmt-pay', adminOnly: true },
  }),
  adminErasures: route({
    pattern: '/admin/erasures',
    title: 'Erasure requests',
    access: 'admin',
    menu: { label: 'Erasure requests', icon: 'user', order: 113, permission: 'settings', adminOnly: true },
  }),
  adminPayouts: route({
    pattern: '/admin/payouts',
    title: 'Payout requests',
    access: 'admin',
    menu: { label: 'Payout requests', icon: 'wallet', order: 111, permission: 'lmt-pay', adminOnly: true },
  }),
  adminEventRequests: route({
    pattern: '/admin/event-requests',
    title: 'Event requests',
    access: 'admin',
    menu: { label: 'Event requests', icon: 'add', order: 112, permission: 'event', adminOnly: true },
  }),
  adminOrders: route({
    pattern: '/admin/orders',
    title: 'Orders needing action',
    access: 'admin',
    menu: { label: 'Orders needing action', icon: 'sales', order: 112.5, permission: 'sales', adminOnly: true },
  }),
  adminDisputes: route({
    pattern: '/admin/disputes',
    title: 'Buyer claims',
    access: 'admin',
    menu: { label: 'Buyer claims', icon: 'sales', order: 112.6, permission: 'sales', adminOnly: true },
  }),
  adminTransferWindows: route({
    pattern: '/admin/transfer-windows',
    title: 'Transfer windows',
    access: 'admin',
    menu: { label: 'Transfer windows', icon: 'sales', order: 112.7, permission: 'event', adminOnly: true },
  }),
  adminPriceCaps: route({
    pattern: '/admin/price-caps',
    title: 'Resale price caps',
    access: 'admin',
    menu: { label: 'Price caps', icon: 'sales', order: 112.8, permission: 'event', adminOnly: true },
  }),
  adminAuditLog: route({
    pattern: '/admin/audit-log',
    title: 'Audit log',
    access: 'admin',
    menu: { label: 'Audit log', icon: 'reports', order: 114, permission: 'dashboard', adminOnly: true },
  }),
  adminKyc: route({
    pattern: '/admin/kyc',
    title: 'KYC submissions',
    access: 'admin',
    menu: { label: 'KYC submissions', icon: 'user', order: 111.5, permission: 'settings', adminOnly: true },
  }),
  adminSystem: route({
    pattern: '/admin/system',
    title: 'System',
    access: 'admin',
    menu: { label: 'System', icon: 'dashboard', order: 113, permission: 'dashboard', adminOnly: true },
  }),
  flows: route({
    pattern: '/flows',
    title: 'Flows',
    access: 'admin',
    devOpen: true,
    menu: { label: 'Flows', icon: 'list', order: 120, permission: 'dashboard', adminOnly: true },
  }),
  flow: route<'/flows/:id', { id: string }>({
    pattern: '/flows/:id',
    title: ({ id }) => `Flow: ${id}`,
    access: 'admin',
    devOpen: true,
    activeEntry: 'flows',
    parse: ({ id }) => (/^[A-Za-z][\w-]{0,63}$/.test(id) ? { id } : null),
  }),
} as const;

export type RouteKey = keyof typeof routes;
/** The pages opened without a session (spec section 2's public routes): they live outside the shell. */
export type PublicRouteKey =
  | 'login'
  | 'signup'
  | 'verifyEmail'
  | 'forgotPassword'
  | 'resetPassword'
  | 'invite'
  | 'unlockAccount'
  | 'accessibility';
/** The same keys at run time (src/routes.test.ts checks them against each route's `access`). */
export const PUBLIC_ROUTE_KEYS: readonly PublicRouteKey[] = [
  'login',
  'signup',
  'verifyEmail',
  'forgotPassword',
  'resetPassword',
  'invite',
  'unlockAccount',
  'accessibility',
];
type Routes = typeof routes;
export type RouteParams<K extends RouteKey> = Routes[K] extends Route<string, infer Params> ? Params : never;

/** Where a session lands (after login, at '/'): the back office's home for its operators, the dashboard for sellers. */
export const homeHref = (isAdmin: boolean) => (isAdmin ? routes.adminHome.href({}) : routes.dashboard.href({}));

/** The path without its query or hash, and without a trailing slash ('/sales/pending/' is '/sales/pending'). */
export function pathPart(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '';
  return bare.length > 1 && bare.endsWith('/') ? bare.slice(0, -1) : bare;
}

/** A path against a pattern: the parameters it names, or null when the path is not the pattern's. */
export function matchPattern(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = pathPart(path).split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? '';
    const h = have[i] ?? '';
    if (w.startsWith(':')) {
      if (!h) return null;
      try {
        params[w.slice(1)] = decodeURIComponent(h);
      } catch {
        return null;
      }
    } else if (w !== h) return null;
  }
  return params;
}

/** A page's name for its parameters. */
export function routeTitle<Params>(page: Route<string, Params>, params: Params): string {
  return typeof page.title === 'function' ? page.title(params) : page.title;
}

/** The document title: the page's name, then the product's. */
export const documentTitle = (pageTitle?: string | null) =>
  pageTitle ? `${pageTitle} · ${PRODUCT_NAME}` : PRODUCT_NAME;

const SAME_ORIGIN = 'http://portal.invalid';

/**
 * Only a same-origin path may be a place to come back to after login (no `//evil.example`): the path as the
 * browser's URL parser reads it, which drops tabs and line breaks (`/<tab>/evil.example` is `//evil.example`) and
 * reads `/\` as `//`. The path answered is that parsed one.
 */
export function safeNext(next: string | null | undefined): string | null {
  if (!next?.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(next, SAME_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== SAME_ORIGIN) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (path === routes.login.pattern || path.startsWith(`${routes.login.pattern}?`)) return null;
  return path;
}

/** Hrefs that carry a query, built here like the rest. */
export const href = {
  login: (next?: string | null) => {
    const back = safeNext(next);
    return back ? `${routes.login.pattern}?next=${encodeURIComponent(back)}` : routes.login.pattern;
  },
  kycHandle: () => `${routes.kyc.pattern}?handle=true`,
  sales: (status: SalesStatus) => routes.sales.href({ status }),
  tradeEvent: (matchId: number) => routes.tradeEvent.href({ matchId }),
  purchaseSuccess: (bookingNo: string) =>
    `${routes.tradePurchase.pattern}?success=true&booking_no=${encodeURIComponent(bookingNo)}`,
};

/** The fixed paths, read from the registry (kept for the views that name a page by path). */
export const paths = {
  login: routes.login.pattern,
  dashboard: routes.dashboard.pattern,
  myAccount: routes.myAccount.pattern,
  kyc: routes.kyc.pattern,
  notifications: routes.notifications.pattern,
  tradeHome: routes.tradeHome.pattern,
  wallet: routes.wallet.pattern,
  adminDeposits: routes.adminDeposits.pattern,
} as const;
