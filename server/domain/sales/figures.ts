import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import { ORDER_STATUSES } from '../../db/schema';
import { AWAITING_DELIVERY_LIMIT, type CurrencyCode, type StatusFigures, TOP_EVENTS_LIMIT } from './totals';

// ---------------------------------------------------------------------------------------------------------
// Reading the kept totals. Prepared once (server/db/prepared.ts): these run on every dashboard and menu call.

const totalsInCurrency = prepared((db, $: { seller: number; currency: string }) =>
  db
    .selectFrom('seller_order_totals')
    .select(['status', 'orders', 'tickets', 'amount'])
    .where('seller_id', '=', $.seller)
    .where('currency', '=', $.currency),
);
const totalsAllCurrencies = prepared((db, $: { seller: number }) =>
  db
    .selectFrom('seller_order_totals')
    .select(['status', 'orders', 'tickets', 'amount'])
    .where('seller_id', '=', $.seller),
);

/** A seller's orders, tickets and amount per status, all six in order (zeros included); one currency or all. */
export async function figuresByStatus(db: Db, sellerId: number, currency?: CurrencyCode): Promise<StatusFigures[]> {
  const rows = currency
    ? await totalsInCurrency.execute(db, { seller: sellerId, currency })
    : await totalsAllCurrencies.execute(db, { seller: sellerId });
  const by = new Map<string, StatusFigures>();
  for (const r of rows) {
    const f = by.get(r.status) ?? { status: r.status, orders: 0, tickets: 0, amount: 0 };
    f.orders += Number(r.orders);
    f.tickets += Number(r.tickets);
    f.amount += Number(r.amount);
    by.set(r.status, f);
  }
  return ORDER_STATUSES.map((status) => by.get(status) ?? { status, orders: 0, tickets: 0, amount: 0 });
}

const confirmedCount = prepared((db, $: { seller: number; currency: string }) =>
  db
    .selectFrom('seller_order_totals')
    .select((eb) => eb.fn.sum<number>('orders').as('orders'))
    .where('seller_id', '=', $.seller)
    .where('currency', '=', $.currency)
    .where('status', '=', 'confirmed'),
);
// read in index order (orders_seller_currency_status_event): the first rows are the answer, nothing is sorted
const soonestConfirmed = prepared((db, $: { seller: number; currency: string }) =>
  db
    .selectFrom('orders')
    .innerJoin('events', 'events.id', 'orders.event_id')
    .select([
      'orders.id as order_id',
      'orders.booking_no',
      'events.name as event_name',
      'orders.event_date',
      'orders.quantity',
      'orders.amount',
      'orders.currency',
      'orders.ticket_type_id',
      'orders.deliver_by',
    ])
    .where('orders.seller_id', '=', $.seller)
    .where('orders.currency', '=', $.currency)
    .where('orders.status', '=', 'confirmed')
    .orderBy('orders.event_date')
    .orderBy('orders.event_time')
    .orderBy('orders.id')
    .limit(AWAITING_DELIVERY_LIMIT),
);

/** The confirmed orders of a seller in one currency: how many, and the first few by soonest event. */
export async function awaitingDelivery(db: Db, sellerId: number, currency: CurrencyCode) {
  const args = { seller: sellerId, currency };
  const [total, orders] = await Promise.all([confirmedCount.takeFirst(db, args), soonestConfirmed.execute(db, args)]);
  return {
    total: Number(total?.orders ?? 0),
    orders: orders.map((o) => ({ ...o, currency: o.currency as CurrencyCode })),
  };
}

// read in index order (seller_event_totals_top), the five first rows with a sale
const topEvents = prepared((db, $: { seller: number; currency: string }) =>
  db
    .selectFrom('seller_event_totals as t')
    .innerJoin('events', 'events.id', 't.event_id')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .select([
      'events.id as event_id',
      'events.name as event_name',
      'events.event_date',
      'events.stadium_name',
      'cities.name as city_name',
      't.tickets as tickets_sold',
      't.amount as revenue',
    ])
    .where('t.seller_id', '=', $.seller)
    .where('t.currency', '=', $.currency)
    .where('t.orders', '>', 0)
    .orderBy('t.tickets', 'desc')
    .orderBy('t.amount', 'desc')
    .orderBy('t.event_id')
    .limit(TOP_EVENTS_LIMIT),
);

/** The events a seller sold most tickets for in one currency, leaving out cancelled orders. */
export async function topSellingEvents(db: Db, sellerId: number, currency: CurrencyCode) {
  const rows = await topEvents.execute(db, { seller: sellerId, currency });
  return rows.map((r) => ({ ...r, tickets_sold: Number(r.tickets_sold), revenue: Number(r.revenue) }));
}
