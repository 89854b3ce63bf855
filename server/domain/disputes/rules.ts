import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';

// ---------------------------------------------------------------------------------------------------------
// Buyers' claims: the window, the reasons, how a claim reads (docs/decisions/disputes.md)

export type Claim = components['schemas']['Claim'];
export type ClaimReason = components['schemas']['ClaimReason'];
export type ClaimStatus = components['schemas']['ClaimStatus'];
export type AdminDispute = components['schemas']['AdminDispute'];

/** A claim can be opened until this long after the event starts: when the sale would complete (SETTLE_HOURS). */
export const CLAIM_HOURS_AFTER_EVENT = 48;

const HOUR = 3_600_000;

export const CLAIM_REASON_LABELS: Readonly<Record<ClaimReason, string>> = {
  not_received: 'Tickets not received',
  wrong_tickets: 'Wrong tickets',
  denied_entry: 'Denied entry',
};

const CLAIMABLE = ['confirmed', 'delivered'] as const;

const startOf = (o: { event_date: string; event_time: string }) =>
  Date.parse(`${o.event_date}T${o.event_time}:00.000Z`);

/** Until when a claim can be opened on an order: 48 hours after its event starts. */
export const claimUntil = (o: { event_date: string; event_time: string }) =>
  new Date(startOf(o) + CLAIM_HOURS_AFTER_EVENT * HOUR);

/** Whether a claim can be opened on the order now: null when it can, else the buyer's reason why not. */
export function claimRefusal(o: { status: string; event_date: string; event_time: string }, now: Date): string | null {
  if (!(CLAIMABLE as readonly string[]).includes(o.status)) {
    return o.status === 'pending'
      ? 'The seller has not accepted this order yet: a claim can be opened once it is confirmed.'
      : `This order is ${o.status}: a claim can no longer be opened.`;
  }
  const until = claimUntil(o);
  if (now.getTime() > until.getTime()) {
    const when = `${until.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    return `Claims can be opened until ${CLAIM_HOURS_AFTER_EVENT} hours after the event; for this booking that was ${when}.`;
  }
  return null;
}

type ClaimRow = {
  id: number;
  order_id: number;
  reason: string;
  description: string;
  status: string;
  opened_at: string;
  resolved_at: string | null;
  resolution_note: string | null;
  booking_no: string;
};

export const claimOf = (r: ClaimRow): Claim => ({
  id: Number(r.id),
  booking_id: Number(r.order_id),
  booking_no: r.booking_no,
  reason: r.reason as ClaimReason,
  description: r.description,
  status: r.status as ClaimStatus,
  opened_at: r.opened_at,
  resolved_at: r.resolved_at,
  resolution_note: r.resolution_note,
});

export const claimColumns = [
  'order_disputes.id',
  'order_disputes.order_id',
  'order_disputes.reason',
  'order_disputes.description',
  'order_disputes.status',
  'order_disputes.opened_at',
  'order_disputes.resolved_at',
  'order_disputes.resolution_note',
  'orders.booking_no',
] as const;

/** The claims on these orders, by order id. */
export async function claimsOfOrders(db: Db, orderIds: readonly number[]): Promise<Map<number, Claim>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_disputes')
    .innerJoin('orders', 'orders.id', 'order_disputes.order_id')
    .select(claimColumns)
    .where('order_disputes.order_id', 'in', orderIds)
    .execute();
  return new Map(rows.map((r) => [Number(r.order_id), claimOf(r)]));
}
