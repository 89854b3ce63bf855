import { css } from 'styled-system/css';
import type { SalesOrderRow } from '../../../machines/sales.machine';
import { deadlineTone, nextDeadline } from '../../lib/deadline';
import { blockText } from '../../lib/seats';
import { Button } from '../../ui/button';
import { Deadline } from '../../ui/deadline';
import { type ListColumn, ListPager, ListTable } from '../../ui/list-section';
import { useDrawer } from './sales-context';
import { dateTime, matchWhen, money } from './sales-format';
import { muted } from './sales-parts';

const box = css({ width: '24px', height: '24px', accentColor: 'accent', cursor: 'pointer' });

/** Ticking orders of the list (pending orders, to accept or decline many at once). */
export interface Selection {
  selected: readonly number[];
  onToggle: (id: number) => void;
  onToggleAll: (ids: number[]) => void;
}

/**
 * A sales list's page of orders: each with its next deadline (to accept, or to deliver) and its urgency in words
 * and colour, and a box to tick it when the list takes a selection.
 */
export function OrderTable({
  items,
  open,
  selection,
}: {
  items: readonly SalesOrderRow[];
  open: boolean;
  selection?: Selection;
}) {
  const drawer = useDrawer();
  const now = Date.now();
  const ids = items.map((o) => o.booking_id);
  const ticked = selection ? ids.filter((id) => selection.selected.includes(id)).length : 0;
  const columns: ListColumn<SalesOrderRow>[] = [
    ...(selection
      ? [
          {
            header: 'Select',
            card: 'plain' as const,
            headerCell: (
              <input
                type="checkbox"
                aria-label="Select every order on this page"
                className={box}
                checked={ticked > 0 && ticked === ids.length}
                ref={(el) => {
                  if (el) el.indeterminate = ticked > 0 && ticked < ids.length;
                }}
                onChange={() => selection.onToggleAll(ids)}
              />
            ),
            cell: (o: SalesOrderRow) => (
              <input
                type="checkbox"
                aria-label={`Select order ${o.booking_no}`}
                className={box}
                checked={selection.selected.includes(o.booking_id)}
                onChange={() => selection.onToggle(o.booking_id)}
              />
            ),
          },
        ]
      : []),
    {
      header: 'Order',
      card: 'title',
      cell: (o) => (
        <>
          <span className={css({ fontWeight: 'semibold' })}>{o.booking_no}</span>
          <div className={muted}>{dateTime(o.created_at)}</div>
        </>
      ),
    },
    {
      header: 'Match',
      card: 'plain',
      cell: (o) => (
        <>
          {o.match_name}
          <div className={muted}>{matchWhen(o.match_date, o.match_time)}</div>
        </>
      ),
    },
    {
      header: 'Tickets',
      cell: (o) => (
        <>
          {o.quantity} × {o.category}, {blockText(o.ticket_block)}, row {o.row}
          {o.seats ? `, seats ${o.seats}` : ''}
          <div className={muted}>
            {o.ticket_type} · {o.delivered} of {o.quantity} delivered
          </div>
        </>
      ),
    },
    { header: 'Amount', nowrap: true, numeric: true, cell: (o) => money(o.amount, o.currency) },
    open
      ? {
          header: 'Deadline',
          cell: (o) => {
            const next = nextDeadline(o);
            return next ? <Deadline kind={next.kind} at={next.at} now={now} /> : '-';
          },
        }
      : { header: 'Updated', cell: (o) => dateTime(o.updated_at) },
    {
      header: 'Details',
      srHeader: true,
      card: 'actions',
      cell: (o) => (
        <div>
          <Button
            tone="ghost"
            aria-label={`Details of order ${o.booking_no}`}
            onClick={() => drawer?.send({ type: 'order.opened', id: o.booking_id })}
          >
            Details
          </Button>
        </div>
      ),
    },
  ];
  return (
    <ListTable
      label="Orders"
      columns={columns}
      rows={items}
      rowKey={(o) => o.booking_id}
      rowProps={(o) => {
        const next = nextDeadline(o);
        return { 'data-testid': `order-${o.booking_no}`, 'data-tone': next ? deadlineTone(next.at, now) : 'none' };
      }}
    />
  );
}

export function Pager({ page, lastPage, onPage }: { page: number; lastPage: number; onPage: (p: number) => void }) {
  return <ListPager label="Order" page={page} lastPage={lastPage} onPage={onPage} />;
}
