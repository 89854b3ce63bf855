import { type AdminPayout, payoutQueueMachine } from '../../../machines/admin/queues';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { TwoLines } from './queue/cells';
import { QueuePage } from './queue/queue-page';
import type { QueueView } from './queue/queue-types';

const money = (minor: number, p: AdminPayout) => formatMoney({ minor, currency: p.currency });

const view: QueueView<AdminPayout> = {
  key: 'adminPayouts',
  heading: 'Payouts to send',
  noun: 'the payouts',
  empty: 'No payout is waiting.',
  keyOf: (p) => p.id,
  rowLabel: (p) => `Payout ${p.reference}`,
  columns: [
    { header: 'Payout', cell: (p) => p.reference },
    { header: 'Seller', cell: (p) => <TwoLines main={p.seller_name} sub={p.seller_email} /> },
    { header: 'Send', nowrap: true, cell: (p) => <TwoLines main={money(p.net, p)} sub={`of ${money(p.amount, p)}`} /> },
    { header: 'To', cell: (p) => <TwoLines main={p.holder_name} sub={`${p.iban} · ${p.bank_account.bic}`} /> },
    { header: 'Requested', cell: (p) => formatDate(p.created_at) },
  ],
  approve: {
    label: 'Mark sent',
    name: (p) => `Mark sent ${p.reference}`,
    title: (p) => `Mark payout ${p.reference} sent?`,
    restates: (p) => (
      <p>
        <strong>{money(p.net, p)}</strong> leaves for {p.holder_name}, {p.iban} ({p.bank_account.bic}): the payout of{' '}
        {money(p.amount, p)} less its fee of {money(p.fee, p)}. Mark it sent once the bank transfer has left.
      </p>
    ),
    confirmLabel: (p) => `Mark ${money(p.net, p)} sent`,
  },
  reject: {
    label: 'Mark failed',
    name: (p) => `Mark failed ${p.reference}`,
    title: () => 'Mark payout failed',
    reasonLabel: 'Reason (the seller reads it)',
    submitLabel: 'Mark failed',
  },
};

/** /admin/payouts: the back office's requested payouts, oldest first: mark each sent, or failed with a reason. */
export default function AdminPayoutsPage() {
  return <QueuePage machine={payoutQueueMachine} view={view} />;
}
