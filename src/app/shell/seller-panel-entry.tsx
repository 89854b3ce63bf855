import { useSelector } from '@xstate/react';
import { lazy, type ReactNode, Suspense } from 'react';
import { css } from 'styled-system/css';
import { sellerPanelMachine } from '../../../machines/seller-panel.machine';
import { LoadBoundary } from '../load-boundary';
import { useViewActor } from '../view-actor';

const SellerPanel = lazy(() => import('../../features/seller-panel/seller-panel'));

/** The panel's key among the session's views (and its systemId). */
export const SELLER_PANEL_VIEW = 'sellerPanel';

/**
 * The user's name in the desktop side menu: it opens the seller panel (spec section 2) instead of going
 * straight to My Account; on phones the name stays a link to /settings/myAccount. The panel's code loads
 * when it first opens.
 */
export function SellerPanelEntry({
  name,
  collapsed,
  className,
  icon,
}: {
  name: string;
  collapsed: boolean;
  className: string;
  icon: ReactNode;
}) {
  const panel = useViewActor(sellerPanelMachine, SELLER_PANEL_VIEW, undefined, { systemId: SELLER_PANEL_VIEW });
  const open = useSelector(panel, (s) => s?.matches('open') ?? false);
  return (
    <li>
      <button
        type="button"
        className={className}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-seller-panel-toggle=""
        title={collapsed ? name : undefined}
        aria-label={collapsed ? `${name}, seller panel` : undefined}
        onClick={() => panel?.send({ type: 'panel.toggled' })}
      >
        {icon}
        {collapsed ? null : (
          <span className={css({ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' })}>{name}</span>
        )}
      </button>
      {open ? (
        <LoadBoundary fallback={() => null}>
          <Suspense fallback={null}>
            <SellerPanel collapsed={collapsed} />
          </Suspense>
        </LoadBoundary>
      ) : null}
    </li>
  );
}
