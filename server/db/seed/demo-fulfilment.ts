import type { Clock } from '../../clock';
import type { Db } from '../database';

export const DEMO_FULFILMENT_FIXTURE = 'demo-fulfilment-v1';

const FIRST = ['Olivia', 'Noah', 'Amelia', 'Leo', 'Isla', 'Oscar', 'Ava', 'Arthur', 'Mia', 'Harry', 'Lucía', 'Mateo'];
const LAST = ['Smith', 'Jones', 'Taylor', 'Brown', 'García', 'Müller', 'Rossi', 'Dubois', 'Khan', 'Murphy'];
const COURIERS = ['Royal Mail', 'DHL', 'FedEx', 'UPS'];

/**
 * Issue 12's demo data over the orders the earlier fixtures recorded (the demo seller's, the rival's and the
 * trade purchases'): the guest names of orders with no booking behind them, the deliveries of delivered and
 * completed orders (every ticket) and of some orders awaiting delivery (some tickets), and their log rows, so that
 * the sales pages and the drawer are real. Demo deliveries carry no files (transfer links, couriers, or a PDF
 * named without its file). Pending demo orders get their 48 hours from the seed's clock, so the housekeeping
 * does not cancel them at the first start.
 */
export async function seedDemoFulfilment(db: Db, clock: Clock, people: { seller: number; admin: number }) {
  const now = clock.now();
  const orders = await db
    .selectFrom('orders')
    .leftJoin('bookings', 'bookings.order_id', 'orders.id')
    .select([
      'orders.id',
      'orders.seller_id',
      'orders.status',
      'orders.quantity',
      'orders.ticket_type_id',
      'orders.created_at',
      'bookings.id as booking_id',
    ])
    .orderBy('orders.id')
    .execute();
  let n = 0;
  for (const o of orders) {
    n++;
    const quantity = Number(o.quantity);
    const at = (hours: number) =>
      new Date(Math.min(now.getTime(), Date.parse(o.created_at) + hours * 3_600_000)).toISOString();
    if (!o.booking_id) {
      const guests = Array.from({ length: quantity }, (_, i) => ({
        first_name: FIRST[(n + i) % FIRST.length] as string,
        last_name: LAST[(n * 3 + i) % LAST.length] as string,
      }));
      await db
        .updateTable('orders')
        .set({ guests: JSON.stringify(guests) })
        .where('id', '=', o.id)
        .execute();
    }
    if (o.status === 'pending') {
      await db
        .updateTable('orders')
        .set({ accept_by: new Date(now.getTime() + (6 + ((n * 7) % 40)) * 3_600_000).toISOString() })
        .where('id', '=', o.id)
        .execute();
      continue;
    }
    const log = (
      action: string,
      from: string | null,
      to: string,
      actor: 'seller' | 'admin' | 'system',
      hours: number,
      reason: string | null = null,
      detail: string | null = null,
    ) =>
      db
        .insertInto('order_logs')
        .values({
          order_id: o.id,
          action,
          from_status: from as never,
          to_status: to as never,
          reason,
          detail,
          actor,
          user_id: actor === 'seller' ? o.seller_id : actor === 'admin' ? people.admin : null,
          created_at: at(hours),
        })
        .execute();
    if (o.status === 'cancelled') {
      await log('declined', 'pending', 'cancelled', 'seller', 3, 'The tickets were sold elsewhere.');
      continue;
    }
    await log('accepted', 'pending', 'confirmed', 'seller', 2);
    // every ticket of delivered and completed orders; some of those awaiting delivery (one order in three)
    const delivered =
      o.status === 'delivered' || o.status === 'completed' || o.status === 'replaced'
        ? quantity
        : o.status === 'confirmed' && n % 3 === 0
          ? Math.max(1, Math.floor(quantity / 2))
          : 0;
    const type =
      o.ticket_type_id === 2
        ? 'transfer_link'
        : o.ticket_type_id === 3 || o.ticket_type_id === 4
          ? 'courier'
          : o.ticket_type_id === 6
            ? 'collection'
            : 'pdf';
    for (let t = 1; t <= delivered && o.status !== 'replaced'; t++) {
      await db
        .insertInto('order_deliveries')
        .values({
          order_id: o.id,
          ticket_no: t,
          type,
          file_id: null,
          page: null,
          transfer_link: type === 'transfer_link' ? `https://tickets.example.com/transfer/${o.id}-${t}` : null,
          courier: type === 'courier' ? (COURIERS[n % COURIERS.length] as string) : null,
          tracking_number: type === 'courier' ? `TRK${String(o.id).padStart(6, '0')}${t}` : null,
          user_id: o.seller_id,
          delivered_at: at(20 + t),
        })
        .execute();
      await log(
        'ticket_delivered',
        'confirmed',
        t === quantity ? 'delivered' : 'confirmed',
        'seller',
        20 + t,
        null,
        `Ticket ${t} (${type})`,
      );
    }
    if (o.status !== 'replaced') {
      await db
        .updateTable('orders')
        .set({ delivered: o.status === 'confirmed' ? delivered : quantity })
        .where('id', '=', o.id)
        .execute();
    }
    if (o.status === 'delivered' || o.status === 'completed')
      await log('delivered', 'confirmed', 'delivered', 'seller', 21 + quantity);
    if (o.status === 'completed') await log('completed', 'delivered', 'completed', 'system', 24 * 7);
    if (o.status === 'replaced') {
      await log(
        'replaced',
        'confirmed',
        'replaced',
        'admin',
        30,
        'The seller could not deliver; the marketplace supplied other tickets.',
      );
    }
  }
}
