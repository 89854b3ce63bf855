import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { type PayoutEarnedOrder, type PayoutOrderState, payoutOrdersMachine } from '../../../machines/payouts.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { Dropdown, type Option } from '../../ui/dropdown';
import { type ListColumn, ListPager, ListSection, listStatus } from '../../ui/list-section';

export const PAYOUT_STATE_LABEL: Record<PayoutOrderState, string> = {
  unpaid: 'Not paid out',
  in_flight: 'In a payout',
  part_paid: 'Partly paid out',
  paid: 'Paid out',
};
const STATES = Object.keys(PAYOUT_STATE_LABEL) as PayoutOrderState[];
const STATE_OPTIONS: Option<PayoutOrderState | ''>[] = [
  { label: 'All orders', value: '' },
  ...STATES.map((s) => ({ label: PAYOUT_STATE_LABEL[s], value: s })),
];

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
  const status = useSelector(orders, listStatus);
  const page = useSelector(orders, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(orders, (s) => s?.context.lastPage ?? 1);
  const money = (o: PayoutEarnedOrder, minor: number) => formatMoney({ minor, currency: o.currency });
  const columns: ListColumn<PayoutEarnedOrder>[] = [
    { header: 'Order', card: 'title', cell: (o) => o.booking_no },
    { header: 'Match', card: 'plain', cell: (o) => o.match_name },
    { header: 'Completed', cell: (o) => (o.completed_at ? formatDate(o.completed_at) : '—') },
    { header: 'Earned', nowrap: true, numeric: true, cell: (o) => money(o, o.earned) },
    { header: 'Paid out', nowrap: true, numeric: true, cell: (o) => money(o, o.paid) },
    { header: 'In a payout', nowrap: true, numeric: true, cell: (o) => money(o, o.in_flight) },
    { header: 'Available', nowrap: true, numeric: true, cell: (o) => money(o, o.available) },
    { header: 'State', cell: (o) => PAYOUT_STATE_LABEL[o.payout_state] },
  ];
  return (
    <ListSection
      title="Orders and payouts"
      titleId="payout-orders"
      filters={
        <>
          <div className={css({ width: { base: '100%', desktop: '16rem' } })}>
            <Dropdown<PayoutOrderState | ''>
              label="Payout state"
              searchable={false}
              options={STATE_OPTIONS}
              value={state ?? ''}
              onChange={(v) => orders?.send({ type: 'filters.changed', filters: { payout_state: v || null } })}
            />
          </div>
          <p className={muted}>Each completed sale's earnings, and how much of them is paid out.</p>
        </>
      }
      status={status}
      loadingLabel="Loading the orders"
      empty={state ? `No order is ${PAYOUT_STATE_LABEL[state].toLowerCase()}.` : 'No earnings yet.'}
      onRetry={() => orders?.send({ type: 'list.retried' })}
      label="Orders and their payouts"
      columns={columns}
      rows={items}
      rowKey={(o) => o.order_id}
      rowProps={(o) => ({ 'aria-label': `Order ${o.booking_no}` })}
      pager={
        lastPage > 1 ? (
          <ListPager
            label="Orders and payouts"
            page={page}
            lastPage={lastPage}
            onPage={(p) => orders?.send({ type: 'page.requested', page: p })}
          />
        ) : null
      }
    />
  );
}
