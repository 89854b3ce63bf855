import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { Payments } from '../../payments/port';
import { type Operator, recordAdminAction } from '../admin/audit';
import { notificationLinks, notify } from '../notifications';
import { applyOrderEvent } from '../sales/lifecycle';
import { writeLog } from '../sales/logs';
import { findOrder, lockOrder, type OrderRow } from '../sales/orders';
import {
  type AdminDispute,
  CLAIM_REASON_LABELS,
  type Claim,
  type ClaimReason,
  type ClaimStatus,
  claimColumns,
  claimOf,
  claimRefusal,
  claimsOfOrders,
} from './rules';

// ---------------------------------------------------------------------------------------------------------
// Buyers' claims and their resolution (docs/decisions/disputes.md)

/**
 * The buyer opens a claim on the order behind their booking: 404 for another buyer's booking, 409 outside the
 * window or for a second claim. The order is locked first, so that the clock's completion (which skips orders
 * with an open claim) and the claim cannot pass each other.
 */
export async function openClaim(
  db: Db,
  buyerId: number,
  bookingId: number,
  input: { reason: ClaimReason; description: string },
  now: Date,
): Promise<Claim> {
  const booking = await db
    .selectFrom('bookings')
    .select(['order_id'])
    .where('id', '=', bookingId)
    .where('buyer_id', '=', buyerId)
    .executeTakeFirst();
  if (!booking) throw new HttpError(404, 'Booking not found.');
  if (!booking.order_id) throw new HttpError(409, 'This booking is not confirmed: there is no order to claim on.');
  const o = await lockOrder(db, null, booking.order_id, now);
  const refused = claimRefusal(o, now);
  if (refused) throw new HttpError(409, refused);
  const at = now.toISOString();
  const inserted = await db
    .insertInto('order_disputes')
    .values({
      order_id: o.id,
      buyer_id: buyerId,
      seller_id: o.seller_id,
      reason: input.reason,
      description: input.description.trim(),
      status: 'open',
      opened_at: at,
      resolved_at: null,
      resolved_by: null,
      resolution_note: null,
    })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw new HttpError(409, 'A claim was already opened on this booking.');
  await writeLog(
    db,
    {
      orderId: o.id,
      action: 'claim_opened',
      from: o.status,
      to: o.status,
      reason: input.description.trim(),
      detail: CLAIM_REASON_LABELS[input.reason],
      who: { actor: 'buyer', userId: buyerId },
    },
    now,
  );
  await notify(db, {
    userId: o.seller_id,
    name: 'claim_opened',
    description: `The buyer of order ${o.booking_no} opened a claim: ${CLAIM_REASON_LABELS[input.reason]}.`,
    link: notificationLinks.sale(o.status, o.id),
    at,
  });
  const claim = (await claimsOfOrders(db, [o.id])).get(o.id);
  if (!claim) throw new HttpError(404, 'Booking not found.');
  return claim;
}

// ---------------------------------------------------------------------------------------------------------
// The back office

const adminColumns = [
  ...claimColumns,
  'orders.status as order_status',
  'orders.amount',
  'orders.currency',
  'orders.event_date',
  'orders.event_time',
  'events.name as match_name',
  'sellers.first_name as seller_first',
  'sellers.last_name as seller_last',
  'buyers.first_name as buyer_first',
  'buyers.last_name as buyer_last',
] as const;

function adminQuery(db: Db) {
  return db
    .selectFrom('order_disputes')
    .innerJoin('orders', 'orders.id', 'order_disputes.order_id')
    .innerJoin('events', 'events.id', 'orders.event_id')
    .innerJoin('users as sellers', 'sellers.id', 'order_disputes.seller_id')
    .innerJoin('users as buyers', 'buyers.id', 'order_disputes.buyer_id')
    .select(adminColumns)
    .select((eb) =>
      eb
        .selectFrom('delivery_proofs')
        .select((p) => p.fn.countAll<number>().as('n'))
        .whereRef('delivery_proofs.order_id', '=', 'orders.id')
        .as('proofs'),
    );
}

type AdminRow = Awaited<ReturnType<ReturnType<typeof adminQuery>['executeTakeFirstOrThrow']>>;

const nameOf = (first: string | null, last: string | null) => `${first ?? ''} ${last ?? ''}`.trim();

const adminDisputeOf = (r: AdminRow): AdminDispute => ({
  ...claimOf(r),
  match_name: r.match_name,
  event_date: r.event_date,
  event_time: r.event_time,
  seller_name: nameOf(r.seller_first, r.seller_last),
  buyer_name: nameOf(r.buyer_first, r.buyer_last),
  order_status: r.order_status,
  amount: Number(r.amount),
  currency: r.currency,
  proofs: Number(r.proofs ?? 0),
});

export async function disputePage(db: Db, status: ClaimStatus, page: { limit: number; offset: number }) {
  const rows = await adminQuery(db)
    .where('order_disputes.status', '=', status)
    .orderBy('order_disputes.opened_at')
    .orderBy('order_disputes.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const counted = await db
    .selectFrom('order_disputes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status)
    .executeTakeFirst();
  return { disputes: rows.map(adminDisputeOf), total: Number(counted?.n ?? 0) };
}

export async function findDispute(db: Db, id: number): Promise<AdminDispute> {
  const row = await adminQuery(db).where('order_disputes.id', '=', id).executeTakeFirst();
  if (!row) throw new HttpError(404, 'Claim not found.');
  return adminDisputeOf(row);
}

export type Resolution = { outcome: 'refund' | 'replacement'; note: string } | { outcome: 'rejection'; note: string };

const STATUS_OF = { refund: 'refunded', replacement: 'replaced', rejection: 'rejected' } as const;

/**
 * The back office resolves an open claim: a refund cancels the sale and a replacement replaces it, both through
 * the order lifecycle (its ledger moves, stock and notifications); a rejection moves nothing and lets the sale
 * complete. The claim is closed by a conditional update (a second operator gets 409), audited, and logged on
 * the order; the buyer is told.
 */
export async function resolveDispute(
  db: Db,
  operator: Operator,
  id: number,
  resolution: Resolution,
  now: Date,
  payments: Payments | null,
): Promise<AdminDispute> {
  const claim = await db
    .selectFrom('order_disputes')
    .select(['id', 'order_id', 'buyer_id', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!claim) throw new HttpError(404, 'Claim not found.');
  const note = resolution.note.trim();
  const status = STATUS_OF[resolution.outcome];
  const at = now.toISOString();
  const closed = await db
    .updateTable('order_disputes')
    .set({ status, resolved_at: at, resolved_by: operator.id, resolution_note: note })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  if (closed.numUpdatedRows !== 1n) throw new HttpError(409, `This claim was ${claim.status} already.`);
  const o = (await lockOrder(db, null, claim.order_id, now)) as NonNullable<OrderRow>;
  const admin = { actor: 'admin' as const, userId: operator.id };
  if (resolution.outcome === 'refund') {
    await applyOrderEvent(
      db,
      o,
      { type: 'order.cancel', by: 'admin', reason: `Claim upheld: ${note}` },
      admin,
      now,
      payments,
    );
  } else if (resolution.outcome === 'replacement') {
    await applyOrderEvent(
      db,
      o,
      { type: 'order.replace', by: 'admin', reason: `Claim upheld: ${note}` },
      admin,
      now,
      payments,
    );
  }
  const after = (await findOrder(db, null, o.id)) ?? o;
  await writeLog(
    db,
    {
      orderId: o.id,
      action: 'claim_resolved',
      from: o.status,
      to: after.status,
      reason: note,
      detail: status,
      who: admin,
    },
    now,
  );
  const amount = resolution.outcome === 'refund' ? { minor: Number(o.amount), currency: o.currency } : null;
  await recordAdminAction(db, operator, `dispute.${status}`, { type: 'dispute', id, amount, detail: note }, now);
  const booking = await db
    .selectFrom('bookings')
    .select(['booking_no'])
    .where('order_id', '=', o.id)
    .executeTakeFirst();
  const told =
    resolution.outcome === 'refund'
      ? 'was upheld: you are refunded'
      : resolution.outcome === 'replacement'
        ? 'was upheld: the marketplace replaces your tickets'
        : 'was rejected';
  await notify(db, {
    userId: claim.buyer_id,
    name: 'claim_resolved',
    description: `Your claim on order ${o.booking_no} ${told}. ${note}`,
    link: booking ? notificationLinks.booking(booking.booking_no) : null,
    at,
  });
  return findDispute(db, id);
}
