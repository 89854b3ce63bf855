import type { OrderStatus } from '../../db/schema';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A pending order is cancelled by the platform when the seller has not answered within this. */
export const ACCEPT_HOURS = 48;

/**
 * The delivery deadline: 48 hours before the match starts (its date and time read as UTC); a sale made later
 * than that gets the earlier of 24 hours after the sale and 2 hours before the match, and never a time before
 * the sale itself. Tickets in hand only from a date (`inHandDate`, YYYY-MM-DD) are not due before the end of that
 * day, or the kick-off when the match starts on it. (Migration 0011 applied the rule to the orders it found.)
 */
export function deliverByOf(
  createdAt: string,
  eventDate: string,
  eventTime: string,
  inHandDate: string | null = null,
): string {
  const created = Date.parse(createdAt);
  const start = Date.parse(`${eventDate}T${eventTime}:00.000Z`);
  const early = start - 48 * HOUR;
  const late = Math.max(created, Math.min(created + 24 * HOUR, start - 2 * HOUR));
  const inHand = inHandDate ? Math.min(Date.parse(`${inHandDate}T00:00:00.000Z`) + DAY, start) : Number.NaN;
  return new Date(Math.max(early, late, Number.isNaN(inHand) ? early : inHand)).toISOString();
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
}

/** The deadlines an order keeps in a status: accept_by while pending, deliver_by while pending or confirmed. */
export function deadlinesFor(status: OrderStatus, o: DeadlineFacts) {
  const open = status === 'pending' || status === 'confirmed';
  const deliverBy = deliverByOf(o.created_at, o.event_date, o.event_time, o.in_hand_date ?? null);
  return {
    accept_by: status === 'pending' ? acceptByOf(o.created_at, deliverBy) : null,
    deliver_by: open ? deliverBy : null,
  };
}
