import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { claimRefusal, claimsOfOrders, claimUntil } from '../disputes/rules';
import { transferStateOf } from './transfers';

// ---------------------------------------------------------------------------------------------------------
// The buyer's view of a booking's delivery

export type BookingDelivery = components['schemas']['BookingDelivery'];

/** The delivery of the orders behind confirmed (or since cancelled) bookings, by booking id. */
export async function bookingDeliveries(
  db: Db,
  rows: ReadonlyArray<{ id: number; order_id: number | null }>,
  now: Date = new Date(),
): Promise<Map<number, BookingDelivery>> {
  const orderIds = rows.flatMap((r) => (r.order_id ? [r.order_id] : []));
  const out = new Map<number, BookingDelivery>();
  if (orderIds.length === 0) return out;
  const orders = await db
    .selectFrom('orders')
    .select([
      'id',
      'status',
      'quantity',
      'delivered',
      'deliver_by',
      'instruction_file_id',
      'ticket_type_id',
      'transfers_open_at',
      'transfer_accepted_at',
      'transfer_reminders',
      'event_date',
      'event_time',
    ])
    .where('id', 'in', orderIds)
    .execute();
  const deliveries = await db
    .selectFrom('order_deliveries')
    .leftJoin('files', 'files.id', 'order_deliveries.file_id')
    .select([
      'order_deliveries.order_id',
      'order_deliveries.ticket_no',
      'order_deliveries.type',
      'order_deliveries.page',
      'order_deliveries.transfer_link',
      'order_deliveries.courier',
      'order_deliveries.tracking_number',
      'order_deliveries.delivered_at',
      'files.original_name',
    ])
    .where('order_deliveries.order_id', 'in', orderIds)
    .orderBy('order_deliveries.ticket_no')
    .execute();
  const instructionIds = orders.flatMap((o) => (o.instruction_file_id ? [o.instruction_file_id] : []));
  const instructions =
    instructionIds.length === 0
      ? []
      : await db.selectFrom('files').select(['id', 'original_name']).where('id', 'in', instructionIds).execute();
  const claims = await claimsOfOrders(db, orderIds);
  for (const r of rows) {
    const o = orders.find((x) => x.id === r.order_id);
    if (!o) continue;
    const open = o.status === 'pending' || o.status === 'confirmed';
    const mine = o.status === 'cancelled' ? [] : deliveries.filter((d) => d.order_id === o.id);
    out.set(r.id, {
      order_status: o.status,
      quantity: Number(o.quantity),
      delivered: Number(o.delivered),
      deliver_by: open ? o.deliver_by : null,
      tickets: mine.map((d) => ({
        ticket_no: d.ticket_no,
        type: d.type,
        file_name: d.original_name ?? null,
        page: d.page,
        transfer_link: d.transfer_link,
        courier: d.courier,
        tracking_number: d.tracking_number,
        delivered_at: d.delivered_at,
      })),
      instruction_file_name: instructions.find((f) => f.id === o.instruction_file_id)?.original_name ?? null,
      download_available: mine.length > 0,
      transfer: o.status === 'cancelled' ? null : transferStateOf(o),
      claim: claims.get(o.id) ?? null,
      claim_until: claims.has(o.id) || claimRefusal(o, now) ? null : claimUntil(o).toISOString(),
    });
  }
  return out;
}
