import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import { css } from 'styled-system/css';
import type { ReportOrderDetails } from '../../../machines/report-history.machine';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { orderLogTitle } from '../../lib/order-log';
import { blockText } from '../../lib/seats';
import { Button } from '../../ui/button';
import { Drawer } from '../../ui/drawer';
import { Skeleton } from '../../ui/skeleton';
import { useReport } from './report-context';

const heading = css({ fontWeight: 'bold' });
const muted = css({ color: 'fg.muted' });
const textArea = css({
  width: '100%',
  minHeight: '80px',
  p: '2',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  bg: 'bg',
});

/** An order of the report, read-only but for the seller's notes: amounts, its log and its listing's log. */
export function OrderDetails() {
  const report = useReport();
  const open = useSelector(report, (s) => !s.matches({ details: 'closed' }));
  const details = useSelector(report, (s) => s.context.details);
  const logs = useSelector(report, (s) => s.context.logs);
  const inventoryLogs = useSelector(report, (s) => s.context.inventoryLogs);
  const failed = useSelector(report, (s) => s.hasTag('detailsError'));
  const loading = useSelector(report, (s) => s.hasTag('detailsLoading'));
  const order = details?.order;
  return (
    <Drawer
      open={open}
      onClose={() => report.send({ type: 'order.closed' })}
      title={order ? `Order ${order.booking_no}` : 'Order'}
    >
      {failed && <p role="alert">Failed to fetch data</p>}
      {loading && <Skeleton width="100%" height="120px" />}
      {order && details && !loading && (
        <div className={css({ display: 'grid', gap: '3', fontSize: 'sm' })}>
          <dl className={css({ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '1 3' })}>
            <dt>Status</dt>
            <dd>{order.status_label}</dd>
            <dt>Match</dt>
            <dd>
              {order.match_name}, {formatDate(order.match_date)}
            </dd>
            <dt>Seats</dt>
            <dd>
              {order.category} · {blockText(order.ticket_block, true)} · Row {order.row}
            </dd>
            <dt>Tickets</dt>
            <dd>{order.quantity}</dd>
            <dt>Amount</dt>
            <dd>{formatMoney({ minor: details.amounts.subtotal, currency: details.amounts.currency })}</dd>
            <dt>Fees</dt>
            <dd>{formatMoney({ minor: details.amounts.seller_fee, currency: details.amounts.currency })}</dd>
            <dt>Payout</dt>
            <dd>{formatMoney({ minor: details.amounts.payout, currency: details.amounts.currency })}</dd>
          </dl>
          {/* keyed by the order: another order opens with its own notes */}
          <Notes key={order.booking_id} details={details} />
          <h3 className={heading}>Order log</h3>
          {logs.length === 0 ? (
            <p className={muted}>No changes yet.</p>
          ) : (
            <ul aria-label="Order log">
              {logs.map((l) => (
                <li key={l.log_id}>
                  {formatDate(l.created_at)}: {orderLogTitle(l)}
                  {l.user_name ? ` · ${l.user_name}` : ''}
                  {l.reason ? `: ${l.reason}` : ''}
                </li>
              ))}
            </ul>
          )}
          <h3 className={heading}>Inventory log</h3>
          {inventoryLogs.length === 0 ? (
            <p className={muted}>No changes yet.</p>
          ) : (
            <ul aria-label="Inventory log">
              {inventoryLogs.map((l) => (
                <li key={l.log_id}>
                  {formatDate(l.created_at)}: {l.action.replaceAll('_', ' ')}
                  {l.field ? ` ${l.field}` : ''}
                  {l.old_value !== null || l.new_value !== null
                    ? `: ${l.old_value ?? '-'} → ${l.new_value ?? '-'}`
                    : ''}
                  {l.user_name ? ` · ${l.user_name}` : ''}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Drawer>
  );
}

function Notes({ details }: { details: ReportOrderDetails }) {
  const report = useReport();
  const saving = useSelector(report, (s) => s.hasTag('savingNotes'));
  const [notes, setNotes] = useState(details.notes ?? '');
  const id = useId();
  return (
    <form
      aria-label="Notes"
      className={css({ display: 'grid', gap: '2' })}
      onSubmit={(e) => {
        e.preventDefault();
        report.send({ type: 'notes.saved', notes });
      }}
    >
      <label htmlFor={id} className={heading}>
        Notes on this order
      </label>
      <textarea
        id={id}
        className={textArea}
        maxLength={2000}
        value={notes}
        onChange={(e) => setNotes(e.currentTarget.value)}
      />
      {details.notes_updated_at ? <span className={muted}>Saved {formatDate(details.notes_updated_at)}</span> : null}
      <Button type="submit" tone="secondary" busy={saving} disabled={saving}>
        Save notes
      </Button>
    </form>
  );
}
