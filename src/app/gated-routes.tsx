import { type ComponentType, Suspense } from 'react';
import { css } from 'styled-system/css';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { selectAllowedPermissions } from '../../machines/session.machine';
import { AccessDenied } from '../features/access/access-denied';
import { SettingsLayout } from '../features/settings/settings-layout';
import { homeHref, href, type PublicRouteKey, type RouteKey, routes } from '../routes';
import { FullPageLoader } from '../ui/full-page-loader';
import { lazyLoaded } from './lazy-loaded';
import { pageModules } from './page-modules';
import { matchRoute, pageAccess } from './route-access';
import { Session } from './session';
import { useKycGate } from './shell/shell-actors';

const DashboardPage = lazyLoaded(pageModules.dashboard);
const NotificationsPage = lazyLoaded(pageModules.notifications);
const KycPage = lazyLoaded(pageModules.kyc);
const ChangePasswordPage = lazyLoaded(pageModules.changePassword);
const MyAccountPage = lazyLoaded(pageModules.myAccount);
const AddressBookPage = lazyLoaded(pageModules.addressBook);
const MyTeamsPage = lazyLoaded(pageModules.myTeams);
const StoredCardsPage = lazyLoaded(pageModules.storedCards);
const WalletPage = lazyLoaded(pageModules.wallet);
const PayoutsPage = lazyLoaded(pageModules.payouts);
const AdminPayoutsPage = lazyLoaded(pageModules.adminPayouts);
const AdminErasuresPage = lazyLoaded(pageModules.adminErasures);
const AdminDisputesPage = lazyLoaded(pageModules.adminDisputes);
const AdminTransferWindowsPage = lazyLoaded(pageModules.adminTransferWindows);
const AdminPriceCapsPage = lazyLoaded(pageModules.adminPriceCaps);
const YourDataPage = lazyLoaded(pageModules.yourData);
const BankAccountsPage = lazyLoaded(pageModules.bankAccounts);
const ApiTokensPage = lazyLoaded(pageModules.apiTokens);
const ApiDocsPage = lazyLoaded(pageModules.apiDocs);
const ReferralsPage = lazyLoaded(pageModules.referrals);
const SellerContactsPage = lazyLoaded(pageModules.sellerContacts);
const PartnerSettingsPage = lazyLoaded(pageModules.partnerSettings);
const RequestFeaturePage = lazyLoaded(pageModules.requestFeature);
const AdminHomePage = lazyLoaded(pageModules.adminHome);
const AdminOrdersPage = lazyLoaded(pageModules.adminOrders);
const AdminBankStatementsPage = lazyLoaded(pageModules.adminBankStatements);
const AdminAuditLogPage = lazyLoaded(pageModules.adminAuditLog);
const AdminDepositsPage = lazyLoaded(pageModules.adminDeposits);
const AdminEventRequestsPage = lazyLoaded(pageModules.adminEventRequests);
const AdminKycPage = lazyLoaded(pageModules.adminKyc);
const AdminSystemPage = lazyLoaded(pageModules.adminSystem);
const TemplatesPage = lazyLoaded(pageModules.templates);
const FlowsPage = lazyLoaded(pageModules.flows);
const FlowPage = lazyLoaded(pageModules.flow);
const TradeHomePage = lazyLoaded(pageModules.tradeHome);
const TradeEventPage = lazyLoaded(pageModules.tradeEvent);
const TradePurchasePage = lazyLoaded(pageModules.tradePurchase);
const AddListingsPage = lazyLoaded(pageModules.addListings);
const MyListingsPage = lazyLoaded(pageModules.myListings);
const BulkListingsPage = lazyLoaded(pageModules.bulkListings);
const SalesPage = lazyLoaded(pageModules.sales);
const ReportHistoryPage = lazyLoaded(pageModules.reportHistory);

/** The page of every logged-in route of the registry (the login page lives outside the shell). */
const PAGES: Readonly<Record<Exclude<RouteKey, PublicRouteKey>, ComponentType>> = {
  dashboard: DashboardPage,
  myAccount: MyAccountPage,
  kyc: KycPage,
  changePassword: ChangePasswordPage,
  addressBook: AddressBookPage,
  myTeams: MyTeamsPage,
  storedCards: StoredCardsPage,
  templates: TemplatesPage,
  bankAccounts: BankAccountsPage,
  apiTokens: ApiTokensPage,
  apiDocs: ApiDocsPage,
  referrals: ReferralsPage,
  sellerContacts: SellerContactsPage,
  partnerSettings: PartnerSettingsPage,
  requestFeature: RequestFeaturePage,
  yourData: YourDataPage,
  notifications: NotificationsPage,
  addListings: AddListingsPage,
  myListings: MyListingsPage,
  bulkListings: BulkListingsPage,
  sales: SalesPage,
  reportHistory: ReportHistoryPage,
  wallet: WalletPage,
  payouts: PayoutsPage,
  tradeHome: TradeHomePage,
  tradeEvent: TradeEventPage,
  tradePurchase: TradePurchasePage,
  adminHome: AdminHomePage,
  adminOrders: AdminOrdersPage,
  adminBankStatements: AdminBankStatementsPage,
  adminAuditLog: AdminAuditLogPage,
  adminDeposits: AdminDepositsPage,
  adminPayouts: AdminPayoutsPage,
  adminErasures: AdminErasuresPage,
  adminDisputes: AdminDisputesPage,
  adminTransferWindows: AdminTransferWindowsPage,
  adminPriceCaps: AdminPriceCapsPage,
  adminEventRequests: AdminEventRequestsPage,
  adminKyc: AdminKycPage,
  adminSystem: AdminSystemPage,
  kycVerification: KycPage,
  flows: FlowsPage,
  flow: FlowPage,
};

/**
 * The logged-in pages behind the two gates: a user held by KYC sees only the KYC page; anyone else sees a
 * page when its first path segment is allowed (always, or by a permission), 'Page not found' when no page
 * has the address, and the Access Denied text otherwise.
 */
export default function GatedRoutes() {
  const [location] = useLocation();
  const search = useSearch();
  const gate = useKycGate();
  const permissions = Session.useSelector(selectAllowedPermissions, (a, b) => a.join() === b.join());
  const isAdmin = Session.useSelector((s) => s.context.account?.user_type === 'admin');

  const onKycHandle = matchRoute(location)?.key === 'kyc' && new URLSearchParams(search).get('handle') === 'true';
  if (gate !== 'open' && !onKycHandle) return <Redirect to={href.kycHandle()} replace />;
  if (location === '/') return <Redirect to={homeHref(isAdmin)} replace />;

  const access = pageAccess(location, permissions, isAdmin);
  if (access.kind === 'notFound') return <NotFound />;
  if (access.kind === 'denied') return <AccessDenied />;
  if (access.match.key === 'login') return <Redirect to={homeHref(isAdmin)} replace />;
  if (access.match.route.access === 'public') return <Redirect to={homeHref(isAdmin)} replace />;
  const Page = PAGES[access.match.key as Exclude<RouteKey, PublicRouteKey>];
  const page = (
    <Suspense fallback={<FullPageLoader />}>
      <Page />
    </Suspense>
  );
  // every settings page sits in the Settings sub-menu, except while the KYC hold shows only the KYC page
  return gate === 'open' && access.match.route.pattern.startsWith('/settings/') ? (
    <SettingsLayout>{page}</SettingsLayout>
  ) : (
    page
  );
}

/** No page has this address (the shell's h1 says 'Page not found'). */
function NotFound() {
  return (
    <section
      className={css({ bg: 'bg', borderRadius: 'lg', p: { base: '5', desktop: '8' }, display: 'grid', gap: '2' })}
    >
      <p>
        There is no page at this address. <Link href={routes.dashboard.href({})}>Go to the dashboard</Link>
      </p>
    </section>
  );
}
