import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react';
import { css } from 'styled-system/css';
import { useLocation } from 'wouter';
import { inspectFlows } from '../../lib/flows-live';
import { useMediaQuery } from '../../lib/use-media-query';
import { FullPageLoader } from '../../ui/full-page-loader';
import { useEscapeKey } from '../../ui/use-escape-key';
import { useFocusTrap } from '../../ui/use-focus-trap';
import { FloatingFailure, LoadBoundary, LoadFailed } from '../load-boundary';
import { matchRoute } from '../route-access';
import { Header } from './header';
import { icons } from './icons';
import { localMenuPreference, MenuCountsActor, SideMenu, SupportInfo, useKycGate } from './shell-actors';
import { Logo, MenuNav } from './side-menu';

const iconButton = css({
  display: 'grid',
  placeItems: 'center',
  width: '40px',
  height: '40px',
  borderRadius: 'md',
  cursor: 'pointer',
});

const NotificationsPanel = lazy(() => import('../../features/notifications/notifications-panel'));

const isSalesPage = (location: string) => matchRoute(location)?.key === 'sales';

/**
 * The portal around every logged-in page: side menu (top bar and drawer on phones), header, content. The
 * menu counts run in the actor system while the KYC gate is open (a held user's menu asks for no counts).
 */
export default function ShellLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const open = useKycGate() === 'open';
  return (
    <SideMenu.Provider
      options={{ input: { preference: localMenuPreference, salesOpen: isSalesPage(location) }, inspect: inspectFlows }}
    >
      {open ? <MenuCountsActor /> : null}
      <SupportInfo.Provider options={{ inspect: inspectFlows }}>
        <Frame>{children}</Frame>
      </SupportInfo.Provider>
    </SideMenu.Provider>
  );
}

function Frame({ children }: { children: ReactNode }) {
  const menu = SideMenu.useActorRef();
  const collapsed = SideMenu.useSelector((s) => s.matches({ width: 'collapsed' }));
  const drawerOpen = SideMenu.useSelector((s) => s.matches({ drawer: 'open' }));
  const panelOpen = SideMenu.useSelector((s) => s.matches({ notificationsPanel: 'open' }));
  const held = useKycGate() !== 'open';
  const [location] = useLocation();
  // only the menu of this width is built: the side menu on a desktop, the top bar on a phone (the other one,
  // hidden by CSS, was a whole menu's render and DOM more on a phone's main thread); both where the width is
  // unknown (no matchMedia), the CSS then showing the right one. Panda's `desktop` breakpoint: 769 px and up.
  const desktop = useMediaQuery('(min-width: 769px)');

  // a route change closes the phone drawer; arriving on a sales page opens the Sales sub-list
  useEffect(() => {
    menu.send({ type: 'drawer.closed' });
    if (isSalesPage(location)) menu.send({ type: 'sales.revealed' });
  }, [location, menu]);

  return (
    <div className={css({ minHeight: '100dvh' })}>
      <a
        href="#main"
        className={css({
          position: 'absolute',
          left: '-9999px',
          _focus: { left: '2', top: '2', zIndex: 100, bg: 'bg', p: '2', borderRadius: 'md' },
        })}
      >
        Skip to content
      </a>
      {/* desktop: the fixed side menu, 200 px or 60 px */}
      {desktop === false ? null : (
        <aside
          data-testid="side-menu"
          className={css({
            display: { base: 'none', desktop: 'flex' },
            flexDirection: 'column',
            gap: '4',
            position: 'fixed',
            insetY: 0,
            left: 0,
            zIndex: 30,
            p: '2.5',
            bg: 'bg',
            borderRight: '1px solid {colors.border}',
            transition: 'width 0.2s ease',
            overflowY: 'auto',
            overflowX: 'hidden',
          })}
          style={{ width: collapsed ? 60 : 200 }}
        >
          <div
            className={
              collapsed
                ? css({ px: '0', display: 'flex', justifyContent: 'center' })
                : css({ px: '1', display: 'flex', justifyContent: 'start' })
            }
          >
            <Logo collapsed={collapsed} />
          </div>
          <MenuNav variant="sidebar" />
        </aside>
      )}

      {/* phones: a top bar whose drawer slides in */}
      {desktop === true ? null : (
        <div
          className={css({
            display: { base: 'flex', desktop: 'none' },
            alignItems: 'center',
            gap: '3',
            position: 'sticky',
            top: 0,
            zIndex: 30,
            height: '56px',
            px: '3',
            bg: 'bg',
            borderBottom: '1px solid {colors.border}',
          })}
        >
          {held ? null : (
            <button
              type="button"
              aria-label="Open menu"
              aria-expanded={drawerOpen}
              aria-controls="phone-menu"
              onClick={() => menu.send({ type: 'drawer.opened' })}
              className={iconButton}
            >
              {icons.menu}
            </button>
          )}
          <Logo />
        </div>
      )}
      {drawerOpen && desktop !== true ? <PhoneDrawer /> : null}

      <div
        className={css({ transition: 'margin 0.2s ease', ml: { base: '0', desktop: 'var(--menu-width)' } })}
        style={{ '--menu-width': collapsed ? '60px' : '200px' } as React.CSSProperties}
      >
        <Header />
        {/* the page takes the width of a wide screen (up to 1760 px); its paragraphs keep a reading measure */}
        <main
          id="main"
          tabIndex={-1}
          className={css({
            px: { base: '4', desktop: '6' },
            pb: '8',
            outline: 'none',
            maxWidth: '110rem',
            '& p': { maxWidth: '75ch' },
          })}
        >
          {/* a page whose code does not arrive shows why, with Reload; the menu and the header keep working */}
          <LoadBoundary resetKey={location}>
            <Suspense fallback={<FullPageLoader />}>{children}</Suspense>
          </LoadBoundary>
        </main>
      </div>
      {panelOpen ? (
        <LoadBoundary fallback={(error) => <PanelFailed error={error} />}>
          <Suspense fallback={null}>
            <NotificationsPanel />
          </Suspense>
        </LoadBoundary>
      ) : null}
    </div>
  );
}

/** The notifications panel's code did not arrive: the message where the panel opens; Close or Escape. */
function PanelFailed({ error }: { error: unknown }) {
  const menu = SideMenu.useActorRef();
  const close = () => menu.send({ type: 'notifications.closed' });
  useEscapeKey(true, close);
  return (
    <FloatingFailure label="Notifications">
      <LoadFailed error={error} compact onDismiss={close} />
    </FloatingFailure>
  );
}

function PhoneDrawer() {
  const menu = SideMenu.useActorRef();
  const panel = useRef<HTMLDivElement>(null);
  const close = () => menu.send({ type: 'drawer.closed' });
  // a modal drawer: Tab stays inside, Escape closes, the focus goes back to the menu button
  useFocusTrap(panel, true);
  useEscapeKey(true, close);
  return (
    <div className={css({ position: 'fixed', inset: 0, zIndex: 50, display: { base: 'block', desktop: 'none' } })}>
      <button
        type="button"
        aria-label="Close menu"
        tabIndex={-1}
        onClick={() => menu.send({ type: 'drawer.closed' })}
        className={css({ position: 'absolute', inset: 0, bg: 'rgba(17, 24, 39, 0.45)', cursor: 'default' })}
      />
      <div
        ref={panel}
        id="phone-menu"
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        className={css({
          position: 'absolute',
          insetY: 0,
          left: 0,
          width: 'min(280px, 85vw)',
          bg: 'bg',
          p: '3',
          display: 'flex',
          flexDirection: 'column',
          gap: '3',
          animation: 'drawerIn 0.2s ease-out',
          overflowY: 'auto',
        })}
      >
        <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' })}>
          <Logo onNavigate={close} />
          <button
            type="button"
            aria-label="Close menu"
            onClick={() => menu.send({ type: 'drawer.closed' })}
            className={iconButton}
          >
            {icons.close}
          </button>
        </div>
        <MenuNav variant="drawer" onNavigate={() => menu.send({ type: 'drawer.closed' })} />
      </div>
    </div>
  );
}
