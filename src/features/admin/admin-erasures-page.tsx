import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type AdminErasure,
  type adminErasureQueueMachine,
  adminErasuresMachine,
} from '../../../machines/admin-erasures.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';

type AdminRef = ActorRefFrom<typeof adminErasuresMachine>;
type QueueRef = ActorRefFrom<typeof adminErasureQueueMachine>;

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});

/** /admin/erasures: accounts that asked to be erased, oldest first: erase each after a confirmation, or reject. */
export default function AdminErasuresPage() {
  const admin = useViewActor(adminErasuresMachine, 'adminErasures');
  if (!admin) return null;
  return (
    <>
      <Queue admin={admin} />
      <EraseDialog admin={admin} />
      <RejectDialog admin={admin} />
    </>
  );
}

function Queue({ admin }: { admin: AdminRef }) {
  const queue = useSelector(admin, (s) => s.children.queue) as QueueRef | undefined;
  const items = useSelector(queue, (s) => s?.context.items ?? []);
  const loading = useSelector(queue, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(queue, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(queue, (s) => s?.matches('empty') ?? false);
  const idle = useSelector(admin, (s) => s.matches('idle'));
  const problem = useSelector(admin, (s) => s.context.problem);
  return (
    <section
      aria-labelledby="admin-erasures"
      aria-busy={loading}
      className={css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '3' })}
    >
      <h2 id="admin-erasures" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Erasure requests
      </h2>
      {problem ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {problem}
        </p>
      ) : null}
      {loading ? (
        <Loading label="Loading the requests">
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
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No account is waiting to be erased.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>Account</th>
                <th>Asked</th>
                <th>Blocked by</th>
                <th>
                  <span className={css({ srOnly: true })}>Decision</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((r: AdminErasure) => (
                <tr key={r.id} aria-label={`Erasure request of ${r.name}`}>
                  <td>
                    {r.name}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted', overflowWrap: 'anywhere' })}>
                      {r.email}
                    </div>
                  </td>
                  <td>{formatDate(r.requested_at)}</td>
                  <td className={css({ fontSize: 'xs' })}>
                    {r.blockers.length > 0 ? r.blockers.join(' ') : 'Nothing'}
                  </td>
                  <td className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                    <Button
                      tone="primary"
                      disabled={!idle}
                      onClick={() => admin.send({ type: 'erase.started', id: r.id })}
                    >
                      Erase<span className={css({ srOnly: true })}> {r.name}</span>
                    </Button>
                    <Button
                      tone="secondary"
                      disabled={!idle}
                      onClick={() => admin.send({ type: 'reject.started', id: r.id })}
                    >
                      Reject<span className={css({ srOnly: true })}> {r.name}</span>
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function EraseDialog({ admin }: { admin: AdminRef }) {
  const open = useSelector(admin, (s) => s.matches('confirming') || s.matches('erasing'));
  const busy = useSelector(admin, (s) => s.matches('erasing'));
  const id = useSelector(admin, (s) => s.context.id);
  const queue = useSelector(admin, (s) => s.children.queue) as QueueRef | undefined;
  const request = useSelector(queue, (s) => s?.context.items.find((r) => r.id === id));
  if (!open) return null;
  return (
    <Modal open title="Erase this account?" onClose={() => admin.send({ type: 'erase.cancelled' })}>
      <div className={css({ display: 'grid', gap: '3' })}>
        <p className={css({ fontSize: 'sm' })}>
          {request ? `${request.name} (${request.email ?? ''})` : 'The account'} will be anonymised: name, e-mail,
          phone, addresses, documents and files deleted, sessions ended. Orders, payouts and the ledger stay, without
          the name. This cannot be undone.
        </p>
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button tone="secondary" onClick={() => admin.send({ type: 'erase.cancelled' })}>
            Cancel
          </Button>
          <Button tone="primary" busy={busy} onClick={() => admin.send({ type: 'erase.confirmed' })}>
            Erase account
          </Button>
        </div>
      </div>
    </Modal>
  );
}

function RejectDialog({ admin }: { admin: AdminRef }) {
  const open = useSelector(admin, (s) => s.matches('writingReason') || s.matches('rejecting'));
  const reason = useSelector(admin, (s) => s.context.reason);
  const busy = useSelector(admin, (s) => s.matches('rejecting'));
  const can = useSelector(admin, (s) => s.can({ type: 'reject.confirmed' }));
  if (!open) return null;
  return (
    <Modal open title="Reject erasure request" onClose={() => admin.send({ type: 'reject.cancelled' })}>
      <div className={css({ display: 'grid', gap: '3' })}>
        <TextField
          label="Reason (the account owner reads it)"
          value={reason}
          required
          maxLength={500}
          onChange={(e) => admin.send({ type: 'reason.changed', reason: e.currentTarget.value })}
        />
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button tone="secondary" onClick={() => admin.send({ type: 'reject.cancelled' })}>
            Cancel
          </Button>
          <Button tone="primary" busy={busy} disabled={!can} onClick={() => admin.send({ type: 'reject.confirmed' })}>
            Reject
          </Button>
        </div>
      </div>
    </Modal>
  );
}
