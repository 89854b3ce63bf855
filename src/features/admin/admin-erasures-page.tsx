import { type AdminErasure, erasureQueueMachine } from '../../../machines/admin/queues';
import { formatDate } from '../../lib/format-date';
import { muted, TwoLines } from './queue/cells';
import { QueuePage } from './queue/queue-page';
import type { QueueView } from './queue/queue-types';

const view: QueueView<AdminErasure> = {
  key: 'adminErasures',
  heading: 'Erasure requests',
  noun: 'the requests',
  empty: 'No account is waiting to be erased.',
  keyOf: (r) => r.id,
  rowLabel: (r) => `Erasure request of ${r.name}`,
  columns: [
    { header: 'Account', cell: (r) => <TwoLines main={r.name} sub={r.email} /> },
    { header: 'Asked', cell: (r) => formatDate(r.requested_at) },
    {
      header: 'Blocked by',
      cell: (r) => <span className={muted}>{r.blockers.length > 0 ? r.blockers.join(' ') : 'Nothing'}</span>,
    },
  ],
  approve: {
    label: 'Erase',
    name: (r) => `Erase ${r.name}`,
    title: () => 'Erase this account?',
    restates: (r) => (
      <p>
        {r.name} ({r.email ?? ''}) will be anonymised: name, e-mail, phone, addresses, documents and files deleted,
        sessions ended. Orders, payouts and the ledger stay, without the name. This cannot be undone.
      </p>
    ),
    confirmLabel: () => 'Erase account',
  },
  reject: {
    label: 'Reject',
    name: (r) => `Reject ${r.name}`,
    title: () => 'Reject erasure request',
    reasonLabel: 'Reason (the account owner reads it)',
    submitLabel: 'Reject',
  },
};

/** /admin/erasures: accounts that asked to be erased, oldest first: erase each after a confirmation, or reject. */
export default function AdminErasuresPage() {
  return <QueuePage machine={erasureQueueMachine} view={view} />;
}
