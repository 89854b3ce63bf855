import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { type AdminEvent, transferWindowsMachine } from '../../../machines/admin/transfer-windows.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { dateTime, muted } from './queue/cells';

type WindowsRef = ActorRefFrom<typeof transferWindowsMachine>;

const panel = css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '4' });
const rowBox = css({
  display: 'grid',
  gap: '3',
  alignItems: 'end',
  gridTemplateColumns: { base: '1fr', desktop: 'minmax(0, 2fr) minmax(0, 1fr) auto' },
  borderBottom: '1px solid {colors.border}',
  pb: '3',
});

/**
 * /admin/transfer-windows: when each event's club releases mobile transfers (hours before kick-off). A mobile
 * order is not due before its transfers have been open 12 hours, so saving a window moves its open orders.
 */
export default function AdminTransferWindowsPage() {
  const windows = useViewActor(transferWindowsMachine, 'transferWindows');
  if (!windows) return null;
  return <TransferWindows windows={windows} />;
}

function TransferWindows({ windows }: { windows: WindowsRef }) {
  const q = useSelector(windows, (s) => s.context.q);
  const events = useSelector(windows, (s) => s.context.events);
  const loading = useSelector(windows, (s) => s.hasTag('loading') && s.context.events.length === 0);
  const failed = useSelector(windows, (s) => s.hasTag('error'));
  return (
    <section aria-labelledby="transfer-windows" className={panel}>
      <div className={css({ display: 'grid', gap: '1' })}>
        <h1 id="transfer-windows" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
          Transfer windows
        </h1>
        <p className={muted}>
          Many clubs release mobile ticket transfers only 24 to 72 hours before kick-off. Set the window here: a mobile
          order is not due before transfers have been open 12 hours, and its open orders move at once.
        </p>
      </div>
      <div className={css({ maxWidth: '420px' })}>
        <TextField
          label="Find an event"
          type="search"
          value={q}
          maxLength={100}
          placeholder="Match, team or tournament"
          onChange={(e) => windows.send({ type: 'search.changed', q: e.currentTarget.value })}
        />
      </div>
      {loading ? (
        <Loading label="Loading the events">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="64px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => windows.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : events.length === 0 ? (
        <p className={muted}>No event to come matches this search.</p>
      ) : (
        <ul aria-label="Events" className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '3' })}>
          {events.map((e) => (
            <EventRow key={e.id} windows={windows} event={e} />
          ))}
        </ul>
      )}
    </section>
  );
}

function EventRow({ windows, event }: { windows: WindowsRef; event: AdminEvent }) {
  const [hours, setHours] = useState(event.transfer_window_hours === null ? '' : String(event.transfer_window_hours));
  const saving = useSelector(windows, (s) => s.hasTag('saving') && s.context.saving?.id === event.id);
  const busy = useSelector(windows, (s) => s.hasTag('saving'));
  const problem = useSelector(windows, (s) => (s.context.problem?.id === event.id ? s.context.problem.message : null));
  const saved = useSelector(windows, (s) => s.context.saved?.id === event.id);
  const trimmed = hours.trim();
  const value = trimmed === '' ? null : Number(trimmed);
  const invalid = value !== null && !(Number.isInteger(value) && value >= 1 && value <= 168);
  const unchanged = value === event.transfer_window_hours;
  return (
    <li className={rowBox} aria-label={event.match_name}>
      <div className={css({ display: 'grid', gap: '1', minWidth: 0 })}>
        <span className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{event.match_name}</span>
        <span className={muted}>
          {formatDate(event.event_date)} {event.event_time} · {event.stadium_name} · {event.open_orders} open order
          {event.open_orders === 1 ? '' : 's'}
        </span>
        <span className={muted} role={saved ? 'status' : undefined}>
          {saved ? 'Saved. ' : ''}
          {event.transfers_open_at ? `Transfers open ${dateTime(event.transfers_open_at)}.` : 'No transfer window.'}
        </span>
      </div>
      <TextField
        label="Hours before kick-off"
        inputMode="numeric"
        value={hours}
        placeholder="No window"
        error={invalid ? 'A whole number of hours from 1 to 168, or empty for no window.' : problem}
        onChange={(e) => setHours(e.currentTarget.value)}
      />
      <Button
        busy={saving}
        disabled={busy || invalid || unchanged}
        onClick={() => windows.send({ type: 'window.saved', id: event.id, hours: value })}
      >
        Save window
      </Button>
    </li>
  );
}
