import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import { orderStatusValues } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { inIdList, prepared } from '../../db/prepared';
import type { Database, OrderStatus } from '../../db/schema';
import { matchIdListOf } from '../match-search';
import { HOUR, orderListColumns, ordersQuery, type SalesOrder, type SalesSort, salesOrderOf } from './orders';
import type { CurrencyCode } from './totals';

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
