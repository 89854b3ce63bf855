import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { Link, useSearch } from 'wouter';
import { SALES_STATUS_LABELS } from '../../../machines/sales-statuses';
import {
  type Booking,
  cancelBooking,
  downloadBookingTickets,
  purchaseHistoryMachine,
  tradeReadMachine,
} from '../../../machines/trade-search.machine';
import { ApiError, messageOf } from '../../../openapi/client';
import { notify } from '../../app/notify-bridge';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMinorUnits } from '../../lib/money';
import { saveFile } from '../../lib/save-file';
import { blockText } from '../../lib/seats';
import { href, paths } from '../../routes';
import { Button } from '../../ui/button';
import { ListingTerms } from '../../ui/listing-terms';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TicketTypeIcon } from '../../ui/ticket-type-icon';
import { type Tone, ToneBadge } from '../../ui/tone-badge';
import { ClaimPanel } from './claim-panel';
import { card, grid, muted, pager } from './trade-styles';
import { TransferAcceptance } from './transfer-acceptance';

/** How the card holder was authenticated, as the buyer reads it. */
export const AUTHENTICATION_TEXT: Record<NonNullable<NonNullable<Booking['payment']>['authentication']>, string> = {
  challenge: '3-D Secure: confirmed with your bank',
  frictionless: '3-D Secure: approved by your bank without a check',
  exemption: 'Exempt from Strong Customer Authentication',
  none: 'No card authentication',
  not_applicable: 'SB Pay (no card)',
};

export const UNEXPECTED = 'An unexpected error occurred. Please try again later.';

/**
 * What an action's failure says: a refusal (4xx) is the server's reason, shown under its button (answered);
 * anything else (offline, 5xx) is a toast, since nothing a person can act on belongs under the button.
 */
export function sayFailure(error: unknown, show: (message: string | null) => void, fallback?: string) {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) show(messageOf(error, fallback));
  else {
    show(null);
    notify({ level: 'error', message: UNEXPECTED });
  }
}

const STATUS_TONE: Record<Booking['status'], Tone> = {
  confirmed: 'success',
  pending: 'neutral',
  failed: 'danger',
  expired: 'danger',
  cancelled: 'danger',
};

/**
 * /trade/purchase: the purchase history, under one booking when the address names it: after a purchase
 * (?success=true&booking_no=…) with the spec's success title, or from a notification (?booking_no=…, e.g.
 * 'your tickets are ready') with the booking's number as title.
 */
export default function PurchasePage() {
  const query = new URLSearchParams(useSearch());
  const bookingNo = query.get('booking_no');
  return (
    <div className={grid}>
      {bookingNo ? <Success bookingNo={bookingNo} afterPurchase={query.get('success') === 'true'} /> : null}
      <History />
    </div>
  );
}

function Success({ bookingNo, afterPurchase }: { bookingNo: string; afterPurchase: boolean }) {
  const read = useViewActor(tradeReadMachine, `purchase-${bookingNo}`, { kind: 'booking', bookingNo });
  const booking = useSelector(read, (s) => (s?.matches('shown') ? (s.context.data as Booking | null) : undefined));
  const failed = useSelector(read, (s) => s?.matches('failed') ?? false);
  return (
    <section aria-labelledby="success-title" className={card}>
      <h2 id="success-title" className={css({ fontWeight: 'semibold', fontSize: 'xl' })}>
        {afterPurchase && booking?.status === 'confirmed' ? 'Booking Confirmed Successfully' : `Booking ${bookingNo}`}
      </h2>
      <p>
        Booking number <strong>{bookingNo}</strong>
      </p>
      {booking === undefined && !failed ? (
        <Loading label="Loading the booking">
          <Skeleton height="120px" />
        </Loading>
      ) : null}
      {failed ? (
        <p>
          Failed to fetch data <Button onClick={() => read?.send({ type: 'read.retried' })}>Retry</Button>
        </p>
      ) : null}
      {booking === null ? <p className={muted}>This booking was not found.</p> : null}
      {booking ? <Booked booking={booking} /> : null}
      <Link href={paths.tradeHome}>Search more tickets</Link>
    </section>
  );
}

/**
 * The booking, and for one still pending (left mid-way: the panel closed, the page reloaded) the way to give it
 * up at once: its tickets go back on sale instead of waiting for the 15-minute hold to end.
 */
function Booked({ booking: read }: { booking: Booking }) {
  // the booking as read, until this page cancels it (the answer is the cancelled booking)
  const [cancelled, setCancelled] = useState<Booking | null>(null);
  const booking = cancelled ?? read;
  const [key] = useState(() => globalThis.crypto.randomUUID());
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const cancel = async () => {
    setSending(true);
    setProblem(null);
    try {
      setCancelled(await cancelBooking(booking.booking_id, key));
    } catch (error) {
      sayFailure(error, setProblem);
    } finally {
      setSending(false);
    }
  };
  return (
    <>
      <BookingDetails booking={booking} />
      {booking.status === 'pending' ? (
        <div className={css({ display: 'grid', gap: '2', justifyItems: 'start' })}>
          <p className={muted}>Not paid yet: the tickets are held for you until the hold ends, then go back on sale.</p>
          <Button tone="secondary" disabled={sending} onClick={cancel}>
            Cancel booking
          </Button>
          {problem ? (
            <p role="alert" className={css({ color: 'error' })}>
              {problem}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

function BookingDetails({ booking }: { booking: Booking }) {
  const b = booking.price_breakdown;
  return (
    <dl
      aria-label="Booking"
      className={css({
        display: 'grid',
        gridTemplateColumns: 'max-content minmax(0, 1fr)',
        gap: '1 4',
        fontSize: 'sm',
      })}
    >
      <dt>Event</dt>
      <dd className={css({ overflowWrap: 'anywhere' })}>{booking.match_name}</dd>
      <dt>Date</dt>
      <dd>
        {formatDate(booking.match_date)} {booking.match_time}
      </dd>
      <dt>Venue</dt>
      <dd>
        {booking.stadium_name}, {booking.city_name}, {booking.country_name}
      </dd>
      <dt>Seats</dt>
      <dd className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
        <TicketTypeIcon typeId={booking.ticket_type_id} name={booking.Ticket_type} />
        {booking.quantity} × {booking.Category}, {blockText(booking.ticket_block)}, row {booking.row} (
        {booking.Ticket_type})
      </dd>
      <dt>Ticket terms</dt>
      <dd>
        <ListingTerms terms={booking.terms} label="Ticket terms of this booking" />
      </dd>
      <dt>Status</dt>
      <dd>
        <ToneBadge tone={STATUS_TONE[booking.status]}>{booking.status}</ToneBadge>
      </dd>
      {booking.payment ? (
        <>
          <dt>Paid</dt>
          <dd>
            {booking.payment.currency} {formatMinorUnits(booking.payment.amount)}
          </dd>
          <dt>Authentication</dt>
          <dd>
            {booking.payment.authentication ? AUTHENTICATION_TEXT[booking.payment.authentication] : 'not recorded'}
          </dd>
        </>
      ) : (
        // nothing was charged (pending, expired, failed or cancelled): the total, said so
        <>
          <dt>Total</dt>
          <dd>
            {b.currency} {formatMinorUnits(b.total_with_payment_fee)} (not paid)
          </dd>
        </>
      )}
      {booking.delivery ? <Delivery booking={booking} delivery={booking.delivery} /> : null}
    </dl>
  );
}

/** The sale behind a confirmed booking as the buyer follows it: the tickets delivered so far, and their zip. */
function Delivery({ booking, delivery }: { booking: Booking; delivery: NonNullable<Booking['delivery']> }) {
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const download = async () => {
    setSaving(true);
    setProblem(null);
    try {
      const zip = await downloadBookingTickets(booking.booking_id);
      saveFile(zip.file, zip.name);
    } catch (error) {
      sayFailure(error, setProblem, 'The tickets could not be downloaded. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <dt>Order</dt>
      <dd>{SALES_STATUS_LABELS[delivery.order_status]}</dd>
      <dt>Tickets</dt>
      <dd className={css({ display: 'grid', gap: '1', justifyItems: 'start' })}>
        <span>
          {delivery.delivered} of {delivery.quantity} delivered
          {delivery.deliver_by && delivery.delivered < delivery.quantity
            ? ` · due by ${formatDate(delivery.deliver_by.slice(0, 10))}`
            : ''}
        </span>
        {delivery.tickets.map((t) => (
          <span key={t.ticket_no} className={muted}>
            Ticket {t.ticket_no}:{' '}
            {t.file_name ?? t.transfer_link ?? (t.courier ? `${t.courier} ${t.tracking_number ?? ''}` : t.type)}
          </span>
        ))}
        {delivery.download_available ? (
          <Button tone="secondary" busy={saving} disabled={saving} onClick={download}>
            Download tickets
          </Button>
        ) : null}
        {problem ? (
          <span role="alert" className={css({ color: 'error' })}>
            {problem}
          </span>
        ) : null}
      </dd>
      <TransferAcceptance booking={booking} delivery={delivery} />
      <ClaimPanel booking={booking} delivery={delivery} />
    </>
  );
}

function History() {
  const history = useViewActor(purchaseHistoryMachine, 'purchase-history', { filters: { status: null } });
  const items = useSelector(history, (s) => s?.context.items ?? []);
  const empty = useSelector(history, (s) => s?.matches('empty') ?? false);
  const loading = useSelector(history, (s) => s?.matches('loading') ?? true);
  const page = useSelector(history, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(history, (s) => s?.context.lastPage ?? 1);
  return (
    <section aria-labelledby="history-title" className={card}>
      <h2 id="history-title" className={css({ fontWeight: 'semibold' })}>
        Purchase history
      </h2>
      {loading ? (
        <Loading label="Loading purchases">
          <Skeleton height="56px" />
        </Loading>
      ) : null}
      {empty ? <p className={muted}>No purchases yet.</p> : null}
      <ul aria-label="Purchases">
        {items.map((b) => (
          <li
            key={b.booking_id}
            className={css({ borderTop: '1px solid {colors.border}', py: '2', display: 'grid', gap: '1' })}
          >
            <span className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
              <Link href={href.purchaseSuccess(b.booking_no)}>{b.booking_no}</Link>
              <ToneBadge tone={STATUS_TONE[b.status]}>{b.status}</ToneBadge>
              <span className={css({ overflowWrap: 'anywhere' })}>{b.match_name}</span>
            </span>
            <span className={muted}>
              {b.quantity} × {b.Category} · {b.price_breakdown.currency}{' '}
              {formatMinorUnits(b.price_breakdown.total_with_payment_fee)} · {formatDate(b.created_at)}
              {b.status_reason ? ` · ${b.status_reason}` : ''}
            </span>
          </li>
        ))}
      </ul>
      {lastPage > 1 ? (
        <nav aria-label="Pages" className={pager}>
          <Button disabled={page <= 1} onClick={() => history?.send({ type: 'page.requested', page: page - 1 })}>
            Previous
          </Button>
          <span>
            Page {page} of {lastPage}
          </span>
          <Button disabled={page >= lastPage} onClick={() => history?.send({ type: 'page.requested', page: page + 1 })}>
            Next
          </Button>
        </nav>
      ) : null}
    </section>
  );
}
