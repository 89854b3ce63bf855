import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import { Link, useLocation } from 'wouter';
import { selectAllowedPermissions } from '../../../machines/session.machine';
import { Session } from '../../app/session';
import { matchPattern } from '../../routes';
import { type SettingsMenuLink, settingsMenuLinks } from './settings-menu';

const item = css({
  display: 'block',
  px: '3',
  py: '2',
  borderRadius: 'md',
  fontSize: 'sm',
  color: 'fg',
  textDecoration: 'none',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
  _hover: { bg: 'bg.muted' },
  _focusVisible: { outline: '2px solid {colors.accent}', outlineOffset: '1px' },
});
const active = css({ bg: 'bg.muted', fontWeight: 'semibold', color: 'accent' });
// a coming-soon entry wraps its note under its label instead of running out of the 200 px column
const soon = css({ color: 'fg.muted', cursor: 'default', whiteSpace: 'normal', _hover: { bg: 'transparent' } });

function Entries({ links, location }: { links: SettingsMenuLink[]; location: string }) {
  return (
    <ul className={css({ listStyle: 'none', display: 'grid', gap: '1', m: 0, p: 0 })}>
      {links.map((entry) => {
        const current = entry.pattern !== null && matchPattern(entry.pattern, location) !== null;
        return (
          <li key={entry.label} className={css({ minWidth: 0 })}>
            {entry.to ? (
              <Link
                href={entry.to}
                className={cx(item, current ? active : undefined)}
                aria-current={current ? 'page' : undefined}
                title={entry.label}
              >
                {entry.label}
              </Link>
            ) : (
              <span className={cx(item, soon)} title={`${entry.label}: coming soon`}>
                {entry.label} <span className={css({ fontSize: 'xs' })}>(coming soon)</span>
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * Every settings page inside its sub-menu (src/features/settings/settings-menu.ts): a column beside the page on
 * desktop, a disclosure above it on phones (the current page's name on its button). Links are plain links, so
 * Tab and Enter reach every entry.
 */
export function SettingsLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const permissions = Session.useSelector(selectAllowedPermissions, (a, b) => a.join() === b.join());
  const links = settingsMenuLinks(permissions);
  const current = links.find((l) => l.pattern !== null && matchPattern(l.pattern, location) !== null);
  return (
    <div
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: 'minmax(0, 1fr)', desktop: '13rem minmax(0, 1fr)' },
        gap: { base: '3', desktop: '6' },
        alignItems: 'start',
      })}
    >
      <nav
        aria-label="Settings"
        className={css({
          display: { base: 'none', desktop: 'block' },
          bg: 'bg',
          borderRadius: 'lg',
          p: '2',
          position: 'sticky',
          top: '4',
        })}
      >
        <Entries links={links} location={location} />
      </nav>
      <details
        key={location}
        data-testid="settings-menu-phone"
        className={css({ display: { base: 'block', desktop: 'none' }, bg: 'bg', borderRadius: 'lg' })}
      >
        <summary
          className={css({
            px: '4',
            py: '3',
            cursor: 'pointer',
            fontWeight: 'semibold',
            overflowWrap: 'anywhere',
            _focusVisible: { outline: '2px solid {colors.accent}' },
          })}
        >
          Settings menu{current ? `: ${current.label}` : ''}
        </summary>
        <nav aria-label="Settings" className={css({ px: '2', pb: '2' })}>
          <Entries links={links} location={location} />
        </nav>
      </details>
      <div className={css({ minWidth: 0 })}>{children}</div>
    </div>
  );
}
