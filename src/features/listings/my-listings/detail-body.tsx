import { css } from 'styled-system/css';
import type { ListingDetail } from '../../../../machines/inventory.machine';
import { formatDate } from '../../../lib/format-date';
import { money } from '../listing-format';
import { muted, sectionTitle, stack } from '../listing-styles';
import { InsightFigures } from './insight-figures';
import { TicketFiles } from './ticket-files';

const when = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

const ACTION_LABELS: Record<string, string> = {
  created: 'Created',
  updated: 'Changed',
  price_changed: 'Price changed',
  published: 'Published',
  unpublished: 'Unpublished',
  deleted: 'Deleted',
  files_uploaded: 'Files uploaded',
};

export function DetailBody({ data, currency, ticketId }: { data: ListingDetail; currency: string; ticketId: number }) {
  if (data.kind === 'logs') {
    if (data.logs.length === 0) return <p className={muted}>No changes yet.</p>;
    return (
      <ol aria-label="Ticket logs" className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0 })}>
        {data.logs.map((log) => (
          <li key={log.log_id} className={css({ borderBottom: '1px solid {colors.border}', pb: '2' })}>
            <div className={css({ fontWeight: 'semibold' })}>
              {ACTION_LABELS[log.action] ?? log.action}
              {log.field ? ` ${log.field}` : ''}
              {log.old_value !== null || log.new_value !== null
                ? `: ${log.old_value ?? '-'} → ${log.new_value ?? '-'}`
                : ''}
            </div>
            <div className={muted}>
              {log.user_name} · {when(log.created_at)}
            </div>
          </li>
        ))}
      </ol>
    );
  }
  if (data.kind === 'history') {
    return (
      <div className={stack}>
        <h3 className={sectionTitle}>Sales</h3>
        {data.sales.length === 0 ? (
          <p className={muted}>No tickets of this listing sold yet.</p>
        ) : (
          <ul aria-label="Sales" className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0 })}>
            {data.sales.map((s) => (
              <li key={s.order_id}>
                {s.booking_no}: {s.quantity} × · {money(s.amount, s.currency)} · {s.status} · {when(s.created_at)}
              </li>
            ))}
          </ul>
        )}
        <TicketFiles key={ticketId} ticketId={ticketId} files={data.files} />
      </div>
    );
  }
  return <InsightFigures insights={data.insights} currency={currency} />;
}
