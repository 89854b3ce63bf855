import { allowedOrderActions, type OrderActor } from '../../../machines/order.machine';
import type { Db } from '../../db/database';
import { type OrderRow, type SalesFile, type SalesTicket, salesOrderOf } from './orders';
import { transferStateOf } from './transfers';

// ---------------------------------------------------------------------------------------------------------
// Tickets, deliveries, guests

async function fileRows(db: Db, ids: string[]) {
  if (ids.length === 0) return new Map<string, SalesFile>();
  const rows = await db
    .selectFrom('files')
    .select(['id', 'original_name', 'kind', 'size', 'created_at'])
    .where('id', 'in', ids)
    .execute();
  return new Map(
    rows.map((f) => [
      f.id,
      { file_id: f.id, name: f.original_name, kind: f.kind, size: Number(f.size), created_at: f.created_at },
    ]),
  );
}

export async function deliveriesOf(db: Db, orderId: number) {
  return db
    .selectFrom('order_deliveries')
    .leftJoin('users', 'users.id', 'order_deliveries.user_id')
    .select([
      'order_deliveries.ticket_no',
      'order_deliveries.type',
      'order_deliveries.file_id',
      'order_deliveries.page',
      'order_deliveries.transfer_link',
      'order_deliveries.courier',
      'order_deliveries.tracking_number',
      'order_deliveries.delivered_at',
      'users.first_name',
      'users.last_name',
    ])
    .where('order_deliveries.order_id', '=', orderId)
    .orderBy('order_deliveries.ticket_no')
    .execute();
}

export async function ticketsOf(db: Db, o: NonNullable<OrderRow>): Promise<SalesTicket[]> {
  const deliveries = await deliveriesOf(db, o.id);
  const files = await fileRows(db, [...new Set(deliveries.flatMap((d) => (d.file_id ? [d.file_id] : [])))]);
  const seats = (o.seats ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const seatOf = (n: number) => (seats.length === Number(o.quantity) ? (seats[n - 1] ?? null) : null);
  return Array.from({ length: Number(o.quantity) }, (_, i) => {
    const n = i + 1;
    const d = deliveries.find((x) => x.ticket_no === n);
    return {
      ticket_no: n,
      ticket_block: o.ticket_block,
      row: o.row,
      seat: seatOf(n),
      delivered: !!d,
      delivery: d
        ? {
            type: d.type,
            file: d.file_id ? (files.get(d.file_id) ?? null) : null,
            page: d.page,
            transfer_link: d.transfer_link,
            courier: d.courier,
            tracking_number: d.tracking_number,
            delivered_at: d.delivered_at,
            delivered_by: d.first_name ? `${d.first_name} ${d.last_name ?? ''}`.trim() : null,
          }
        : null,
    };
  });
}

export async function ticketDetails(db: Db, o: NonNullable<OrderRow>) {
  const instruction = o.instruction_file_id ? await fileRows(db, [o.instruction_file_id]) : new Map();
  const row = salesOrderOf(o);
  return {
    booking_id: o.id,
    booking_no: o.booking_no,
    status: o.status,
    ticket_type_id: row.ticket_type_id,
    ticket_type: row.ticket_type,
    delivery_method: row.delivery_method,
    quantity: row.quantity,
    delivered: row.delivered,
    deliver_by: row.deliver_by,
    tickets: await ticketsOf(db, o),
    instruction_file: (o.instruction_file_id && instruction.get(o.instruction_file_id)) || null,
  };
}

/** The booking behind an order (a purchase made it), with its buyer and how it was paid. */
export async function bookingOfOrder(db: Db, orderId: number) {
  return db
    .selectFrom('bookings')
    .select(['id', 'booking_no', 'buyer_id', 'user_id', 'payment_method', 'currency', 'billing', 'attendees', 'status'])
    .where('order_id', '=', orderId)
    .executeTakeFirst();
}

interface Named {
  first_name?: unknown;
  last_name?: unknown;
}
const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** The names the tickets are for: the order's own list, else the booking's guests, else its buyer's name. */
export async function guestsOf(db: Db, o: NonNullable<OrderRow>) {
  const quantity = Number(o.quantity);
  if (o.guests) {
    try {
      const list = JSON.parse(o.guests) as Named[];
      return list
        .slice(0, quantity)
        .map((g, i) => ({ ticket_no: i + 1, first_name: text(g.first_name), last_name: text(g.last_name) }));
    } catch {
      return [];
    }
  }
  const booking = await bookingOfOrder(db, o.id);
  if (!booking) return [];
  try {
    const attendees = JSON.parse(booking.attendees) as {
      attendee_number: number;
      fields: { field: string; value: string }[];
    }[];
    const named = attendees
      .map((a) => ({
        ticket_no: a.attendee_number,
        first_name: a.fields.find((f) => f.field === 'first_name')?.value ?? '',
        last_name: a.fields.find((f) => f.field === 'last_name')?.value ?? '',
      }))
      .filter((g) => g.ticket_no >= 1 && g.ticket_no <= quantity && (g.first_name || g.last_name));
    if (named.length > 0) return named.sort((a, b) => a.ticket_no - b.ticket_no);
    const billing = JSON.parse(booking.billing) as Named;
    return Array.from({ length: quantity }, (_, i) => ({
      ticket_no: i + 1,
      first_name: text(billing.first_name),
      last_name: text(billing.last_name),
    }));
  } catch {
    return [];
  }
}

export async function orderDetails(db: Db, o: NonNullable<OrderRow>, by: OrderActor) {
  const order = salesOrderOf(o);
  const tickets = await ticketDetails(db, o);
  return {
    order,
    tickets: tickets.tickets,
    guests: await guestsOf(db, o),
    amounts: {
      currency: order.currency,
      unit_price: order.unit_price,
      quantity: order.quantity,
      subtotal: order.amount,
      seller_fee: 0,
      payout: order.amount,
    },
    notes: o.notes,
    notes_updated_at: o.notes_updated_at,
    instruction_file: tickets.instruction_file,
    actions: actionsFor(o, by),
    transfer: transferStateOf(o),
  };
}

export function actionsFor(o: NonNullable<OrderRow>, by: OrderActor) {
  const a = allowedOrderActions(o.status, { tickets: Number(o.quantity), delivered: Number(o.delivered) }, by);
  return {
    accept: a.accept,
    decline: a.decline,
    deliver: a.deliver,
    remove_ticket: a.removeTicket,
    cancel: a.cancel,
    replace: a.replace,
  };
}
