import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database';
import { ORDER_STATUSES, type OrderStatus } from '../../db/schema';
import { freshServer } from '../../test-support';
import { awaitingDelivery, figuresByStatus, topSellingEvents } from './figures';
import { type CurrencyCode, changeOrderStatus, recordOrder, recountOrderTotals } from './totals';

type Server = Awaited<ReturnType<typeof freshServer>>;
const WRITER = fileURLToPath(new URL('../testing/order-writes-child.ts', import.meta.url));
const CURRENCIES: CurrencyCode[] = ['GBP', 'EUR', 'USD', 'AED'];

/**
 * The kept totals (seller_order_totals, seller_event_totals) against a full recount of the orders, done here in
 * plain code from the raw rows, after random mixes of order writes, in one connection and in two at once.
 */
describe('order writes keep the sellers’ totals', () => {
  let s: Server;
  let sellers: number[];
  let events: number[];
  let listing: number;
  let booking = 0;
  const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, booking)).toISOString();

  beforeAll(async () => {
    s = await freshServer();
    const users = await s.db.selectFrom('users').select(['id', 'email']).orderBy('id').execute();
    sellers = ['seller@demo.test', 'rival@demo.test', 'newseller@demo.test'].map(
      (email) => users.find((u) => u.email === email)?.id ?? -1,
    );
    events = (await s.db.selectFrom('events').select('id').orderBy('id').limit(4).execute()).map((e) => e.id);
    listing = (await s.db.selectFrom('listings').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Every order, and both totals tables, straight from the database. */
  const snapshot = async (db: Db = s.db) => ({
    orders: await db.selectFrom('orders').selectAll().orderBy('id').execute(),
    // a total by status is kept in shards (migration 0038): what counts is their sum
    byStatus: await db
      .selectFrom('seller_order_totals')
      .select((eb) => [
        'seller_id',
        'currency',
        'status',
        eb.fn.sum<number>('orders').as('orders'),
        eb.fn.sum<number>('tickets').as('tickets'),
        eb.fn.sum<number>('amount').as('amount'),
      ])
      .groupBy(['seller_id', 'currency', 'status'])
      .execute(),
    byEvent: await db.selectFrom('seller_event_totals').selectAll().execute(),
    byMatch: await db.selectFrom('seller_match_orders').selectAll().execute(),
  });

  /** The totals recounted from the orders (only the non-zero ones: a total emptied by a move stays as zeros). */
  async function expectTotalsEqualRecount() {
    const { orders, byStatus, byEvent, byMatch } = await snapshot();
    const recount = (keyOf: (o: (typeof orders)[number]) => string | null) => {
      const m = new Map<string, { orders: number; tickets: number; amount: number }>();
      for (const o of orders) {
        const key = keyOf(o);
        if (key === null) continue;
        const t = m.get(key) ?? { orders: 0, tickets: 0, amount: 0 };
        t.orders += 1;
        t.tickets += o.quantity;
        t.amount += o.amount;
        m.set(key, t);
      }
      return Object.fromEntries([...m.entries()].sort());
    };
    const kept = (rows: { orders: number; tickets: number; amount: number }[], keyOf: (r: never) => string) =>
      Object.fromEntries(
        rows
          .filter((r) => Number(r.orders) !== 0 || Number(r.tickets) !== 0 || Number(r.amount) !== 0)
          .map((r) => [
            keyOf(r as never),
            { orders: Number(r.orders), tickets: Number(r.tickets), amount: Number(r.amount) },
          ])
          .sort(),
      );
    expect(kept(byStatus, (r: (typeof byStatus)[number]) => `${r.seller_id}/${r.currency}/${r.status}`)).toEqual(
      recount((o) => `${o.seller_id}/${o.currency}/${o.status}`),
    );
    expect(kept(byEvent, (r: (typeof byEvent)[number]) => `${r.seller_id}/${r.currency}/${r.event_id}`)).toEqual(
      recount((o) => (o.status === 'cancelled' ? null : `${o.seller_id}/${o.currency}/${o.event_id}`)),
    );
    const matchKey = (o: { seller_id: number; status: string; event_id: number; currency: string }) =>
      `${o.seller_id}/${o.status}/${o.event_id}/${o.currency}`;
    expect(
      Object.fromEntries(
        byMatch
          .filter((r) => Number(r.orders) !== 0)
          .map((r) => [matchKey(r), Number(r.orders)])
          .sort(),
      ),
    ).toEqual(Object.fromEntries(Object.entries(recount(matchKey)).map(([key, t]) => [key, t.orders])));
    // and what the dashboard reads from them
    for (const seller of sellers) {
      for (const currency of CURRENCIES) {
        const mine = orders.filter((o) => o.seller_id === seller && o.currency === currency);
        expect(await figuresByStatus(s.db, seller, currency)).toEqual(
          ORDER_STATUSES.map((status) => {
            const these = mine.filter((o) => o.status === status);
            return {
              status,
              orders: these.length,
              tickets: these.reduce((n, o) => n + o.quantity, 0),
              amount: these.reduce((n, o) => n + o.amount, 0),
            };
          }),
        );
      }
    }
  }

  const newOrder = (seller: number, currency: CurrencyCode, event: number, status: OrderStatus, quantity: number) => ({
    booking_no: `SB-T${++booking}`,
    listing_id: listing,
    seller_id: seller,
    event_id: event,
    quantity,
    amount: quantity * 1250,
    currency,
    status,
    created_at: at(),
  });

  it('copies the event’s date and time into the order', async () => {
    const event = await s.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', events[1] ?? -1)
      .executeTakeFirstOrThrow();
    const { id } = await recordOrder(s.db, newOrder(sellers[2] ?? -1, 'GBP', event.id, 'confirmed', 2));
    const order = await s.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([order.event_date, order.event_time]).toEqual([event.event_date, event.event_time]);
    await expectTotalsEqualRecount();
  });

  it('equal a full recount after any mix of recordings and status changes, stale ones included', async () => {
    const write = fc.oneof(
      fc.record({
        kind: fc.constant('record' as const),
        seller: fc.nat(2),
        currency: fc.constantFrom(...CURRENCIES),
        event: fc.nat(3),
        status: fc.constantFrom(...ORDER_STATUSES),
        quantity: fc.integer({ min: 1, max: 6 }),
      }),
      fc.record({
        kind: fc.constant('change' as const),
        pick: fc.nat(),
        to: fc.constantFrom(...ORDER_STATUSES),
        stale: fc.boolean(),
        scopedToOther: fc.boolean(),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 25 }), async (writes) => {
        for (const w of writes) {
          if (w.kind === 'record') {
            const seller = sellers[w.seller] ?? -1;
            await recordOrder(s.db, newOrder(seller, w.currency, events[w.event] ?? -1, w.status, w.quantity));
            continue;
          }
          const orders = await s.db.selectFrom('orders').select(['id', 'status', 'seller_id']).orderBy('id').execute();
          const order = orders[w.pick % orders.length];
          if (!order) continue;
          const other = sellers.find((id) => id !== order.seller_id) ?? -1;
          const from = w.stale ? (ORDER_STATUSES.find((x) => x !== order.status) ?? 'pending') : order.status;
          const result = await changeOrderStatus(s.db, {
            orderId: order.id,
            from,
            to: w.to,
            at: at(),
            sellerId: w.scopedToOther ? other : order.seller_id,
          });
          if (w.scopedToOther) expect(result).toEqual({ kind: 'missing' });
          else if (w.stale) expect(result).toEqual({ kind: 'conflict', status: order.status });
          else expect(result).toEqual({ kind: 'changed' });
          const now = await s.db.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirst();
          expect(now?.status).toBe(result.kind === 'changed' ? w.to : order.status);
        }
        await expectTotalsEqualRecount();
      }),
      { numRuns: 15 },
    );
  });

  it('writes nothing when the order cannot be recorded', async () => {
    const before = await snapshot();
    await expect(recordOrder(s.db, newOrder(sellers[0] ?? -1, 'GBP', 987_654, 'pending', 1))).rejects.toThrow(
      /no event 987654/,
    );
    // a duplicate booking number fails inside the transaction, after nothing else was written
    const taken = before.orders[0]?.booking_no ?? '';
    await expect(
      recordOrder(s.db, { ...newOrder(sellers[0] ?? -1, 'GBP', events[0] ?? -1, 'pending', 1), booking_no: taken }),
    ).rejects.toThrow(/UNIQUE|duplicate key/i);
    expect(await snapshot()).toEqual(before);
  });

  /** Runs each plan in a process of its own, all started at once; answers each process's results. */
  async function inProcesses(plans: unknown[][]): Promise<unknown[][]> {
    const children = plans.map((plan) =>
      spawn(process.execPath, ['--import', 'tsx', WRITER], {
        env: { ...process.env, DB_TARGET: s.target, WRITES: JSON.stringify(plan) },
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const outputs = children.map((child) => {
      let out = '';
      child.stdout?.on('data', (chunk) => {
        out += String(chunk);
      });
      const ready = new Promise<void>((done, fail) => {
        const check = () => (out.includes('ready\n') ? done() : undefined);
        child.stdout?.on('data', check);
        child.once('exit', (code) => fail(new Error(`a writer process ended (${code}) before it was ready`)));
      });
      const finished = new Promise<unknown[]>((done, fail) =>
        child.once('exit', (code) => {
          const line = out.split('\n').find((l) => l.startsWith('['));
          if (code === 0 && line) done(JSON.parse(line) as unknown[]);
          else fail(new Error(`a writer process failed (${code}): ${out}`));
        }),
      );
      return { ready, finished };
    });
    await Promise.all(outputs.map((o) => o.ready));
    for (const child of children) child.stdin?.write('go\n');
    return Promise.all(outputs.map((o) => o.finished));
  }

  it('stay exact with several processes writing at once: every race on one order has one winner', async () => {
    const seller = sellers[1] ?? -1;
    const record = (i: number) => ({
      kind: 'record',
      order: newOrder(seller, 'EUR', events[i % 4] ?? -1, 'pending', 1 + (i % 3)),
    });
    // three processes record 30 orders at once
    const recorded = await inProcesses([0, 1, 2].map((p) => Array.from({ length: 10 }, (_, i) => record(p * 10 + i))));
    const made = recorded.flat().map((r) => (r as { ok: { id: number } }).ok.id);
    expect(made).toHaveLength(30);
    expect(new Set(made).size).toBe(30);
    await expectTotalsEqualRecount();

    // two processes race to move each of them: one to confirmed, the other to cancelled
    const race = (to: OrderStatus) =>
      made.map((orderId) => ({ kind: 'change', orderId, from: 'pending', to, at: at() }));
    const [toConfirmed, toCancelled] = (await inProcesses([race('confirmed'), race('cancelled')])) as {
      ok: { kind: string };
    }[][];
    made.forEach((id, i) => {
      const kinds = [toConfirmed?.[i]?.ok.kind, toCancelled?.[i]?.ok.kind].sort();
      expect(kinds, `order ${id}`).toEqual(['changed', 'conflict']);
    });
    await expectTotalsEqualRecount();

    // opposite moves between two statuses at once (the totals' rows are taken in one order: no deadlock)
    const moved = await s.db.selectFrom('orders').select(['id', 'status']).where('id', 'in', made).execute();
    const swap = (o: (typeof moved)[number]) => ({
      kind: 'change',
      orderId: o.id,
      from: o.status,
      to: o.status === 'confirmed' ? 'cancelled' : 'confirmed',
      at: at(),
    });
    const swapped = await inProcesses([
      moved.filter((_, i) => i % 2).map(swap),
      moved.filter((_, i) => !(i % 2)).map(swap),
    ]);
    expect(swapped.flat()).toEqual(moved.map(() => ({ ok: { kind: 'changed' } })));
    await expectTotalsEqualRecount();
    // seven writer processes start one after another (tsx compiles each): on a busy 2-core machine that alone
    // took more than the default 30 s once
  }, 180_000);

  it('are rebuilt from the orders by recountOrderTotals', async () => {
    const kept = await snapshot();
    await s.db.updateTable('seller_order_totals').set({ orders: 999 }).execute();
    await s.db.updateTable('seller_match_orders').set({ orders: 999 }).execute();
    await s.db
      .deleteFrom('seller_event_totals')
      .where('seller_id', '=', sellers[0] ?? -1)
      .execute();
    await recountOrderTotals(s.db, sellers[0]);
    await recountOrderTotals(s.db);
    const rebuilt = await snapshot();
    const nonZero = <T extends { orders: number }>(rows: T[]) =>
      rows.filter((r) => Number(r.orders) > 0).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(nonZero(rebuilt.byStatus)).toEqual(nonZero(kept.byStatus));
    expect(nonZero(rebuilt.byEvent)).toEqual(nonZero(kept.byEvent));
    expect(nonZero(rebuilt.byMatch)).toEqual(nonZero(kept.byMatch));
    await expectTotalsEqualRecount();
  });

  it('serve awaiting delivery and top-selling events as a scan of the orders would', async () => {
    const seller = sellers[0] ?? -1;
    const orders = await s.db
      .selectFrom('orders')
      .innerJoin('events', 'events.id', 'orders.event_id')
      .innerJoin('cities', 'cities.id', 'events.city_id')
      .select([
        'orders.id',
        'orders.status',
        'orders.currency',
        'orders.quantity',
        'orders.amount',
        'events.id as event_id',
        'events.event_date',
        'events.event_time',
      ])
      .where('orders.seller_id', '=', seller)
      .execute();
    for (const currency of CURRENCIES) {
      const confirmed = orders
        .filter((o) => o.status === 'confirmed' && o.currency === currency)
        .sort(
          (a, b) => a.event_date.localeCompare(b.event_date) || a.event_time.localeCompare(b.event_time) || a.id - b.id,
        );
      const awaiting = await awaitingDelivery(s.db, seller, currency);
      expect(awaiting.total, currency).toBe(confirmed.length);
      expect(
        awaiting.orders.map((o) => o.order_id),
        currency,
      ).toEqual(confirmed.slice(0, 10).map((o) => o.id));

      const byEvent = new Map<number, { tickets: number; revenue: number }>();
      for (const o of orders.filter((o) => o.currency === currency && o.status !== 'cancelled')) {
        const e = byEvent.get(o.event_id) ?? { tickets: 0, revenue: 0 };
        e.tickets += o.quantity;
        e.revenue += o.amount;
        byEvent.set(o.event_id, e);
      }
      const expected = [...byEvent.entries()]
        .sort(([ia, a], [ib, b]) => b.tickets - a.tickets || b.revenue - a.revenue || ia - ib)
        .slice(0, 5)
        .map(([event_id, e]) => ({ event_id, tickets_sold: e.tickets, revenue: e.revenue }));
      const top = await topSellingEvents(s.db, seller, currency);
      expect(
        top.map(({ event_id, tickets_sold, revenue }) => ({ event_id, tickets_sold, revenue })),
        currency,
      ).toEqual(expected);
    }
  });
});
