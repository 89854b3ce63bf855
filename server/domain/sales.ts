import type { components } from '../../openapi/schema';
import type { AuthUser } from '../auth/session';
import type { Db } from '../db/database';
import { ORDER_STATUSES, type OrderStatus } from '../db/schema';

export type CurrencyCode = components['schemas']['CurrencyCode'];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The database's order statuses and the contract's are one set: this stops compiling when they part. */
const _sameStatuses: Same<OrderStatus, components['schemas']['OrderStatus']> = true;

export { ORDER_STATUSES, type OrderStatus };

const CURRENCIES = ['GBP', 'EUR', 'USD', 'AED'] as const;
const _sameCurrencies: Same<(typeof CURRENCIES)[number], CurrencyCode> = true;
/** At most this many orders in the dashboard's awaiting-delivery list, and events in its top-selling list. */
export const AWAITING_DELIVERY_LIMIT = 10;
export const TOP_EVENTS_LIMIT = 5;

/** Whose sales a caller sees: a team member sees its owner's, everyone else their own. */
export const sellerIdOf = (user: AuthUser): number => user.team_owner_id ?? user.id;

/** The currency asked for, else the caller's own (GBP when it is not one the portal trades in). */
export function currencyFor(asked: CurrencyCode | undefined, user: AuthUser): CurrencyCode {
  if (asked) return asked;
  return (CURRENCIES as readonly string[]).includes(user.currency) ? (user.currency as CurrencyCode) : 'GBP';
}

export interface StatusFigures {
  status: OrderStatus;
  orders: number;
  tickets: number;
  amount: number;
}

/** A seller's orders, tickets and amount per status, all six in order (zeros included); one currency or all. */
export async function figuresByStatus(db: Db, sellerId: number, currency?: CurrencyCode): Promise<StatusFigures[]> {
  let query = db
    .selectFrom('orders')
    .select((eb) => [
      'status',
      eb.fn.countAll<number>().as('orders'),
      eb.fn.sum<number>('quantity').as('tickets'),
      eb.fn.sum<number>('amount').as('amount'),
    ])
    .where('seller_id', '=', sellerId)
    .groupBy('status');
  if (currency) query = query.where('currency', '=', currency);
  const rows = new Map((await query.execute()).map((r) => [r.status, r]));
  return ORDER_STATUSES.map((status) => {
    const row = rows.get(status);
    return {
      status,
      orders: Number(row?.orders ?? 0),
      tickets: Number(row?.tickets ?? 0),
      amount: Number(row?.amount ?? 0),
    };
  });
}

/** The confirmed orders of a seller in one currency: how many, and the first few by soonest event. */
export async function awaitingDelivery(db: Db, sellerId: number, currency: CurrencyCode) {
  const confirmed = db
    .selectFrom('orders')
    .where('orders.seller_id', '=', sellerId)
    .where('orders.currency', '=', currency)
    .where('orders.status', '=', 'confirmed');
  const total = await confirmed.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const orders = await confirmed
    .innerJoin('events', 'events.id', 'orders.event_id')
    .innerJoin('listings', 'listings.id', 'orders.listing_id')
    .select([
      'orders.id as order_id',
      'orders.booking_no',
      'events.name as event_name',
      'events.event_date',
      'orders.quantity',
      'orders.amount',
      'orders.currency',
      'listings.ticket_type_id',
    ])
    .orderBy('events.event_date')
    .orderBy('events.event_time')
    .orderBy('orders.id')
    .limit(AWAITING_DELIVERY_LIMIT)
    .execute();
  return {
    total: Number(total?.n ?? 0),
    orders: orders.map((o) => ({ ...o, currency: o.currency as CurrencyCode })),
  };
}

/** The events a seller sold most tickets for in one currency, leaving out cancelled orders. */
export async function topSellingEvents(db: Db, sellerId: number, currency: CurrencyCode) {
  const rows = await db
    .selectFrom('orders')
    .innerJoin('events', 'events.id', 'orders.event_id')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .select((eb) => [
      'events.id as event_id',
      'events.name as event_name',
      'events.event_date',
      'events.stadium_name',
      'cities.name as city_name',
      eb.fn.sum<number>('orders.quantity').as('tickets_sold'),
      eb.fn.sum<number>('orders.amount').as('revenue'),
    ])
    .where('orders.seller_id', '=', sellerId)
    .where('orders.currency', '=', currency)
    .where('orders.status', '!=', 'cancelled')
    .groupBy(['events.id', 'events.name', 'events.event_date', 'events.stadium_name', 'cities.name'])
    .orderBy('tickets_sold', 'desc')
    .orderBy('revenue', 'desc')
    .orderBy('events.id')
    .limit(TOP_EVENTS_LIMIT)
    .execute();
  return rows.map((r) => ({ ...r, tickets_sold: Number(r.tickets_sold), revenue: Number(r.revenue) }));
}
