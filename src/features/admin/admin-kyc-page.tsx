import { useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { css, cx } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type AdminKycSubmission,
  adminKycMachine,
  type adminKycQueueMachine,
  KYC_REASON_LIMITS,
} from '../../../machines/admin-kyc.machine';
import { useViewActor } from '../../app/view-actor';
import { formatFileSize } from '../../lib/file-rules';
import { formatDate } from '../../lib/format-date';
import { openProof } from '../../lib/proof-file';
import { Button } from '../../ui/button';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { inputBox } from '../../ui/text-field';

type AdminRef = ActorRefFrom<typeof adminKycMachine>;
type QueueRef = ActorRefFrom<typeof adminKycQueueMachine>;

const dateTime = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

const KIND_LABELS = {
  photo_id: 'Photo ID',
  address_proof: 'Proof of address',
  business: 'Business registration',
  seller_contract: 'Seller contract',
} as const;

/** /admin/kyc: the back office's queue of KYC submissions under review, oldest first, with their documents. */
export default function AdminKycPage() {
  const admin = useViewActor(adminKycMachine, 'adminKyc');
  useEffect(() => {
    if (!admin) return;
    const sub = admin.on('document.ready', ({ document }) => openProof(document));
    return () => sub.unsubscribe();
  }, [admin]);
  if (!admin) return null;
  return (
    <>
      <Queue admin={admin} />
      <RejectDialog admin={admin} />
    </>
  );
}

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});

function Queue({ admin }: { admin: AdminRef }) {
  const queue = useSelector(admin, (s) => s.children.queue) as QueueRef | undefined;
  const items = useSelector(queue, (s) => s?.context.items ?? []);
  const loading = useSelector(queue, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(queue, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(queue, (s) => s?.matches('empty') ?? false);
  const page = useSelector(queue, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(queue, (s) => s?.context.lastPage ?? 1);
  // one decision at a time: while one is on its way, every Approve and Reject waits
  const idle = useSelector(admin, (s) => s.matches({ decision: 'idle' }));
  const deciding = useSelector(admin, (s) => s.context.id);
  const loadingDocument = useSelector(admin, (s) => s.hasTag('loadingDocument'));
  return (
    <section
      aria-labelledby="admin-kyc"
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
      <h2 id="admin-kyc" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        KYC submissions under review
      </h2>
      {loading ? (
        <Loading label="Loading the KYC submissions">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="40px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => queue?.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : empty ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No KYC submission is waiting.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>Submission</th>
                <th>Seller</th>
                <th>Sells as</th>
                <th>Submitted</th>
                <th>Documents</th>
                <th>
                  <span className={css({ srOnly: true })}>Decision</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((k: AdminKycSubmission) => (
                <tr key={k.id} aria-label={`KYC of ${k.seller_email}`}>
                  <td>#{k.id}</td>
                  <td>
                    {k.seller_name}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted', overflowWrap: 'anywhere' })}>
                      {k.seller_email}
                    </div>
                  </td>
                  <td>{k.account_type === 'company' ? 'Company' : 'Individual'}</td>
                  <td>{dateTime(k.submitted_at)}</td>
                  <td>
                    <div className={css({ display: 'grid', gap: '1' })}>
                      {k.documents.map((d) => (
                        <div key={d.kind} className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                          <Button
                            tone="secondary"
                            disabled={loadingDocument}
                            onClick={() => admin.send({ type: 'document.requested', id: k.id, kind: d.kind })}
                          >
                            {KIND_LABELS[d.kind]}
                            <span className={css({ srOnly: true })}> of {k.seller_email}</span>
                          </Button>
                          <span className={css({ fontSize: 'xs', color: 'fg.muted', overflowWrap: 'anywhere' })}>
                            {d.name}, {formatFileSize(d.size)}
                          </span>
                        </div>
                      ))}
                    </div>
                  </td>
                  <td>
                    <div className={css({ display: 'flex', gap: '2' })}>
                      <Button
                        disabled={!idle}
                        busy={deciding === k.id}
                        aria-label={`Approve KYC of ${k.seller_email}`}
                        onClick={() => admin.send({ type: 'kyc.approved', id: k.id })}
                      >
                        Approve
                      </Button>
                      <Button
                        tone="secondary"
                        disabled={!idle}
                        aria-label={`Reject KYC of ${k.seller_email}`}
                        onClick={() => admin.send({ type: 'reject.started', id: k.id })}
                      >
                        Reject
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav
            aria-label="KYC submission pages"
            className={css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'flex-end', pt: '2' })}
          >
            <Button
              tone="secondary"
              disabled={page <= 1}
              onClick={() => queue?.send({ type: 'page.requested', page: page - 1 })}
            >
              Previous
            </Button>
            <span className={css({ fontSize: 'sm' })}>
              Page {page} of {lastPage}
            </span>
            <Button
              tone="secondary"
              disabled={page >= lastPage}
              onClick={() => queue?.send({ type: 'page.requested', page: page + 1 })}
            >
              Next
            </Button>
          </nav>
        </div>
      )}
    </section>
  );
}

/** Reject with a reason: the reason is required, and the seller reads it. */
function RejectDialog({ admin }: { admin: AdminRef }) {
  const open = useSelector(
    admin,
    (s) => s.matches({ decision: 'writingReason' }) || s.matches({ decision: 'rejecting' }),
  );
  const id = useSelector(admin, (s) => s.context.id);
  const reason = useSelector(admin, (s) => s.context.reason);
  const rejecting = useSelector(admin, (s) => s.matches({ decision: 'rejecting' }));
  const canConfirm = useSelector(admin, (s) => s.can({ type: 'reject.confirmed' }));
  const fieldId = useId();
  return (
    <Modal
      open={open}
      onClose={() => admin.send({ type: 'reject.cancelled' })}
      title={`Reject KYC submission #${id ?? ''}`}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          admin.send({ type: 'reject.confirmed' });
        }}
        className={css({ display: 'grid', gap: '3' })}
      >
        <label htmlFor={fieldId} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          Reason (the seller reads it)
        </label>
        <textarea
          id={fieldId}
          required
          value={reason}
          maxLength={KYC_REASON_LIMITS.maxLength}
          disabled={rejecting}
          onChange={(e) => admin.send({ type: 'reason.changed', reason: e.target.value })}
          // the shared input box, taller
          className={cx(inputBox, css({ minHeight: '6rem', py: '2', height: 'auto' }))}
        />
        <FormFooter
          onCancel={() => admin.send({ type: 'reject.cancelled' })}
          valid={canConfirm}
          submitting={rejecting}
          submitLabel="Reject"
        />
      </form>
    </Modal>
  );
}
