import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { css } from 'styled-system/css';
import { emptyMatchSearch, type MatchSearchFilters } from '../../../../machines/add-listing.machine';
import { Button } from '../../../ui/button';
import { DatePicker } from '../../../ui/date-picker';
import { Loading, Skeleton } from '../../../ui/skeleton';
import { TextField } from '../../../ui/text-field';
import { matchWhen } from '../listing-format';
import { card, fieldGrid, muted, sectionTitle } from '../listing-styles';
import type { AddRef, SearchRef } from './add-listing-parts';

export function MatchSearch({ add, search }: { add: AddRef; search: SearchRef }) {
  const [draft, setDraft] = useState<MatchSearchFilters>(emptyMatchSearch());
  const items = useSelector(search, (s) => s.context.items);
  const page = useSelector(search, (s) => s.context.page);
  const lastPage = useSelector(search, (s) => s.context.lastPage);
  const state = useSelector(search, (s) =>
    s.hasTag('loadingFirst') ? 'loading' : s.matches('failed') ? 'failed' : s.matches('empty') ? 'empty' : 'shown',
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    search.send({ type: 'filters.changed', filters: draft });
  };
  return (
    <section aria-labelledby="find-match" className={card}>
      <h2 id="find-match" className={sectionTitle}>
        Find the match
      </h2>
      <form aria-label="Find the match" onSubmit={submit} className={fieldGrid}>
        <TextField
          label="Match"
          type="search"
          placeholder="Name, team or competition"
          maxLength={100}
          value={draft.q}
          onChange={(e) => {
            const q = e.currentTarget.value;
            setDraft((d) => ({ ...d, q }));
          }}
        />
        <DatePicker
          mode="range"
          label="Match dates"
          onChange={({ start, end }) => setDraft((d) => ({ ...d, date_from: start, date_to: end }))}
        />
        <div className={css({ display: 'flex', alignItems: 'flex-end' })}>
          <Button type="submit">Search</Button>
        </div>
      </form>
      {state === 'loading' ? (
        <Loading label="Searching the matches">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="48px" />
          ))}
        </Loading>
      ) : state === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => search.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : state === 'empty' ? (
        <p className={muted}>No upcoming match found. Not in the catalogue yet? Use Request an event below.</p>
      ) : (
        <>
          <ul aria-label="Matches" className={css({ display: 'grid', gap: '2', listStyle: 'none', p: 0, m: 0 })}>
            {items.map((m) => (
              <li
                key={m.match_id}
                className={css({
                  display: 'flex',
                  gap: '3',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  flexWrap: 'wrap',
                  borderTop: '1px solid {colors.border}',
                  pt: '2',
                })}
              >
                <div className={css({ minWidth: 0 })}>
                  <div className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{m.match_name}</div>
                  <div className={muted}>
                    {matchWhen(m.match_date, m.match_time)} · {m.stadium_name}, {m.city_name} · {m.tournament}
                  </div>
                </div>
                <Button tone="secondary" onClick={() => add.send({ type: 'match.chosen', match: m })}>
                  Sell tickets<span className={css({ srOnly: true })}> for {m.match_name}</span>
                </Button>
              </li>
            ))}
          </ul>
          {lastPage > 1 ? (
            <nav aria-label="Match pages" className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
              <Button
                tone="secondary"
                disabled={page <= 1}
                onClick={() => search.send({ type: 'page.requested', page: page - 1 })}
              >
                Previous
              </Button>
              <span className={css({ fontSize: 'sm' })}>
                Page {page} of {lastPage}
              </span>
              <Button
                tone="secondary"
                disabled={page >= lastPage}
                onClick={() => search.send({ type: 'page.requested', page: page + 1 })}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
