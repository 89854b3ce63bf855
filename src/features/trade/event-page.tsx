import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { css } from 'styled-system/css';
import { useLocation } from 'wouter';
import {
  eventTicketsMachine,
  type PurchaseListing,
  type TradeEvent,
  tradeReadMachine,
} from '../../../machines/trade-search.machine';
import { matchRoute } from '../../app/route-access';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMoney, parseMinorUnits } from '../../lib/money';
import { blockText } from '../../lib/seats';
import { Button } from '../../ui/button';
import { Dropdown } from '../../ui/dropdown';
import { ListingTerms } from '../../ui/listing-terms';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';
import { TicketTypeIcon } from '../../ui/ticket-type-icon';
import { PurchasePanel } from './purchase-panel';
import { card, grid, muted, pager } from './trade-styles';

const CURRENCY = 'GBP';

/** An event in the trade area: its details and the tickets other sellers offer, each with Buy. */
export default function EventPage() {
  const [location] = useLocation();
  const match = matchRoute(location);
  const matchId = match?.key === 'tradeEvent' ? (match.params as { matchId: number }).matchId : 0;
  return <EventView key={matchId} matchId={matchId} />;
}

function EventView({ matchId }: { matchId: number }) {
  const read = useViewActor(tradeReadMachine, `trade-event-${matchId}`, {
    kind: 'event',
    matchId,
    currency: CURRENCY,
  });
  const tickets = useViewActor(eventTicketsMachine, `trade-tickets-${matchId}`, {
    filters: { matchId, currency: CURRENCY, quantity: null },
  });
  const event = useSelector(read, (s) =>
    s?.matches('shown') ? (s.context.data as { event: TradeEvent }).event : null,
  );
  const failed = useSelector(read, (s) => s?.matches('failed') ?? false);
  const [buying, setBuying] = useState<PurchaseListing | null>(null);
  return (
    <div className={grid}>
      <section aria-label="Event" className={card}>
        {event ? (
          <>
            <h2 className={css({ fontWeight: 'semibold', fontSize: 'xl', overflowWrap: 'anywhere' })}>
              {event.match_name}
            </h2>
            <p className={muted}>
              {formatDate(event.match_date)} {event.match_time} · {event.stadium_name}, {event.city_name},{' '}
              {event.country_name} · {event.tournament}
            </p>
          </>
        ) : failed ? (
          <p>
            Failed to fetch data <Button onClick={() => read?.send({ type: 'read.retried' })}>Retry</Button>
          </p>
        ) : (
          <Loading label="Loading the event">
            <Skeleton height="48px" />
          </Loading>
        )}
      </section>
      {tickets ? <Tickets tickets={tickets} onBuy={setBuying} /> : null}
      <PurchasePanel listing={buying} currency={CURRENCY} onClose={() => setBuying(null)} />
    </div>
  );
}

type TicketsRef = NonNullable<ReturnType<typeof useViewActor<typeof eventTicketsMachine>>>;

const QUANTITIES = [1, 2, 3, 4, 5, 6, 8, 10];
const SORTS = [
  { label: 'Lowest price first', value: 'price_asc' as const },
  { label: 'Highest price first', value: 'price_desc' as const },
];

/** "for 2 tickets, fees included": what the all-in price shown first is for. */
export const allInText = (quantity: number) => `for ${quantity} ticket${quantity === 1 ? '' : 's'}, fees included`;

/** The page's filters: how many tickets, the order and the most a ticket may cost, all in (the server applies them). */
function TicketFilters({ tickets }: { tickets: TicketsRef }) {
  const filters = useSelector(tickets, (s) => s.context.filters);
  const [maxText, setMaxText] = useState('');
  const change = (next: Partial<typeof filters>) =>
    tickets.send({ type: 'filters.changed', filters: { ...filters, ...next } });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    change({ maxPrice: maxText.trim() === '' ? null : parseMinorUnits(maxText) });
  };
  return (
    <form
      aria-label="Filter tickets"
      onSubmit={submit}
      className={css({
        display: 'grid',
        gap: '3',
        alignItems: 'end',
        gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 10rem), 1fr))',
      })}
    >
      <Dropdown
        label="Tickets"
        searchable={false}
        options={[{ label: 'Any number', value: 0 }, ...QUANTITIES.map((n) => ({ label: String(n), value: n }))]}
        value={filters.quantity ?? 0}
        onChange={(value) => change({ quantity: value ? value : null })}
      />
      <Dropdown
        label="Sort by price, fees included"
        searchable={false}
        options={SORTS}
        value={filters.sort ?? 'price_asc'}
        onChange={(value) => value && change({ sort: value })}
      />
      <TextField
        label={`Most a ticket, fees included (${CURRENCY})`}
        inputMode="decimal"
        maxLength={12}
        value={maxText}
        onChange={(e) => setMaxText(e.currentTarget.value)}
      />
      <Button type="submit">Apply</Button>
    </form>
  );
}

function Tickets({ tickets, onBuy }: { tickets: TicketsRef; onBuy: (listing: PurchaseListing) => void }) {
  const items = useSelector(tickets, (s) => s.context.items);
  const loading = useSelector(tickets, (s) => s.matches('loading'));
  const empty = useSelector(tickets, (s) => s.matches('empty'));
  const page = useSelector(tickets, (s) => s.context.page);
  const lastPage = useSelector(tickets, (s) => s.context.lastPage);
  return (
    <section aria-labelledby="tickets-title" className={card}>
      <h2 id="tickets-title" className={css({ fontWeight: 'semibold' })}>
        Tickets
      </h2>
      <TicketFilters tickets={tickets} />
      <p className={muted}>Prices include the service fee, tax and delivery: the same by SB Pay or card.</p>
      {loading ? (
        <Loading label="Loading tickets">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height="56px" />
          ))}
        </Loading>
      ) : null}
      {empty ? <p className={muted}>No tickets are offered for this event right now.</p> : null}
      <ul aria-label="Tickets">
        {items.map((t) => (
          <li
            key={t.sNo}
            aria-label={`${t.Category}, ${blockText(t.ticket_block)}, row ${t.row}`}
            className={css({
              borderTop: '1px solid {colors.border}',
              py: '3',
              display: 'grid',
              gap: '2',
              gridTemplateColumns: 'minmax(0, 1fr) auto',
              alignItems: 'center',
            })}
          >
            <div className={css({ display: 'grid', gap: '1', minWidth: 0 })}>
              <span className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>
                {t.Category} · {blockText(t.ticket_block, true)} · Row {t.row}
              </span>
              <span className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                <TicketTypeIcon typeId={t.ticket_type_id} name={t.Ticket_type} />
                <span className={muted}>{t.Ticket_type}</span>
              </span>
              <span className={muted}>
                {t.quantity} available · buy {t.split_list.join(', ')}
              </span>
              {t.in_hand_date ? <span className={muted}>Tickets in hand from {formatDate(t.in_hand_date)}</span> : null}
              <ListingTerms terms={t} />
            </div>
            <div className={css({ display: 'grid', gap: '1', justifyItems: 'end', textAlign: 'right' })}>
              <strong>{formatMoney({ minor: t.all_in_price, currency: t.currency })}</strong>
              <span className={muted}>{allInText(t.all_in_quantity)}</span>
              <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                ticket {formatMoney({ minor: t.price, currency: t.currency })} each before fees
              </span>
              <Button
                tone="primary"
                onClick={() => onBuy(t)}
                aria-label={`Buy ${t.Category} ${blockText(t.ticket_block)} row ${t.row}`}
              >
                Buy
              </Button>
            </div>
          </li>
        ))}
      </ul>
      {lastPage > 1 ? (
        <nav aria-label="Pages" className={pager}>
          <Button disabled={page <= 1} onClick={() => tickets.send({ type: 'page.requested', page: page - 1 })}>
            Previous
          </Button>
          <span>
            Page {page} of {lastPage}
          </span>
          <Button disabled={page >= lastPage} onClick={() => tickets.send({ type: 'page.requested', page: page + 1 })}>
            Next
          </Button>
        </nav>
      ) : null}
    </section>
  );
}
