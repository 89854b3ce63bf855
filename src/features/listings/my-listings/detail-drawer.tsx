import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { DetailKind } from '../../../../machines/inventory.machine';
import { blockText } from '../../../lib/seats';
import { Button } from '../../../ui/button';
import { Drawer } from '../../../ui/drawer';
import { Loading, Skeleton } from '../../../ui/skeleton';
import { matchWhen, money } from '../listing-format';
import { muted, stack } from '../listing-styles';
import { DetailBody } from './detail-body';
import { useInventory } from './inventory-context';

const TABS: Array<{ kind: DetailKind; label: string }> = [
  { kind: 'logs', label: 'Logs' },
  { kind: 'history', label: 'History' },
  { kind: 'insights', label: 'Market insights' },
];

export function DetailDrawer() {
  const inventory = useInventory();
  const detail = useSelector(inventory, (s) => s.context.detail);
  const data = useSelector(inventory, (s) => s.context.detailData);
  const loading = useSelector(inventory, (s) => s.hasTag('loadingDetail'));
  const failed = useSelector(inventory, (s) => s.matches({ detail: { open: 'failed' } }));
  const l = detail?.listing;
  return (
    <Drawer
      open={detail !== null}
      onClose={() => inventory.send({ type: 'detail.closed' })}
      title={l ? `${l.match_name}: ${l.Category}, ${blockText(l.ticket_block)}` : 'Listing'}
    >
      {l ? (
        <div className={stack}>
          <p className={muted}>
            {matchWhen(l.match_date, l.match_time)} · row {l.row} · {l.quantity} tickets, {l.sold} sold ·{' '}
            {money(l.price, l.currency)} each
          </p>
          <fieldset className={css({ display: 'flex', gap: '1', flexWrap: 'wrap', border: 'none', p: 0, m: 0 })}>
            <legend className={css({ srOnly: true })}>Show</legend>
            {TABS.map((t) => (
              <Button
                key={t.kind}
                tone={detail?.kind === t.kind ? 'primary' : 'secondary'}
                aria-pressed={detail?.kind === t.kind}
                onClick={() => inventory.send({ type: 'detail.tabbed', kind: t.kind })}
              >
                {t.label}
              </Button>
            ))}
          </fieldset>
          {loading ? (
            <Loading label="Loading">
              {[1, 2, 3].map((i) => (
                <Skeleton key={i} height="32px" />
              ))}
            </Loading>
          ) : failed ? (
            <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
              <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
              <Button tone="secondary" onClick={() => inventory.send({ type: 'detail.retried' })}>
                Retry
              </Button>
            </div>
          ) : data ? (
            <DetailBody data={data} currency={l.currency} ticketId={l.id} />
          ) : null}
        </div>
      ) : null}
    </Drawer>
  );
}
