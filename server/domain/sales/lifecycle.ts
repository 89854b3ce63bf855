import { sql } from 'kysely';
import { nextOrderStatus, type OrderEvent } from '../../../machines/order.machine';
import type { Db } from '../../db/database';
import type { OrderStatus } from '../../db/schema';
import { HttpError } from '../../http/errors';
import type { Payments } from '../../payments/port';
import { notificationLinks, notify } from '../notifications';
import { deadlinesFor } from './deadlines';
import { bookingOfOrder } from './details';
import { type Who, writeLog } from './logs';
import { creditEarnings, refundBooking } from './money';
import type { LogAction, OrderRow } from './orders';
import { changeOrderStatus } from './totals';

// ---------------------------------------------------------------------------------------------------------
// The lifecycle: every status change goes through the order machine

const ACTION_VERB: Record<OrderEvent['type'], string> = {
  'order.accept': 'accepted',
  'order.decline': 'declined',
  'order.acceptanceExpired': 'expired',
  'ticket.delivered': 'delivered',
  'ticket.removed': 'removed',
  'order.cancel': 'cancelled',
  'order.replace': 'replaced',
  'event.settled': 'completed',
};

/** The 409 for an event the order machine refuses in this status. */
export function refusal(status: OrderStatus, event: OrderEvent): HttpError {
  if (event.type === 'ticket.delivered') {
    return new HttpError(
      409,
      status === 'pending'
        ? 'Accept the order before delivering its tickets.'
        : `This order is ${status}: its tickets cannot be delivered.`,
    );
  }
  if (event.type === 'ticket.removed')
    return new HttpError(409, `This order is ${status}: its tickets cannot be removed.`);
  return new HttpError(409, `This order is ${status}: it cannot be ${ACTION_VERB[event.type]}.`);
}

const LOG_ACTION: Record<OrderEvent['type'], LogAction> = {
  'order.accept': 'accepted',
  'order.decline': 'declined',
  'order.acceptanceExpired': 'acceptance_expired',
  'ticket.delivered': 'ticket_delivered',
  'ticket.removed': 'ticket_removed',
  'order.cancel': 'cancelled',
  'order.replace': 'replaced',
  'event.settled': 'completed',
};

/**
 * Asks the order machine where `event` takes the (locked) order; refuses with 409 what it does not allow. Moves
 * the status (and its share of the kept totals), the delivered count and the deadlines, writes the log row, and
 * does what the new status means (refund and stock back, earnings, notifications), all in the caller's
 * transaction. Answers the status after.
 */
export async function applyOrderEvent(
  db: Db,
  o: NonNullable<OrderRow>,
  event: OrderEvent,
  who: Who,
  now: Date,
  payments: Payments | null,
  log: { detail?: string | null; silent?: boolean } = {},
): Promise<OrderStatus> {
  const from = o.status;
  const next = nextOrderStatus(from, { tickets: Number(o.quantity), delivered: Number(o.delivered) }, event);
  if (!next) throw refusal(from, event);
  const at = now.toISOString();
  if (next.status !== from) {
    const moved = await changeOrderStatus(db, { orderId: o.id, from, to: next.status, at });
    if (moved.kind !== 'changed') throw new HttpError(409, 'This order changed meanwhile. Reload it and try again.');
  }
  const deadlines = deadlinesFor(next.status, o);
  await db
    .updateTable('orders')
    .set({
      delivered: next.delivered,
      updated_at: at,
      accept_by: deadlines.accept_by,
      deliver_by: deadlines.deliver_by,
    })
    .where('id', '=', o.id)
    .execute();
  const reason = 'reason' in event ? event.reason.trim() : null;
  if (!log.silent) {
    await writeLog(
      db,
      { orderId: o.id, action: LOG_ACTION[event.type], from, to: next.status, reason, detail: log.detail, who },
      now,
    );
  }
  if (next.status !== from) {
    if (next.status === 'delivered') {
      await writeLog(db, { orderId: o.id, action: 'delivered', from, to: 'delivered', who }, now);
    }
    await afterStatusChange(db, o, next.status, reason, who, now, payments);
  }
  return next.status;
}

/** What a new status does beyond itself: the buyer's refund and the tickets back, earnings, notifications. */
async function afterStatusChange(
  db: Db,
  o: NonNullable<OrderRow>,
  to: OrderStatus,
  reason: string | null,
  who: Who,
  now: Date,
  payments: Payments | null,
) {
  const booking = await bookingOfOrder(db, o.id);
  if (to === 'cancelled') {
    // the tickets go back to the listing (an unpublished or deleted listing keeps them withheld, by its trigger)
    await db
      .updateTable('listings')
      .set({ available: sql<number>`available + ${Number(o.quantity)}` })
      .where('id', '=', o.listing_id)
      .execute();
    if (booking) {
      await refundBooking(db, booking, o, now, payments);
      await db
        .updateTable('bookings')
        .set({
          status: 'cancelled',
          status_reason: `The sale was cancelled${reason ? `: ${reason}` : ''}. You were refunded.`,
          updated_at: now.toISOString(),
        })
        .where('id', '=', booking.id)
        .execute();
      await notify(db, {
        userId: booking.buyer_id,
        name: 'order_cancelled',
        description: `Your order ${o.booking_no} for ${o.match_name} was cancelled${reason ? `: ${reason}` : ''}. You were refunded.`,
        link: notificationLinks.booking(booking.booking_no),
        at: now,
      });
    }
    if (who.actor !== 'seller') {
      await notify(db, {
        userId: o.seller_id,
        name: 'order_cancelled',
        description: `Order ${o.booking_no} was cancelled${reason ? `: ${reason}` : ''}.`,
        link: notificationLinks.sale('cancelled', o.id),
        at: now,
      });
    }
  } else if (to === 'delivered') {
    if (booking) {
      await notify(db, {
        userId: booking.buyer_id,
        name: 'tickets_delivered',
        description: `Your tickets for ${o.match_name} (${o.booking_no}) are ready: find them in your purchase history.`,
        link: notificationLinks.booking(booking.booking_no),
        at: now,
      });
    }
  } else if (to === 'completed') {
    await creditEarnings(db, o, booking, now);
    await notify(db, {
      userId: o.seller_id,
      name: 'sale_completed',
      description: `Order ${o.booking_no} is completed: your earnings are credited.`,
      link: notificationLinks.sale('completed', o.id),
      at: now,
    });
  } else if (to === 'replaced') {
    await notify(db, {
      userId: o.seller_id,
      name: 'order_replaced',
      description: `Order ${o.booking_no} was replaced by the marketplace${reason ? `: ${reason}` : ''}.`,
      link: notificationLinks.sale('replaced', o.id),
      at: now,
    });
  }
}
