import { css } from 'styled-system/css';
import { type AdminDispute, disputeQueueMachine } from '../../../machines/admin/queues';
import { formatMoney } from '../../lib/money';
import { Button } from '../../ui/button';
import { dateTime, muted, TwoLines } from './queue/cells';
import { QueuePage } from './queue/queue-page';
import type { QueueView } from './queue/queue-types';

const REASONS: Record<AdminDispute['reason'], string> = {
  not_received: 'Tickets not received',
  wrong_tickets: 'Wrong tickets',
  denied_entry: 'Denied entry',
};

const amountOf = (d: AdminDispute) => formatMoney({ minor: d.amount, currency: d.currency });

const view: QueueView<AdminDispute> = {
  key: 'adminDisputes',
  heading: 'Buyer claims',
  noun: 'the claims',
  empty: 'No claim is open.',
  keyOf: (d) => d.id,
  rowLabel: (d) => `Claim on ${d.booking_no}`,
  columns: [
    { header: 'Order', cell: (d) => <TwoLines main={d.booking_no} sub={`${d.match_name}, ${d.event_date}`} /> },
    { header: 'Claim', cell: (d) => <TwoLines main={REASONS[d.reason]} sub={d.description} /> },
    { header: 'Buyer / seller', cell: (d) => <TwoLines main={d.buyer_name} sub={d.seller_name} /> },
    { header: 'Amount', nowrap: true, cell: amountOf },
    { header: 'Opened', cell: (d) => dateTime(d.opened_at) },
    {
      header: 'Dispute pack',
      cell: (d, tools) => (
        <>
          <Button tone="secondary" disabled={tools.loadingFile} onClick={() => tools.openFile(d, 'pack')}>
            Download pack<span className={css({ srOnly: true })}> of {d.booking_no}</span>
          </Button>
          <div className={muted}>
            {d.proofs} proof record{d.proofs === 1 ? '' : 's'}
          </div>
        </>
      ),
    },
  ],
  approve: {
    label: 'Uphold',
    name: (d) => `Uphold the claim on ${d.booking_no}`,
    title: (d) => `Uphold the claim on ${d.booking_no}?`,
    restates: (d) => (
      <p>
        A refund cancels the sale and returns <strong>{amountOf(d)}</strong> to the buyer; a replacement keeps the
        buyer's booking with other tickets. Either way {d.seller_name} earns nothing on this sale.
      </p>
    ),
    fields: [
      {
        name: 'outcome',
        label: 'Outcome',
        kind: 'choice',
        options: () => [
          { value: 'refund', label: 'Refund the buyer' },
          { value: 'replacement', label: 'Replace the tickets' },
        ],
      },
      { name: 'reason', label: 'Note (the seller and the buyer read it)', kind: 'reason' },
    ],
    confirmLabel: () => 'Resolve claim',
  },
  reject: {
    label: 'Reject',
    name: (d) => `Reject the claim on ${d.booking_no}`,
    title: (d) => `Reject the claim on ${d.booking_no}`,
    reasonLabel: 'Reason (the buyer reads it)',
    submitLabel: 'Reject claim',
  },
};

/** /admin/disputes: buyers' open claims, oldest first: download the pack, then uphold (refund or replace) or reject. */
export default function AdminDisputesPage() {
  return <QueuePage machine={disputeQueueMachine} view={view} />;
}
