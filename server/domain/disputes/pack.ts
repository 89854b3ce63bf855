import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import { findOrder, ORDER_NOT_FOUND, STATUS_LABELS, ticketTypeName } from '../sales/orders';
import { proofsOf } from './proofs';
import { claimsOfOrders, claimUntil } from './rules';

// ---------------------------------------------------------------------------------------------------------
// The dispute pack: one JSON file with everything a claim is decided on (docs/decisions/disputes.md)

export const PACK_VERSION = 1;

/**
 * The pack of one order: the order, the buyer's booking, the claim, the proof, the deliveries, the whole log and
 * the key timestamps. Every read is by the order's id (each has its index), so its cost does not grow with the
 * seller's other orders. `sellerId` scopes it to the seller's own orders (404 otherwise); null for the back office.
 */
export async function disputePack(db: Db, sellerId: number | null, orderId: number, now: Date) {
  const o = await findOrder(db, sellerId, orderId);
  if (!o) throw new HttpError(404, ORDER_NOT_FOUND);
  const [claims, proof, deliveries, log, booking] = await Promise.all([
    claimsOfOrders(db, [o.id]),
    proofsOf(db, o.id),
    db
      .selectFrom('order_deliveries')
      .leftJoin('files', 'files.id', 'order_deliveries.file_id')
      .select([
        'order_deliveries.ticket_no',
        'order_deliveries.type',
        'order_deliveries.file_id',
        'files.original_name as file_name',
        'files.sha256',
        'order_deliveries.page',
        'order_deliveries.transfer_link',
        'order_deliveries.courier',
        'order_deliveries.tracking_number',
        'order_deliveries.delivered_at',
      ])
      .where('order_deliveries.order_id', '=', o.id)
      .orderBy('order_deliveries.ticket_no')
      .execute(),
    db
      .selectFrom('order_logs')
      .select(['id', 'action', 'from_status', 'to_status', 'reason', 'detail', 'actor', 'user_id', 'created_at'])
      .where('order_id', '=', o.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('bookings')
      .select(['booking_no', 'buyer_id', 'status', 'created_at', 'confirmed_at'])
      .where('order_id', '=', o.id)
      .executeTakeFirst(),
  ]);
  const claim = claims.get(o.id) ?? null;
  const first = (action: string) => log.find((l) => l.action === action)?.created_at ?? null;
  const downloads = proof.filter((p) => p.kind === 'download').map((p) => p.recorded_at);
  const pack = {
    pack_version: PACK_VERSION,
    built_at: now.toISOString(),
    order: {
      booking_id: o.id,
      booking_no: o.booking_no,
      status: o.status,
      status_label: STATUS_LABELS[o.status],
      match_name: o.match_name,
      event_date: o.event_date,
      event_time: o.event_time,
      ticket_type: ticketTypeName(o.ticket_type_id),
      quantity: Number(o.quantity),
      delivered: Number(o.delivered),
      amount: Number(o.amount),
      currency: o.currency,
      seats: { category: o.category, block: o.ticket_block, row: o.row, seats: o.seats },
    },
    booking: booking
      ? {
          booking_no: booking.booking_no,
          buyer_id: Number(booking.buyer_id),
          status: booking.status,
          created_at: booking.created_at,
          confirmed_at: booking.confirmed_at,
        }
      : null,
    claim,
    timestamps: {
      sold_at: o.created_at,
      accepted_at: first('accepted'),
      deliver_by: o.deliver_by,
      first_delivery_at: first('ticket_delivered'),
      delivered_at: first('delivered'),
      transfer_accepted_at: o.transfer_accepted_at ?? null,
      downloads,
      event_starts_at: `${o.event_date}T${o.event_time}:00.000Z`,
      claim_opened_at: claim?.opened_at ?? null,
      claim_window_ends_at: claimUntil(o).toISOString(),
      claim_resolved_at: claim?.resolved_at ?? null,
    },
    proof,
    deliveries: deliveries.map((d) => ({ ...d, page: d.page === null ? null : Number(d.page) })),
    log,
  };
  const content = Buffer.from(`${JSON.stringify(pack, null, 2)}\n`, 'utf8');
  return {
    name: `${o.booking_no}-dispute-pack.json`,
    mime: 'application/json' as const,
    size: content.length,
    content_base64: content.toString('base64'),
  };
}
