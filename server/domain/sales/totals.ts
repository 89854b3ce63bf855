import { sql } from 'kysely';
import { type components, currencyCodeValues } from '../../../openapi/schema';
import type { AuthUser } from '../../auth/session';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import { ORDER_STATUSES, type OrderStatus } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { deadlinesFor, transfersOpenOf } from './deadlines';

export type CurrencyCode = components['schemas']['CurrencyCode'];

export { ORDER_STATUSES, type OrderStatus };

/** The currencies the portal trades in: the contract's CurrencyCode values. */
const CURRENCIES = currencyCodeValues;
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

// ---------------------------------------------------------------------------------------------------------
// Writing orders. Every order write goes through these two functions: they keep the seller's totals
// (seller_order_totals per currency and status, seller_event_totals per currency and event for the orders that
// are not cancelled, seller_match_orders per status, match and currency) in the same transaction, by atomic increments, so that the dashboard reads a few rows
// whatever the seller's history, and several server processes on one database keep them exact.

export interface NewOrder {
  booking_no: string;
  listing_id: number;
  seller_id: number;
  event_id: number;
  quantity: number;
  /** the whole order, in minor units of `currency` */
  amount: number;
  currency: CurrencyCode;
  status: OrderStatus;
  created_at: string;
  /** defaults to created_at */
  updated_at?: string;
  /** the names the tickets are for, when no booking behind the order has them (demo data) */
  guests?: { first_name: string; last_name: string }[];
  /** who bought (the log's first row) */
  buyer_user_id?: number | null;
  /** the seats and ticket type sold, as the buyer's cart held them; else the listing's of now (demo data) */
  sold?: {
    category: string;
    ticket_block: string;
    row: string;
    seats: string | null;
    ticket_type_id: number;
    /** tickets in hand from this day (the listing's when the cart held them) */
    in_hand_date?: string | null;
  };
}

/** Runs `work` in the caller's transaction, or in one of its own (retried on a Postgres conflict). */
const inOwnTransaction = <T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : inTransaction(db, work);

interface Share {
  /** the order's id: its shard of the status totals */
  id: number;
  seller_id: number;
  currency: string;
  status: OrderStatus;
  event_id: number;
  quantity: number;
  amount: number;
}

type Added = { seller: number; currency: string; status: string; tickets: number; amount: number; shard: number };
/** How many rows a seller's total of one status is kept in (migration 0038): an order's is its id modulo this. */
export const TOTAL_SHARDS = 16;
// an order added to its seller's totals: three upserts, built and compiled once (every sale runs them)
const addToStatusTotal = prepared((db, $: Added) =>
  db
    .insertInto('seller_order_totals')
    .values({
      seller_id: $.seller,
      currency: $.currency,
      status: $.status as OrderStatus,
      shard: $.shard,
      orders: 1,
      tickets: $.tickets,
      amount: $.amount,
    })
    .onConflict((oc) =>
      oc.columns(['seller_id', 'currency', 'status', 'shard']).doUpdateSet((eb) => ({
        orders: eb('seller_order_totals.orders', '+', 1),
        tickets: eb('seller_order_totals.tickets', '+', $.tickets),
        amount: eb('seller_order_totals.amount', '+', $.amount),
      })),
    ),
);
const addToMatchTotal = prepared((db, $: Omit<Added, 'tickets' | 'amount'> & { event: number }) =>
  db
    .insertInto('seller_match_orders')
    .values({
      seller_id: $.seller,
      status: $.status as OrderStatus,
      event_id: $.event,
      currency: $.currency,
      orders: 1,
    })
    .onConflict((oc) =>
      oc
        .columns(['seller_id', 'status', 'event_id', 'currency'])
        .doUpdateSet((eb) => ({ orders: eb('seller_match_orders.orders', '+', 1) })),
    ),
);
const addToEventTotal = prepared((db, $: Omit<Added, 'status'> & { event: number }) =>
  db
    .insertInto('seller_event_totals')
    .values({
      seller_id: $.seller,
      currency: $.currency,
      event_id: $.event,
      orders: 1,
      tickets: $.tickets,
      amount: $.amount,
    })
    .onConflict((oc) =>
      oc.columns(['seller_id', 'currency', 'event_id']).doUpdateSet((eb) => ({
        orders: eb('seller_event_totals.orders', '+', 1),
        tickets: eb('seller_event_totals.tickets', '+', $.tickets),
        amount: eb('seller_event_totals.amount', '+', $.amount),
      })),
    ),
);

/**
 * Adds (sign 1) or takes away (sign -1) one order's share of its seller's totals, by increments that run inside
 * the database, so that concurrent writers never lose one: adding is an upsert (the first order of a status
 * makes its row), taking away an update of the row the order was added to. Taking from a total that does not
 * have the order breaks the tables' CHECK (nothing below zero), or finds no row: the write fails either way.
 */
async function addShare(db: Db, share: Share, sign: 1 | -1) {
  const orders = 1;
  const { quantity: tickets, amount } = share;
  const shard = share.id % TOTAL_SHARDS;
  const added = { seller: share.seller_id, currency: share.currency, status: share.status, tickets, amount, shard };
  if (sign === 1) {
    await addToStatusTotal.execute(db, added);
  } else {
    const taken = await db
      .updateTable('seller_order_totals')
      .set((eb) => ({
        orders: eb('orders', '-', orders),
        tickets: eb('tickets', '-', tickets),
        amount: eb('amount', '-', amount),
      }))
      .where('seller_id', '=', share.seller_id)
      .where('currency', '=', share.currency)
      .where('status', '=', share.status)
      .where('shard', '=', shard)
      .executeTakeFirst();
    if (taken.numUpdatedRows !== 1n) throw new Error(`no ${share.status} total to take order from`);
  }
  // the sales lists' match search total (migration 0030), of every status
  if (sign === 1) {
    await addToMatchTotal.execute(db, { ...added, event: share.event_id });
  } else {
    const taken = await db
      .updateTable('seller_match_orders')
      .set((eb) => ({ orders: eb('orders', '-', orders) }))
      .where('seller_id', '=', share.seller_id)
      .where('status', '=', share.status)
      .where('event_id', '=', share.event_id)
      .where('currency', '=', share.currency)
      .executeTakeFirst();
    if (taken.numUpdatedRows !== 1n) throw new Error(`no match total to take order from`);
  }
  if (share.status === 'cancelled') return;
  if (sign === 1) {
    await addToEventTotal.execute(db, { ...added, event: share.event_id });
  } else {
    const taken = await db
      .updateTable('seller_event_totals')
      .set((eb) => ({
        orders: eb('orders', '-', orders),
        tickets: eb('tickets', '-', tickets),
        amount: eb('amount', '-', amount),
      }))
      .where('seller_id', '=', share.seller_id)
      .where('currency', '=', share.currency)
      .where('event_id', '=', share.event_id)
      .executeTakeFirst();
    if (taken.numUpdatedRows !== 1n) throw new Error(`no event total to take order from`);
  }
}

/**
 * Records an order, with its event's date and time copied in, and adds it to its seller's totals, all in one
 * transaction (the caller's, or its own). Answers the new order's id.
 */
export async function recordOrder(db: Db, order: NewOrder): Promise<{ id: number }> {
  const sold = order.sold;
  return inOwnTransaction(db, async (trx) => {
    // one statement that writes first: on SQLite it takes the write lock at once, so a transaction of ours
    // never has to upgrade a read to a write (which another process's commit could refuse)
    const row = await trx
      .insertInto('orders')
      .columns([
        'booking_no',
        'listing_id',
        'seller_id',
        'event_id',
        'quantity',
        'amount',
        'currency',
        'status',
        'created_at',
        'updated_at',
        'event_date',
        'event_time',
        'ticket_type_id',
        'guests',
        'category',
        'ticket_block',
        'row',
        'seats',
        'in_hand_date',
      ])
      .expression((eb) =>
        eb
          .selectFrom('events')
          .innerJoin('listings', (j) => j.on('listings.id', '=', order.listing_id))
          .select((e) => [
            e.val(order.booking_no).as('booking_no'),
            e.val(order.listing_id).as('listing_id'),
            e.val(order.seller_id).as('seller_id'),
            'events.id as event_id',
            e.val(order.quantity).as('quantity'),
            e.val(order.amount).as('amount'),
            e.val(order.currency).as('currency'),
            e.val(order.status).as('status'),
            e.val(order.created_at).as('created_at'),
            e.val(order.updated_at ?? order.created_at).as('updated_at'),
            'events.event_date',
            'events.event_time',
            sold ? e.val(sold.ticket_type_id).as('ticket_type_id') : 'listings.ticket_type_id',
            e.val(order.guests ? JSON.stringify(order.guests) : '').as('guests'),
            sold ? e.val(sold.category).as('category') : 'listings.category',
            sold ? e.val(sold.ticket_block).as('ticket_block') : 'listings.ticket_block',
            sold ? e.val(sold.row).as('row') : 'listings.row',
            sold ? e.val(sold.seats).as('seats') : 'listings.seats',
            sold ? e.val(sold.in_hand_date ?? null).as('in_hand_date') : 'listings.in_hand_date',
          ])
          .where('events.id', '=', order.event_id),
      )
      .returning(['id', 'event_date', 'event_time', 'in_hand_date', 'ticket_type_id'])
      .executeTakeFirst();
    if (!row) throw new Error(`recordOrder: there is no event ${order.event_id} or listing ${order.listing_id}`);
    await addShare(trx, { ...order, id: row.id }, 1);
    // the order's deadlines (with the club's transfer window, if any) and the first row of its log
    const event = await trx
      .selectFrom('events')
      .select('transfer_window_hours')
      .where('id', '=', order.event_id)
      .executeTakeFirst();
    const opens = transfersOpenOf(row.event_date, row.event_time, event?.transfer_window_hours ?? null);
    const deadlines = deadlinesFor(order.status, { created_at: order.created_at, ...row, transfers_open_at: opens });
    await trx
      .updateTable('orders')
      .set({ ...deadlines, transfers_open_at: opens })
      .where('id', '=', row.id)
      .execute();
    await trx
      .insertInto('order_logs')
      .values({
        order_id: row.id,
        action: 'created',
        from_status: null,
        to_status: order.status,
        reason: null,
        detail: null,
        actor: 'buyer',
        user_id: order.buyer_user_id ?? null,
        created_at: order.created_at,
      })
      .execute();
    return { id: row.id };
  });
}

type SaleValues = {
  booking_no: string;
  listing_id: number;
  seller_id: number;
  event_id: number;
  quantity: number;
  amount: number;
  currency: string;
  status: string;
  created_at: string;
  event_date: string;
  event_time: string;
  ticket_type_id: number;
  category: string;
  ticket_block: string;
  row: string;
  seats: string | null;
  in_hand_date: string | null;
  transfers_open_at: string | null;
  accept_by: string | null;
  deliver_by: string | null;
};
const insertSale = prepared((db, $: SaleValues) =>
  db
    .insertInto('orders')
    .values({
      booking_no: $.booking_no,
      listing_id: $.listing_id,
      seller_id: $.seller_id,
      event_id: $.event_id,
      quantity: $.quantity,
      amount: $.amount,
      currency: $.currency,
      status: $.status as OrderStatus,
      created_at: $.created_at,
      updated_at: $.created_at,
      event_date: $.event_date,
      event_time: $.event_time,
      ticket_type_id: $.ticket_type_id,
      guests: '',
      category: $.category,
      ticket_block: $.ticket_block,
      row: $.row,
      seats: $.seats,
      in_hand_date: $.in_hand_date,
      transfers_open_at: $.transfers_open_at,
      accept_by: $.accept_by,
      deliver_by: $.deliver_by,
    })
    .returning('id'),
);
const firstLogRow = prepared((db, $: { order: number; status: string; user: number | null; at: string }) =>
  db.insertInto('order_logs').values({
    order_id: $.order,
    action: 'created',
    from_status: null,
    to_status: $.status as OrderStatus,
    reason: null,
    detail: null,
    actor: 'buyer',
    user_id: $.user,
    created_at: $.at,
  }),
);

/**
 * A buyer's purchase recorded as the seller's order, from the values in hand (the event's date and time, the
 * seats the cart held): the order with its deadlines in one insert, its seller's totals, the first row of its
 * log, in the caller's transaction. What recordOrder does, without its reads: the purchase's path.
 */
export async function recordSale(
  trx: Db,
  order: NewOrder & {
    sold: NonNullable<NewOrder['sold']>;
    event_date: string;
    event_time: string;
    /** the club's transfer window of the event, in hours before kick-off, or none */
    transfer_window_hours?: number | null;
  },
): Promise<{ id: number; accept_by: string | null; deliver_by: string | null }> {
  const inHand = order.sold.in_hand_date ?? null;
  const opens = transfersOpenOf(order.event_date, order.event_time, order.transfer_window_hours ?? null);
  const deadlines = deadlinesFor(order.status, {
    ...order,
    in_hand_date: inHand,
    ticket_type_id: order.sold.ticket_type_id,
    transfers_open_at: opens,
  });
  const row = await insertSale.takeFirst(trx, {
    booking_no: order.booking_no,
    listing_id: order.listing_id,
    seller_id: order.seller_id,
    event_id: order.event_id,
    quantity: order.quantity,
    amount: order.amount,
    currency: order.currency,
    status: order.status,
    created_at: order.created_at,
    event_date: order.event_date,
    event_time: order.event_time,
    ...order.sold,
    in_hand_date: inHand,
    transfers_open_at: opens,
    ...deadlines,
  });
  if (!row) throw new Error(`recordSale: the order ${order.booking_no} was not written`);
  await addShare(trx, { ...order, id: row.id }, 1);
  await firstLogRow.execute(trx, {
    order: row.id,
    status: order.status,
    user: order.buyer_user_id ?? null,
    at: order.created_at,
  });
  return { id: row.id, ...deadlines };
}

export type StatusChange =
  | { kind: 'changed' }
  /** No such order (or it is another seller's). */
  | { kind: 'missing' }
  /** The order is not in the status the caller expected (someone changed it first): nothing changed. */
  | { kind: 'conflict'; status: OrderStatus };

/**
 * Moves an order from `from` to `to` and its share of the totals with it, in one transaction. The update is
 * conditional on the order still being in `from`, so of two writers racing to change one order (in one process
 * or several) exactly one wins and the other is told the status it found. Which moves the order lifecycle
 * allows is for its caller to decide. `sellerId` scopes the order to its seller.
 */
export async function changeOrderStatus(
  db: Db,
  change: { orderId: number; from: OrderStatus; to: OrderStatus; at: string; sellerId?: number },
): Promise<StatusChange> {
  return inOwnTransaction(db, async (trx) => {
    let update = trx
      .updateTable('orders')
      .set({ status: change.to, updated_at: change.at })
      .where('id', '=', change.orderId)
      .where('status', '=', change.from);
    if (change.sellerId !== undefined) update = update.where('seller_id', '=', change.sellerId);
    const moved = await update
      .returning(['id', 'seller_id', 'currency', 'event_id', 'quantity', 'amount'])
      .executeTakeFirst();
    if (!moved) {
      let query = trx.selectFrom('orders').select('status').where('id', '=', change.orderId);
      if (change.sellerId !== undefined) query = query.where('seller_id', '=', change.sellerId);
      const found = await query.executeTakeFirst();
      return found ? { kind: 'conflict', status: found.status } : { kind: 'missing' };
    }
    if (change.from === change.to) return { kind: 'changed' };
    // the two status rows in one fixed order, so that two opposite moves cannot wait on each other (deadlock)
    const steps: [OrderStatus, 1 | -1][] = [
      [change.from, -1],
      [change.to, 1],
    ];
    steps.sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [status, sign] of steps) await addShare(trx, { ...moved, status }, sign);
    return { kind: 'changed' };
  });
}

/**
 * Recounts a seller's totals (or every seller's) from its orders: for orders written in bulk around
 * recordOrder (the benchmark's), or to repair totals after a manual edit of the orders table.
 */
export async function recountOrderTotals(db: Db, sellerId?: number): Promise<void> {
  await inOwnTransaction(db, async (trx) => {
    let dropOrders = trx.deleteFrom('seller_order_totals');
    let dropEvents = trx.deleteFrom('seller_event_totals');
    const shardOf = sql<number>`id % ${sql.lit(TOTAL_SHARDS)}`;
    let byStatus = trx
      .selectFrom('orders')
      .select((eb) => [
        'seller_id',
        'currency',
        'status',
        shardOf.as('shard'),
        eb.fn.countAll<number>().as('orders'),
        eb.fn.sum<number>('quantity').as('tickets'),
        eb.fn.sum<number>('amount').as('amount'),
      ])
      .groupBy(['seller_id', 'currency', 'status', shardOf]);
    let byEvent = trx
      .selectFrom('orders')
      .select((eb) => [
        'seller_id',
        'currency',
        'event_id',
        eb.fn.countAll<number>().as('orders'),
        eb.fn.sum<number>('quantity').as('tickets'),
        eb.fn.sum<number>('amount').as('amount'),
      ])
      .where('status', '!=', 'cancelled')
      .groupBy(['seller_id', 'currency', 'event_id']);
    let dropMatches = trx.deleteFrom('seller_match_orders');
    let byMatch = trx
      .selectFrom('orders')
      .select((eb) => ['seller_id', 'status', 'event_id', 'currency', eb.fn.countAll<number>().as('orders')])
      .groupBy(['seller_id', 'status', 'event_id', 'currency']);
    if (sellerId !== undefined) {
      dropOrders = dropOrders.where('seller_id', '=', sellerId);
      dropEvents = dropEvents.where('seller_id', '=', sellerId);
      dropMatches = dropMatches.where('seller_id', '=', sellerId);
      byStatus = byStatus.where('seller_id', '=', sellerId);
      byEvent = byEvent.where('seller_id', '=', sellerId);
      byMatch = byMatch.where('seller_id', '=', sellerId);
    }
    await dropOrders.execute();
    await dropEvents.execute();
    await dropMatches.execute();
    await trx
      .insertInto('seller_match_orders')
      .columns(['seller_id', 'status', 'event_id', 'currency', 'orders'])
      .expression(byMatch)
      .execute();
    await trx
      .insertInto('seller_order_totals')
      .columns(['seller_id', 'currency', 'status', 'shard', 'orders', 'tickets', 'amount'])
      .expression(byStatus)
      .execute();
    await trx
      .insertInto('seller_event_totals')
      .columns(['seller_id', 'currency', 'event_id', 'orders', 'tickets', 'amount'])
      .expression(byEvent)
      .execute();
  });
}
