import { lazy, Suspense } from 'react';
import { css } from 'styled-system/css';
import { Link, Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { SALES_STATUSES } from '../../machines/menu-counts.machine';
import { selectAllowedPermissions } from '../../machines/session.machine';
import { AccessDenied } from '../features/access/access-denied';
import { href, paths } from '../routes';
import { FullPageLoader } from '../ui/full-page-loader';
import { canOpen } from './route-access';
import { Session } from './session';
import { useKycGate } from './shell/shell-actors';

const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page'));
const NotificationsPage = lazy(() => import('../features/notifications/notifications-page'));
const KycPage = lazy(() => import('../features/settings/kyc-page'));
const MyAccountPage = lazy(() => import('../features/settings/my-account-page'));
const ComingSoon = lazy(() => import('../features/access/coming-soon'));

/** Pages not built yet, by path, with the title they will have. */
const UPCOMING: ReadonlyArray<[string, string]> = [
  ['/add-listings', 'Add Inventory'],
  ['/my-listings', 'Inventory'],
  ['/bulk-listings', 'Bulk Inventory'],
  ['/report-history', 'Report History'],
  [paths.wallet, 'Wallet'],
  [paths.tradeHome, 'Search Tickets'],
];

/**
 * The logged-in pages behind the two gates: a seller without approved KYC sees only the KYC page; anyone
 * else sees a page only when its first path segment is allowed (always, or by a permission).
 */
export default function GatedRoutes() {
  const [location] = useLocation();
  const search = useSearch();
  const gate = useKycGate();
  const permissions = Session.useSelector(selectAllowedPermissions, (a, b) => a.join() === b.join());

  const onKycHandle = location === paths.kyc && new URLSearchParams(search).get('handle') === 'true';
  if (gate !== 'open' && !onKycHandle) return <Redirect to={href.kycHandle()} replace />;
  if (location !== '/' && !canOpen(location, permissions)) return <AccessDenied />;

  return (
    <Suspense fallback={<FullPageLoader />}>
      <Switch>
        <Route path="/">
          <Redirect to={paths.dashboard} replace />
        </Route>
        <Route path={paths.dashboard} component={DashboardPage} />
        <Route path={paths.kyc} component={KycPage} />
        <Route path={paths.myAccount} component={MyAccountPage} />
        <Route path={paths.notifications} component={NotificationsPage} />
        <Route path="/sales/:status">
          {(params) => {
            const status = SALES_STATUSES.find((s) => s.status === params.status);
            return status ? <ComingSoon title={`Sales: ${status.label}`} /> : <NotFound />;
          }}
        </Route>
        {UPCOMING.map(([path, title]) => (
          <Route key={path} path={path}>
            <ComingSoon title={title} />
          </Route>
        ))}
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}

function NotFound() {
  return (
    <section className={css({ bg: 'bg', borderRadius: 'lg', p: '8', maxWidth: '640px', display: 'grid', gap: '2' })}>
      <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>Page not found</h2>
      <p>
        There is no page at this address. <Link href={paths.dashboard}>Go to the dashboard</Link>
      </p>
    </section>
  );
}
