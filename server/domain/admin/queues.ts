import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';

export type AdminQueue = components['schemas']['AdminQueue'];
export type AdminQueueName = components['schemas']['AdminQueueName'];
export type AdminOrder = components['schemas']['AdminOrder'];

interface Waiting {
  n: number | string;
  oldest: string | null;
}

/**
 * What waits in each queue of the back office: how many, and since when. Each count reads the status index its
 * queue's list reads. The queues come in the order of their oldest item, those with nothing waiting last.
 */
export async function adminQueues(db: Db, now: Date): Promise<AdminQueue[]> {
  const waiting = async (q: Promise<Waiting | undefined>) => {
    const row = await q;
    return { count: Number(row?.n ?? 0), oldest_at: row?.oldest ?? null };
  };
  const counts: Record<AdminQueueName, { count: number; oldest_at: string | null }> = {
    deposits: await waiting(
      db
        .selectFrom('deposits')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('created_at').as('oldest')])
        .where('status', '=', 'pending')
        .executeTakeFirst(),
    ),
    kyc: await waiting(
      db
        .selectFrom('kyc_submissions')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('submitted_at').as('oldest')])
        .where('status', '=', 'submitted')
        .executeTakeFirst(),
    ),
    payouts: await waiting(
      db
        .selectFrom('payouts')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('created_at').as('oldest')])
        .where('status', '=', 'requested')
        .executeTakeFirst(),
    ),
    event_requests: await waiting(
      db
        .selectFrom('event_requests')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('created_at').as('oldest')])
        .where('status', '=', 'pending')
        .executeTakeFirst(),
    ),
    erasures: await waiting(
      db
        .selectFrom('erasure_requests')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('requested_at').as('oldest')])
        .where('status', '=', 'requested')
        .executeTakeFirst(),
    ),
    bank_lines: await waiting(
      db
        .selectFrom('bank_statement_lines')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('created_at').as('oldest')])
        .where('status', '=', 'review')
        .executeTakeFirst(),
    ),
    disputes: await waiting(
      db
        .selectFrom('order_disputes')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('opened_at').as('oldest')])
        .where('status', '=', 'open')
        .executeTakeFirst(),
    ),
    orders: await waiting(
      overdue(db, now)
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string>('orders.deliver_by').as('oldest')])
        .executeTakeFirst() as Promise<Waiting | undefined>,
    ),
  };
  return (Object.entries(counts) as Array<[AdminQueueName, (typeof counts)[AdminQueueName]]>)
    .map(([queue, c]) => ({ queue, ...c }))
    .sort((a, b) => (a.oldest_at ?? '\uffff').localeCompare(b.oldest_at ?? '\uffff'));
}

/** Confirmed orders whose delivery deadline has passed with tickets still to deliver. */
const overdue = (db: Db, now: Date) =>
  db
    .selectFrom('orders')
    .where('orders.status', '=', 'confirmed')
    .where('orders.deliver_by', '<', now.toISOString())
    .where((eb) => eb('orders.delivered', '<', eb.ref('orders.quantity')));

/** A page of the orders needing action, the oldest deadline first. */
export async function adminOrderPage(db: Db, now: Date, page: { limit: number; offset: number }) {
  const rows = await overdue(db, now)
    .innerJoin('users', 'users.id', 'orders.seller_id')
    .innerJoin('events', 'events.id', 'orders.event_id')
    .select([
      'orders.id',
      'orders.booking_no',
      'orders.seller_id',
      'users.first_name',
      'users.last_name',
      'users.email',
      'events.name as match_name',
      'orders.quantity',
      'orders.delivered',
      'orders.amount',
      'orders.currency',
      'orders.deliver_by',
      'orders.created_at',
    ])
    .orderBy('orders.deliver_by')
    .orderBy('orders.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await overdue(db, now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const orders: AdminOrder[] = rows.map((r) => ({
    id: r.id,
    booking_no: r.booking_no,
    seller_id: r.seller_id,
    seller_name: `${r.first_name} ${r.last_name}`.trim(),
    seller_email: r.email,
    match_name: r.match_name,
    quantity: r.quantity,
    delivered: r.delivered,
    amount: Number(r.amount),
    currency: r.currency as AdminOrder['currency'],
    deliver_by: r.deliver_by ?? '',
    created_at: r.created_at,
  }));
  return { orders, total: Number(total.n) };
}
