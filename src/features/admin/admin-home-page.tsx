import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import { type AdminQueue, adminHomeMachine } from '../../../machines/admin/home.machine';
import { useViewActor } from '../../app/view-actor';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';
import { dateTime } from './queue/cells';

/** Each queue's page and name. */
type QueueRoute =
  | 'adminDeposits'
  | 'adminKyc'
  | 'adminPayouts'
  | 'adminEventRequests'
  | 'adminErasures'
  | 'adminOrders'
  | 'adminBankStatements'
  | 'adminDisputes';

const QUEUES: Record<AdminQueue['queue'], { label: string; route: QueueRoute }> = {
  deposits: { label: 'Deposit requests', route: 'adminDeposits' },
  kyc: { label: 'KYC submissions', route: 'adminKyc' },
  payouts: { label: 'Payout requests', route: 'adminPayouts' },
  event_requests: { label: 'Event requests', route: 'adminEventRequests' },
  erasures: { label: 'Erasure requests', route: 'adminErasures' },
  orders: { label: 'Orders needing action', route: 'adminOrders' },
  bank_lines: { label: 'Bank statement lines to review', route: 'adminBankStatements' },
  disputes: { label: 'Buyer claims', route: 'adminDisputes' },
};

const card = css({
  display: 'grid',
  gap: '1',
  p: '4',
  borderRadius: 'lg',
  border: '1px solid {colors.border}',
  bg: 'bg',
  color: 'fg',
  textDecoration: 'none',
  minHeight: '24px',
  _hover: { borderColor: 'accent' },
});

/** /admin: the back office's home: what waits in each queue and since when, the one waiting longest first. */
export default function AdminHomePage() {
  const home = useViewActor(adminHomeMachine, 'adminHome');
  const queues = useSelector(home, (s) => s?.context.queues ?? []);
  const loading = useSelector(home, (s) => s?.hasTag('loading') ?? true);
  const failed = useSelector(home, (s) => s?.hasTag('error') ?? false);
  const refreshing = useSelector(home, (s) => s?.hasTag('refreshing') ?? false);
  return (
    <section aria-labelledby="admin-queues" aria-busy={loading} className={css({ display: 'grid', gap: '4' })}>
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '3' })}>
        <h2 id="admin-queues" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          Queues, the one waiting longest first
        </h2>
        <Button
          tone="secondary"
          busy={refreshing}
          disabled={loading || failed}
          onClick={() => home?.send({ type: 'home.refreshed' })}
        >
          Refresh
        </Button>
      </div>
      {loading ? (
        <Loading label="Loading the queues">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="80px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => home?.send({ type: 'home.retried' })}>
            Retry
          </Button>
        </div>
      ) : (
        <ul
          aria-label="Queues"
          className={css({
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: '3',
            gridTemplateColumns: { base: '1fr', desktop: 'repeat(3, minmax(0, 1fr))' },
          })}
        >
          {queues.map((q) => {
            const { label, route } = QUEUES[q.queue];
            return (
              <li key={q.queue}>
                <Link href={routes[route].href({})} className={card}>
                  <span className={css({ fontWeight: 'semibold' })}>{label}</span>
                  <span className={css({ fontSize: 'xl', fontWeight: 'bold', fontVariantNumeric: 'tabular-nums' })}>
                    {q.count} waiting
                  </span>
                  <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                    {q.oldest_at ? `Oldest since ${dateTime(q.oldest_at)}` : 'Nothing waiting'}
                  </span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
