import type { OrderStatus } from '../../db/schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A pending order is cancelled by the platform when the seller has not answered within this. */
export const ACCEPT_HOURS = 48;

/** Ticket type 2, Mobile ticket: delivered by the club's transfer, so the club's transfer window applies. */
export const MOBILE_TICKET_TYPE = 2;

/** A mobile order is not due before its event's transfers have been open this long (or the kick-off, if sooner). */
export const TRANSFER_GRACE_HOURS = 12;

/** When an event's transfers open: kick-off (its date and time read as UTC) less the club's window; none without. */
export function transfersOpenOf(eventDate: string, eventTime: string, windowHours: number | null): string | null {
  if (windowHours === null || windowHours <= 0) return null;
  const start = Date.parse(`${eventDate}T${eventTime}:00.000Z`);
  return Number.isNaN(start) ? null : new Date(start - windowHours * HOUR).toISOString();
}

/**
 * The delivery deadline: 48 hours before the match starts (its date and time read as UTC); a sale made later
 * than that gets the earlier of 24 hours after the sale and 2 hours before the match, and never a time before
 * the sale itself. Tickets in hand only from a date (`inHandDate`, YYYY-MM-DD) are not due before the end of that
 * day, or the kick-off when the match starts on it. Mobile tickets of a club that opens transfers late
 * (`transfersOpenAt`) are not due before the window has been open TRANSFER_GRACE_HOURS, or the kick-off when that
 * comes first: a deadline before the seller can transfer is never counted late. (Migration 0011 applied the rule
 * to the orders it found.)
 */
export function deliverByOf(
  createdAt: string,
  eventDate: string,
  eventTime: string,
  inHandDate: string | null = null,
  transfersOpenAt: string | null = null,
): string {
  const created = Date.parse(createdAt);
  const start = Date.parse(`${eventDate}T${eventTime}:00.000Z`);
  const early = start - 48 * HOUR;
  const late = Math.max(created, Math.min(created + 24 * HOUR, start - 2 * HOUR));
  const inHand = inHandDate ? Math.min(Date.parse(`${inHandDate}T00:00:00.000Z`) + DAY, start) : Number.NaN;
  const opens = transfersOpenAt ? Date.parse(transfersOpenAt) : Number.NaN;
  const window = Number.isNaN(opens) ? Number.NaN : Math.min(opens + TRANSFER_GRACE_HOURS * HOUR, start);
  const floors = [inHand, window].filter((t) => !Number.isNaN(t));
  return new Date(Math.max(early, late, ...floors)).toISOString();
}

/**
 * The acceptance deadline: 48 hours after the sale, and never after the delivery deadline (a late sale is
 * accepted by the time its tickets are due, not after).
 */
export const acceptByOf = (createdAt: string, deliverBy: string) =>
  new Date(Math.min(Date.parse(createdAt) + ACCEPT_HOURS * HOUR, Date.parse(deliverBy))).toISOString();

/** What an order's deadlines are worked out from. */
export interface DeadlineFacts {
  created_at: string;
  event_date: string;
  event_time: string;
  /** the day the seller has the tickets from (the listing's at the sale), or none */
  in_hand_date?: string | null;
  /** the order's ticket type: the transfer window counts only for mobile tickets */
  ticket_type_id?: number;
  /** when the event's transfers open, as at the sale, or none */
  transfers_open_at?: string | null;
}

/** The deadlines an order keeps in a status: accept_by while pending, deliver_by while pending or confirmed. */
export function deadlinesFor(status: OrderStatus, o: DeadlineFacts) {
  const open = status === 'pending' || status === 'confirmed';
  const opens = Number(o.ticket_type_id) === MOBILE_TICKET_TYPE ? (o.transfers_open_at ?? null) : null;
  const deliverBy = deliverByOf(o.created_at, o.event_date, o.event_time, o.in_hand_date ?? null, opens);
  return {
    accept_by: status === 'pending' ? acceptByOf(o.created_at, deliverBy) : null,
    deliver_by: open ? deliverBy : null,
  };
}
