import { css } from 'styled-system/css';
import { type AdminKycSubmission, kycQueueMachine } from '../../../machines/admin/queues';
import { formatFileSize } from '../../lib/file-rules';
import { Button } from '../../ui/button';
import { dateTime, muted, TwoLines } from './queue/cells';
import { QueuePage } from './queue/queue-page';
import type { QueueView } from './queue/queue-types';

const KIND_LABELS = {
  photo_id: 'Photo ID',
  address_proof: 'Proof of address',
  business: 'Business registration',
  seller_contract: 'Seller contract',
} as const;

const view: QueueView<AdminKycSubmission> = {
  key: 'adminKyc',
  heading: 'KYC submissions under review',
  noun: 'the KYC submissions',
  empty: 'No KYC submission is waiting.',
  keyOf: (k) => k.id,
  rowLabel: (k) => `KYC of ${k.seller_email}`,
  columns: [
    { header: 'Submission', cell: (k) => `#${k.id}` },
    { header: 'Seller', cell: (k) => <TwoLines main={k.seller_name} sub={k.seller_email} /> },
    { header: 'Sells as', cell: (k) => (k.account_type === 'company' ? 'Company' : 'Individual') },
    { header: 'Submitted', cell: (k) => dateTime(k.submitted_at) },
    {
      header: 'Documents',
      cell: (k, tools) => (
        <div className={css({ display: 'grid', gap: '1' })}>
          {k.documents.map((d) => (
            <div key={d.kind} className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
              <Button tone="secondary" disabled={tools.loadingFile} onClick={() => tools.openFile(k, d.kind)}>
                {KIND_LABELS[d.kind]}
                <span className={css({ srOnly: true })}> of {k.seller_email}</span>
              </Button>
              <span className={muted}>
                {d.name}, {formatFileSize(d.size)}
              </span>
            </div>
          ))}
        </div>
      ),
    },
  ],
  approve: {
    label: 'Approve',
    name: (k) => `Approve KYC of ${k.seller_email}`,
    title: (k) => `Approve the KYC of ${k.seller_name}?`,
    restates: (k) => (
      <p>
        {k.seller_name} ({k.seller_email}) is verified: the hold is released and the account can list, sell and be paid.
      </p>
    ),
    confirmLabel: () => 'Approve',
  },
  reject: {
    label: 'Reject',
    name: (k) => `Reject KYC of ${k.seller_email}`,
    title: (k) => `Reject KYC submission #${k.id}`,
    reasonLabel: 'Reason (the seller reads it)',
    submitLabel: 'Reject',
  },
};

/** /admin/kyc: the back office's queue of KYC submissions under review, oldest first, with their documents. */
export default function AdminKycPage() {
  return <QueuePage machine={kycQueueMachine} view={view} />;
}
