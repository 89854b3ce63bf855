import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { css } from 'styled-system/css';
import { type PayoutOrderState, payoutOrdersMachine } from '../../../machines/payouts.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';

export const PAYOUT_STATE_LABEL: Record<PayoutOrderState, string> = {
  unpaid: 'Not paid out',
  in_flight: 'In a payout',
  part_paid: 'Partly paid out',
  paid: 'Paid out',
};
const STATES = Object.keys(PAYOUT_STATE_LABEL) as PayoutOrderState[];

const card = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
});
const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});
const muted = css({ fontSize: 'sm', color: 'fg.muted' });

/**
 * Payouts' orders report: which completed sales' earnings are still available, in a requested payout or paid,
 * so a seller can tell which sales a payout covered before asking for the next one.
 */
export function PayoutOrders() {
  const orders = useViewActor(
    payoutOrdersMachine,
    'payout-orders',
    { filters: { payout_state: null } },
    { systemId: 'payoutOrders' },
  );
  const items = useSelector(orders, (s) => s?.context.items ?? []);
  const state = useSelector(orders, (s) => s?.context.filters.payout_state ?? null);
  const loading = useSelector(orders, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(orders, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(orders, (s) => s?.matches('empty') ?? false);
  const page = useSelector(orders, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(orders, (s) => s?.context.lastPage ?? 1);
  const filterId = useId();
  return (
    <section aria-labelledby="payout-orders" aria-busy={loading} className={card}>
      <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap', alignItems: 'end' })}>
        <h2 id="payout-orders" className={css({ fontSize: 'md', fontWeight: 'bold', flex: '1' })}>
          Orders and payouts
        </h2>
        <label htmlFor={filterId} className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
          Payout state
          <select
            id={filterId}
            value={state ?? ''}
            className={css({ height: '36px', px: '2', borderWidth: '1px', borderColor: 'border', borderRadius: 'md' })}
            onChange={(e) =>
              orders?.send({
                type: 'filters.changed',
                filters: { payout_state: (e.currentTarget.value || null) as PayoutOrderState | null },
              })
            }
          >
            <option value="">All orders</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {PAYOUT_STATE_LABEL[s]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className={muted}>Each completed sale's earnings, and how much of them is paid out.</p>
      {loading ? (
        <Loading label="Loading the orders">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="40px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => orders?.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : empty ? (
        <p className={muted}>
          {state ? `No order is ${PAYOUT_STATE_LABEL[state].toLowerCase()}.` : 'No earnings yet.'}
        </p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>Order</th>
                <th>Match</th>
                <th>Completed</th>
                <th>Earned</th>
                <th>Paid out</th>
                <th>In a payout</th>
                <th>Available</th>
                <th>State</th>
              </tr>
            </thead>
            <tbody>
              {items.map((o) => {
                const money = (minor: number) => formatMoney({ minor, currency: o.currency });
                return (
                  <tr key={o.order_id} aria-label={`Order ${o.booking_no}`}>
                    <td>{o.booking_no}</td>
                    <td>{o.match_name}</td>
                    <td>{o.completed_at ? formatDate(o.completed_at) : '—'}</td>
                    <td>{money(o.earned)}</td>
                    <td>{money(o.paid)}</td>
                    <td>{money(o.in_flight)}</td>
                    <td>{money(o.available)}</td>
                    <td>{PAYOUT_STATE_LABEL[o.payout_state]}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {lastPage > 1 ? (
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <Button
            tone="secondary"
            disabled={page <= 1}
            onClick={() => orders?.send({ type: 'page.requested', page: page - 1 })}
          >
            Previous
          </Button>
          <span className={muted}>
            Page {page} of {lastPage}
          </span>
          <Button
            tone="secondary"
            disabled={page >= lastPage}
            onClick={() => orders?.send({ type: 'page.requested', page: page + 1 })}
          >
            Next
          </Button>
        </div>
      ) : null}
    </section>
  );
}
