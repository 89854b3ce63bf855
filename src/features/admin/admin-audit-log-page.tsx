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
import { type ListColumn, ListPager, ListSection, listStatus } from '../../ui/list-section';
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
  'dispute.refunded': 'Claim upheld: refunded',
  'dispute.replaced': 'Claim upheld: replaced',
  'dispute.rejected': 'Claim rejected',
};
const ACTION_OPTIONS = AUDIT_ACTIONS.map((a) => ({ value: a, label: ACTION_LABELS[a] }));

const amountOf = (e: AdminAuditEntry) =>
  e.amount === null || e.currency === null ? '—' : formatMoney({ minor: e.amount, currency: e.currency });

const COLUMNS: ListColumn<AdminAuditEntry>[] = [
  { header: 'When', nowrap: true, card: 'title', cell: (e) => dateTime(e.created_at) },
  { header: 'Operator', cell: (e) => <span className={css({ overflowWrap: 'anywhere' })}>{e.operator_email}</span> },
  { header: 'Action', cell: (e) => ACTION_LABELS[e.action] },
  { header: 'Record', nowrap: true, cell: (e) => `${e.record_type.replace('_', ' ')} #${e.record_id}` },
  { header: 'Amount', nowrap: true, numeric: true, cell: amountOf },
  { header: 'Reason', cell: (e) => e.detail ?? '' },
];

/** /admin/audit-log: every action of the back office, newest first, filtered by action, operator and day. */
export default function AdminAuditLogPage() {
  const log = useViewActor(auditLogMachine, 'adminAuditLog', { filters: NO_AUDIT_FILTERS });
  const filters = useSelector(log, (s) => s?.context.filters ?? NO_AUDIT_FILTERS);
  const items = useSelector(log, (s) => s?.context.items ?? []);
  const status = useSelector(log, listStatus);
  const page = useSelector(log, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(log, (s) => s?.context.lastPage ?? 1);
  const set = (changes: Partial<AuditFilters>) =>
    log?.send({ type: 'filters.changed', filters: { ...filters, ...changes } });
  return (
    <ListSection
      title="Every action of the back office, newest first"
      titleId="audit-log"
      filters={
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
      }
      status={status}
      loadingLabel="Loading the log"
      empty="No action matches."
      onRetry={() => log?.send({ type: 'list.retried' })}
      label="The audit log"
      columns={COLUMNS}
      rows={items}
      rowKey={(e) => e.id}
      pager={
        lastPage > 1 ? (
          <ListPager
            label="Audit log"
            page={page}
            lastPage={lastPage}
            onPage={(p) => log?.send({ type: 'page.requested', page: p })}
          />
        ) : null
      }
    />
  );
}
