import { createActorContext } from '@xstate/react';
import {
  createContext,
  memo,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useDeferredValue,
  useEffect,
  useRef,
  useState,
} from 'react';
import { css, cx } from 'styled-system/css';
import { Link } from 'wouter';
import {
  CURRENCIES,
  type Currency,
  type DashboardContext,
  dashboardMachine,
} from '../../../machines/dashboard.machine';
import { SALES_STATUSES } from '../../../machines/menu-counts.machine';
import { notify } from '../../app/notify-bridge';
import { Session } from '../../app/session';
import { useMenuCounts } from '../../app/shell/shell-actors';
import { deadlineTone } from '../../lib/deadline';
import { activityTone, humanizeName } from '../../lib/feed-format';
import { inspectFlows } from '../../lib/flows-live';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { useNearViewport } from '../../lib/use-near-viewport';
import { href, paths } from '../../routes';
import { BarChart } from '../../ui/bar-chart';
import { Button } from '../../ui/button';
import { Deadline, deadlineEdge } from '../../ui/deadline';
import { Dropdown, type Option } from '../../ui/dropdown';
import { Loading, Skeleton } from '../../ui/skeleton';
import { ToneBadge } from '../../ui/tone-badge';
import { localCurrencyMemory } from './currency-memory';
import { row, rowList, SkeletonLine, SkeletonRows } from './dashboard-rows';

const Dashboard = createActorContext(dashboardMachine);

const CURRENCY_OPTIONS: Option<Currency>[] = CURRENCIES.map((c) => ({ label: c, value: c }));
/** The most rows the 'Awaiting delivery' widget shows (the server's limit). */
const AWAITING_ROWS = 10;
/** The most rows the top events, notifications and activity widgets show. */
const LATEST_ROWS = 5;

export default function DashboardPage() {
  const currency = Session.useSelector((s) => s.context.account?.currency);
  const userId = Session.useSelector((s) => s.context.account?.id);
  const known = CURRENCIES.includes(currency as Currency) ? (currency as Currency) : 'GBP';
  return (
    <Dashboard.Provider
      key={userId}
      options={{
        input: { currency: known, memory: userId === undefined ? undefined : localCurrencyMemory(userId) },
        inspect: inspectFlows,
      }}
    >
      <DashboardGrid />
    </Dashboard.Provider>
  );
}

/**
 * Every widget may be built now, near the viewport or not: set once the page has answered every widget's call
 * and the browser is idle, or as soon as a keyboard's focus comes into the grid. Until then a widget below the
 * fold waits until it is scrolled near (Card): the page's first render builds only what it shows. Built by
 * then, a keyboard's Tab, a screen reader's reading and the browser's find all reach every widget.
 */
const AllWidgets = createContext(false);

function useAllWidgets(): [boolean, () => void] {
  const [all, setAll] = useState(false);
  const answered = Dashboard.useSelector((s) =>
    Object.values(s.value as Record<Region, WidgetState>).every((state) => state !== 'loading'),
  );
  useEffect(() => {
    if (all || !answered) return;
    // built in a transition: React's slices of a few milliseconds, in the browser's idle time
    const build = () => startTransition(() => setAll(true));
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(build, { timeout: 2000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(build, 0);
    return () => clearTimeout(id);
  }, [all, answered]);
  const buildNow = useCallback(() => setAll(true), []);
  return [all, buildNow];
}

function DashboardGrid() {
  const dashboard = Dashboard.useActorRef();
  useEffect(() => {
    const sub = dashboard.on('notify', ({ level, message }) => notify({ level, message }));
    return () => sub.unsubscribe();
  }, [dashboard]);
  const currency = Dashboard.useSelector((s) => s.context.currency);
  const [allWidgets, buildAllWidgets] = useAllWidgets();
  // a keyboard's focus in the grid (its first link): the next Tab must find the widgets below it
  const grid = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = grid.current;
    if (allWidgets || !el) return;
    el.addEventListener('focusin', buildAllWidgets);
    return () => el.removeEventListener('focusin', buildAllWidgets);
  }, [allWidgets, buildAllWidgets]);
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <div className={css({ display: 'flex', justifyContent: 'flex-end' })}>
        <div className={css({ width: '10rem' })}>
          <Dropdown
            label="Currency"
            searchable={false}
            options={CURRENCY_OPTIONS}
            value={currency}
            onChange={(value) => {
              if (value) dashboard.send({ type: 'currency.changed', currency: value });
            }}
          />
        </div>
      </div>
      <div
        data-testid="dashboard-grid"
        ref={grid}
        className={css({
          display: 'grid',
          gap: '4',
          // as many columns of at least 22rem as the width holds: one on a phone, two at 1280 px, four at 1920;
          // minmax(0, ...) inside: a long word in a widget wraps inside it instead of widening the page
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 22rem), 1fr))',
        })}
      >
        <AllWidgets.Provider value={allWidgets}>
          <SalesOverviewCard />
          <AwaitingDeliveryCard />
          <TopEventsCard />
          <NotificationsCard />
          <ActivityCard />
          <ReportCard />
        </AllWidgets.Provider>
      </div>
    </div>
  );
}

type Region = 'overview' | 'awaiting' | 'topEvents' | 'notifications' | 'activity' | 'report';

type WidgetState = 'loading' | 'ready' | 'failed';

/** A widget's frame: its title, then a skeleton, 'Failed to fetch data' with Retry, or its content. */
function Card<K extends Region>({
  region,
  title,
  skeleton,
  children,
}: {
  region: K;
  title: string;
  /** Placeholders with the size of what will show, so that nothing moves when it comes. */
  skeleton: ReactNode;
  children: (data: NonNullable<DashboardContext[K]>) => ReactNode;
}) {
  // each region of the dashboard machine is one widget: loading, ready or failed
  const state = Dashboard.useSelector((s) => (s.value as Record<Region, WidgetState>)[region]);
  const data = Dashboard.useSelector((s) => s.context[region]);
  // what the widget shows follows the machine in a transition: an answer's arrival re-renders this frame at
  // once (nothing below it changes), and its content is built in React's slices of a few milliseconds, the
  // browser free between them. A selector's update is synchronous (useSyncExternalStore): six widgets' content
  // built that way took tasks of 30-60 ms on this machine, the page's longest at Lighthouse's 4x CPU slowdown.
  const shownState = useDeferredValue(state);
  const shownData = useDeferredValue(data);
  const headingId = `dashboard-${region}`;
  // a widget below the fold is built as it comes near the viewport, or once the page is idle with every answer
  // in (AllWidgets): on a phone four of the six wait, 125 of the 279 elements of the page's first render, and
  // the longest tasks of its start at a phone's speed
  const frame = useRef<HTMLElement>(null);
  const nearViewport = useNearViewport(frame);
  const near = useContext(AllWidgets) || nearViewport;
  return (
    <section
      ref={frame}
      aria-labelledby={headingId}
      aria-busy={!near || shownState === 'loading'}
      className={css({
        bg: 'bg',
        borderRadius: 'lg',
        p: '5',
        display: 'grid',
        gap: '3',
        alignContent: 'start',
        minWidth: 0,
      })}
    >
      <h2 id={headingId} className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        {title}
      </h2>
      {near ? (
        <CardBody state={shownState} data={shownData} title={title} skeleton={skeleton} render={children} />
      ) : (
        <Loading label={`Loading ${title.toLowerCase()}`}>
          <Skeleton height={FAR_WIDGET_HEIGHT} />
        </Loading>
      )}
    </section>
  );
}

/** What a widget far below the viewport holds until it comes near: about the height of a widget's list. */
const FAR_WIDGET_HEIGHT = '12rem';

/** A widget's content for the state it shows. */
function CardBodyView<T>({
  state,
  data,
  title,
  skeleton,
  render,
}: {
  state: WidgetState;
  data: T | null | undefined;
  title: string;
  skeleton: ReactNode;
  render: (data: NonNullable<T>) => ReactNode;
}) {
  const dashboard = Dashboard.useActorRef();
  if (state === 'ready' && data) return render(data as NonNullable<T>);
  if (state === 'failed') {
    return (
      <div role="alert" className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
        <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
        <Button tone="secondary" onClick={() => dashboard.send({ type: 'widget.retried' })}>
          Retry
        </Button>
      </div>
    );
  }
  return (
    <Loading label={`Loading ${title.toLowerCase()}`}>
      {/* spaced like the card's content, which sits in the card's own grid */}
      <div className={css({ display: 'grid', gap: '3' })}>{skeleton}</div>
    </Loading>
  );
}
/** memo: the frame's renders with the state it already shows stop here (its type keeps the data's). */
const CardBody = memo(CardBodyView) as typeof CardBodyView;
const empty = css({ color: 'fg.muted', fontSize: 'sm' });
// a widget's rows keep to one line per field (cut with an ellipsis, the whole text in its title): a row is as
// high as its skeleton, whatever the names, so nothing moves when the widgets come in
const nameLine = css({ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
const metaLine = css({
  display: 'block',
  color: 'fg.muted',
  fontSize: 'xs',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
});
const medium = css({ fontWeight: 'medium' });
const semibold = css({ fontWeight: 'semibold' });
const rowText = css({ flex: 1, minWidth: 0 });

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className={css({ display: 'grid', gap: '0.5' })}>
      <dt className={css({ fontSize: 'xs', color: 'fg.muted' })}>{label}</dt>
      <dd className={figureValue}>{value}</dd>
    </div>
  );
}

const figures = css({ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(9rem, 1fr))', gap: '3' });
const figureValue = css({ fontSize: { base: 'lg', desktop: 'xl' }, fontWeight: 'bold', overflowWrap: 'anywhere' });

function OverviewSkeleton() {
  return (
    <>
      <div aria-hidden="true" className={figures}>
        {['Total sales', 'Orders', 'Tickets sold'].map((label) => (
          <div key={label} className={css({ display: 'grid', gap: '0.5' })}>
            <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{label}</span>
            <span className={figureValue}>
              <Skeleton inline width="5rem" height="0.8em" />
            </span>
          </div>
        ))}
      </div>
      <SkeletonRows count={SALES_STATUSES.length} lines={1} />
    </>
  );
}

function SalesOverviewCard() {
  // the figures count the orders of one currency (the menu's badges count every currency): say which
  const currency = Dashboard.useSelector((s) => s.context.currency);
  return (
    <Card region="overview" title={`Sales overview (${currency})`} skeleton={<OverviewSkeleton />}>
      {(o) => (
        <>
          {/* as many figures to a line as fit at their full width: on a phone 'Total sales £16,830.00' takes a line */}
          <dl className={figures}>
            <Figure label="Total sales" value={formatMoney({ minor: o.total_sales, currency: o.currency })} />
            <Figure label="Orders" value={String(o.orders)} />
            <Figure label="Tickets sold" value={String(o.tickets_sold)} />
          </dl>
          {o.orders === 0 && o.statuses.every((s) => s.orders === 0) ? (
            <p className={empty}>No sales in {o.currency} yet.</p>
          ) : (
            <ul className={rowList}>
              {SALES_STATUSES.map(({ status, label }) => {
                const s = o.statuses.find((x) => x.status === status);
                return (
                  <li key={status} className={row}>
                    <span>{label}</span>
                    <span>
                      {s?.orders ?? 0} · {formatMoney({ minor: s?.amount ?? 0, currency: o.currency })}
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </Card>
  );
}

/**
 * How many rows 'Awaiting delivery' will show, for its skeleton (up to 10): the confirmed orders in this
 * currency once the overview has them, else the menu's confirmed orders in every currency (at least as many),
 * else the most it can show.
 */
function useExpectedAwaiting(): { rows: number; more: boolean } {
  const fromOverview = Dashboard.useSelector((s) =>
    (s.value as Record<Region, string>).overview === 'ready'
      ? s.context.overview?.statuses.find((x) => x.status === 'confirmed')?.orders
      : undefined,
  );
  const fromMenu = useMenuCounts((s) =>
    s?.matches({ sales: 'ready' }) ? (s.context.sales.find((x) => x.status === 'confirmed')?.orders ?? 0) : undefined,
  );
  const expected = fromOverview ?? fromMenu ?? AWAITING_ROWS;
  return { rows: Math.min(AWAITING_ROWS, expected), more: expected > AWAITING_ROWS };
}

function AwaitingSkeleton() {
  const { rows, more } = useExpectedAwaiting();
  // no order: the empty text's one line; more than it shows: the 'See all' link's line too
  if (rows === 0) return <SkeletonLine width="60%" />;
  return (
    <>
      <SkeletonRows count={rows} lines={2} />
      {more ? <SkeletonLine width="50%" /> : null}
    </>
  );
}

function AwaitingDeliveryCard() {
  const currency = Dashboard.useSelector((s) => s.context.currency);
  const now = Date.now();
  return (
    <Card region="awaiting" title={`Awaiting delivery (${currency})`} skeleton={<AwaitingSkeleton />}>
      {(a) =>
        a.orders.length === 0 ? (
          <p className={empty}>No orders are waiting for delivery.</p>
        ) : (
          <>
            <ul className={rowList}>
              {a.orders.map((o) => (
                <li key={o.order_id} className={cx(row, deadlineEdge(deadlineTone(o.deliver_by, now)))}>
                  <span className={rowText}>
                    <span className={cx(nameLine, medium)} title={o.event_name}>
                      {o.event_name}
                    </span>
                    <span className={metaLine}>
                      {formatDate(o.event_date)} · {o.booking_no} · {o.quantity}{' '}
                      {o.quantity === 1 ? 'ticket' : 'tickets'}
                    </span>
                  </span>
                  <span className={css({ display: 'grid', justifyItems: 'end', whiteSpace: 'nowrap' })}>
                    {formatMoney({ minor: o.amount, currency: o.currency })}
                    <Deadline kind="deliver" at={o.deliver_by} now={now} compact />
                  </span>
                </li>
              ))}
            </ul>
            {a.total > a.orders.length ? (
              <Link href={href.sales('confirmed')} className={css({ fontSize: 'sm', color: 'accent' })}>
                See all {a.total} orders awaiting delivery
              </Link>
            ) : null}
          </>
        )
      }
    </Card>
  );
}

/** The change of a figure against the 30 days before, in words a screen reader reads as well. */
const changeText = (pct: number | null) =>
  pct === null ? 'no sales the 30 days before' : `${pct > 0 ? '+' : ''}${pct}% on the 30 days before`;

/**
 * The report widget (GET /dashboard/reports): the last 30 days against the 30 before, in the dashboard's
 * currency, and a small chart of the days. Its skeleton has the chart's height, so nothing moves when it comes.
 */
function ReportCard() {
  const currency = Dashboard.useSelector((s) => s.context.currency);
  return (
    <Card
      region="report"
      title="Last 30 days"
      skeleton={
        <>
          <SkeletonLine width="50%" />
          <SkeletonLine width="70%" />
          <Skeleton width="100%" height="64px" />
        </>
      }
    >
      {(r) => (
        <div className={css({ display: 'grid', gap: '2' })}>
          <p className={css({ display: 'grid', gap: '1' })}>
            <span className={css({ fontSize: 'lg', fontWeight: 'bold' })} data-figure="report-gross">
              {formatMoney({ minor: r.current.figures.gross_sales, currency })}
            </span>
            <span className={metaLine}>
              {r.current.figures.orders} orders, {r.current.figures.tickets} tickets ·{' '}
              {changeText(r.change_pct.gross_sales)}
            </span>
          </p>
          <BarChart
            compact
            height={64}
            title={`Gross sales a day, ${formatDate(r.current.date_from)} to ${formatDate(r.current.date_to)}`}
            bars={r.points.map((p) => ({ label: p.date, value: p.gross_sales }))}
            format={(minor) => formatMoney({ minor, currency })}
          />
        </div>
      )}
    </Card>
  );
}

function TopEventsCard() {
  const currency = Dashboard.useSelector((s) => s.context.currency);
  return (
    <Card region="topEvents" title="Top selling events" skeleton={<SkeletonRows count={LATEST_ROWS} lines={2} />}>
      {(t) =>
        t.events.length === 0 ? (
          <p className={empty}>No tickets sold yet.</p>
        ) : (
          <ol className={rowList}>
            {t.events.map((e) => (
              <li key={e.event_id} className={row}>
                <span className={rowText}>
                  <span className={cx(nameLine, medium)} title={e.event_name}>
                    {e.event_name}
                  </span>
                  <span className={metaLine}>
                    {formatDate(e.event_date)} · {e.stadium_name}, {e.city_name}
                  </span>
                </span>
                <span className={css({ whiteSpace: 'nowrap', textAlign: 'right' })}>
                  {e.tickets_sold} sold
                  <span className={css({ display: 'block', color: 'fg.muted', fontSize: 'xs' })}>
                    {formatMoney({ minor: e.revenue, currency: currency })}
                  </span>
                </span>
              </li>
            ))}
          </ol>
        )
      }
    </Card>
  );
}

/** A list row of the feed widgets: what happened on the left, its date on the right. */
function DatedRow({ date, children }: { date: string; children: ReactNode }) {
  return (
    <li className={row}>
      <span className={rowText}>{children}</span>
      <span className={css({ color: 'fg.muted', fontSize: 'xs', whiteSpace: 'nowrap' })}>{formatDate(date)}</span>
    </li>
  );
}

function NotificationsCard() {
  return (
    <Card
      region="notifications"
      title="Notifications"
      skeleton={
        <>
          <SkeletonRows count={LATEST_ROWS} lines={2} />
          <SkeletonLine width="55%" />
        </>
      }
    >
      {(n) =>
        n.notification_list.length === 0 ? (
          <p className={empty}>No notifications found</p>
        ) : (
          <>
            <ul className={rowList}>
              {n.notification_list.map((item) => (
                <DatedRow key={item.id} date={item.created_at}>
                  <span className={cx(nameLine, item.viewed === 0 ? semibold : undefined)}>
                    {humanizeName(item.name)}
                  </span>
                  <span className={metaLine} title={item.description}>
                    {item.description}
                  </span>
                </DatedRow>
              ))}
            </ul>
            <Link href={paths.notifications} className={css({ fontSize: 'sm', color: 'accent' })}>
              View all notifications ({n.unread_count} unread)
            </Link>
          </>
        )
      }
    </Card>
  );
}

function ActivityCard() {
  return (
    <Card region="activity" title="Activity" skeleton={<SkeletonRows count={LATEST_ROWS} lines={1} />}>
      {(a) =>
        a.activity_list.length === 0 ? (
          <p className={empty}>No recent activity</p>
        ) : (
          <ul className={rowList}>
            {a.activity_list.map((item) => (
              <DatedRow key={item.id} date={item.created_at}>
                <span className={nameLine} title={item.description}>
                  <ToneBadge tone={activityTone(item.type)}>{humanizeName(item.type)}</ToneBadge> {item.description}
                </span>
              </DatedRow>
            ))}
          </ul>
        )
      }
    </Card>
  );
}
