import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import { recordOrderProof } from '../disputes/proofs';
import { notificationLinks, notify } from '../notifications';
import { deadlinesFor, MOBILE_TICKET_TYPE, transfersOpenOf } from './deadlines';
import { writeLog } from './logs';

// ---------------------------------------------------------------------------------------------------------
// Mobile tickets as the clubs hand them out: their transfer windows, the buyer's acceptance and its reminders
// (docs/decisions/mobile-transfers.md)

export type TransferState = components['schemas']['TransferState'];
export type AdminEvent = components['schemas']['AdminEvent'];

const HOUR = 3_600_000;

/** A transfer not accepted gets a reminder this long after it was sent, then as long after each reminder. */
export const REMINDER_EVERY_HOURS = 24;
/** At most this many reminders for one transfer. */
export const MAX_REMINDERS = 3;

/** The transfer's state as the seller and the buyer see it: null for tickets that are not mobile. */
export function transferStateOf(o: {
  ticket_type_id: number;
  transfers_open_at: string | null;
  transfer_accepted_at: string | null;
  transfer_reminders: number;
}): TransferState | null {
  if (Number(o.ticket_type_id) !== MOBILE_TICKET_TYPE) return null;
  return {
    opens_at: o.transfers_open_at,
    accepted_at: o.transfer_accepted_at,
    reminders: Number(o.transfer_reminders),
  };
}

/** A new transfer link sent: whatever the buyer accepted before was another link, so acceptance starts over. */
export async function transferSent(db: Db, orderId: number) {
  await db
    .updateTable('orders')
    .set({ transfer_accepted_at: null, transfer_reminders: 0, transfer_reminded_at: null })
    .where('id', '=', orderId)
    .execute();
}

/**
 * The buyer says they accepted the transfer of their booking: set once, logged on the order. 404 for another
 * buyer's booking; 409 before a link was sent or once the sale is cancelled.
 */
export async function acceptTransfer(db: Db, buyerId: number, bookingId: number, now: Date): Promise<void> {
  const booking = await db
    .selectFrom('bookings')
    .select(['order_id'])
    .where('id', '=', bookingId)
    .where('buyer_id', '=', buyerId)
    .executeTakeFirst();
  if (!booking) throw new HttpError(404, 'Booking not found.');
  const none = 'No transfer has been sent for this booking yet.';
  if (!booking.order_id) throw new HttpError(409, none);
  const order = await db
    .selectFrom('orders')
    .select(['id', 'status', 'transfer_accepted_at'])
    .where('id', '=', booking.order_id)
    .executeTakeFirst();
  if (!order || order.status === 'cancelled' || order.status === 'replaced') throw new HttpError(409, none);
  const link = await db
    .selectFrom('order_deliveries')
    .select(['id', 'transfer_link'])
    .where('order_id', '=', order.id)
    .where('type', '=', 'transfer_link')
    .executeTakeFirst();
  if (!link) throw new HttpError(409, none);
  const at = now.toISOString();
  const marked = await db
    .updateTable('orders')
    .set({ transfer_accepted_at: at })
    .where('id', '=', order.id)
    .where('transfer_accepted_at', 'is', null)
    .executeTakeFirst();
  if (marked.numUpdatedRows !== 1n) return;
  await recordOrderProof(db, order.id, 'transfer_accepted', buyerId, at, link.transfer_link);
  await writeLog(
    db,
    {
      orderId: order.id,
      action: 'transfer_accepted',
      from: order.status,
      to: order.status,
      who: { actor: 'buyer', userId: buyerId },
    },
    now,
  );
}

/**
 * Reminds the buyers of transfers sent and not accepted: the first a day after the link was sent, then every
 * day, at most MAX_REMINDERS, none after kick-off. Each reminder is a notification with the booking's link and a
 * row of the order's log; the conditional update counts each once, also with several processes. Answers how
 * many were sent.
 */
export async function remindTransfers(db: Db, now: Date, limit = 500): Promise<number> {
  const at = now.toISOString();
  const due = new Date(now.getTime() - REMINDER_EVERY_HOURS * HOUR).toISOString();
  const rows = await db
    .selectFrom('orders')
    .innerJoin('bookings', 'bookings.order_id', 'orders.id')
    .innerJoin('events', 'events.id', 'orders.event_id')
    .select([
      'orders.id',
      'orders.status',
      'orders.booking_no',
      'orders.event_date',
      'orders.event_time',
      'orders.transfer_reminders',
      'orders.transfer_reminded_at',
      'bookings.buyer_id',
      'bookings.booking_no as booking_ref',
      'events.name as match_name',
    ])
    .where('orders.ticket_type_id', '=', MOBILE_TICKET_TYPE)
    .where('orders.status', 'in', ['confirmed', 'delivered'])
    .where('orders.transfer_accepted_at', 'is', null)
    .where('orders.transfer_reminders', '<', MAX_REMINDERS)
    .where((eb) =>
      eb.or([
        eb('orders.transfer_reminded_at', '<=', due),
        eb.and([
          eb('orders.transfer_reminded_at', 'is', null),
          eb.exists(
            eb
              .selectFrom('order_deliveries')
              .select('order_deliveries.id')
              .whereRef('order_deliveries.order_id', '=', 'orders.id')
              .where('order_deliveries.type', '=', 'transfer_link')
              .where('order_deliveries.delivered_at', '<=', due),
          ),
        ]),
      ]),
    )
    .orderBy('orders.id')
    .limit(limit)
    .execute();
  let sent = 0;
  for (const r of rows) {
    if (Date.parse(`${r.event_date}T${r.event_time}:00.000Z`) <= now.getTime()) continue;
    const claimed = await db
      .updateTable('orders')
      .set({ transfer_reminders: Number(r.transfer_reminders) + 1, transfer_reminded_at: at })
      .where('id', '=', r.id)
      .where('transfer_reminders', '=', Number(r.transfer_reminders))
      .where('transfer_accepted_at', 'is', null)
      .executeTakeFirst();
    if (claimed.numUpdatedRows !== 1n) continue;
    await notify(db, {
      userId: r.buyer_id,
      name: 'transfer_reminder',
      description: `Accept the ticket transfer for ${r.match_name} (${r.booking_ref}) in the club's app, then tell us in your purchases.`,
      link: notificationLinks.booking(r.booking_ref),
      at,
    });
    await writeLog(
      db,
      {
        orderId: r.id,
        action: 'transfer_reminded',
        from: r.status,
        to: r.status,
        detail: `Reminder ${Number(r.transfer_reminders) + 1} of ${MAX_REMINDERS}`,
        who: { actor: 'system', userId: null },
      },
      now,
    );
    sent += 1;
  }
  return sent;
}

// ---------------------------------------------------------------------------------------------------------
// The back office: events and their transfer windows

const openStatuses = ['pending', 'confirmed'] as const;

function adminEventOf(e: {
  id: number;
  match_name: string;
  tournament: string;
  event_date: string;
  event_time: string;
  stadium_name: string;
  transfer_window_hours: number | null;
  open_orders: number | string | bigint;
}): AdminEvent {
  const hours = e.transfer_window_hours === null ? null : Number(e.transfer_window_hours);
  return {
    id: Number(e.id),
    match_name: e.match_name,
    tournament: e.tournament,
    event_date: e.event_date,
    event_time: e.event_time,
    stadium_name: e.stadium_name,
    transfer_window_hours: hours,
    transfers_open_at: transfersOpenOf(e.event_date, e.event_time, hours),
    open_orders: Number(e.open_orders),
  };
}

const eventsQuery = (db: Db) =>
  db.selectFrom('events').select((eb) => [
    'events.id',
    'events.name as match_name',
    'events.tournament',
    'events.event_date',
    'events.event_time',
    'events.stadium_name',
    'events.transfer_window_hours',
    eb
      .selectFrom('orders')
      .select((o) => o.fn.countAll<number>().as('n'))
      .whereRef('orders.event_id', '=', 'events.id')
      .where('orders.status', 'in', openStatuses)
      .as('open_orders'),
  ]);

/** The events from today on, soonest first, matching `q` (words of the match, a team or the tournament). */
export async function listAdminEvents(db: Db, q: string | undefined, now: Date): Promise<AdminEvent[]> {
  let query = eventsQuery(db).where('events.event_date', '>=', now.toISOString().slice(0, 10));
  for (const word of (q ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean).slice(0, 5)) {
    const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['events.name']), 'like', like),
        eb(eb.fn('lower', ['events.tournament']), 'like', like),
      ]),
    );
  }
  const rows = await query
    .orderBy('events.event_date')
    .orderBy('events.event_time')
    .orderBy('events.id')
    .limit(100)
    .execute();
  return rows.map((r) => adminEventOf({ ...r, open_orders: r.open_orders ?? 0 }));
}

/**
 * Sets the club's transfer window of an event, and moves the deadlines of its open orders to it at once (a
 * mobile order not due before its transfers have been open a while). 404 for an unknown event.
 */
export async function setTransferWindow(
  db: Db,
  eventId: number,
  hours: number | null,
  now: Date,
): Promise<{ event: AdminEvent; moved: number }> {
  const updated = await db
    .updateTable('events')
    .set({ transfer_window_hours: hours })
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (updated.numUpdatedRows !== 1n) throw new HttpError(404, 'Event not found.');
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'status', 'created_at', 'event_date', 'event_time', 'in_hand_date', 'ticket_type_id', 'deliver_by'])
    .where('event_id', '=', eventId)
    .where('status', 'in', openStatuses)
    .execute();
  let moved = 0;
  for (const o of orders) {
    const opens = transfersOpenOf(o.event_date, o.event_time, hours);
    const deadlines = deadlinesFor(o.status, { ...o, transfers_open_at: opens });
    await db
      .updateTable('orders')
      .set({ transfers_open_at: opens, ...deadlines, updated_at: now.toISOString() })
      .where('id', '=', o.id)
      .execute();
    if (deadlines.deliver_by !== o.deliver_by) moved += 1;
  }
  const event = await eventsQuery(db).where('events.id', '=', eventId).executeTakeFirstOrThrow();
  return { event: adminEventOf({ ...event, open_orders: event.open_orders ?? 0 }), moved };
}
