import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remindTransfers } from '../domain/sales/transfers';
import { freshServer } from '../test-support';
import { book, call, newKey, type Server, userId } from './trade-testing';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Mobile tickets as the clubs hand them out: one transfer link for a whole booking, the club's transfer window
 * that moves a mobile order's deadline (never due before the seller can transfer), the buyer's acceptance and its
 * reminders. Through the HTTP surface, on the test engine.
 */
describe('mobile transfers (server)', () => {
  let s: Server;
  let seller: string;
  let buyer: string;
  let admin: string;
  let sellerId: number;
  let eventId: number;
  let kickOff: number;

  beforeAll(async () => {
    s = await freshServer();
    [seller, buyer, admin] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('admin@demo.test'),
    ]);
    sellerId = await userId(s, 'seller@demo.test');
    const event = await s.db
      .selectFrom('events')
      .select(['id', 'event_date', 'event_time'])
      .where('guest_fields', '=', '')
      .where('event_date', '>', new Date(s.clock.now().getTime() + 14 * DAY).toISOString().slice(0, 10))
      .orderBy('event_date')
      .executeTakeFirstOrThrow();
    eventId = event.id;
    kickOff = Date.parse(`${event.event_date}T${event.event_time}:00.000Z`);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  /** A mobile listing of the seller on the event, bought by the buyer with SB Pay: the booking and its order. */
  async function mobileSale(quantity: number) {
    const listing = await s.db
      .insertInto('listings')
      .values({
        seller_id: sellerId,
        event_id: eventId,
        category: 'Longside Lower Tier',
        ticket_block: 'Block 1',
        row: '1',
        ticket_type_id: 2,
        quantity: 10,
        available: 10,
        split_type: 'any',
        price: 5_000,
        currency: 'GBP',
        created_at: s.clock.now().toISOString(),
      })
      .returning(['id', 'event_id'])
      .executeTakeFirstOrThrow();
    const booking = await book(s, buyer, listing, quantity, 1);
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', buyer, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(paid.status).toBe(200);
    const row = await s.db
      .selectFrom('bookings')
      .select('order_id')
      .where('id', '=', booking.booking_id)
      .executeTakeFirstOrThrow();
    return { bookingId: booking.booking_id, bookingNo: booking.booking_no, orderId: row.order_id as number };
  }

  const orderOf = (id: number) => s.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function sendLinks(orderId: number, fields: Record<string, string>) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await s.app.request(`/api/api/sales/upload-mobile-ticket?booking_id=${orderId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seller}`, 'idempotency-key': newKey() },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as { message?: string; errors?: { path: string }[] } };
  }

  const setWindow = (hours: unknown, id = eventId, token = admin) =>
    call(s, 'PUT', `/admin/events/${id}/transfer-window`, token, { hours });

  it('seeds clubs with late transfer windows whose mobile orders are never late before the window', async () => {
    const seeded = await s.db
      .selectFrom('orders')
      .select(['deliver_by', 'transfers_open_at', 'event_date', 'event_time'])
      .where('ticket_type_id', '=', 2)
      .where('status', 'in', ['pending', 'confirmed'])
      .where('transfers_open_at', 'is not', null)
      .execute();
    expect(seeded.length).toBeGreaterThan(0);
    for (const o of seeded) {
      const start = Date.parse(`${o.event_date}T${o.event_time}:00.000Z`);
      // the usual deadline (48 h before kick-off) falls before the window opens: the order waits for it
      expect(Date.parse(o.transfers_open_at ?? '')).toBeGreaterThan(start - 48 * HOUR);
      expect(o.deliver_by).toBe(
        new Date(Math.min(Date.parse(o.transfers_open_at ?? '') + 12 * HOUR, start)).toISOString(),
      );
      // no late flag: not overdue
      expect(Date.parse(o.deliver_by ?? '')).toBeGreaterThan(s.clock.now().getTime());
    }
  });

  it('moves open mobile orders to the club’s window when the operator sets it, and logs it', async () => {
    expect((await setWindow(null)).status).toBe(200);
    const { orderId } = await mobileSale(1);
    // no window: the usual deadline, 48 hours before kick-off
    expect((await orderOf(orderId)).deliver_by).toBe(new Date(kickOff - 48 * HOUR).toISOString());

    const saved = await setWindow(24);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({
      id: eventId,
      transfer_window_hours: 24,
      transfers_open_at: new Date(kickOff - 24 * HOUR).toISOString(),
    });
    // transfers open 24 h before: not due before they have been open 12 h
    const moved = await orderOf(orderId);
    expect(moved.transfers_open_at).toBe(new Date(kickOff - 24 * HOUR).toISOString());
    expect(moved.deliver_by).toBe(new Date(kickOff - 12 * HOUR).toISOString());
    expect(Date.parse(moved.accept_by ?? '')).toBeLessThanOrEqual(Date.parse(moved.deliver_by ?? ''));
    // a sale made now takes the window at once
    const next = await orderOf((await mobileSale(1)).orderId);
    expect(next.deliver_by).toBe(new Date(kickOff - 12 * HOUR).toISOString());

    const audit = await call(s, 'GET', '/admin/audit-log?action=event.transfer_window_saved', admin);
    expect(JSON.stringify(audit.body.data)).toContain('24 h before kick-off');
    const listed = await call(s, 'GET', '/admin/events', admin);
    const row = (listed.body.data as unknown as { events: { id: number; transfer_window_hours: number | null }[] })
      .events;
    expect(row.find((e) => e.id === eventId)?.transfer_window_hours).toBe(24);
  });

  it('refuses a window out of range, an unknown event and a caller who is not the back office', async () => {
    for (const bad of [0, 169, -5, 2.5, '24', true, 10 ** 12]) {
      const answer = await setWindow(bad);
      expect(answer.status, JSON.stringify(bad)).toBe(422);
      expect(answer.body.errors?.[0]?.path).toBe('/body/hours');
    }
    expect((await call(s, 'PUT', `/admin/events/${eventId}/transfer-window`, admin, {})).status).toBe(422);
    expect((await setWindow(24, 99_999_999)).status).toBe(404);
    expect((await setWindow(24, eventId, seller)).status).toBe(403);
    expect((await call(s, 'GET', '/admin/events', seller)).status).toBe(403);
    expect((await call(s, 'GET', `/admin/events?q=${'x'.repeat(101)}`, admin)).status).toBe(422);
  });

  it('delivers a 4-seat order with one link for the whole booking', async () => {
    const { orderId } = await mobileSale(4);
    const accepted = await call(s, 'POST', '/sales/order-action', seller, { booking_id: orderId, action: 'accept' });
    expect(accepted.status).toBe(200);
    // one link meant for the whole order, refused without saying so would deliver only ticket 1: the mode says it
    const two = await sendLinks(orderId, {
      transfer_links: 'https://club.example/t/1\nhttps://club.example/t/2',
      link_mode: 'whole_order',
    });
    expect(two.status).toBe(422);
    expect(two.body.message).toBe('One link for the whole order: give exactly one transfer link.');
    const plain = await sendLinks(orderId, { transfer_links: 'http://club.example/t/1', link_mode: 'whole_order' });
    expect(plain.status).toBe(422);
    const wrongMode = await sendLinks(orderId, { transfer_links: 'https://club.example/t', link_mode: 'all' });
    expect(wrongMode.status).toBe(422);

    const sent = await sendLinks(orderId, { transfer_links: 'https://club.example/t/ABC', link_mode: 'whole_order' });
    expect(sent.status).toBe(200);
    expect(sent.body.message).toBe('Tickets delivered: 4 of 4.');
    const o = await orderOf(orderId);
    expect(o.status).toBe('delivered');
    const links = await s.db
      .selectFrom('order_deliveries')
      .select(['ticket_no', 'transfer_link'])
      .where('order_id', '=', orderId)
      .orderBy('ticket_no')
      .execute();
    expect(links).toEqual([1, 2, 3, 4].map((n) => ({ ticket_no: n, transfer_link: 'https://club.example/t/ABC' })));
  });

  it('lets the buyer say the transfer is accepted, once, and reminds them daily until then (three at most)', async () => {
    const { bookingId, bookingNo, orderId } = await mobileSale(2);
    const accept = (token = buyer, id = bookingId) =>
      call(s, 'POST', `/purchase/lmt-trade/bookings/${id}/transfer-accepted`, token);
    expect(
      (await call(s, 'POST', '/sales/order-action', seller, { booking_id: orderId, action: 'accept' })).status,
    ).toBe(200);
    // nothing sent yet
    const early = await accept();
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('No transfer has been sent for this booking yet.');

    expect(
      (await sendLinks(orderId, { transfer_links: 'https://club.example/t/X', link_mode: 'whole_order' })).status,
    ).toBe(200);
    const read = await call(s, 'GET', `/purchase/lmt-trade/bookings/${bookingId}`, buyer);
    expect((read.body.data as { delivery: { transfer: unknown } }).delivery.transfer).toEqual({
      opens_at: new Date(kickOff - 24 * HOUR).toISOString(),
      accepted_at: null,
      reminders: 0,
    });

    // reminders: none within the first day, then one a day
    const remindersOf = async () => (await orderOf(orderId)).transfer_reminders;
    await remindTransfers(s.db, s.clock.now());
    expect(await remindersOf()).toBe(0);
    s.clock.advance(DAY + HOUR);
    [seller, buyer] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
    await remindTransfers(s.db, s.clock.now());
    expect(await remindersOf()).toBe(1);
    // run again (or by a second process) within the day: no second reminder
    expect(await remindTransfers(s.db, s.clock.now())).toBe(0);
    expect(await remindersOf()).toBe(1);
    const reminded = await s.db
      .selectFrom('notifications')
      .select(['description', 'link'])
      .where('user_id', '=', await userId(s, 'rival@demo.test'))
      .where('name', '=', 'transfer_reminder')
      .where('description', 'like', `%(${bookingNo})%`)
      .execute();
    expect(reminded).toHaveLength(1);
    expect(reminded[0]?.link).toMatch(/^\/trade\/purchase\?booking_no=/);

    // another buyer's booking: 404, nothing changed
    expect((await accept(seller)).status).toBe(404);
    expect((await accept(buyer, 99_999_999)).status).toBe(404);

    const done = await accept();
    expect(done.status).toBe(200);
    const transfer = (done.body.data as { delivery: { transfer: { accepted_at: string; reminders: number } } }).delivery
      .transfer;
    expect(transfer.accepted_at).toBe(s.clock.now().toISOString());
    expect(transfer.reminders).toBe(1);
    // a second call answers it as it is; the first time stays
    s.clock.advance(60_000);
    const again = await accept();
    expect(again.status).toBe(200);
    expect((again.body.data as { delivery: { transfer: { accepted_at: string } } }).delivery.transfer.accepted_at).toBe(
      transfer.accepted_at,
    );
    const log = await s.db
      .selectFrom('order_logs')
      .select('action')
      .where('order_id', '=', orderId)
      .where('action', 'in', ['transfer_accepted', 'transfer_reminded'])
      .execute();
    expect(log.map((l) => l.action).sort()).toEqual(['transfer_accepted', 'transfer_reminded']);
    // accepted: no more reminders
    s.clock.advance(2 * DAY);
    const o = await orderOf(orderId);
    expect(o.transfer_reminders).toBe(1);
    expect(o.status).toBe('delivered');
  });

  it('stops after three reminders and counts an unaccepted transfer as delivered on time', async () => {
    // days have passed in the tests before: fresh sessions
    [seller, buyer] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
    const { orderId } = await mobileSale(1);
    expect(
      (await call(s, 'POST', '/sales/order-action', seller, { booking_id: orderId, action: 'accept' })).status,
    ).toBe(200);
    expect((await sendLinks(orderId, { transfer_links: 'https://club.example/t/Y' })).status).toBe(200);
    const counted: number[] = [];
    for (let day = 0; day < 5; day += 1) {
      s.clock.advance(DAY + 60_000);
      await remindTransfers(s.db, s.clock.now());
      counted.push((await orderOf(orderId)).transfer_reminders);
    }
    expect(counted).toEqual([1, 2, 3, 3, 3]);
    const o = await orderOf(orderId);
    expect(o.transfer_accepted_at).toBeNull();
    // delivered it stays: the buyer's silence is not held against the seller
    expect(o.status).toBe('delivered');
  });
});
