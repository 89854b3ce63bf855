import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import { useLocation } from 'wouter';
import { SideMenu } from '../../app/shell/shell-actors';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { useEscapeKey } from '../../ui/use-escape-key';
import { FeedProvider } from './feed-actor';
import { FeedList, FeedTabs } from './feed-view';

/** Room kept between the panel and the window's edges, and between the menu and the panel. */
const MARGIN = 8;

/**
 * On a desktop, the panel opens beside the side menu level with its Notifications entry (moved up as much as
 * it needs to fit the window); on a phone (the entry is in the closed drawer, not shown) it stays the card.
 */
function useAnchorTop(panel: RefObject<HTMLElement | null>): number | null {
  const [top, setTop] = useState<number | null>(null);
  useLayoutEffect(() => {
    const place = () => {
      const entry = [...document.querySelectorAll<HTMLElement>('[data-notifications-toggle]')].find(
        (el) => el.getClientRects().length > 0,
      );
      const box = panel.current;
      if (!entry || !box) {
        setTop(null);
        return;
      }
      const wanted = entry.getBoundingClientRect().top;
      setTop(Math.max(MARGIN, Math.min(wanted, window.innerHeight - box.offsetHeight - MARGIN)));
    };
    place();
    const resize = new ResizeObserver(place);
    if (panel.current) resize.observe(panel.current);
    window.addEventListener('resize', place);
    // the side menu scrolls on a short window: the entry moves
    document.addEventListener('scroll', place, true);
    return () => {
      resize.disconnect();
      window.removeEventListener('resize', place);
      document.removeEventListener('scroll', place, true);
    };
  }, [panel]);
  return top;
}

/**
 * The notifications panel: a popup beside the menu on desktop, next to its Notifications entry, and a
 * dropdown card under the top bar on phones.
 * Escape or a click outside closes it; View all opens /notifications/home.
 */
export default function NotificationsPanel() {
  const menu = SideMenu.useActorRef();
  const collapsed = SideMenu.useSelector((s) => s.matches({ width: 'collapsed' }));
  const [, navigate] = useLocation();
  const panel = useRef<HTMLDivElement>(null);
  const anchorTop = useAnchorTop(panel);

  const close = () => menu.send({ type: 'notifications.closed' });
  useEscapeKey(true, close);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Element | null;
      // the menu entry toggles the panel itself
      if (panel.current?.contains(target) || target?.closest('[data-notifications-toggle]')) return;
      menu.send({ type: 'notifications.closed' });
    };
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      // give the focus back when it was inside the panel (not when the user clicked elsewhere)
      const active = document.activeElement;
      if (opener?.isConnected && (!active || active === document.body || panel.current?.contains(active))) {
        opener.focus();
      }
    };
  }, [menu]);

  return (
    <div
      ref={panel}
      role="dialog"
      aria-label="Notifications"
      className={css({
        position: 'fixed',
        zIndex: 40,
        bg: 'bg',
        borderRadius: 'lg',
        boxShadow: '0 12px 40px rgba(17, 24, 39, 0.18)',
        display: 'flex',
        flexDirection: 'column',
        gap: '2',
        p: '3',
        top: { base: '60px', desktop: '72px' },
        left: { base: '2', desktop: collapsed ? '72px' : '212px' },
        right: { base: '2', desktop: 'auto' },
        width: { base: 'auto', desktop: '380px' },
      })}
      style={anchorTop === null ? undefined : { top: anchorTop }}
    >
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between' })}>
        <h2 className={css({ fontWeight: 'bold' })}>Notifications</h2>
        <Button
          tone="ghost"
          onClick={() => {
            close();
            navigate(routes.notifications.href({}));
          }}
        >
          View all
        </Button>
      </div>
      <FeedProvider viewKey="notifications-panel" tab="notifications">
        <FocusSelectedTab within={panel} />
        <FeedTabs idPrefix="panel" />
        <FeedList idPrefix="panel" maxHeight="min(60vh, 480px)" onLeave={close} />
      </FeedProvider>
    </div>
  );
}

/** Opening the panel puts the focus on its selected tab (once the feed is there to show the tabs). */
function FocusSelectedTab({ within }: { within: RefObject<HTMLElement | null> }) {
  useEffect(() => {
    within.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')?.focus();
  }, [within]);
  return null;
}
