import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { Link, useLocation } from 'wouter';
import { badgeText, SALES_STATUSES, salesLandingStatus } from '../../../machines/menu-counts.machine';
import { selectAllowedPermissions, selectKycStatus } from '../../../machines/session.machine';
import { homeHref, href, type MenuIcon, type RouteKey, routes } from '../../routes';
import { matchRoute, menuEntries, shownInMenu } from '../route-access';
import { Session } from '../session';
import { icons } from './icons';
import { SellerPanelEntry } from './seller-panel-entry';
import { SideMenu, useKycGate, useMenuCounts } from './shell-actors';

/** The registry's icon names, drawn. */
const MENU_ICONS: Record<MenuIcon, ReactNode> = {
  user: icons.user,
  dashboard: icons.dashboard,
  bell: icons.bell,
  add: icons.add,
  list: icons.list,
  upload: icons.upload,
  sales: icons.sales,
  reports: icons.reports,
  wallet: icons.wallet,
  search: icons.search,
};

/** The menu entry a path belongs to: its page's own, or the one its page names (a trade path: Search Tickets). */
function activeEntryOf(location: string): RouteKey | null {
  const match = matchRoute(location);
  return match ? ((match.route.activeEntry as RouteKey | undefined) ?? match.key) : null;
}

const itemClass = css({
  position: 'relative',
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  width: '100%',
  minHeight: '40px',
  px: '3',
  borderRadius: 'md',
  color: 'ink.700',
  fontSize: 'sm',
  fontWeight: 'medium',
  textAlign: 'left',
  cursor: 'pointer',
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  minWidth: 0,
  _hover: { bg: 'bg.muted', color: 'fg' },
  '&[aria-current=page]': { bg: 'brand.50', color: 'brand.700', fontWeight: 'semibold' },
});
const collapsedItem = css({ justifyContent: 'center', px: '0' });
/** An entry's label: one line, cut with an ellipsis when the 200 px menu (or the drawer) is too narrow for it. */
const labelClass = css({ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' });

function Label({ children }: { children: ReactNode }) {
  return <span className={labelClass}>{children}</span>;
}

function Badge({ count, collapsed, label }: { count: number; collapsed: boolean; label: string }) {
  const text = badgeText(count, collapsed);
  if (!text) return null;
  return (
    <span data-badge="" className={cx(badgeClass, collapsed ? badgeCollapsed : badgeOpen)}>
      <span aria-hidden="true">{text}</span>
      {/* readers hear the exact count and what it counts, not '10+' */}
      <span className={css({ srOnly: true })}>
        , {count} {label}
      </span>
    </span>
  );
}
const badgeClass = css({
  flexShrink: 0,
  px: '1',
  borderRadius: 'pill',
  bg: 'danger',
  color: 'white',
  fontWeight: 'bold',
  textAlign: 'center',
});
// collapsed, the badge sits above the item's top-right corner: the icon (10 px down the 40 px item) stays clear
// even with '10+'
const badgeCollapsed = css({
  ml: '0',
  position: 'absolute',
  top: '-8px',
  right: '-6px',
  minWidth: '16px',
  height: '16px',
  fontSize: '10px',
  lineHeight: '16px',
});
const badgeOpen = css({
  ml: 'auto',
  position: 'static',
  minWidth: '20px',
  height: '18px',
  fontSize: '11px',
  lineHeight: '18px',
});

/**
 * The logo: a link to /dashboard only once KYC is approved (status 1). `onNavigate` runs on a click (the phone
 * drawer closes: on /dashboard itself the path does not change, so the route change would not close it).
 */
export function Logo({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const kycApproved = Session.useSelector((s) => selectKycStatus(s) === 1);
  const isAdmin = Session.useSelector((s) => s.context.account?.user_type === 'admin');
  const mark = (
    <>
      <span
        aria-hidden="true"
        className={css({
          display: 'inline-grid',
          placeItems: 'center',
          width: '32px',
          height: '32px',
          borderRadius: 'md',
          bg: 'accent',
          color: 'white',
          fontWeight: 'bold',
          fontSize: 'sm',
          flexShrink: 0,
        })}
      >
        SB
      </span>
      {collapsed ? null : <span className={css({ fontWeight: 'bold', color: 'fg' })}>SB Portal</span>}
    </>
  );
  const box = css({ display: 'flex', alignItems: 'center', gap: '2', textDecoration: 'none', minHeight: '40px' });
  return kycApproved ? (
    <Link
      href={homeHref(isAdmin)}
      className={box}
      aria-label={isAdmin ? 'SB Portal, go to the back office' : 'SB Portal, go to the dashboard'}
      onClick={onNavigate}
    >
      {mark}
    </Link>
  ) : (
    <span className={box} role="img" aria-label="SB Portal">
      {mark}
    </span>
  );
}

/**
 * The menu list, in the desktop sidebar (`variant="sidebar"`, collapsible) and in the phone drawer
 * (`variant="drawer"`, always with labels).
 */
export function MenuNav({ variant, onNavigate }: { variant: 'sidebar' | 'drawer'; onNavigate?: () => void }) {
  const [location] = useLocation();
  const menu = SideMenu.useActorRef();
  const collapsed = SideMenu.useSelector((s) => variant === 'sidebar' && s.matches({ width: 'collapsed' }));
  const salesOpen = SideMenu.useSelector((s) => s.matches({ salesList: 'open' }));
  const panelOpen = SideMenu.useSelector((s) => s.matches({ notificationsPanel: 'open' }));
  const permissions = Session.useSelector(selectAllowedPermissions, (a, b) => a.join() === b.join());
  const name = Session.useSelector((s) =>
    [s.context.account?.first_name, s.context.account?.last_name].filter(Boolean).join(' '),
  );
  const session = Session.useActorRef();
  const gate = useKycGate();
  const salesCounts = useMenuCounts((s) => s?.context.sales ?? []);
  const unread = useMenuCounts((s) => s?.context.notifications?.unread_count ?? 0);
  const held = gate !== 'open';
  const isAdmin = Session.useSelector((s) => s.context.account?.user_type === 'admin');
  const visible = menuEntries.filter((e) => shownInMenu(e, permissions, isAdmin));
  const active = activeEntryOf(location);
  const item = cx(itemClass, collapsed && collapsedItem);

  return (
    <nav
      aria-label="Main menu"
      className={css({ display: 'flex', flexDirection: 'column', gap: '1', flex: 1, minHeight: 0 })}
    >
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1', listStyle: 'none', p: 0, m: 0 })}>
        {variant === 'sidebar' ? (
          <li>
            <button
              type="button"
              className={item}
              aria-label={collapsed ? 'Expand menu' : 'Minimise menu'}
              aria-expanded={!collapsed}
              title={collapsed ? 'Expand menu' : undefined}
              onClick={() => menu.send({ type: 'menu.toggled' })}
            >
              {collapsed ? icons.expand : icons.collapse}
              {collapsed ? null : <Label>Minimise</Label>}
            </button>
          </li>
        ) : null}
        {held
          ? null
          : visible.map((entry) => {
              if (entry.kind === 'account' && variant === 'sidebar') {
                return (
                  <SellerPanelEntry
                    key={entry.key}
                    name={name}
                    collapsed={collapsed}
                    className={item}
                    icon={MENU_ICONS[entry.icon]}
                  />
                );
              }
              if (entry.kind === 'account') {
                // on phones the name stays a link to My Account (the spec)
                return (
                  <li key={entry.key}>
                    <Link
                      href={entry.to ?? routes.dashboard.href({})}
                      className={item}
                      aria-current={active === entry.key ? 'page' : undefined}
                      title={collapsed ? name : undefined}
                      aria-label={collapsed ? `${name}, my account` : undefined}
                      onClick={onNavigate}
                    >
                      {MENU_ICONS[entry.icon]}
                      {collapsed ? null : <Label>{name}</Label>}
                    </Link>
                  </li>
                );
              }
              if (entry.kind === 'notifications') {
                return (
                  <li key={entry.key}>
                    <button
                      type="button"
                      className={item}
                      aria-haspopup="dialog"
                      aria-expanded={panelOpen}
                      data-notifications-toggle=""
                      title={collapsed ? entry.label : undefined}
                      aria-label={collapsed ? `${entry.label}, ${unread} unread` : undefined}
                      onClick={() => {
                        onNavigate?.();
                        menu.send({ type: panelOpen ? 'notifications.closed' : 'notifications.opened' });
                      }}
                    >
                      {MENU_ICONS[entry.icon]}
                      {collapsed ? null : <Label>{entry.label}</Label>}
                      <Badge count={unread} collapsed={collapsed} label="unread notifications" />
                    </button>
                  </li>
                );
              }
              if (entry.kind === 'sales') {
                const onSales = active === entry.key;
                if (collapsed) {
                  // the spec keeps a collapsed Sales to its first non-empty status
                  return (
                    <li key={entry.key}>
                      <Link
                        href={href.sales(salesLandingStatus(salesCounts))}
                        className={item}
                        aria-current={onSales ? 'page' : undefined}
                        aria-label={entry.label}
                        title={entry.label}
                      >
                        {MENU_ICONS[entry.icon]}
                      </Link>
                    </li>
                  );
                }
                return (
                  <li key={entry.key}>
                    <button
                      type="button"
                      className={cx(item, onSales && css({ color: 'brand.700', fontWeight: 'semibold' }))}
                      aria-expanded={salesOpen}
                      aria-controls={`sales-list-${variant}`}
                      onClick={() => menu.send({ type: 'sales.toggled' })}
                    >
                      {MENU_ICONS[entry.icon]}
                      <Label>{entry.label}</Label>
                      <span
                        className={cx(
                          css({ display: 'inline-flex', flexShrink: 0, ml: 'auto', transition: 'transform 0.15s' }),
                          salesOpen ? css({ transform: 'rotate(180deg)' }) : css({ transform: 'none' }),
                        )}
                      >
                        {icons.chevronDown}
                      </span>
                    </button>
                    {salesOpen ? (
                      <ul
                        id={`sales-list-${variant}`}
                        className={css({
                          listStyle: 'none',
                          p: 0,
                          m: 0,
                          pl: '3',
                          display: 'grid',
                          gridTemplateColumns: 'minmax(0, 1fr)',
                          gap: '0.5',
                        })}
                      >
                        {SALES_STATUSES.map(({ status, label }) => {
                          const to = href.sales(status);
                          const count = salesCounts.find((c) => c.status === status)?.orders ?? 0;
                          return (
                            <li key={status}>
                              <Link
                                href={to}
                                className={cx(
                                  itemClass,
                                  css({ minHeight: '34px', px: '2', gap: '2', fontSize: '13px' }),
                                )}
                                aria-current={location === to ? 'page' : undefined}
                                // the badges count orders in every currency; the dashboard says which one it counts
                                title={count > 0 ? `${count} ${label} orders, all currencies` : undefined}
                                onClick={onNavigate}
                              >
                                <Label>{label}</Label>
                                <Badge
                                  count={count}
                                  collapsed={false}
                                  label={`${label.toLowerCase()} orders, all currencies`}
                                />
                              </Link>
                            </li>
                          );
                        })}
                      </ul>
                    ) : null}
                  </li>
                );
              }
              return (
                <li key={entry.key}>
                  <Link
                    href={entry.to ?? routes.dashboard.href({})}
                    className={item}
                    aria-current={active === entry.key ? 'page' : undefined}
                    aria-label={collapsed ? entry.label : undefined}
                    title={collapsed ? entry.label : undefined}
                    onClick={onNavigate}
                  >
                    {MENU_ICONS[entry.icon]}
                    {collapsed ? null : <Label>{entry.label}</Label>}
                  </Link>
                </li>
              );
            })}
      </ul>
      {held ? null : (
        <button
          type="button"
          className={cx(item, css({ mt: 'auto' }))}
          aria-label={collapsed ? 'Logout' : undefined}
          title={collapsed ? 'Logout' : undefined}
          onClick={() => session.send({ type: 'logout.requested' })}
        >
          {icons.logout}
          {collapsed ? null : <Label>Logout</Label>}
        </button>
      )}
    </nav>
  );
}
