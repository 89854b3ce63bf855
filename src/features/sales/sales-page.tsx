import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { css } from 'styled-system/css';
import { useLocation, useSearch } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import {
  type SalesFilters,
  type SalesSort,
  salesMachine,
  type salesOrdersMachine,
} from '../../../machines/sales.machine';
import { SALES_STATUS_LABELS, type SalesStatus } from '../../../machines/sales-statuses';
import { matchRoute } from '../../app/route-access';
import { useViewActor } from '../../app/view-actor';
import { saveFile } from '../../lib/save-file';
import { Button } from '../../ui/button';
import { DatePicker } from '../../ui/date-picker';
import { Dropdown, type Option } from '../../ui/dropdown';
import { ListSection, listStatus } from '../../ui/list-section';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { TICKET_TYPES } from '../../ui/ticket-type-icon';
import { BulkOrders } from './bulk-actions';
import { Cockpit } from './cockpit';
import { OrderDrawer } from './order-drawer';
import { OrderTable, Pager } from './order-table';
import { SalesContext, useDrawer, useSales } from './sales-context';
import { money } from './sales-format';
import { card, heading, muted, Retry } from './sales-parts';

type OrdersRef = ActorRefFrom<typeof salesOrdersMachine>;

/** What an empty list says, per status. */
export const EMPTY_TEXTS: Readonly<Record<SalesStatus, string>> = {
  pending: 'No pending orders.',
  confirmed: 'No orders are awaiting delivery.',
  delivered: 'No delivered orders.',
  completed: 'No completed orders.',
  cancelled: 'No cancelled orders.',
  replaced: 'No replaced orders.',
};
const NO_MATCH = 'No orders match these filters.';

const SORT_OPTIONS: Option<SalesSort>[] = [
  { value: 'created_desc', label: 'Newest orders first' },
  { value: 'created_asc', label: 'Oldest orders first' },
  { value: 'deadline', label: 'Delivery deadline, soonest first' },
  { value: 'match_date', label: 'Match date, soonest first' },
  { value: 'match_date_desc', label: 'Match date, latest first' },
  { value: 'amount_desc', label: 'Amount, highest first' },
  { value: 'amount_asc', label: 'Amount, lowest first' },
];
const TICKET_TYPE_OPTIONS: Option<number>[] = Object.entries(TICKET_TYPES).map(([id, label]) => ({
  value: Number(id),
  label,
}));

const statusOf = (location: string): SalesStatus => {
  const match = matchRoute(location);
  const status = match?.key === 'sales' ? (match.params as { status?: SalesStatus }).status : undefined;
  return status ?? 'pending';
};

/**
 * sales/pending … sales/replaced: the per-currency overview, the delivery cockpit (Awaiting Delivery), the
 * filtered, sorted and paged orders of the status with their export, and the order drawer. `?order=<id>`
 * (a notification's link) opens that order's drawer.
 */
export default function SalesPage() {
  const [location] = useLocation();
  const status = statusOf(location);
  const sales = useViewActor(salesMachine, `sales-${status}`, { status }, { systemId: 'sales' });
  useEffect(() => {
    if (!sales) return;
    const sub = sales.on('export.ready', ({ file }) => saveFile(file.file, file.name));
    return () => sub.unsubscribe();
  }, [sales]);
  if (!sales) return null;
  return (
    <SalesContext.Provider value={sales}>
      <div className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4' })}>
        <Overview status={status} />
        {status === 'confirmed' ? <Cockpit /> : null}
        <Orders key={status} status={status} />
        <OpenFromLink />
        <OrderDrawer />
      </div>
    </SalesContext.Provider>
  );
}

/** A notification's link (`?order=<id>`) opens that order. */
function OpenFromLink() {
  const drawer = useDrawer();
  const order = Number(new URLSearchParams(useSearch()).get('order'));
  useEffect(() => {
    if (drawer && Number.isInteger(order) && order > 0) drawer.send({ type: 'order.opened', id: order });
  }, [drawer, order]);
  return null;
}

function Overview({ status }: { status: SalesStatus }) {
  const sales = useSales();
  const overview = useSelector(sales, (s) => s.context.overview);
  const failed = useSelector(sales, (s) => s.hasTag('overviewError'));
  return (
    <section aria-labelledby="sales-overview" className={card}>
      <h2 id="sales-overview" className={heading}>
        Overview
      </h2>
      {failed ? (
        <Retry onRetry={() => sales.send({ type: 'overview.retried' })} />
      ) : !overview ? (
        <Loading label="Loading the overview">
          <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
            {[1, 2, 3, 4].map((i) => (
              <Skeleton key={i} width="10rem" height="72px" radius="md" />
            ))}
          </div>
        </Loading>
      ) : (
        <ul
          aria-label="Sales by currency"
          className={css({
            display: 'grid',
            gap: '3',
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 12rem), 1fr))',
            listStyle: 'none',
            p: 0,
            m: 0,
          })}
        >
          {overview.map((c) => {
            const here = c.statuses.find((s) => s.status === status);
            return (
              <li
                key={c.currency}
                aria-label={`${c.currency} sales`}
                className={css({
                  border: '1px solid {colors.border}',
                  borderRadius: 'md',
                  p: '3',
                  display: 'grid',
                  gap: '1',
                })}
              >
                <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{c.currency}</span>
                <span className={css({ fontSize: 'xl', fontWeight: 'bold' })} data-testid={`overview-${c.currency}`}>
                  {money(here?.amount ?? 0, c.currency)}
                </span>
                <span className={muted}>
                  {SALES_STATUS_LABELS[status]}: {counted(here?.orders ?? 0, 'order')},{' '}
                  {counted(here?.tickets ?? 0, 'ticket')}
                </span>
                <span className={muted}>
                  All standing sales: {counted(c.orders, 'order')}, {money(c.amount, c.currency)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** '1 order', '2 orders'. */
const counted = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** What the order-number filter takes: the contract's pattern (letters, digits and '-'). */
const ORDER_NUMBER = /^[A-Za-z0-9-]+$/;
const ORDER_NUMBER_ERROR = "An order number has only letters, digits and '-' (as SB-100034 or BK00000017).";
/** The number as typed, forgiven a '#' before it and spaces for its '-' ('#SB 100014' is SB-100014). */
const orderNumberOf = (typed: string) => typed.trim().replace(/^#\s*/, '').replace(/\s+/g, '-');

function Filters() {
  const sales = useSales();
  const filters = useSelector(sales, (s) => s.context.filters);
  const sort = useSelector(sales, (s) => s.context.sort);
  const exporting = useSelector(sales, (s) => s.hasTag('exporting'));
  const [q, setQ] = useState(filters.q);
  const [bookingNo, setBookingNo] = useState(filters.booking_no);
  const [bookingNoError, setBookingNoError] = useState<string | null>(null);
  const set = (changes: Partial<SalesFilters>) =>
    sales.send({ type: 'filters.changed', filters: { ...filters, ...changes } });
  /** The order number to filter by, or null (said under the field) when it cannot be one: nothing is asked. */
  const typedOrderNumber = (): { booking_no: string } | null => {
    const value = orderNumberOf(bookingNo);
    if (value !== '' && !ORDER_NUMBER.test(value)) {
      setBookingNoError(ORDER_NUMBER_ERROR);
      return null;
    }
    setBookingNoError(null);
    setBookingNo(value);
    return { booking_no: value };
  };
  const search = (e: FormEvent) => {
    e.preventDefault();
    set({ q, ...typedOrderNumber() });
  };
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <form
        aria-label="Filter the orders"
        onSubmit={search}
        className={css({
          display: 'flex',
          gap: '3',
          flexWrap: 'wrap',
          alignItems: 'flex-end',
          '& > *': { width: { base: '100%', desktop: '14rem' } },
        })}
      >
        <DatePicker
          mode="range"
          label="Order dates"
          onChange={({ start, end }) => set({ date_from: start, date_to: end })}
        />
        <TextField label="Match" value={q} onChange={(e) => setQ(e.currentTarget.value)} onBlur={() => set({ q })} />
        <TextField
          label="Order number"
          value={bookingNo}
          onChange={(e) => setBookingNo(e.currentTarget.value)}
          onBlur={() => {
            const typed = typedOrderNumber();
            if (typed) set(typed);
          }}
          error={bookingNoError}
        />
        <Dropdown
          label="Ticket type"
          placeholder="All"
          searchable={false}
          options={TICKET_TYPE_OPTIONS}
          value={filters.ticket_type_id}
          onChange={(v) => set({ ticket_type_id: v })}
        />
        <Dropdown
          label="Sort"
          placeholder="Newest orders first"
          searchable={false}
          options={SORT_OPTIONS}
          value={sort}
          onChange={(v) => sales.send({ type: 'sort.changed', sort: v })}
        />
        <Button type="submit" tone="secondary">
          Search
        </Button>
      </form>
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <Button
          tone="secondary"
          busy={exporting}
          disabled={exporting}
          onClick={() => sales.send({ type: 'export.requested', format: 'csv' })}
        >
          Export CSV
        </Button>
        <Button
          tone="secondary"
          busy={exporting}
          disabled={exporting}
          onClick={() => sales.send({ type: 'export.requested', format: 'xlsx' })}
        >
          Export XLSX
        </Button>
      </div>
    </div>
  );
}

function Orders({ status }: { status: SalesStatus }) {
  const sales = useSales();
  const list = useSelector(sales, (s) => s.children.orders) as OrdersRef | undefined;
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const page = useSelector(list, (s) => s?.context.page ?? 0);
  const lastPage = useSelector(list, (s) => s?.context.lastPage ?? 1);
  const total = useSelector(list, (s) => s?.context.total ?? null);
  const view = useSelector(list, listStatus);
  const filtered = useSelector(sales, (s) => JSON.stringify(s.context.filters) !== JSON.stringify(EMPTY_FILTERS));
  const open = status === 'pending' || status === 'confirmed';
  return (
    <ListSection
      title={`${SALES_STATUS_LABELS[status]} orders${total !== null && view === 'shown' ? ` (${total})` : ''}`}
      titleId="sales-orders"
      filters={<Filters />}
      before={status === 'pending' ? <BulkOrders items={items} shown={view === 'shown'} /> : null}
      status={view}
      loadingLabel="Loading the orders"
      empty={filtered ? NO_MATCH : EMPTY_TEXTS[status]}
      onRetry={() => list?.send({ type: 'list.retried' })}
      pager={<Pager page={page} lastPage={lastPage} onPage={(p) => list?.send({ type: 'page.requested', page: p })} />}
    >
      {/* pending orders are drawn by the bulk actions, with their boxes to tick */}
      {status === 'pending' ? null : <OrderTable items={items} open={open} />}
    </ListSection>
  );
}

const EMPTY_FILTERS: SalesFilters = {
  date_from: null,
  date_to: null,
  date_field: 'order_date',
  q: '',
  booking_no: '',
  ticket_type_id: null,
  currency: null,
};
