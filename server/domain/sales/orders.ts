import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import type { OrderStatus } from '../../db/schema';
import { HttpError } from '../../http/errors';
import { TICKET_TYPE_NAMES } from '../purchase/pricing';
import type { CurrencyCode } from './totals';

export type SalesOrder = components['schemas']['SalesOrder'];
export type SalesTicket = components['schemas']['SalesTicket'];
export type SalesFile = components['schemas']['SalesFile'];
export type SalesSort = components['schemas']['SalesSort'];
export type DeliveryMethod = components['schemas']['SalesDeliveryMethod'];
export type DeliveryType = components['schemas']['SalesDeliveryType'];
export type LogAction = components['schemas']['SalesOrderLogAction'];

// ---------------------------------------------------------------------------------------------------------
// The rules (README, "Sales (server)")

export const HOUR = 3_600_000;

export const ORDER_NOT_FOUND = 'Order not found.';

export const STATUS_LABELS: Readonly<Record<OrderStatus, string>> = {
  pending: 'Pending',
  confirmed: 'Awaiting Delivery',
  delivered: 'Delivered',
  completed: 'Completed',
  cancelled: 'Cancelled',
  replaced: 'Replaced',
};

/** How each ticket type is delivered (1 E-ticket and 5 PDF by file, 2 by transfer, 3 and 4 by courier, 6 at the venue). */
export const DELIVERY_METHOD: Readonly<Record<number, DeliveryMethod>> = {
  1: 'pdf',
  2: 'mobile',
  3: 'courier',
  4: 'courier',
  5: 'pdf',
  6: 'collection',
};
export const UPLOAD_CALL: Readonly<Record<DeliveryMethod, string>> = {
  pdf: '/api/sales/upload-tickets',
  mobile: '/api/sales/upload-mobile-ticket',
  courier: '/api/sales/paper-ticket-upload',
  collection: '/api/sales/upload-instruction-file',
};
export const methodOf = (ticketTypeId: number): DeliveryMethod => DELIVERY_METHOD[ticketTypeId] ?? 'pdf';
export const ticketTypeName = (id: number) => TICKET_TYPE_NAMES[id] ?? 'Ticket';

// ---------------------------------------------------------------------------------------------------------
// Reading orders

/** What a list, a report or an export shows of an order (salesOrderOf): one order's page reads the rest too. */
export const orderListColumns = [
  'orders.id',
  'orders.booking_no',
  'orders.status',
  'orders.created_at',
  'orders.updated_at',
  'orders.event_id',
  'orders.event_date',
  'orders.event_time',
  'orders.listing_id',
  'orders.quantity',
  'orders.delivered',
  'orders.currency',
  'orders.amount',
  'orders.ticket_type_id',
  'orders.accept_by',
  'orders.deliver_by',
  'events.name as match_name',
  'events.tournament',
  'events.stadium_name',
  'cities.name as city_name',
  // the seats sold, kept on the order (a later edit of the listing does not change them)
  'orders.category',
  'orders.ticket_block',
  'orders.row',
  'orders.seats',
] as const;

export const orderColumns = [
  ...orderListColumns,
  'orders.seller_id',
  'orders.notes',
  'orders.notes_updated_at',
  'orders.instruction_file_id',
  'orders.guests',
  'orders.in_hand_date',
  'orders.transfers_open_at',
  'orders.transfer_accepted_at',
  'orders.transfer_reminders',
  'listings.quantity as listing_quantity',
] as const;

export const ordersQuery = (db: Db) =>
  db
    .selectFrom('orders')
    .innerJoin('events', 'events.id', 'orders.event_id')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('listings', 'listings.id', 'orders.listing_id');

export type OrderRow = Awaited<ReturnType<typeof findOrder>> & {};
/** 'orders.id' -> 'id', 'events.name as match_name' -> 'match_name' */
type ColumnName<T> = T extends `${string}.${infer C}` ? (C extends `${string} as ${infer A}` ? A : C) : never;
export type OrderListRow = Pick<NonNullable<OrderRow>, ColumnName<(typeof orderListColumns)[number]>>;

/** One order with what the pages show of it; scoped to `sellerId` unless null (the back office). */
export async function findOrder(db: Db, sellerId: number | null, orderId: number) {
  let q = ordersQuery(db).select(orderColumns).where('orders.id', '=', orderId);
  if (sellerId !== null) q = q.where('orders.seller_id', '=', sellerId);
  return q.executeTakeFirst();
}

/**
 * Takes the order's row for the rest of the caller's transaction (a write first: the row lock on Postgres, the
 * write lock on SQLite), so that two changes of one order run one after the other; then reads it. 404 when
 * there is no such order for this seller.
 */
export async function lockOrder(db: Db, sellerId: number | null, orderId: number, now: Date) {
  let touch = db.updateTable('orders').set({ updated_at: now.toISOString() }).where('id', '=', orderId);
  if (sellerId !== null) touch = touch.where('seller_id', '=', sellerId);
  const touched = await touch.executeTakeFirst();
  if (touched.numUpdatedRows !== 1n) throw new HttpError(404, ORDER_NOT_FOUND);
  const row = await findOrder(db, sellerId, orderId);
  if (!row) throw new HttpError(404, ORDER_NOT_FOUND);
  return row;
}

export function salesOrderOf(r: OrderListRow): SalesOrder {
  const quantity = Number(r.quantity);
  const amount = Number(r.amount);
  return {
    booking_id: r.id,
    booking_no: r.booking_no,
    status: r.status,
    status_label: STATUS_LABELS[r.status],
    created_at: r.created_at,
    updated_at: r.updated_at,
    match_id: r.event_id,
    match_name: r.match_name,
    tournament: r.tournament,
    match_date: r.event_date,
    match_time: r.event_time,
    stadium_name: r.stadium_name,
    city_name: r.city_name,
    listing_id: r.listing_id,
    category: r.category,
    ticket_block: r.ticket_block,
    row: r.row,
    seats: r.seats,
    ticket_type_id: r.ticket_type_id as SalesOrder['ticket_type_id'],
    ticket_type: ticketTypeName(r.ticket_type_id),
    delivery_method: methodOf(r.ticket_type_id),
    quantity,
    delivered: Number(r.delivered),
    currency: r.currency as CurrencyCode,
    unit_price: quantity > 0 ? Math.round(amount / quantity) : amount,
    amount,
    accept_by: r.status === 'pending' ? r.accept_by : null,
    deliver_by: r.status === 'pending' || r.status === 'confirmed' ? r.deliver_by : null,
  };
}
