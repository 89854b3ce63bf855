import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { adminSystemMachine, type SystemSample, type SystemStatus } from '../../../machines/admin-system.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';

type SystemRef = ActorRefFrom<typeof adminSystemMachine>;

const panel = css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '3' });
const heading = css({ fontSize: 'md', fontWeight: 'bold' });
const grid = css({ display: 'grid', gap: '3', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))' });
const figureBox = css({ display: 'grid', gap: '1', p: '3', borderRadius: 'md', border: '1px solid {colors.border}' });
const muted = css({ fontSize: 'sm', color: 'fg.muted' });

const when = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = n / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** /admin/system: the shop's health and figures, live, with the last hour as small charts. */
export default function AdminSystemPage() {
  const system = useViewActor(adminSystemMachine, 'adminSystem');
  if (!system) return null;
  return <System system={system} />;
}

function System({ system }: { system: SystemRef }) {
  const status = useSelector(system, (s) => s.context.status);
  const loading = useSelector(system, (s) => s.hasTag('loading'));
  const failed = useSelector(system, (s) => s.hasTag('error'));
  const stale = useSelector(system, (s) => s.hasTag('stale'));
  const refreshing = useSelector(system, (s) => s.hasTag('refreshing'));
  if (loading)
    return (
      <section aria-labelledby="system-health" aria-busy className={panel}>
        <h2 id="system-health" className={heading}>
          Health
        </h2>
        <Loading label="Loading the figures">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="56px" />
          ))}
        </Loading>
      </section>
    );
  if (failed || !status)
    return (
      <section aria-labelledby="system-health" className={panel}>
        <h2 id="system-health" className={heading}>
          Health
        </h2>
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => system.send({ type: 'system.retried' })}>
            Retry
          </Button>
        </div>
      </section>
    );
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <Health
        status={status}
        stale={stale}
        refreshing={refreshing}
        onRefresh={() => system.send({ type: 'system.refreshed' })}
      />
      <Figures status={status} />
      <Charts history={status.history} />
    </div>
  );
}

function Health({
  status,
  stale,
  refreshing,
  onRefresh,
}: {
  status: SystemStatus;
  stale: boolean;
  refreshing: boolean;
  onRefresh: () => void;
}) {
  const { readiness } = status;
  return (
    <section aria-labelledby="system-health" className={panel}>
      <div className={css({ display: 'flex', gap: '3', alignItems: 'center', justifyContent: 'space-between' })}>
        <h2 id="system-health" className={heading}>
          Health
        </h2>
        <Button tone="secondary" onClick={onRefresh} disabled={refreshing}>
          Refresh
        </Button>
      </div>
      <p className={muted}>
        As of {when(status.generated_at)} UTC{stale ? ' (could not refresh: these figures are stale)' : ''}
      </p>
      <p role="status" className={css({ fontWeight: 'semibold', color: readiness.ready ? 'success' : 'error' })}>
        {readiness.ready ? 'Ready: every process answers' : 'Not ready'}
      </p>
      <ul aria-label="Processes" className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
        {readiness.workers.map((w, i) => (
          <li key={w.worker ?? `one-${i}`}>
            {w.worker === null ? 'Server' : `Worker ${w.worker}`}: {w.ready ? 'ready' : 'not ready'}
            {w.checks
              .filter((c) => !c.ok)
              .map((c) => ` (${c.name}: ${c.detail})`)
              .join('')}
          </li>
        ))}
      </ul>
      <p className={css({ fontSize: 'sm' })}>
        Last good backup: <strong>{status.last_backup_at ? `${when(status.last_backup_at)} UTC` : 'never'}</strong>
        {status.last_backup_error ? (
          <span className={css({ color: 'error', display: 'block' })}>
            The last backup failed: {status.last_backup_error}
          </span>
        ) : null}
      </p>
    </section>
  );
}

function Figures({ status }: { status: SystemStatus }) {
  const figures: Array<[string, string]> = [
    ['Holds open', String(status.holds_open)],
    ['Deposits waiting', String(status.deposits_waiting)],
    ['Payouts waiting', String(status.payouts_waiting)],
    ['Mail queued', String(status.mail_queued)],
    ['Purchases confirmed', String(status.purchases)],
    ['Purchases failed', String(status.purchases_failed)],
    ['Login refusals', String(status.login_refusals)],
    ['Requests', String(status.requests)],
    ['Database size', bytes(status.database_bytes)],
    ['Uploads size', bytes(status.upload_bytes)],
    ['Event loop delay (p99)', `${status.event_loop_delay_ms} ms`],
  ];
  return (
    <section aria-labelledby="system-figures" className={panel}>
      <h2 id="system-figures" className={heading}>
        Figures
      </h2>
      <p className={muted}>Counts of purchases, refusals and requests are since the server started.</p>
      <dl className={grid}>
        {figures.map(([label, value]) => (
          <div key={label} className={figureBox}>
            <dt className={muted}>{label}</dt>
            <dd className={css({ fontSize: 'xl', fontWeight: 'bold' })}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const CHARTS: Array<{ key: keyof Omit<SystemSample, 'at'>; title: string; unit: string }> = [
  { key: 'requests', title: 'Requests a minute', unit: '' },
  { key: 'purchases', title: 'Purchases a minute', unit: '' },
  { key: 'purchases_failed', title: 'Failed purchases a minute', unit: '' },
  { key: 'login_refusals', title: 'Login refusals a minute', unit: '' },
  { key: 'errors', title: 'Server errors a minute', unit: '' },
  { key: 'event_loop_delay_ms', title: 'Event loop delay (p99)', unit: ' ms' },
];

function Charts({ history }: { history: readonly SystemSample[] }) {
  return (
    <section aria-labelledby="system-hour" className={panel}>
      <h2 id="system-hour" className={heading}>
        The last hour
      </h2>
      <div className={grid}>
        {CHARTS.map((chart) => (
          <Sparkline key={chart.key} title={chart.title} unit={chart.unit} values={history.map((s) => s[chart.key])} />
        ))}
      </div>
    </section>
  );
}

/** A small line of the last hour, a point a minute; its name says the peak and the last minute's value. */
function Sparkline({ title, unit, values }: { title: string; unit: string; values: readonly number[] }) {
  const width = 160;
  const height = 40;
  const peak = Math.max(0, ...values);
  const last = values.at(-1) ?? 0;
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values
    .map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (peak > 0 ? (v / peak) * (height - 4) : 0)).toFixed(1)}`)
    .join(' ');
  const summary = `${title}: now ${last}${unit}, peak ${peak}${unit} in the last hour`;
  return (
    <figure className={figureBox}>
      <figcaption className={muted}>{title}</figcaption>
      <svg role="img" aria-label={summary} viewBox={`0 0 ${width} ${height}`} width="100%" height={height}>
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      </svg>
      <span className={css({ fontSize: 'sm' })}>
        now {last}
        {unit}, peak {peak}
        {unit}
      </span>
    </figure>
  );
}
