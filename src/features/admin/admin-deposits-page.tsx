import { css } from 'styled-system/css';
import { type AdminDeposit, depositQueueMachine } from '../../../machines/admin/queues';
import { formatFileSize } from '../../lib/file-rules';
import { formatMoney } from '../../lib/money';
import { Button } from '../../ui/button';
import { dateTime, muted, TwoLines } from './queue/cells';
import { QueuePage } from './queue/queue-page';
import type { QueueView } from './queue/queue-types';

const amountOf = (d: AdminDeposit) => formatMoney({ minor: d.amount, currency: d.currency });

const view: QueueView<AdminDeposit> = {
  key: 'adminDeposits',
  heading: 'Deposit requests pending admin approval',
  noun: 'the deposit requests',
  empty: 'No deposit request is waiting.',
  keyOf: (d) => d.id,
  rowLabel: (d) => `Deposit #${d.id}`,
  columns: [
    { header: 'Request', cell: (d) => <TwoLines main={`#${d.id}`} sub={d.reference} /> },
    { header: 'Seller', cell: (d) => <TwoLines main={d.seller_name} sub={d.seller_email} /> },
    { header: 'Amount', nowrap: true, cell: amountOf },
    { header: 'Sent by', cell: (d) => <TwoLines main={d.payment_transfer_by} sub={d.notes} /> },
    { header: 'Submitted', cell: (d) => dateTime(d.created_at) },
    {
      header: 'Proof',
      cell: (d, tools) =>
        d.proof ? (
          <>
            <Button tone="secondary" disabled={tools.loadingFile} onClick={() => tools.openFile(d, 'proof')}>
              View proof<span className={css({ srOnly: true })}> of deposit #{d.id}</span>
            </Button>
            <div className={muted}>
              {d.proof.kind}, {formatFileSize(d.proof.size)}
            </div>
          </>
        ) : (
          <span className={css({ color: 'fg.muted' })}>None</span>
        ),
    },
  ],
  approve: {
    label: 'Approve',
    name: (d) => `Approve deposit #${d.id}`,
    title: (d) => `Approve deposit #${d.id}?`,
    restates: (d) => (
      <p>
        <strong>{amountOf(d)}</strong> will be credited to the SB Pay wallet of {d.seller_name} ({d.seller_email}).
        Check that the transfer arrived: this cannot be undone.
      </p>
    ),
    confirmLabel: (d) => `Credit ${amountOf(d)}`,
  },
  reject: {
    label: 'Reject',
    name: (d) => `Reject deposit #${d.id}`,
    title: (d) => `Reject deposit #${d.id}`,
    reasonLabel: 'Reason (the seller reads it)',
    submitLabel: 'Reject',
  },
};

/** /admin/deposits: the back office's queue of pending deposit requests, oldest first. */
export default function AdminDepositsPage() {
  return <QueuePage machine={depositQueueMachine} view={view} />;
}
