import { useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { css, cx } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type AdminDeposit,
  adminDepositsMachine,
  type adminQueueMachine,
  REASON_LIMITS,
} from '../../../machines/admin-deposits.machine';
import { useViewActor } from '../../app/view-actor';
import { formatFileSize } from '../../lib/file-rules';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { openProof } from '../../lib/proof-file';
import { Button } from '../../ui/button';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { inputBox } from '../../ui/text-field';

type AdminRef = ActorRefFrom<typeof adminDepositsMachine>;
type QueueRef = ActorRefFrom<typeof adminQueueMachine>;

const dateTime = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

/** /admin/deposits: the back office's queue of pending deposit requests, oldest first. */
export default function AdminDepositsPage() {
  const admin = useViewActor(adminDepositsMachine, 'adminDeposits');
  useEffect(() => {
    if (!admin) return;
    const sub = admin.on('proof.ready', ({ proof }) => openProof(proof));
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
  const loadingProof = useSelector(admin, (s) => s.hasTag('loadingProof'));
  return (
    <section
      aria-labelledby="admin-deposits"
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
      <h2 id="admin-deposits" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Deposit requests pending admin approval
      </h2>
      {loading ? (
        <Loading label="Loading the deposit requests">
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
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No deposit request is waiting.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>Request</th>
                <th>Seller</th>
                <th>Amount</th>
                <th>Sent by</th>
                <th>Submitted</th>
                <th>Proof</th>
                <th>
                  <span className={css({ srOnly: true })}>Decision</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((d: AdminDeposit) => (
                <tr key={d.id} aria-label={`Deposit #${d.id}`}>
                  <td>
                    #{d.id}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>{d.reference}</div>
                  </td>
                  <td>
                    {d.seller_name}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted', overflowWrap: 'anywhere' })}>
                      {d.seller_email}
                    </div>
                  </td>
                  <td className={css({ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' })}>
                    {formatMoney({ minor: d.amount, currency: d.currency })}
                  </td>
                  <td>
                    {d.payment_transfer_by}
                    {d.notes ? <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>{d.notes}</div> : null}
                  </td>
                  <td>{dateTime(d.created_at)}</td>
                  <td>
                    {d.proof ? (
                      <Button
                        tone="secondary"
                        disabled={loadingProof}
                        onClick={() => admin.send({ type: 'proof.requested', id: d.id })}
                      >
                        View proof<span className={css({ srOnly: true })}> of deposit #{d.id}</span>
                      </Button>
                    ) : (
                      <span className={css({ color: 'fg.muted' })}>None</span>
                    )}
                    {d.proof ? (
                      <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                        {d.proof.kind}, {formatFileSize(d.proof.size)}
                      </div>
                    ) : null}
                  </td>
                  <td>
                    <div className={css({ display: 'flex', gap: '2' })}>
                      <Button
                        disabled={!idle}
                        busy={deciding === d.id}
                        aria-label={`Approve deposit #${d.id}`}
                        onClick={() => admin.send({ type: 'deposit.approved', id: d.id })}
                      >
                        Approve
                      </Button>
                      <Button
                        tone="secondary"
                        disabled={!idle}
                        aria-label={`Reject deposit #${d.id}`}
                        onClick={() => admin.send({ type: 'reject.started', id: d.id })}
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
            aria-label="Deposit request pages"
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
    <Modal open={open} onClose={() => admin.send({ type: 'reject.cancelled' })} title={`Reject deposit #${id ?? ''}`}>
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
          maxLength={REASON_LIMITS.maxLength}
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
