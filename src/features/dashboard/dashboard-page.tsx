import { createActorContext } from '@xstate/react';
import { type ReactNode, useEffect } from 'react';
import { css } from 'styled-system/css';
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
import { activityTone, humanizeName } from '../../lib/feed-format';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { href, paths } from '../../routes';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';
import { ToneBadge } from '../../ui/tone-badge';

const Dashboard = createActorContext(dashboardMachine);

export default function DashboardPage() {
  const currency = Session.useSelector((s) => s.context.account?.currency);
  const known = CURRENCIES.includes(currency as Currency) ? (currency as Currency) : 'GBP';
  return (
    <Dashboard.Provider options={{ input: { currency: known } }}>
      <DashboardGrid />
    </Dashboard.Provider>
  );
}

function DashboardGrid() {
  const dashboard = Dashboard.useActorRef();
  useEffect(() => {
    const sub = dashboard.on('notify', ({ level, message }) => notify({ level, message }));
    return () => sub.unsubscribe();
  }, [dashboard]);
  const currency = Dashboard.useSelector((s) => s.context.currency);
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: '2' })}>
        <label htmlFor="dashboard-currency" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          Currency
        </label>
        <select
          id="dashboard-currency"
          value={currency}
          onChange={(e) => dashboard.send({ type: 'currency.changed', currency: e.target.value as Currency })}
          className={css({
            height: '36px',
            px: '2',
            borderRadius: 'md',
            border: '1px solid {colors.border}',
            bg: 'bg',
          })}
        >
          {CURRENCIES.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
      <div
        className={css({
          display: 'grid',
          gap: '4',
          gridTemplateColumns: { base: '1fr', desktop: 'repeat(2, minmax(0, 1fr))' },
        })}
      >
        <SalesOverviewCard />
        <AwaitingDeliveryCard />
        <TopEventsCard />
        <NotificationsCard />
        <ActivityCard />
      </div>
    </div>
  );
}

type Region = 'overview' | 'awaiting' | 'topEvents' | 'notifications' | 'activity';

/** A widget's frame: its title, then a skeleton, 'Failed to fetch data' with Retry, or its content. */
function Card<K extends Region>({
  region,
  title,
  children,
}: {
  region: K;
  title: string;
  children: (data: NonNullable<DashboardContext[K]>) => ReactNode;
}) {
  const dashboard = Dashboard.useActorRef();
  // each region of the dashboard machine is one widget: loading, ready or failed
  const state = Dashboard.useSelector((s) => (s.value as Record<Region, 'loading' | 'ready' | 'failed'>)[region]);
  const data = Dashboard.useSelector((s) => s.context[region]);
  const headingId = `dashboard-${region}`;
  return (
    <section
      aria-labelledby={headingId}
      aria-busy={state === 'loading'}
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
      {state === 'ready' && data ? (
        children(data as NonNullable<DashboardContext[K]>)
      ) : state === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', alignItems: 'center', gap: '3' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => dashboard.send({ type: 'widget.retried' })}>
            Retry
          </Button>
        </div>
      ) : (
        <Loading label={`Loading ${title.toLowerCase()}`}>
          <Skeleton width="70%" height="14px" />
          <Skeleton width="90%" height="14px" />
          <Skeleton width="55%" height="14px" />
        </Loading>
      )}
    </section>
  );
}
const empty = css({ color: 'fg.muted', fontSize: 'sm' });
const rowList = css({ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: '2' });
const row = css({ display: 'flex', justifyContent: 'space-between', gap: '3', fontSize: 'sm', alignItems: 'baseline' });

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className={css({ display: 'grid', gap: '0.5' })}>
      <dt className={css({ fontSize: 'xs', color: 'fg.muted' })}>{label}</dt>
      <dd className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{value}</dd>
    </div>
  );
}

function SalesOverviewCard() {
  // the figures count the orders of one currency (the menu's badges count every currency): say which
  const currency = Dashboard.useSelector((s) => s.context.currency);
  return (
    <Card region="overview" title={`Sales overview (${currency})`}>
      {(o) => (
        <>
          <dl className={css({ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: '3' })}>
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

function AwaitingDeliveryCard() {
  const currency = Dashboard.useSelector((s) => s.context.currency);
  return (
    <Card region="awaiting" title={`Awaiting delivery (${currency})`}>
      {(a) =>
        a.orders.length === 0 ? (
          <p className={empty}>No orders are waiting for delivery.</p>
        ) : (
          <>
            <ul className={rowList}>
              {a.orders.map((o) => (
                <li key={o.order_id} className={row}>
                  <span className={css({ minWidth: 0 })}>
                    <span className={css({ display: 'block', fontWeight: 'medium' })}>{o.event_name}</span>
                    <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>
                      {formatDate(o.event_date)} · {o.booking_no} · {o.quantity}{' '}
                      {o.quantity === 1 ? 'ticket' : 'tickets'}
                    </span>
                  </span>
                  <span className={css({ whiteSpace: 'nowrap' })}>
                    {formatMoney({ minor: o.amount, currency: o.currency })}
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

function TopEventsCard() {
  const currency = Dashboard.useSelector((s) => s.context.currency);
  return (
    <Card region="topEvents" title="Top selling events">
      {(t) =>
        t.events.length === 0 ? (
          <p className={empty}>No tickets sold yet.</p>
        ) : (
          <ol className={rowList}>
            {t.events.map((e) => (
              <li key={e.event_id} className={row}>
                <span className={css({ minWidth: 0 })}>
                  <span className={css({ display: 'block', fontWeight: 'medium' })}>{e.event_name}</span>
                  <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>
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
      <span className={css({ minWidth: 0 })}>{children}</span>
      <span className={css({ color: 'fg.muted', fontSize: 'xs', whiteSpace: 'nowrap' })}>{formatDate(date)}</span>
    </li>
  );
}

function NotificationsCard() {
  return (
    <Card region="notifications" title="Notifications">
      {(n) =>
        n.notification_list.length === 0 ? (
          <p className={empty}>No notifications found</p>
        ) : (
          <>
            <ul className={rowList}>
              {n.notification_list.map((item) => (
                <DatedRow key={item.id} date={item.created_at}>
                  <span className={css({ display: 'block', fontWeight: item.viewed === 0 ? 'semibold' : 'normal' })}>
                    {humanizeName(item.name)}
                  </span>
                  <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>{item.description}</span>
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
    <Card region="activity" title="Activity">
      {(a) =>
        a.activity_list.length === 0 ? (
          <p className={empty}>No recent activity</p>
        ) : (
          <ul className={rowList}>
            {a.activity_list.map((item) => (
              <DatedRow key={item.id} date={item.created_at}>
                <ToneBadge tone={activityTone(item.type)}>{humanizeName(item.type)}</ToneBadge> {item.description}
              </DatedRow>
            ))}
          </ul>
        )
      }
    </Card>
  );
}
