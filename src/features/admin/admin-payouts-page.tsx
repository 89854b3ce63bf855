import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type AdminPayout,
  type adminPayoutQueueMachine,
  adminPayoutsMachine,
} from '../../../machines/payouts-admin.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';

type AdminRef = ActorRefFrom<typeof adminPayoutsMachine>;
type QueueRef = ActorRefFrom<typeof adminPayoutQueueMachine>;

const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});

/** /admin/payouts: the back office's requested payouts, oldest first: mark each sent, or failed with a reason. */
export default function AdminPayoutsPage() {
  const admin = useViewActor(adminPayoutsMachine, 'adminPayouts');
  if (!admin) return null;
  return (
    <>
      <Queue admin={admin} />
      <FailDialog admin={admin} />
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
      aria-labelledby="admin-payouts"
      aria-busy={loading}
      className={css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '3' })}
    >
      <h2 id="admin-payouts" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Payouts to send
      </h2>
      {problem ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {problem}
        </p>
      ) : null}
      {loading ? (
        <Loading label="Loading the payouts">
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
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No payout is waiting.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>Payout</th>
                <th>Seller</th>
                <th>Send</th>
                <th>To</th>
                <th>Requested</th>
                <th>
                  <span className={css({ srOnly: true })}>Decision</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((p: AdminPayout) => (
                <tr key={p.id} aria-label={`Payout ${p.reference}`}>
                  <td>{p.reference}</td>
                  <td>
                    {p.seller_name}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted', overflowWrap: 'anywhere' })}>
                      {p.seller_email}
                    </div>
                  </td>
                  <td className={css({ whiteSpace: 'nowrap' })}>
                    {formatMoney({ minor: p.net, currency: p.currency })}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                      of {formatMoney({ minor: p.amount, currency: p.currency })}
                    </div>
                  </td>
                  <td className={css({ overflowWrap: 'anywhere' })}>
                    {p.holder_name}
                    <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                      {p.iban} · {p.bank_account.bic}
                    </div>
                  </td>
                  <td>{formatDate(p.created_at)}</td>
                  <td className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                    <Button
                      tone="primary"
                      disabled={!idle}
                      onClick={() => admin.send({ type: 'payout.sent', id: p.id })}
                    >
                      Mark sent<span className={css({ srOnly: true })}> {p.reference}</span>
                    </Button>
                    <Button
                      tone="secondary"
                      disabled={!idle}
                      onClick={() => admin.send({ type: 'fail.started', id: p.id })}
                    >
                      Mark failed<span className={css({ srOnly: true })}> {p.reference}</span>
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

function FailDialog({ admin }: { admin: AdminRef }) {
  const open = useSelector(admin, (s) => s.matches('writingReason') || s.matches('failing'));
  const reason = useSelector(admin, (s) => s.context.reason);
  const busy = useSelector(admin, (s) => s.matches('failing'));
  const can = useSelector(admin, (s) => s.can({ type: 'fail.confirmed' }));
  if (!open) return null;
  return (
    <Modal open title="Mark payout failed" onClose={() => admin.send({ type: 'fail.cancelled' })}>
      <div className={css({ display: 'grid', gap: '3' })}>
        <TextField
          label="Reason (the seller reads it)"
          value={reason}
          required
          maxLength={500}
          onChange={(e) => admin.send({ type: 'reason.changed', reason: e.currentTarget.value })}
        />
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end' })}>
          <Button tone="secondary" onClick={() => admin.send({ type: 'fail.cancelled' })}>
            Cancel
          </Button>
          <Button tone="primary" busy={busy} disabled={!can} onClick={() => admin.send({ type: 'fail.confirmed' })}>
            Mark failed
          </Button>
        </div>
      </div>
    </Modal>
  );
}
