import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortalClient, type PortalClient } from '../../openapi/client';
import { recordOrder } from '../domain/sales/totals';
import { freshServer } from '../test-support';
import { book, newKey, type Server, userId } from './trade-testing';

const DAY = 24 * 3_600_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Sales a seller can work through: many pending orders accepted or declined at once (one refused says why, the
 * others go through; another seller's id refuses the whole call), deadlines that agree with each other, and a
 * listing's in-hand date that the buyer sees and the delivery deadline respects. Through the typed client.
 */
describe('working through sales (server)', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let sellerId: number;
  let rivalId: number;
  const as = (token: string): PortalClient =>
    createPortalClient({
      baseUrl: 'http://portal.test/api',
      fetch: async (request) => s.app.fetch(request),
      getToken: () => token,
      onUnauthorized: () => {},
    });
  const key = () => ({ header: { 'Idempotency-Key': newKey() } });

  beforeAll(async () => {
    s = await freshServer();
    [seller, rival] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
    [sellerId, rivalId] = await Promise.all([userId(s, 'seller@demo.test'), userId(s, 'rival@demo.test')]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  /** A pending order of `owner`'s, as a sale recorded now on one of its upcoming listings. */
  async function pendingOrder(owner: number, createdAt = s.clock.now().toISOString()) {
    const listing = await s.db
      .selectFrom('listings')
      .innerJoin('events', 'events.id', 'listings.event_id')
      .select(['listings.id', 'listings.event_id', 'listings.currency'])
      .where('listings.seller_id', '=', owner)
      .where('events.event_date', '>', dayOf(s.clock.now().getTime() + 5 * DAY))
      .orderBy('listings.id')
      .executeTakeFirstOrThrow();
    const n = Math.floor(Math.random() * 1e9);
    return recordOrder(s.db, {
      booking_no: `SB-W${n}`,
      listing_id: listing.id,
      seller_id: owner,
      event_id: listing.event_id,
      quantity: 1,
      amount: 5_000,
      currency: listing.currency as 'GBP',
      status: 'pending',
      created_at: createdAt,
    });
  }
  const statusOf = async (id: number) =>
    (await s.db.selectFrom('orders').select(['status', 'updated_at']).where('id', '=', id).executeTakeFirstOrThrow())
      .status;

  it('accepts many pending orders at once; one no longer pending says why and the others go through', async () => {
    const [a, b, c] = [await pendingOrder(sellerId), await pendingOrder(sellerId), await pendingOrder(sellerId)];
    const api = as(seller);
    // one of them accepted on its own first
    const single = await api.POST('/sales/order-action', {
      params: key(),
      body: { booking_id: b.id, action: 'accept' },
    });
    expect(single.response.status).toBe(200);
    const before = await s.db
      .selectFrom('orders')
      .select('updated_at')
      .where('id', '=', b.id)
      .executeTakeFirstOrThrow();
    s.clock.advance(60_000);

    const bulk = await api.POST('/sales/order-actions', {
      params: key(),
      body: { booking_ids: [c.id, b.id, a.id], action: 'accept' },
    });
    expect(bulk.response.status).toBe(200);
    expect(bulk.data?.message).toBe('2 orders accepted; 1 could not be.');
    expect(bulk.data?.data).toMatchObject({ done: 2, refused: 1 });
    expect(bulk.data?.data.results.map((r) => [r.booking_id, r.ok, r.status, r.message])).toEqual([
      [c.id, true, 'confirmed', 'Order accepted.'],
      [b.id, false, 'confirmed', 'This order is confirmed: it cannot be accepted.'],
      [a.id, true, 'confirmed', 'Order accepted.'],
    ]);
    expect([await statusOf(a.id), await statusOf(b.id), await statusOf(c.id)]).toEqual([
      'confirmed',
      'confirmed',
      'confirmed',
    ]);
    // the refused one is exactly as it was (its lock's touch undone with its savepoint), with no second log row
    const after = await s.db.selectFrom('orders').select('updated_at').where('id', '=', b.id).executeTakeFirstOrThrow();
    expect(after.updated_at).toBe(before.updated_at);
    const logs = await s.db.selectFrom('order_logs').select('action').where('order_id', '=', b.id).execute();
    expect(logs.filter((l) => l.action === 'accepted')).toHaveLength(1);
  });

  it('declines many with a reason (the buyers refunded, the tickets back), and refuses a decline without one', async () => {
    const [a, b] = [await pendingOrder(sellerId), await pendingOrder(sellerId)];
    const api = as(seller);
    const bare = await api.POST('/sales/order-actions', {
      params: key(),
      body: { booking_ids: [a.id, b.id], action: 'decline', reason: '  ' },
    });
    expect(bare.response.status).toBe(422);
    expect(bare.error && 'errors' in bare.error ? bare.error.errors[0]?.path : null).toBe('/body/reason');
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['pending', 'pending']);

    const declined = await api.POST('/sales/order-actions', {
      params: key(),
      body: { booking_ids: [a.id, b.id], action: 'decline', reason: 'Sold elsewhere' },
    });
    expect(declined.data?.message).toBe('2 orders declined.');
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['cancelled', 'cancelled']);
    const log = await s.db
      .selectFrom('order_logs')
      .select(['reason', 'actor'])
      .where('order_id', '=', a.id)
      .where('action', '=', 'declined')
      .executeTakeFirstOrThrow();
    expect(log).toEqual({ reason: 'Sold elsewhere', actor: 'seller' });
  });

  it("refuses the whole call, changing nothing, when one id is another seller's order", async () => {
    const mine = await pendingOrder(sellerId);
    const theirs = await pendingOrder(rivalId);
    const refused = await as(seller).POST('/sales/order-actions', {
      params: key(),
      body: { booking_ids: [mine.id, theirs.id], action: 'accept' },
    });
    expect(refused.response.status).toBe(404);
    expect(refused.error?.message).toBe('Order not found.');
    expect([await statusOf(mine.id), await statusOf(theirs.id)]).toEqual(['pending', 'pending']);
  });

  it('never asks a late sale to be accepted after its tickets are due', async () => {
    // a sale 30 hours before its match: delivery is due 24 hours after the sale, before the 48 hours to accept end
    const event = await s.db
      .selectFrom('orders')
      .innerJoin('events', 'events.id', 'orders.event_id')
      .select(['events.event_date', 'events.event_time'])
      .where('orders.id', '=', (await pendingOrder(sellerId)).id)
      .executeTakeFirstOrThrow();
    const start = Date.parse(`${event.event_date}T${event.event_time}:00.000Z`);
    const late = await pendingOrder(sellerId, new Date(start - 30 * 3_600_000).toISOString());
    const { data } = await as(seller).GET('/sales/history-all-currency', {
      params: { query: { status: 'pending', per_page: 100, sort: 'deadline' } },
    });
    const row = data?.data.orders.find((o) => o.booking_id === late.id);
    expect(row?.deliver_by).toBe(new Date(start - 6 * 3_600_000).toISOString());
    expect(row?.accept_by).toBe(row?.deliver_by);
  });

  it('keeps an in-hand date on a listing: the buyer sees it and the delivery is not due before it', async () => {
    const match = await s.db
      .selectFrom('events')
      .select(['id', 'event_date', 'event_time'])
      .where('guest_fields', '=', '')
      .where('event_date', '>', dayOf(s.clock.now().getTime() + 10 * DAY))
      .orderBy('event_date')
      .executeTakeFirstOrThrow();
    const inHand = dayOf(Date.parse(`${match.event_date}T00:00:00.000Z`) - DAY);
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      return f;
    };
    const listing = {
      match_id: String(match.id),
      category: 'Longside Lower Tier',
      ticket_block: 'Block 1',
      row: '7',
      ticket_type_id: '1',
      quantity: '4',
      split_type: 'any',
      price: '9000',
      currency: 'GBP',
    };
    const save = (fields: Record<string, string>) =>
      s.app.request('/api/api/save-listing', {
        method: 'POST',
        headers: { authorization: `Bearer ${seller}`, 'idempotency-key': newKey() },
        body: form(fields),
      });
    const after = await save({ ...listing, in_hand_date: dayOf(Date.parse(`${match.event_date}T00:00:00Z`) + DAY) });
    expect(after.status).toBe(422);
    expect(((await after.json()) as { errors: { path: string; message: string }[] }).errors).toContainEqual({
      path: '/body/in_hand_date',
      message: 'The tickets must be in hand by the day of the match.',
    });
    const saved = await save({ ...listing, in_hand_date: inHand });
    expect(saved.status).toBe(200);
    const mine = ((await saved.json()) as { data: { id: number; in_hand_date: string | null } }).data;
    expect(mine.in_hand_date).toBe(inHand);

    // the buyer sees it
    const offered = await as(rival).GET('/purchase/lmt-trade/tickets/{sell_ticket_id}', {
      params: { path: { sell_ticket_id: mine.id } },
    });
    expect(offered.data?.data.listing.in_hand_date).toBe(inHand);

    // a sale's delivery is due at the end of the in-hand day, not the usual 48 hours before the match
    const booking = await book(s, rival, { id: mine.id, event_id: match.id }, 1, 1);
    const paid = await as(rival).POST('/purchase/lmt-trade/confirmation', {
      params: key(),
      body: { booking_id: booking.booking_id, payment_method: 1 },
    });
    expect(paid.response.status).toBe(200);
    const order = await s.db
      .selectFrom('orders')
      .select(['id', 'deliver_by', 'accept_by', 'in_hand_date'])
      .where('listing_id', '=', mine.id)
      .executeTakeFirstOrThrow();
    expect(order.in_hand_date).toBe(inHand);
    expect(order.deliver_by).toBe(`${match.event_date}T00:00:00.000Z`);
    // accepting keeps the deadline the sale was made with, whatever the listing says later
    const edited = await as(seller).PUT('/my-listings/update-ticket/{id}', {
      params: { path: { id: mine.id } },
      body: { in_hand_date: null },
    });
    expect(edited.data?.data.in_hand_date).toBeNull();
    await as(seller).POST('/sales/order-action', { params: key(), body: { booking_id: order.id, action: 'accept' } });
    const accepted = await s.db
      .selectFrom('orders')
      .select(['status', 'deliver_by'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(accepted).toEqual({ status: 'confirmed', deliver_by: `${match.event_date}T00:00:00.000Z` });
  });

  it("shows each order's delivery deadline in the dashboard's Awaiting delivery", async () => {
    const { data } = await as(seller).GET('/dashboard/awaiting-delivery', { params: { query: { currency: 'GBP' } } });
    const orders = data?.data.orders ?? [];
    expect(orders.length).toBeGreaterThan(0);
    for (const o of orders) expect(Date.parse(o.deliver_by ?? '')).not.toBeNaN();
  });
});
