import type { OrderStatus } from '../../db/schema';

const HOUR = 3_600_000;

/** A pending order is cancelled by the platform when the seller has not answered within this. */
export const ACCEPT_HOURS = 48;

/**
 * The delivery deadline: 48 hours before the match starts (its date and time read as UTC); a sale made later
 * than that gets the earlier of 24 hours after the sale and 2 hours before the match, and never a time before
 * the sale itself. (Migration 0011 applied the same rule to the orders it found.)
 */
export function deliverByOf(createdAt: string, eventDate: string, eventTime: string): string {
  const created = Date.parse(createdAt);
  const start = Date.parse(`${eventDate}T${eventTime}:00.000Z`);
  const early = start - 48 * HOUR;
  const late = Math.max(created, Math.min(created + 24 * HOUR, start - 2 * HOUR));
  return new Date(Math.max(early, late)).toISOString();
}

export const acceptByOf = (createdAt: string) => new Date(Date.parse(createdAt) + ACCEPT_HOURS * HOUR).toISOString();

/** The deadlines an order keeps in a status: accept_by while pending, deliver_by while pending or confirmed. */
export function deadlinesFor(status: OrderStatus, o: { created_at: string; event_date: string; event_time: string }) {
  return {
    accept_by: status === 'pending' ? acceptByOf(o.created_at) : null,
    deliver_by:
      status === 'pending' || status === 'confirmed' ? deliverByOf(o.created_at, o.event_date, o.event_time) : null,
  };
}
