import { css } from 'styled-system/css';
import { type AdminEventRequest, eventRequestQueueMachine } from '../../../machines/admin/queues';
import { formatDate } from '../../lib/format-date';
import { muted, TwoLines } from './queue/cells';
import { QueuePage } from './queue/queue-page';
import type { QueueView } from './queue/queue-types';

const view: QueueView<AdminEventRequest> = {
  key: 'adminEventRequests',
  heading: 'Event requests pending review',
  noun: 'the event requests',
  empty: 'No event request is waiting.',
  keyOf: (r) => r.request_id,
  rowLabel: (r) => r.match_name,
  columns: [
    {
      header: 'Event',
      cell: (r) => (
        <>
          <div className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{r.match_name}</div>
          <div className={muted}>
            {[r.tournament, r.home_team && r.away_team ? `${r.home_team} v ${r.away_team}` : null]
              .filter(Boolean)
              .join(' · ')}
          </div>
          {r.notes ? <div className={muted}>{r.notes}</div> : null}
        </>
      ),
    },
    {
      header: 'Date',
      nowrap: true,
      cell: (r) => <TwoLines main={formatDate(r.match_date)} sub={r.match_time ?? 'no kick-off time'} />,
    },
    { header: 'Venue', cell: (r) => <TwoLines main={r.stadium_name} sub={r.city_name} /> },
    { header: 'Seller', cell: (r) => r.seller_name },
    { header: 'Requested', cell: (r) => formatDate(r.created_at) },
  ],
  approve: {
    label: 'Approve',
    name: (r) => `Approve ${r.match_name}`,
    title: (r) => `Approve ${r.match_name}`,
    restates: (r) => (
      <p>
        {r.match_name}, {formatDate(r.match_date)} at {r.stadium_name}
        {r.city_name ? `, ${r.city_name}` : ''} joins the catalogue; {r.seller_name} is told and can list tickets for
        it.
      </p>
    ),
    fields: [{ name: 'match_time', label: 'Kick-off time', kind: 'time' }],
    confirmLabel: () => 'Approve',
  },
  reject: {
    label: 'Reject',
    name: (r) => `Reject ${r.match_name}`,
    title: (r) => `Reject ${r.match_name}`,
    reasonLabel: 'Reason (the seller reads it)',
    submitLabel: 'Reject',
  },
};

/** /admin/event-requests: sellers' requests for matches not in the catalogue, oldest first. */
export default function AdminEventRequestsPage() {
  return <QueuePage machine={eventRequestQueueMachine} view={view} />;
}
