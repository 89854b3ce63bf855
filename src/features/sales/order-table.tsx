import { css } from 'styled-system/css';
import type { SalesOrderRow } from '../../../machines/sales.machine';
import { deadlineTone, nextDeadline } from '../../lib/deadline';
import { blockText } from '../../lib/seats';
import { Button } from '../../ui/button';
import { Deadline } from '../../ui/deadline';
import { useDrawer } from './sales-context';
import { dateTime, matchWhen, money } from './sales-format';
import { muted } from './sales-parts';

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top', overflowWrap: 'anywhere' },
  // on a phone each order is a card of its cells
  _phone: {
    '& thead': { srOnly: true },
    '& tbody, & tr, & td': { display: 'block' },
    '& tr': { py: '2', borderTop: '1px solid {colors.border}' },
    '& td': { border: 'none', py: '0.5', px: '0' },
  },
});
const box = css({ width: '24px', height: '24px', accentColor: 'accent', cursor: 'pointer' });
const phoneLabel = css({ display: 'none', _phone: { display: 'inline', color: 'fg.muted' } });

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
  return (
    <table className={table}>
      <thead>
        <tr>
          {selection ? (
            <th>
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
            </th>
          ) : null}
          <th>Order</th>
          <th>Match</th>
          <th>Tickets</th>
          <th>Amount</th>
          {open ? <th>Deadline</th> : <th>Updated</th>}
          <th>
            <span className={css({ srOnly: true })}>Details</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {items.map((o) => {
          const next = nextDeadline(o);
          return (
            <tr
              key={o.booking_id}
              data-testid={`order-${o.booking_no}`}
              data-tone={next ? deadlineTone(next.at, now) : 'none'}
            >
              {selection ? (
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Select order ${o.booking_no}`}
                    className={box}
                    checked={selection.selected.includes(o.booking_id)}
                    onChange={() => selection.onToggle(o.booking_id)}
                  />
                </td>
              ) : null}
              <td>
                <span className={css({ fontWeight: 'semibold' })}>{o.booking_no}</span>
                <div className={muted}>{dateTime(o.created_at)}</div>
              </td>
              <td>
                {o.match_name}
                <div className={muted}>{matchWhen(o.match_date, o.match_time)}</div>
              </td>
              <td>
                <span className={phoneLabel}>Tickets: </span>
                {o.quantity} × {o.category}, {blockText(o.ticket_block)}, row {o.row}
                {o.seats ? `, seats ${o.seats}` : ''}
                <div className={muted}>
                  {o.ticket_type} · {o.delivered} of {o.quantity} delivered
                </div>
              </td>
              <td className={css({ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })}>
                <span className={phoneLabel}>Amount: </span>
                {money(o.amount, o.currency)}
              </td>
              {open ? (
                <td>
                  <span className={phoneLabel}>Deadline: </span>
                  {next ? <Deadline kind={next.kind} at={next.at} now={now} /> : '-'}
                </td>
              ) : (
                <td>
                  <span className={phoneLabel}>Updated: </span>
                  {dateTime(o.updated_at)}
                </td>
              )}
              <td>
                <Button
                  tone="ghost"
                  aria-label={`Details of order ${o.booking_no}`}
                  onClick={() => drawer?.send({ type: 'order.opened', id: o.booking_id })}
                >
                  Details
                </Button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function Pager({ page, lastPage, onPage }: { page: number; lastPage: number; onPage: (p: number) => void }) {
  return (
    <nav
      aria-label="Order pages"
      className={css({ display: 'flex', alignItems: 'center', gap: '2', justifyContent: 'flex-end' })}
    >
      <Button tone="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span className={css({ fontSize: 'sm' })}>
        Page {Math.max(page, 1)} of {lastPage}
      </span>
      <Button tone="secondary" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}
