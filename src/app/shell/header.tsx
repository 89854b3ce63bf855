import { lazy, Suspense } from 'react';
import { css } from 'styled-system/css';
import { useLocation } from 'wouter';
import { selectFirstName } from '../../../machines/session.machine';
import { useDocumentTitle } from '../../lib/use-document-title';
import { documentTitle } from '../../routes';
import { FloatingFailure, LoadBoundary, LoadFailed } from '../load-boundary';
import { headerTitle, matchRoute, pageTitle } from '../route-access';
import { Session } from '../session';
import { icons } from './icons';
import { SupportInfo } from './shell-actors';

const SupportPopup = lazy(() => import('./support-popup'));

/**
 * The page header: the page's one h1 (its name from the route registry, or 'Page not found'), under the
 * spec's header title where it differs ('Welcome' and the first name), and the bot icon that opens the
 * support popup. It also sets the document title.
 */
export function Header() {
  const [location] = useLocation();
  const firstName = Session.useSelector(selectFirstName);
  // '/' only redirects to the dashboard
  const title = location === '/' ? null : pageTitle(location);
  const greeting = matchRoute(location)?.route.header === 'title' ? null : headerTitle(location, firstName);
  useDocumentTitle(documentTitle(title));
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
      <div className={css({ display: 'grid', gap: '0.5', minWidth: 0 })}>
        {greeting ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted', fontWeight: 'medium', overflowWrap: 'anywhere' })}>
            {greeting}
          </p>
        ) : null}
        <h1 className={css({ fontSize: { base: 'xl', desktop: '2xl' }, fontWeight: 'bold', overflowWrap: 'anywhere' })}>
          {title}
        </h1>
      </div>
      <button
        type="button"
        aria-label="Support"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => support.send({ type: 'support.opened' })}
        className={css({
          display: 'grid',
          placeItems: 'center',
          flexShrink: 0,
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
        <LoadBoundary
          fallback={(error) => (
            <FloatingFailure label="Support">
              <LoadFailed error={error} compact onDismiss={() => support.send({ type: 'support.closed' })} />
            </FloatingFailure>
          )}
        >
          <Suspense fallback={null}>
            <SupportPopup />
          </Suspense>
        </LoadBoundary>
      ) : null}
    </header>
  );
}
