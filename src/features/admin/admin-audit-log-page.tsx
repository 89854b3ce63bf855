import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import {
  type AdminAuditAction,
  type AdminAuditEntry,
  AUDIT_ACTIONS,
  type AuditFilters,
  auditLogMachine,
  NO_AUDIT_FILTERS,
} from '../../../machines/admin/audit-log.machine';
import { useViewActor } from '../../app/view-actor';
import { formatMoney } from '../../lib/money';
import { Button } from '../../ui/button';
import { Dropdown } from '../../ui/dropdown';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { dateTime } from './queue/cells';

const ACTION_LABELS: Record<AdminAuditAction, string> = {
  'deposit.approved': 'Deposit approved',
  'deposit.rejected': 'Deposit rejected',
  'payout.sent': 'Payout sent',
  'payout.failed': 'Payout failed',
  'kyc.approved': 'KYC approved',
  'kyc.rejected': 'KYC rejected',
  'event_request.approved': 'Event request approved',
  'event_request.rejected': 'Event request rejected',
  'erasure.approved': 'Account erased',
  'erasure.rejected': 'Erasure rejected',
  'order.cancelled': 'Order cancelled and refunded',
  'order.replaced': 'Order replaced',
  'price_cap.saved': 'Resale price cap saved',
  'bank_statement.imported': 'Bank statement imported',
  'bank_line.dismissed': 'Bank statement line dismissed',
  'event.transfer_window_saved': 'Transfer window saved',
};
const ACTION_OPTIONS = AUDIT_ACTIONS.map((a) => ({ value: a, label: ACTION_LABELS[a] }));

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});

const amountOf = (e: AdminAuditEntry) =>
  e.amount === null || e.currency === null ? '—' : formatMoney({ minor: e.amount, currency: e.currency });

/** /admin/audit-log: every action of the back office, newest first, filtered by action, operator and day. */
export default function AdminAuditLogPage() {
  const log = useViewActor(auditLogMachine, 'adminAuditLog', { filters: NO_AUDIT_FILTERS });
  const filters = useSelector(log, (s) => s?.context.filters ?? NO_AUDIT_FILTERS);
  const items = useSelector(log, (s) => s?.context.items ?? []);
  const loading = useSelector(log, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(log, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(log, (s) => s?.matches('empty') ?? false);
  const page = useSelector(log, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(log, (s) => s?.context.lastPage ?? 1);
  const set = (changes: Partial<AuditFilters>) =>
    log?.send({ type: 'filters.changed', filters: { ...filters, ...changes } });
  return (
    <section
      aria-labelledby="audit-log"
      aria-busy={loading}
      className={css({
        bg: 'bg',
        borderRadius: 'lg',
        p: { base: '4', desktop: '5' },
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr)',
        gap: '3',
      })}
    >
      <h2 id="audit-log" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Every action of the back office, newest first
      </h2>
      <form
        aria-label="Filter the log"
        className={css({
          display: 'grid',
          gap: '3',
          gridTemplateColumns: { base: '1fr', desktop: 'repeat(5, minmax(0, auto))' },
          alignItems: 'end',
        })}
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          set({ operator: String(data.get('operator') ?? '') });
        }}
      >
        <Dropdown
          label="Action"
          placeholder="Every action"
          searchable={false}
          options={ACTION_OPTIONS}
          value={filters.action}
          onChange={(action) => set({ action })}
        />
        <TextField label="Operator (email)" name="operator" type="email" defaultValue={filters.operator} />
        <TextField
          label="From"
          type="date"
          value={filters.date_from}
          onChange={(e) => set({ date_from: e.currentTarget.value })}
        />
        <TextField
          label="To"
          type="date"
          value={filters.date_to}
          onChange={(e) => set({ date_to: e.currentTarget.value })}
        />
        <Button type="submit" tone="secondary">
          Filter
        </Button>
      </form>
      {loading ? (
        <Loading label="Loading the log">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="32px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => log?.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : empty ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No action matches.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>When</th>
                <th>Operator</th>
                <th>Action</th>
                <th>Record</th>
                <th>Amount</th>
                <th>Reason</th>
              </tr>
            </thead>
            <tbody>
              {items.map((e) => (
                <tr key={e.id}>
                  <td className={css({ whiteSpace: 'nowrap' })}>{dateTime(e.created_at)}</td>
                  <td className={css({ overflowWrap: 'anywhere' })}>{e.operator_email}</td>
                  <td>{ACTION_LABELS[e.action]}</td>
                  <td className={css({ whiteSpace: 'nowrap' })}>
                    {e.record_type.replace('_', ' ')} #{e.record_id}
                  </td>
                  <td className={css({ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })}>{amountOf(e)}</td>
                  <td>{e.detail ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {lastPage > 1 ? (
            <nav
              aria-label="Audit log pages"
              className={css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'flex-end', pt: '2' })}
            >
              <Button
                tone="secondary"
                disabled={page <= 1}
                onClick={() => log?.send({ type: 'page.requested', page: page - 1 })}
              >
                Previous
              </Button>
              <span className={css({ fontSize: 'sm' })}>
                Page {page} of {lastPage}
              </span>
              <Button
                tone="secondary"
                disabled={page >= lastPage}
                onClick={() => log?.send({ type: 'page.requested', page: page + 1 })}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </div>
      )}
    </section>
  );
}
