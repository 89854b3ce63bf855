import { useSelector } from '@xstate/react';
import { useState } from 'react';
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
import { formatMoney } from '../../lib/money';
import { blockText } from '../../lib/seats';
import { Button } from '../../ui/button';
import { Loading, Skeleton } from '../../ui/skeleton';
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
            </div>
            <div className={css({ display: 'grid', gap: '1', justifyItems: 'end' })}>
              <strong>{formatMoney({ minor: t.price, currency: t.currency })}</strong>
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
