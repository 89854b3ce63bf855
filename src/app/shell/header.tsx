import { lazy, Suspense } from 'react';
import { css } from 'styled-system/css';
import { useLocation } from 'wouter';
import { selectFirstName } from '../../../machines/session.machine';
import { headerTitle } from '../route-access';
import { Session } from '../session';
import { icons } from './icons';
import { SupportInfo } from './shell-actors';

const SupportPopup = lazy(() => import('./support-popup'));

/** The page header: the title for the path and the bot icon that opens the support popup. */
export function Header() {
  const [location] = useLocation();
  const firstName = Session.useSelector(selectFirstName);
  const support = SupportInfo.useActorRef();
  const open = SupportInfo.useSelector((s) => !s.matches('closed'));
  return (
    <header
      className={css({
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: '3',
        px: { base: '4', desktop: '6' },
        py: '4',
      })}
    >
      <h1 className={css({ fontSize: { base: 'xl', desktop: '2xl' }, fontWeight: 'bold' })}>
        {headerTitle(location, firstName)}
      </h1>
      <button
        type="button"
        aria-label="Support"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => support.send({ type: 'support.opened' })}
        className={css({
          display: 'grid',
          placeItems: 'center',
          width: '40px',
          height: '40px',
          borderRadius: 'pill',
          bg: 'bg',
          border: '1px solid {colors.border}',
          color: 'accent',
          cursor: 'pointer',
          _hover: { bg: 'brand.50' },
        })}
      >
        {icons.bot}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <SupportPopup />
        </Suspense>
      ) : null}
    </header>
  );
}
