import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import {
  emptySearch,
  type TradeEvent,
  type TradeSearchFilters,
  tradeReadMachine,
  tradeSearchMachine,
} from '../../../machines/trade-search.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { href } from '../../routes';
import { Button } from '../../ui/button';
import { DatePicker } from '../../ui/date-picker';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { card, grid, muted, pager } from './trade-styles';

/** trade/home, Search Tickets: events by name, team, competition, city and dates; paged; recently viewed. */
export default function TradeHomePage() {
  const search = useViewActor(tradeSearchMachine, 'trade-search', { filters: emptySearch() });
  const recent = useViewActor(tradeReadMachine, 'trade-recent', { kind: 'recentlyViewed', currency: 'GBP' });
  return (
    <div className={grid}>
      {search ? <SearchForm search={search} /> : null}
      {recent ? <RecentlyViewed read={recent} /> : null}
      {search ? <Results search={search} /> : null}
    </div>
  );
}

type SearchRef = NonNullable<ReturnType<typeof useViewActor<typeof tradeSearchMachine>>>;
type ReadRef = NonNullable<ReturnType<typeof useViewActor<typeof tradeReadMachine>>>;

function SearchForm({ search }: { search: SearchRef }) {
  const [draft, setDraft] = useState<TradeSearchFilters>(emptySearch());
  const set = (field: keyof TradeSearchFilters) => (e: { currentTarget: { value: string } }) =>
    setDraft((d) => ({ ...d, [field]: e.currentTarget.value }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    search.send({ type: 'filters.changed', filters: draft });
  };
  return (
    <form aria-label="Search tickets" onSubmit={submit} className={card}>
      <div
        className={css({
          display: 'grid',
          gap: '3',
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 12rem), 1fr))',
        })}
      >
        <TextField label="Event name" value={draft.name} maxLength={100} onChange={set('name')} />
        <TextField label="Team" value={draft.team} maxLength={100} onChange={set('team')} />
        <TextField label="Competition" value={draft.competition} maxLength={100} onChange={set('competition')} />
        <TextField label="City" value={draft.city} maxLength={100} onChange={set('city')} />
        <DatePicker
          mode="range"
          label="Dates"
          onChange={(range) => setDraft((d) => ({ ...d, date_from: range.start, date_to: range.end }))}
        />
      </div>
      <div className={css({ display: 'flex', gap: '2', mt: '3' })}>
        <Button type="submit" tone="primary">
          Search
        </Button>
        <Button
          onClick={() => {
            setDraft(emptySearch());
            search.send({ type: 'filters.changed', filters: emptySearch() });
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}

function EventRow({ event }: { event: TradeEvent }) {
  return (
    <li className={css({ borderTop: '1px solid {colors.border}', py: '3', display: 'grid', gap: '1' })}>
      <Link
        href={href.tradeEvent(event.match_id)}
        className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}
      >
        {event.match_name}
      </Link>
      <span className={muted}>
        {formatDate(event.match_date)} {event.match_time} · {event.stadium_name}, {event.city_name},{' '}
        {event.country_name} · {event.tournament}
      </span>
      <span className={muted}>
        {event.tickets_available} tickets
        {event.min_price !== null
          ? ` from ${formatMoney({ minor: event.min_price, currency: event.currency })} a ticket, fees included`
          : ''}
      </span>
    </li>
  );
}

function RecentlyViewed({ read }: { read: ReadRef }) {
  const events = useSelector(read, (s) => (s.matches('shown') ? (s.context.data as TradeEvent[]) : null));
  if (!events || events.length === 0) return null;
  return (
    <section aria-labelledby="recent-title" className={card}>
      <h2 id="recent-title" className={css({ fontWeight: 'semibold' })}>
        Recently viewed
      </h2>
      <ul>
        {events.map((e) => (
          <EventRow key={e.match_id} event={e} />
        ))}
      </ul>
    </section>
  );
}

function Results({ search }: { search: SearchRef }) {
  const items = useSelector(search, (s) => s.context.items);
  const loading = useSelector(search, (s) => s.matches('loading'));
  const empty = useSelector(search, (s) => s.matches('empty'));
  const failed = useSelector(search, (s) => s.matches('failed'));
  const page = useSelector(search, (s) => s.context.page);
  const lastPage = useSelector(search, (s) => s.context.lastPage);
  const total = useSelector(search, (s) => s.context.total);
  return (
    <section aria-labelledby="results-title" className={card}>
      <h2 id="results-title" className={css({ fontWeight: 'semibold' })}>
        Events{total !== null ? ` (${total})` : ''}
      </h2>
      {loading ? (
        <Loading label="Loading events">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height="56px" />
          ))}
        </Loading>
      ) : null}
      {empty ? <p className={muted}>No events match your search.</p> : null}
      {failed ? (
        <p>
          Failed to fetch data <Button onClick={() => search.send({ type: 'list.retried' })}>Retry</Button>
        </p>
      ) : null}
      <ul aria-label="Events">
        {items.map((e) => (
          <EventRow key={e.match_id} event={e} />
        ))}
      </ul>
      {lastPage > 1 ? (
        <nav aria-label="Pages" className={pager}>
          <Button disabled={page <= 1} onClick={() => search.send({ type: 'page.requested', page: page - 1 })}>
            Previous
          </Button>
          <span>
            Page {page} of {lastPage}
          </span>
          <Button disabled={page >= lastPage} onClick={() => search.send({ type: 'page.requested', page: page + 1 })}>
            Next
          </Button>
        </nav>
      ) : null}
    </section>
  );
}
