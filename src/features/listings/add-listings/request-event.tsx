import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { formatDate } from '../../../lib/format-date';
import { Button } from '../../../ui/button';
import { card, sectionTitle } from '../listing-styles';
import { type AddRef, REQUEST_STATUS, type RequestRef } from './add-listing-parts';
import { RequestForm } from './request-form';

export function RequestEvent({ add }: { add: AddRef }) {
  const open = useSelector(add, (s) => s.matches({ request: 'open' }));
  const requests = useSelector(add, (s) => s.context.requests);
  const form = useSelector(add, (s) => s.children.eventRequestForm) as RequestRef | undefined;
  return (
    <section aria-labelledby="request-event" className={card}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <h2 id="request-event" className={sectionTitle}>
          Match not in the catalogue?
        </h2>
        {open ? null : (
          <Button tone="secondary" onClick={() => add.send({ type: 'request.opened' })}>
            Request an event
          </Button>
        )}
      </div>
      {open && form ? <RequestForm add={add} form={form} /> : null}
      {requests.length > 0 ? (
        <ul aria-label="Your event requests" className={css({ display: 'grid', gap: '1', listStyle: 'none', p: 0 })}>
          {requests.map((r) => (
            <li key={r.request_id} className={css({ fontSize: 'sm' })}>
              {r.match_name}, {formatDate(r.match_date)}
              {r.match_time ? ` ${r.match_time}` : ''}, {r.stadium_name}
              {r.tournament ? ` (${r.tournament})` : ''}: <strong>{REQUEST_STATUS[r.status] ?? r.status}</strong>
              {r.status_reason ? ` (${r.status_reason})` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
