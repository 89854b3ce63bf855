import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { allowedOrderActions, nextOrderStatus, type OrderActor, type OrderEvent } from '../../machines/order.machine';
import { type components, orderStatusValues } from '../../openapi/schema';
import type { Db } from '../db/database';
import { inIdList, prepared } from '../db/prepared';
import type { Database, OrderStatus } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { HttpError } from '../http/errors';
import { currentRequest, noteMoney } from '../ops/request-facts';
import type { Payments } from '../payments/port';
import { accountOf, postEntry, purchaseEscrowAccount, walletAccount } from './ledger';
import { matchIdListOf } from './match-search';
import { notificationLinks, notify } from './notifications';
import { TICKET_TYPE_NAMES } from './purchase/pricing';
import { type CurrencyCode, changeOrderStatus } from './sales';
import { ACCEPT_HOURS, deadlinesFor } from './sales-deadlines';

export type SalesOrder = components['schemas']['SalesOrder'];
export type SalesTicket = components['schemas']['SalesTicket'];
export type SalesFile = components['schemas']['SalesFile'];
export type SalesSort = components['schemas']['SalesSort'];
export type DeliveryMethod = components['schemas']['SalesDeliveryMethod'];
export type DeliveryType = components['schemas']['SalesDeliveryType'];
type LogAction = components['schemas']['SalesOrderLogAction'];

// ---------------------------------------------------------------------------------------------------------
// The rules (README, "Sales (server)")

/** A delivered order completes this long after its match starts. */
export const SETTLE_HOURS = 48;
/** The most orders one export holds. */
export const EXPORT_LIMIT = 20_000;
const HOUR = 3_600_000;

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
type OrderListRow = Pick<NonNullable<OrderRow>, ColumnName<(typeof orderListColumns)[number]>>;

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

export interface SalesFilters {
  /** every status when absent */
  status?: OrderStatus;
  date_from?: string;
  date_to?: string;
  date_field?: 'order_date' | 'match_date';
  q?: string;
  booking_no?: string;
  ticket_type_id?: number;
  currency?: CurrencyCode;
  sort?: SalesSort;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 24 * HOUR).toISOString().slice(0, 10);

/**
 * What a list's conditions compare with, worked out from its filters once: a value, or a prepared query's
 * parameter standing for one (server/db/prepared.ts). Only the filters given are there.
 */
interface Bounds {
  seller: unknown;
  status?: unknown;
  currency?: unknown;
  ticketType?: unknown;
  /** lowered, then `%` */
  bookingPrefix?: unknown;
  /** the matches the match search found (an IdList, server/db/prepared.ts) */
  matchIds?: unknown;
  /** `orders.event_date` or `orders.created_at` from (inclusive) and to (exclusive for the order's date) */
  from?: unknown;
  to?: unknown;
  byMatchDate: boolean;
}

async function boundsOf(db: Db, sellerId: number, f: SalesFilters): Promise<Bounds> {
  const b: Bounds = { seller: sellerId, byMatchDate: f.date_field === 'match_date' };
  // the matching matches, looked up once a call: the page and its total both take their ids
  const matchIds = await matchIdListOf(db, f.q);
  if (matchIds !== undefined) b.matchIds = matchIds;
  if (f.status) b.status = f.status;
  if (f.currency) b.currency = f.currency;
  if (f.ticket_type_id) b.ticketType = f.ticket_type_id;
  if (f.booking_no) b.bookingPrefix = `${f.booking_no.toLowerCase()}%`;
  if (f.date_from) b.from = f.date_from;
  if (f.date_to) b.to = b.byMatchDate ? f.date_to : nextDay(f.date_to);
  return b;
}

/** The list's conditions, on `orders` alone: the count reads no other table (nor, by match, the orders' rows). */
function conditions(db: Db, eb: ExpressionBuilder<Database, 'orders'>, b: Bounds) {
  const all: Expression<SqlBool>[] = [eb('orders.seller_id', '=', b.seller as number)];
  if (b.status !== undefined) all.push(eb('orders.status', '=', b.status as OrderStatus));
  if (b.currency !== undefined) all.push(eb('orders.currency', '=', b.currency as CurrencyCode));
  if (b.ticketType !== undefined) all.push(eb('orders.ticket_type_id', '=', b.ticketType as number));
  if (b.bookingPrefix !== undefined) all.push(sql<SqlBool>`lower(orders.booking_no) LIKE ${b.bookingPrefix}`);
  // the orders of the matching matches: each order is checked against their ids (from the index alone)
  if (b.matchIds !== undefined) all.push(inIdList(db, 'orders.event_id', b.matchIds));
  if (b.byMatchDate) {
    if (b.from !== undefined) all.push(eb('orders.event_date', '>=', b.from as string));
    if (b.to !== undefined) all.push(eb('orders.event_date', '<=', b.to as string));
  } else {
    if (b.from !== undefined) all.push(eb('orders.created_at', '>=', b.from as string));
    if (b.to !== undefined) all.push(eb('orders.created_at', '<', b.to as string));
  }
  return eb.and(all);
}

async function filtered(db: Db, sellerId: number, f: SalesFilters) {
  const b = await boundsOf(db, sellerId, f);
  return ordersQuery(db).where((eb) => conditions(db, eb, b));
}

/**
 * A filtered list's page and count, prepared once per shape (which filters, which sort): the same few shapes
 * (a status and a match search, a date range...) come again and again, and building one costs more than
 * running it. `$` gives a parameter for each filter of the shape.
 */
type FilteredArgs = Omit<Bounds, 'byMatchDate'> & { limit: number; offset: number };
const filteredShapes = new Map<
  string,
  { page: ReturnType<typeof filteredPage>; count: ReturnType<typeof filteredCount> }
>();
const slotsOf = (shape: Bounds, $: FilteredArgs): Bounds => {
  const b: Bounds = { seller: $.seller, byMatchDate: shape.byMatchDate };
  for (const key of ['status', 'currency', 'ticketType', 'bookingPrefix', 'matchIds', 'from', 'to'] as const) {
    if (shape[key] !== undefined) b[key] = $[key];
  }
  return b;
};
const filteredPage = (shape: Bounds, sort: SalesSort | undefined) =>
  prepared((db, $: FilteredArgs) => {
    const b = slotsOf(shape, $);
    return sorted(
      ordersQuery(db)
        .where((eb) => conditions(db, eb, b))
        .select(orderListColumns),
      sort,
    )
      .limit($.limit)
      .offset($.offset);
  });
// a filtered count (a match search, dates...) reads the orders alone: the joins of the page add nothing to it
// (every order has its match, city and listing) and cost three lookups an order
const filteredCount = (shape: Bounds) =>
  prepared((db, $: FilteredArgs) => {
    const b = slotsOf(shape, $);
    return db
      .selectFrom('orders')
      .where((eb) => conditions(db, eb, b))
      .select((eb) => eb.fn.countAll<number>().as('n'));
  });
/**
 * A match search's total when the list is filtered by nothing but status, currency and match: the kept orders
 * per status, match and currency (migration 0030) of the matching matches, a few rows where counting read every
 * matching order.
 */
const keptMatchCount = (shape: Bounds) =>
  prepared((db, $: FilteredArgs) =>
    db
      .selectFrom('seller_match_orders')
      .select((eb) => eb.fn.sum<number>('orders').as('n'))
      .where('seller_id', '=', $.seller as number)
      .$if(shape.status !== undefined, (q) => q.where('status', '=', $.status as OrderStatus))
      .$if(shape.currency !== undefined, (q) => q.where('currency', '=', $.currency as CurrencyCode))
      .where(inIdList(db, 'event_id', $.matchIds)),
  );
const countedByMatch = (b: Bounds) =>
  b.matchIds !== undefined &&
  b.ticketType === undefined &&
  b.bookingPrefix === undefined &&
  b.from === undefined &&
  b.to === undefined;

function filteredQueries(b: Bounds, sort: SalesSort | undefined) {
  const present = Object.entries(b)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k)
    .join(',');
  const key = `${sort ?? ''}|${b.byMatchDate}|${present}`;
  let queries = filteredShapes.get(key);
  if (!queries) {
    queries = { page: filteredPage(b, sort), count: countedByMatch(b) ? keptMatchCount(b) : filteredCount(b) };
    filteredShapes.set(key, queries);
  }
  return queries;
}

const hasFilters = (f: SalesFilters) =>
  !!(f.currency || f.ticket_type_id || f.booking_no || f.q || f.date_from || f.date_to);

export function sorted<Q extends ReturnType<typeof ordersQuery>>(q: Q, sort: SalesSort = 'created_desc'): Q {
  const by = (() => {
    switch (sort) {
      case 'created_asc':
        return q.orderBy('orders.created_at', 'asc').orderBy('orders.id', 'asc');
      case 'match_date':
        return q.orderBy('orders.event_date', 'asc').orderBy('orders.event_time', 'asc').orderBy('orders.id', 'desc');
      case 'match_date_desc':
        return q.orderBy('orders.event_date', 'desc').orderBy('orders.event_time', 'desc').orderBy('orders.id', 'desc');
      case 'deadline':
        return q.orderBy('orders.deliver_by', 'asc').orderBy('orders.accept_by', 'asc').orderBy('orders.id', 'desc');
      case 'amount_desc':
        return q.orderBy('orders.amount', 'desc').orderBy('orders.id', 'desc');
      case 'amount_asc':
        return q.orderBy('orders.amount', 'asc').orderBy('orders.id', 'desc');
      default:
        return q.orderBy('orders.created_at', 'desc').orderBy('orders.id', 'desc');
    }
  })();
  return by as Q;
}

/** One page of a sales list, and how many orders all its pages hold. */
/** The unfiltered lists (a status or all, one sort), prepared once each: built, they cost more than they run. */
const statusPages = new Map<string, ReturnType<typeof statusPageQuery>>();
const statusPageQuery = (sort: SalesSort, all: boolean) =>
  prepared((db, $: { seller: number; status: OrderStatus; limit: number; offset: number }) =>
    sorted(
      ordersQuery(db)
        .select(orderListColumns)
        .where('orders.seller_id', '=', $.seller)
        .$if(!all, (q) => q.where('orders.status', '=', $.status)),
      sort,
    )
      .limit($.limit)
      .offset($.offset),
  );
const keptStatusTotal = prepared((db, $: { seller: number; status: OrderStatus }) =>
  db
    .selectFrom('seller_order_totals')
    .select((eb) => eb.fn.sum<number>('orders').as('n'))
    .where('seller_id', '=', $.seller)
    .where('status', '=', $.status),
);
const keptTotal = prepared((db, $: { seller: number }) =>
  db
    .selectFrom('seller_order_totals')
    .select((eb) => eb.fn.sum<number>('orders').as('n'))
    .where('seller_id', '=', $.seller),
);

/** One page of a sales list, and how many orders all its pages hold. */
export async function salesPage(
  db: Db,
  sellerId: number,
  f: SalesFilters,
  page: { page: number; perPage: number },
): Promise<{ orders: SalesOrder[]; total: number }> {
  const limit = page.perPage;
  const offset = (page.page - 1) * page.perPage;
  if (!hasFilters(f)) {
    const sort = f.sort ?? 'created_desc';
    const key = `${sort}:${f.status ? 'one' : 'all'}`;
    let query = statusPages.get(key);
    if (!query) {
      query = statusPageQuery(sort, !f.status);
      statusPages.set(key, query);
    }
    // `status` is not read by the all-statuses query: any value stands in for it
    const status = f.status ?? 'pending';
    // the kept totals (every currency) answer the unfiltered count without counting rows
    const [rows, kept] = await Promise.all([
      query.execute(db, { seller: sellerId, status, limit, offset }),
      f.status
        ? keptStatusTotal.takeFirst(db, { seller: sellerId, status })
        : keptTotal.takeFirst(db, { seller: sellerId }),
    ]);
    return { orders: rows.map(salesOrderOf), total: Number(kept?.n ?? 0) };
  }
  const b = await boundsOf(db, sellerId, f);
  const { page: pageQuery, count } = filteredQueries(b, f.sort);
  const { byMatchDate: _, ...values } = b;
  const [rows, counted] = await Promise.all([
    pageQuery.execute(db, { ...values, limit, offset }),
    count.takeFirst(db, { ...values, limit, offset }),
  ]);
  return { orders: rows.map(salesOrderOf), total: Number(counted?.n ?? 0) };
}

/** Every order of the filtered list, up to `limit` (the export). */
export async function salesRows(db: Db, sellerId: number, f: SalesFilters, limit: number): Promise<SalesOrder[]> {
  const rows = await sorted((await filtered(db, sellerId, f)).select(orderListColumns), f.sort)
    .limit(limit)
    .execute();
  return rows.map(salesOrderOf);
}

/** The four currencies with their six statuses each, from the kept totals. */
export async function salesOverview(db: Db, sellerId: number) {
  const rows = await db
    .selectFrom('seller_order_totals')
    .select((eb) => [
      'currency',
      'status',
      eb.fn.sum<number>('orders').as('orders'),
      eb.fn.sum<number>('tickets').as('tickets'),
      eb.fn.sum<number>('amount').as('amount'),
    ])
    .where('seller_id', '=', sellerId)
    .groupBy(['currency', 'status'])
    .execute();
  const currencies: CurrencyCode[] = ['GBP', 'EUR', 'USD', 'AED'];
  return currencies.map((currency) => {
    const statuses = orderStatusValues.map((status) => {
      const r = rows.find((x) => x.currency === currency && x.status === status);
      return {
        status,
        orders: Number(r?.orders ?? 0),
        tickets: Number(r?.tickets ?? 0),
        amount: Number(r?.amount ?? 0),
      };
    });
    const standing = statuses.filter((s) => s.status !== 'cancelled' && s.status !== 'replaced');
    return {
      currency,
      orders: standing.reduce((n, s) => n + s.orders, 0),
      tickets: standing.reduce((n, s) => n + s.tickets, 0),
      amount: standing.reduce((n, s) => n + s.amount, 0),
      statuses,
    };
  });
}

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

// ---------------------------------------------------------------------------------------------------------
// Logs

export interface Who {
  actor: OrderActor | 'buyer';
  userId: number | null;
}

export async function writeLog(
  db: Db,
  row: {
    orderId: number;
    action: LogAction;
    from: OrderStatus | null;
    to: OrderStatus;
    reason?: string | null;
    detail?: string | null;
    who: Who;
  },
  now: Date,
) {
  await db
    .insertInto('order_logs')
    .values({
      order_id: row.orderId,
      action: row.action,
      from_status: row.from,
      to_status: row.to,
      reason: row.reason ? row.reason.slice(0, 500) : null,
      detail: row.detail ? row.detail.slice(0, 500) : null,
      actor: row.who.actor,
      user_id: row.who.userId,
      created_at: now.toISOString(),
    })
    .execute();
}

export async function orderLogPage(db: Db, orderId: number, page: { page: number; perPage: number }) {
  const rows = await db
    .selectFrom('order_logs')
    .leftJoin('users', 'users.id', 'order_logs.user_id')
    .select([
      'order_logs.id',
      'order_logs.order_id',
      'order_logs.action',
      'order_logs.from_status',
      'order_logs.to_status',
      'order_logs.reason',
      'order_logs.detail',
      'order_logs.actor',
      'order_logs.user_id',
      'order_logs.created_at',
      'users.first_name',
      'users.last_name',
    ])
    .where('order_logs.order_id', '=', orderId)
    .orderBy('order_logs.created_at', 'desc')
    .orderBy('order_logs.id', 'desc')
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  const counted = await db
    .selectFrom('order_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return {
    logs: rows.map((r) => ({
      log_id: r.id,
      booking_id: r.order_id,
      action: r.action as LogAction,
      from_status: r.from_status,
      to_status: r.to_status,
      reason: r.reason,
      detail: r.detail,
      actor: r.actor,
      user_id: r.user_id,
      user_name: r.first_name ? `${r.first_name} ${r.last_name ?? ''}`.trim() : null,
      created_at: r.created_at,
    })),
    total: Number(counted?.n ?? 0),
  };
}

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

// ---------------------------------------------------------------------------------------------------------
// Money: refunds and earnings through the ledger

/** A seller's earnings per currency: credited when a sale completes, what a payout will pay from. */
export const sellerEarningsKey = (sellerId: number, currency: string) => `seller_earnings:${sellerId}:${currency}`;
/** The platform's sales clearing per currency: buyers' money taken in, sellers' earnings paid out. */
export const platformSalesKey = (currency: string) => `platform_sales:${currency}`;

type BookingOfOrder = NonNullable<Awaited<ReturnType<typeof bookingOfOrder>>>;

async function succeededPayments(db: Db, bookingId: number) {
  return db
    .selectFrom('payments')
    .select(['id', 'gateway', 'reference', 'amount', 'currency', 'payment_method'])
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'succeeded')
    .execute();
}

/**
 * Gives the buyer back what it paid: SB Pay from the purchase escrow to its wallet (a ledger entry, once per
 * order), a card or stored card through the gateway's refund (which refunds a payment once however often asked).
 */
async function refundBooking(
  db: Db,
  b: BookingOfOrder,
  o: NonNullable<OrderRow>,
  now: Date,
  payments: Payments | null,
) {
  for (const p of await succeededPayments(db, b.id)) {
    const amount = Number(p.amount);
    if (p.gateway === 'sbpay') {
      const escrow = await purchaseEscrowAccount(db, p.currency, b.id, now);
      const wallet = await walletAccount(db, b.buyer_id, p.currency, now);
      await postEntry(
        db,
        {
          kind: 'sale_refund',
          reference: `order:${o.id}`,
          description: `Refund of ${o.booking_no}`,
          lines: [
            { accountId: escrow, currency: p.currency, amount: -amount },
            { accountId: wallet, currency: p.currency, amount },
          ],
        },
        now,
      );
    } else {
      if (!payments) throw new Error('a card refund needs the payment gateways');
      if (p.payment_method === 3) {
        await payments.storedCard.refund(db, p.reference, amount, p.currency as CurrencyCode);
      } else {
        await payments.card.refund(db, p.reference, now);
      }
    }
    await db
      .updateTable('payments')
      .set({ status: 'refunded', refunded_amount: sql<number>`amount`, updated_at: now.toISOString() })
      .where('id', '=', p.id)
      .execute();
    // logged with the request's line once its transaction commits
    noteMoney(currentRequest.getStore(), {
      action: 'refund',
      amount,
      currency: p.currency,
      gateway: p.gateway,
      order_id: o.id,
      booking_id: b.id,
    });
  }
}

/**
 * A completed sale: the seller's earnings account (`seller_earnings:<seller>:<currency>`, never below zero) is
 * credited with the payout from the platform's sales clearing; what the buyer paid from SB Pay leaves the purchase
 * escrow for the clearing in the same entry (card money is at the gateway, outside the ledger). Once per order.
 */
async function creditEarnings(db: Db, o: NonNullable<OrderRow>, booking: BookingOfOrder | undefined, now: Date) {
  const payout = Number(o.amount);
  const lines = new Map<number, { currency: string; amount: number }>();
  const add = (accountId: number, currency: string, amount: number) => {
    const l = lines.get(accountId) ?? { currency, amount: 0 };
    l.amount += amount;
    lines.set(accountId, l);
  };
  const clearing = (currency: string) =>
    accountOf(
      db,
      { key: platformSalesKey(currency), kind: 'platform_sales', ownerId: null, currency, allowNegative: true },
      now,
    );
  if (booking) {
    for (const p of await succeededPayments(db, booking.id)) {
      if (p.gateway !== 'sbpay') continue;
      add(await purchaseEscrowAccount(db, p.currency, booking.id, now), p.currency, -Number(p.amount));
      add(await clearing(p.currency), p.currency, Number(p.amount));
    }
  }
  if (payout > 0) {
    const earnings = await accountOf(
      db,
      {
        key: sellerEarningsKey(o.seller_id, o.currency),
        kind: 'seller_earnings',
        ownerId: o.seller_id,
        currency: o.currency,
      },
      now,
    );
    add(await clearing(o.currency), o.currency, -payout);
    add(earnings, o.currency, payout);
  }
  const list = [...lines.entries()].filter(([, l]) => l.amount !== 0).map(([accountId, l]) => ({ accountId, ...l }));
  if (list.length < 2) return;
  await postEntry(
    db,
    { kind: 'sale_earnings', reference: `order:${o.id}`, description: `Sale ${o.booking_no} completed`, lines: list },
    now,
  );
}

// ---------------------------------------------------------------------------------------------------------
// The clock: acceptance expiry and completion after the event

/** Cancels the pending orders whose 48 hours have passed (refunds and stock through the lifecycle). */
export async function expireUnaccepted(db: Db, payments: Payments | null, now: Date, batch = 100): Promise<number> {
  const due = await db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'pending')
    .where('accept_by', '<=', now.toISOString())
    .orderBy('accept_by')
    .limit(batch)
    .execute();
  let done = 0;
  for (const { id } of due) {
    done += await onOrder(db, id, now, async (trx, o) => {
      if (o.status !== 'pending' || !o.accept_by || o.accept_by > now.toISOString()) return false;
      await applyOrderEvent(
        trx,
        o,
        { type: 'order.acceptanceExpired', by: 'system' },
        { actor: 'system', userId: null },
        now,
        payments,
        {
          detail: `Not accepted within ${ACCEPT_HOURS} hours.`,
        },
      );
      return true;
    });
  }
  return done;
}

/** Completes the delivered orders whose match started at least 48 hours ago (the seller's earnings credited). */
export async function settleFinished(db: Db, now: Date, batch = 100): Promise<number> {
  const lastDay = new Date(now.getTime() - SETTLE_HOURS * HOUR).toISOString().slice(0, 10);
  const due = await db
    .selectFrom('orders')
    .select(['id'])
    .where('status', '=', 'delivered')
    .where('event_date', '<=', lastDay)
    .orderBy('event_date')
    .limit(batch)
    .execute();
  let done = 0;
  for (const { id } of due) {
    done += await onOrder(db, id, now, async (trx, o) => {
      const start = Date.parse(`${o.event_date}T${o.event_time}:00.000Z`);
      if (o.status !== 'delivered' || start + SETTLE_HOURS * HOUR > now.getTime()) return false;
      await applyOrderEvent(
        trx,
        o,
        { type: 'event.settled', by: 'system' },
        { actor: 'system', userId: null },
        now,
        null,
      );
      return true;
    });
  }
  return done;
}

async function onOrder(
  db: Db,
  id: number,
  now: Date,
  work: (trx: Db, o: NonNullable<OrderRow>) => Promise<boolean>,
): Promise<number> {
  return inTransaction(
    db,
    async (trx) => {
      const o = await lockOrder(trx, null, id, now).catch(() => null);
      if (!o) return 0;
      return (await work(trx, o)) ? 1 : 0;
    },
    (done) => done > 0,
  );
}
