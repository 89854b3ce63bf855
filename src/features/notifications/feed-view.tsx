import { css } from 'styled-system/css';
import { Link } from 'wouter';
import {
  EMPTY_TEXT,
  type FeedItem,
  isUnread,
  PLACEHOLDERS_FIRST,
  PLACEHOLDERS_MORE,
  type Tab,
} from '../../../machines/notifications.machine';
import { isPortalPath } from '../../../machines/portal-path';
import { useMenuCounts } from '../../app/shell/shell-actors';
import { activityTone, humanizeName } from '../../lib/feed-format';
import { formatDate } from '../../lib/format-date';
import { useListScroll } from '../../lib/use-list-scroll';
import { Button } from '../../ui/button';
import { Skeleton } from '../../ui/skeleton';
import { ToneBadge } from '../../ui/tone-badge';
import { useFeed, useFeedSelector } from './feed-actor';

const TAB_LABEL: Record<Tab, string> = { notifications: 'Notifications', activity: 'Activity log' };
const TABS: readonly Tab[] = ['notifications', 'activity'];

/** The two tabs, each with its count (from the menu counts). */
export function FeedTabs({ idPrefix }: { idPrefix: string }) {
  const feed = useFeed();
  const tab = useFeedSelector((s) => s.context.filters.tab);
  const counts = useMenuCounts((s) => s?.context.notifications);
  const countOf = (t: Tab) => (t === 'notifications' ? counts?.notification : counts?.activity);
  return (
    <div
      role="tablist"
      aria-label="Notifications and activity"
      className={css({ display: 'flex', gap: '1', borderBottom: '1px solid {colors.border}' })}
    >
      {TABS.map((t) => (
        <button
          key={t}
          type="button"
          role="tab"
          id={`${idPrefix}-tab-${t}`}
          aria-selected={tab === t}
          aria-controls={`${idPrefix}-panel`}
          tabIndex={tab === t ? 0 : -1}
          onClick={() => feed.send({ type: 'filters.changed', filters: { tab: t } })}
          onKeyDown={(e) => {
            if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
              const next = TABS[(TABS.indexOf(t) + 1) % TABS.length] ?? t;
              feed.send({ type: 'filters.changed', filters: { tab: next } });
              document.getElementById(`${idPrefix}-tab-${next}`)?.focus();
            }
          }}
          className={css({
            px: '3',
            py: '2',
            fontSize: 'sm',
            fontWeight: 'semibold',
            color: tab === t ? 'brand.700' : 'fg.muted',
            borderBottom: tab === t ? '2px solid {colors.accent}' : '2px solid transparent',
            mb: '-1px',
            cursor: 'pointer',
            // 'Activity log 51' stays on one line on a phone
            whiteSpace: 'nowrap',
            flexShrink: 0,
          })}
        >
          {TAB_LABEL[t]}
          {countOf(t) !== undefined ? (
            <span className={css({ ml: '1.5', px: '1.5', borderRadius: 'pill', bg: 'bg.muted', fontSize: 'xs' })}>
              {countOf(t)}
            </span>
          ) : null}
        </button>
      ))}
    </div>
  );
}

function Placeholder() {
  return (
    <li
      aria-hidden="true"
      className={css({ display: 'grid', gap: '2', py: '3', borderBottom: '1px solid {colors.bg.muted}' })}
    >
      <Skeleton width="45%" height="12px" />
      <Skeleton width="90%" height="10px" />
      <Skeleton width="30%" height="10px" />
    </li>
  );
}

const placeholders = (kind: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${kind}-${i + 1}`).map((key) => <Placeholder key={key} />);

/** A notification's link when it is a path of this portal (the server writes only those; a browser checks). */
export const portalLink = (link: string | null | undefined) => (link && isPortalPath(link) ? link : null);

const rowBox = css({
  display: 'grid',
  gridTemplateColumns: '12px minmax(0, 1fr)',
  gap: '2',
  width: '100%',
  textAlign: 'left',
  py: '3',
  px: '1',
  cursor: 'pointer',
  color: 'inherit',
  textDecoration: 'none',
  _hover: { bg: 'bg.subtle' },
});

function Row({ item, onLeave }: { item: FeedItem; onLeave?: () => void }) {
  const feed = useFeed();
  const date = <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>{formatDate(item.created_at)}</span>;
  if ('viewed' in item) {
    const unread = isUnread(item);
    const content = (
      <>
        <span
          aria-hidden="true"
          className={css({
            width: '8px',
            height: '8px',
            mt: '1.5',
            borderRadius: 'pill',
            bg: unread ? 'success' : 'transparent',
          })}
        />
        <span className={css({ display: 'grid', gap: '1', minWidth: 0, overflowWrap: 'anywhere' })}>
          <span
            className={css({
              display: 'flex',
              flexWrap: 'wrap',
              alignItems: 'center',
              gap: '2',
              fontWeight: 'semibold',
              fontSize: 'sm',
            })}
          >
            {humanizeName(item.name)}
            {unread ? <ToneBadge tone="success">New</ToneBadge> : null}
          </span>
          <span className={css({ fontSize: 'sm', color: 'ink.700' })}>{item.description}</span>
          {date}
        </span>
      </>
    );
    const opened = () => feed.send({ type: 'item.opened', key: item.id });
    const link = portalLink(item.link);
    return (
      <li className={css({ borderBottom: '1px solid {colors.bg.muted}' })}>
        {link ? (
          // an actionable notification opens what it is about (the order's drawer, the booking, the wallet)
          <Link
            href={link}
            className={rowBox}
            onClick={() => {
              opened();
              onLeave?.();
            }}
          >
            {content}
          </Link>
        ) : (
          <button type="button" onClick={opened} className={rowBox}>
            {content}
          </button>
        )}
      </li>
    );
  }
  return (
    <li
      className={css({
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr)',
        gap: '1',
        py: '3',
        px: '1',
        borderBottom: '1px solid {colors.bg.muted}',
        overflowWrap: 'anywhere',
      })}
    >
      <span className={css({ justifySelf: 'start', maxWidth: '100%', minWidth: 0 })}>
        <ToneBadge tone={activityTone(item.type)}>{humanizeName(item.type)}</ToneBadge>
      </span>
      <span className={css({ fontSize: 'sm' })}>{item.description}</span>
      {date}
    </li>
  );
}

/**
 * The list: placeholders (5 first, 3 more), items, the empty text, the error with Retry, or 'All {type}
 * loaded'. Scrolling reports the distance to the bottom; when asked, it reports whether it fills its box.
 */
export function FeedList({
  idPrefix,
  maxHeight,
  onLeave,
}: {
  idPrefix: string;
  maxHeight: string;
  /** Called when an actionable notification takes the user to its page (the panel closes). */
  onLeave?: () => void;
}) {
  const feed = useFeed();
  const scroll = useListScroll(feed);
  const tab = useFeedSelector((s) => s.context.filters.tab);
  const items = useFeedSelector((s) => s.context.items);
  const error = useFeedSelector((s) => (s.hasTag('error') ? s.context.error : null));
  const loadingFirst = useFeedSelector((s) => s.hasTag('loadingFirst'));
  const loadingMore = useFeedSelector((s) => s.hasTag('loadingMore'));
  const empty = useFeedSelector((s) => s.matches('empty'));
  const complete = useFeedSelector((s) => s.matches('complete'));

  return (
    <div
      ref={scroll.ref}
      id={`${idPrefix}-panel`}
      role="tabpanel"
      aria-labelledby={`${idPrefix}-tab-${tab}`}
      aria-busy={loadingFirst || loadingMore}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling tab panel must be reachable by keyboard to scroll (WAI-ARIA tabs pattern)
      tabIndex={0}
      onScroll={scroll.onScroll}
      className={css({ overflowY: 'auto', px: '1' })}
      style={{ maxHeight }}
    >
      <ul className={css({ listStyle: 'none', m: 0, p: 0 })}>
        {items.map((item) => (
          <Row key={item.id} item={item} onLeave={onLeave} />
        ))}
        {loadingFirst ? placeholders('first', PLACEHOLDERS_FIRST) : null}
        {loadingMore ? placeholders('more', PLACEHOLDERS_MORE) : null}
      </ul>
      {empty ? <p className={css({ py: '6', textAlign: 'center', color: 'fg.muted' })}>{EMPTY_TEXT[tab]}</p> : null}
      {error ? (
        <div role="alert" className={css({ display: 'grid', justifyItems: 'center', gap: '2', py: '4' })}>
          <p className={css({ color: 'error', fontSize: 'sm' })}>{error}</p>
          <Button tone="secondary" onClick={() => feed.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : null}
      {complete ? (
        <p className={css({ py: '3', textAlign: 'center', color: 'fg.muted', fontSize: 'sm' })}>
          All {tab === 'notifications' ? 'notifications' : 'activity'} loaded
        </p>
      ) : null}
    </div>
  );
}
