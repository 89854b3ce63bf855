import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger, walletBalances } from '../domain/ledger';
import { type CurrencyCode, convert, HOLD_MS, priceBreakdown } from '../domain/purchase/pricing';
import { availableOf, closeTradeServer, openTradeServer, resultOf } from './trade-suite';
import { book, call, newKey, openListing, type Server, userId } from './trade-testing';

describe('trade and purchase (server): search, holds and SB Pay', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let sellerId: number;
  let rivalId: number;

  beforeAll(async () => {
    ({ s, seller, rival, sellerId, rivalId } = await openTradeServer());
  }, 60_000);
  afterAll(async () => {
    await closeTradeServer(s);
  });

  const available = (listingId: number) => availableOf(s, listingId);

  it('never offers a seller its own listings, in search, on the event page or by id', async () => {
    const own = await s.db
      .selectFrom('listings')
      .select(['id', 'event_id'])
      .where('seller_id', '=', sellerId)
      .where('available', '>', 0)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const page = await call(s, 'GET', `/purchase/lmt-trade/events/${own.event_id}?per_page=100`, seller);
    expect(page.status).toBe(200);
    const tickets = (page.body.data as unknown as { tickets: { sNo: number }[] }).tickets;
    expect(tickets.map((t) => t.sNo)).not.toContain(own.id);
    const theirs = await call(s, 'GET', `/purchase/lmt-trade/events/${own.event_id}?per_page=100`, rival);
    expect((theirs.body.data as unknown as { tickets: { sNo: number }[] }).tickets.map((t) => t.sNo)).toContain(own.id);
    expect((await call(s, 'GET', `/purchase/lmt-trade/tickets/${own.id}`, seller)).status).toBe(404);
    expect((await call(s, 'GET', `/purchase/lmt-trade/tickets/${own.id}`, rival)).status).toBe(200);
    const cart = await call(
      s,
      'POST',
      `/purchase/lmt-trade/add-to-cart?match_id=${own.event_id}&sell_ticket_id=${own.id}&quantity=1`,
      seller,
    );
    expect(cart.status).toBe(404);
    // the search's counts leave the caller's own tickets out
    const others = await s.db
      .selectFrom('listings')
      .select((eb) => eb.fn.sum<number>('available').as('n'))
      .where('event_id', '=', own.event_id)
      .where('seller_id', '<>', sellerId)
      .where('available', '>', 0)
      .executeTakeFirstOrThrow();
    const search = await call(s, 'GET', '/purchase/lmt-trade/events-search?per_page=50', seller);
    const row = (
      search.body.data as unknown as { events: { match_id: number; tickets_available: number }[] }
    ).events.find((e) => e.match_id === own.event_id);
    expect(row?.tickets_available).toBe(Number(others.n));
  });

  it("shows each event's tickets, listings and lowest price from the kept stock, less the caller's own", async () => {
    type Row = {
      match_id: number;
      tickets_available: number;
      listings_count: number;
      min_price: number | null;
      currency: string;
    };
    const first = await call(s, 'GET', '/purchase/lmt-trade/events-search?per_page=5', rival);
    const target = (first.body.data as unknown as { events: Row[] }).events[0] as Row;
    // the caller lists the cheapest ticket of the event: the caller's view must fall back to the others' lowest
    await s.db
      .insertInto('listings')
      .values({
        seller_id: sellerId,
        event_id: target.match_id,
        category: 'Cheapest of all',
        ticket_block: 'Z',
        row: '1',
        ticket_type_id: 1,
        quantity: 3,
        available: 3,
        price: 1,
        currency: 'GBP',
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .execute();
    const expected = async (callerId: number, eventId: number, currency: CurrencyCode) => {
      const rows = await s.db
        .selectFrom('listings')
        .select(['currency', 'available', 'price', 'ticket_type_id'])
        .where('event_id', '=', eventId)
        .where('available', '>', 0)
        .where('seller_id', '<>', callerId)
        .execute();
      // the "from" price is all in: one ticket with its fees, as the booking prices it
      const prices = rows.map(
        (r) =>
          priceBreakdown({
            currency,
            unitPrice: convert(r.price, r.currency as CurrencyCode, currency),
            quantity: 1,
            ticketTypeId: r.ticket_type_id,
            method: 1,
          }).total_with_payment_fee,
      );
      return {
        tickets_available: rows.reduce((n, r) => n + r.available, 0),
        listings_count: rows.length,
        min_price: prices.length ? Math.min(...prices) : null,
      };
    };
    for (const [token, id] of [
      [seller, sellerId],
      [rival, rivalId],
    ] as const) {
      const page = await call(s, 'GET', '/purchase/lmt-trade/events-search?per_page=5', token);
      const events = (page.body.data as unknown as { events: Row[] }).events;
      expect(events.length).toBe(5);
      for (const e of events) {
        const { tickets_available, listings_count, min_price } = e;
        expect({ tickets_available, listings_count, min_price }).toEqual(
          await expected(id, e.match_id, e.currency as CurrencyCode),
        );
      }
    }
    const rivalView = (
      (await call(s, 'GET', '/purchase/lmt-trade/events-search?per_page=5', rival)).body.data as unknown as {
        events: Row[];
      }
    ).events.find((e) => e.match_id === target.match_id);
    expect(rivalView?.min_price).toBe(convert(1, 'GBP', rivalView?.currency as CurrencyCode));
    await s.db.deleteFrom('listings').where('category', '=', 'Cheapest of all').execute();
  });

  it('searches by name, team, competition, city and dates, paged', async () => {
    const all = await call(s, 'GET', '/purchase/lmt-trade/events-search?per_page=50', seller);
    const meta = (all.body.data as unknown as { meta: { total: number; last_page: number } }).meta;
    expect(meta.total).toBeGreaterThanOrEqual(50);
    expect(meta.last_page).toBe(Math.ceil(meta.total / 50));
    const league = await call(s, 'GET', '/purchase/lmt-trade/events-search?competition=champions&per_page=50', seller);
    const events = (league.body.data as unknown as { events: { tournament: string; match_date: string }[] }).events;
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.tournament === 'Champions League')).toBe(true);
    const team = await call(s, 'GET', '/purchase/lmt-trade/events-search?team=ARSENAL', seller);
    expect(
      (team.body.data as unknown as { events: { match_name: string }[] }).events.every((e) =>
        e.match_name.includes('Arsenal'),
      ),
    ).toBe(true);
    const wild = await call(s, 'GET', '/purchase/lmt-trade/events-search?name=%25', seller);
    expect((wild.body.data as unknown as { events: unknown[] }).events).toEqual([]);
    const from = events[0]?.match_date as string;
    const dated = await call(s, 'GET', `/purchase/lmt-trade/events-search?date_from=${from}&date_to=${from}`, seller);
    expect(
      (dated.body.data as unknown as { events: { match_date: string }[] }).events.every((e) => e.match_date === from),
    ).toBe(true);
    expect(
      (await call(s, 'GET', '/purchase/lmt-trade/events-search?date_from=2027-01-02&date_to=2027-01-01', seller))
        .status,
    ).toBe(422);
  });

  it('buys with SB Pay: the wallet pays the total once, the seller gets a pending sale and a notification', async () => {
    const listing = await openListing(s, sellerId);
    const before = await available(listing.id);
    const wallet = (await walletBalances(s.db, sellerId)).get('GBP') ?? 0;
    const booking = await book(s, seller, listing, 2);
    expect(booking.status).toBe('pending');
    expect(await available(listing.id)).toBe(before - 2);
    const key = newKey();
    const paid = await call(
      s,
      'POST',
      '/purchase/lmt-trade/confirmation',
      seller,
      { booking_id: booking.booking_id, payment_method: 1 },
      key,
    );
    expect(paid.status).toBe(200);
    expect(resultOf(paid)).toMatchObject({
      booking_status: 'Success',
      status: 1,
      message: 'Booking Confirmed Successfully',
    });
    const total = booking.price_breakdown.total_with_payment_fee;
    expect((await walletBalances(s.db, sellerId)).get('GBP')).toBe(wallet - total);
    // the same key again replays; another key finds it confirmed: the wallet pays once
    const replay = await call(
      s,
      'POST',
      '/purchase/lmt-trade/confirmation',
      seller,
      { booking_id: booking.booking_id, payment_method: 1 },
      key,
    );
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const again = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(resultOf(again).booking_status).toBe('Success');
    expect((await walletBalances(s.db, sellerId)).get('GBP')).toBe(wallet - total);
    expect(await available(listing.id)).toBe(before - 2);
    const order = await s.db
      .selectFrom('orders')
      .selectAll()
      .where('booking_no', '=', booking.booking_no)
      .executeTakeFirstOrThrow();
    expect(order).toMatchObject({ seller_id: listing.seller_id, status: 'pending', quantity: 2 });
    const note = await s.db
      .selectFrom('notifications')
      .select('description')
      .where('user_id', '=', listing.seller_id)
      .where('description', 'like', `%${booking.booking_no}%`)
      .execute();
    expect(note).toHaveLength(1);
    const activity = await s.db
      .selectFrom('activity_log')
      .select('type')
      .where('user_id', '=', sellerId)
      .where('description', 'like', `%${booking.booking_no}%`)
      .execute();
    expect(activity.map((a) => a.type)).toEqual(['ticket_purchased']);
    const history = await call(s, 'GET', `/purchase/lmt-trade/history?booking_no=${booking.booking_no}`, seller);
    expect(
      (history.body.data as unknown as { booking_list: { status: string; payment: { gateway: string } }[] })
        .booking_list[0],
    ).toMatchObject({
      status: 'confirmed',
      payment: { gateway: 'sbpay' },
    });
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('sells what the buyer held: a listing edited between the hold and the payment, or after the sale, changes neither', async () => {
    const listing = await openListing(s, sellerId, { ticketTypes: [1, 2, 5] });
    const before = await s.db
      .selectFrom('listings')
      .select(['category', 'ticket_block', 'row', 'seats', 'price', 'currency', 'ticket_type_id'])
      .where('id', '=', listing.id)
      .executeTakeFirstOrThrow();
    const booking = await book(s, seller, listing, 2);
    type Viewed = {
      Category: string;
      ticket_block: string;
      row: string;
      ticket_type_id: number;
      price_breakdown: { total_with_payment_fee: number; shipping_fee: number };
    };
    const view = async () =>
      (await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, seller)).body
        .data as unknown as Viewed;
    const held = await view();
    expect(held).toMatchObject({ Category: before.category, ticket_block: before.ticket_block, row: before.row });
    // its seller edits the listing while the buyer pays: other seats, a dearer price, a shipped ticket type
    const edit = (n: number) =>
      s.db
        .updateTable('listings')
        .set({
          category: `VIP Hospitality ${n}`,
          ticket_block: `B${n}`,
          row: `9${n}`,
          seats: `${n}-${n + 1}`,
          price: before.price * 3,
          ticket_type_id: 3,
        })
        .where('id', '=', listing.id)
        .execute();
    await edit(1);
    const viewed = await view();
    expect(viewed).toEqual(held);
    expect(viewed.price_breakdown.shipping_fee).toBe(0);
    const wallet = (await walletBalances(s.db, sellerId)).get('GBP') ?? 0;
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(resultOf(paid).booking_status).toBe('Success');
    // the buyer pays what was shown, the seller takes its price of the hold
    expect((await walletBalances(s.db, sellerId)).get('GBP')).toBe(
      wallet - held.price_breakdown.total_with_payment_fee,
    );
    const sold = {
      category: before.category,
      ticket_block: before.ticket_block,
      row: before.row,
      seats: before.seats,
      ticket_type_id: before.ticket_type_id,
      amount: before.price * 2,
      currency: before.currency,
    };
    const order = () =>
      s.db
        .selectFrom('orders')
        .select(['id', 'category', 'ticket_block', 'row', 'seats', 'ticket_type_id', 'amount', 'currency'])
        .where('booking_no', '=', booking.booking_no)
        .executeTakeFirstOrThrow();
    expect(await order()).toMatchObject(sold);
    // edited again after the sale: the buyer's booking and the order still read as sold
    await edit(2);
    const terms = ({ Category, ticket_block, row, ticket_type_id, price_breakdown }: Viewed) => ({
      Category,
      ticket_block,
      row,
      ticket_type_id,
      price_breakdown,
    });
    expect(terms(await view())).toEqual(terms(held));
    expect(await order()).toMatchObject(sold);
  });

  it('lets one buyer hold at most 5 carts at once; the sixth waits for the first to end (429, Retry-After)', async () => {
    const buyer = await s.loginAs('fanzone@demo.test');
    const buyerId = await userId(s, 'fanzone@demo.test');
    const listings = [];
    for (let i = 0; i < 6; i++) listings.push(await openListing(s, buyerId));
    const hold = (l: { id: number; event_id: number }) =>
      call(
        s,
        'POST',
        `/purchase/lmt-trade/add-to-cart?match_id=${l.event_id}&sell_ticket_id=${l.id}&quantity=1&payment_method=1`,
        buyer,
      );
    for (const l of listings.slice(0, 5)) expect((await hold(l)).status).toBe(200);
    const before = await available(listings[5]?.id ?? 0);
    const sixth = await hold(listings[5] as (typeof listings)[number]);
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toMatch(/^You already hold tickets in 5 bookings\./);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(sixth.headers.get('retry-after'))).toBeLessThanOrEqual(HOLD_MS / 1000);
    expect(await available(listings[5]?.id ?? 0)).toBe(before);
    // once the holds have ended, it holds again
    s.clock.advance(HOLD_MS + 1);
    expect((await hold(listings[5] as (typeof listings)[number])).status).toBe(200);
  });

  it('replays add-to-cart and booking under the same key: one hold, one booking', async () => {
    const listing = await openListing(s, sellerId, { minAvailable: 3 });
    const before = await available(listing.id);
    const key = newKey();
    const path = `/purchase/lmt-trade/add-to-cart?match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=1`;
    const first = await call(s, 'POST', path, seller, undefined, key);
    const second = await call(s, 'POST', path, seller, undefined, key);
    expect(second.body).toEqual(first.body);
    expect(await available(listing.id)).toBe(before - 1);
    const cartId = (first.body.data as { cart_id: number }).cart_id;
    const body = {
      cart_id: cartId,
      payment_method: 1,
      first_name: 'Sam',
      last_name: 'Seller',
      email: 'sam@example.com',
      address: '1 Road',
      country: 1,
      postal_code: 'AB1',
    };
    const a = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, seller, body);
    const b = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, seller, body);
    expect((b.body.data as { booking_id: number }).booking_id).toBe((a.body.data as { booking_id: number }).booking_id);
    expect(await s.db.selectFrom('bookings').select('id').where('cart_id', '=', cartId).execute()).toHaveLength(1);
  });

  it('refuses a purchase without a billing address, and bad quantities', async () => {
    const listing = await openListing(s, sellerId);
    const path = (q: string) =>
      `/purchase/lmt-trade/add-to-cart?match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=${q}`;
    for (const q of ['0', '-1', '1000000000', 'two', '1.5'])
      expect((await call(s, 'POST', path(q), seller)).status).toBe(422);
    expect((await call(s, 'POST', path('99'), seller)).status).toBe(409);
    const cart = await call(s, 'POST', path('1'), seller);
    const cartId = (cart.body.data as { cart_id: number }).cart_id;
    const none = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, seller, {
      cart_id: cartId,
      payment_method: 1,
    });
    expect(none.status).toBe(422);
    expect(none.body.message).toBe('Please add a billing address');
    const blank = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, seller, {
      cart_id: cartId,
      payment_method: 1,
      first_name: ' ',
      last_name: 'X',
      email: 'x@example.com',
      address: 'Y',
      country: 1,
      postal_code: 'Z',
    });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual([{ path: '/body/first_name', message: 'is required' }]);
    // another buyer's saved address is not found
    const theirs = await call(s, 'GET', '/settings/address-book', rival);
    const foreign = (theirs.body.data as unknown as { address_id: number }[])[0]?.address_id;
    const stolen = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, seller, {
      cart_id: cartId,
      payment_method: 1,
      address_id: foreign,
    });
    expect(stolen.status).toBe(404);
  });

  it('holds for 15 minutes: an ended hold gives the tickets back once, and its booking reads expired', async () => {
    const listing = await openListing(s, sellerId);
    const before = await available(listing.id);
    const booking = await book(s, seller, listing, 1);
    expect(await available(listing.id)).toBe(before - 1);
    s.clock.advance(HOLD_MS - 1000);
    // still held a second before the end
    expect((await call(s, 'GET', `/purchase/lmt-trade/events/${listing.event_id}`, rival)).status).toBe(200);
    expect(await available(listing.id)).toBe(before - 1);
    s.clock.advance(1000);
    // another view of the page than the one kept a second ago (kept answers): its read runs and releases the hold,
    // once however often it runs
    await call(s, 'GET', `/purchase/lmt-trade/events/${listing.event_id}?sort=price_desc`, rival);
    await call(s, 'GET', `/purchase/lmt-trade/events/${listing.event_id}?sort=price_desc`, rival);
    await call(s, 'GET', `/purchase/lmt-trade/events/${listing.event_id}?sort=price_asc`, rival);
    expect(await available(listing.id)).toBe(before);
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(resultOf(paid)).toMatchObject({ booking_status: 'Failed', reason: 'hold_expired' });
    const read = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, seller);
    expect(read.body.data).toMatchObject({
      status: 'expired',
      status_reason: 'The 15-minute hold ended before payment.',
    });
    expect(await available(listing.id)).toBe(before);
  });

  it('shows a hold at once on a listing read a moment before (kept answers), and its end within a second', async () => {
    let listing = await openListing(s, sellerId);
    while (listing.seller_id === rivalId) listing = await openListing(s, sellerId);
    const before = await available(listing.id);
    const quantityOnPage = async () => {
      const page = await call(s, 'GET', `/purchase/lmt-trade/tickets/${listing.id}`, rival);
      return (page.body.data as unknown as { listing: { quantity: number } }).listing.quantity;
    };
    expect(await quantityOnPage()).toBe(before);
    expect(await quantityOnPage()).toBe(before);
    await book(s, seller, listing, 1);
    expect(await quantityOnPage()).toBe(before - 1);
    s.clock.advance(HOLD_MS - 1);
    expect(await quantityOnPage()).toBe(before - 1);
    // the hold has ended: the answer kept a millisecond ago may show it a second longer, never more (on
    // PostgreSQL nothing is kept, and the read releases it at once)
    s.clock.advance(1);
    expect(await quantityOnPage()).toBe(s.engine === 'sqlite' ? before - 1 : before);
    s.clock.advance(999);
    expect(await quantityOnPage()).toBe(before);
    expect(await available(listing.id)).toBe(before);
  });
});
