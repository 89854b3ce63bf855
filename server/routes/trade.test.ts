import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger, payFromWallet, walletBalances } from '../domain/ledger';
import { type CurrencyCode, convert, HOLD_MS, priceBreakdown } from '../domain/purchase/pricing';
import { paymentsFrom } from '../payments';
import { freshServer } from '../test-support';
import { type Answer, book, call, newKey, openListing, type Server, userId } from './trade-testing';

const WEBHOOK_SECRET = 'whsec_test_secret_for_the_trade_tests';
const stripe = new Stripe('sk_test_unused');

type Result = { status: number; booking_status: string; message: string; reason: string | null; refunded: boolean };
const resultOf = (a: Answer) => (a.body.data as unknown as { result: Result }).result;
const bookingOf = (a: Answer) =>
  (a.body.data as unknown as { booking: { status: string; status_reason: string | null } }).booking;

describe('trade and purchase (server)', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let sellerId: number;
  let rivalId: number;

  beforeAll(async () => {
    s = await freshServer({
      payments: paymentsFrom({ stripe: null, stripeWebhookSecret: WEBHOOK_SECRET, adyen: null }),
    });
    [seller, rival] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
    sellerId = await userId(s, 'seller@demo.test');
    rivalId = await userId(s, 'rival@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const available = async (listingId: number) =>
    (await s.db.selectFrom('listings').select('available').where('id', '=', listingId).executeTakeFirstOrThrow())
      .available;

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

  it('charges nothing when SB Pay is short, keeps the hold, and says so', async () => {
    const listing = await openListing(s, sellerId);
    const booking = await book(s, seller, listing, 1);
    const balance = (await walletBalances(s.db, sellerId)).get('GBP') ?? 0;
    const total = booking.price_breakdown.total_with_payment_fee;
    // leave less than the total in the wallet (a purchase elsewhere)
    await s.db.transaction().execute((trx) =>
      payFromWallet(
        trx,
        {
          userId: sellerId,
          currency: 'GBP',
          amount: balance - total + 1,
          reference: 'test:drain',
          description: 'drain',
        },
        s.clock.now(),
      ),
    );
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(resultOf(paid)).toMatchObject({ booking_status: 'Failed', reason: 'insufficient_funds' });
    expect(resultOf(paid).message).toMatch(/^Insufficient SB Pay balance/);
    expect(bookingOf(paid).status).toBe('pending');
    expect((await walletBalances(s.db, sellerId)).get('GBP')).toBe(total - 1);
    // switch to a stored card without losing the hold
    const card = await call(s, 'POST', '/adyen/pay-with-saved-card', seller, {
      booking_id: booking.booking_id,
      payment_method: 3,
      recurringDetailReference: 'sandbox_visa_4242',
    });
    expect(resultOf(card)).toMatchObject({ status: 1, booking_status: 'Success' });
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('pays with a stored card: a refusal says why and keeps the booking pending', async () => {
    const listing = await openListing(s, rivalId);
    const booking = await book(s, rival, listing, 1, 3);
    const declined = await call(s, 'POST', '/adyen/pay-with-saved-card', rival, {
      booking_id: booking.booking_id,
      payment_method: 3,
      recurringDetailReference: 'sandbox_mc_0002',
    });
    expect(resultOf(declined)).toMatchObject({
      status: 0,
      reason: 'card_declined',
      message: 'Payment failed: Your card was declined.',
    });
    expect(bookingOf(declined).status).toBe('pending');
    const unknown = await call(s, 'POST', '/adyen/pay-with-saved-card', rival, {
      booking_id: booking.booking_id,
      payment_method: 3,
      recurringDetailReference: 'someone_elses_card',
    });
    expect(unknown.status).toBe(422);
    const paid = await call(s, 'POST', '/adyen/pay-with-saved-card', rival, {
      booking_id: booking.booking_id,
      payment_method: 3,
      recurringDetailReference: 'sandbox_visa_4242',
    });
    expect(resultOf(paid).status).toBe(1);
  });

  it('prices a booking for another method from the booking, when the listing has nothing left; that total is charged', async () => {
    const listing = await openListing(s, rivalId);
    const booking = await book(s, rival, listing, 2, 1);
    // the rest sold meanwhile: the listing's own quote of 2 tickets finds none (the panel priced a switch so)
    await s.db.updateTable('listings').set({ available: 0 }).where('id', '=', listing.id).execute();
    const quote = await call(s, 'POST', `/purchase/lmt-trade/tickets-quantity-update/${listing.id}`, rival, {
      quantity: 2,
      payment_method: 3,
    });
    expect(quote.status).toBe(404);
    type Priced = { price_breakdown: { payment_method: number; payment_fee: number; total_with_payment_fee: number } };
    const priced = async (method: number) =>
      (await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}?payment_method=${method}`, rival)).body
        .data as unknown as Priced;
    const byCard = (await priced(3)).price_breakdown;
    expect(byCard.payment_method).toBe(3);
    // no payment surcharge: the stored card's total is the SB Pay total
    expect(byCard.payment_fee).toBe(0);
    expect(byCard.total_with_payment_fee).toBe(booking.price_breakdown.total_with_payment_fee);
    expect((await priced(1)).price_breakdown.total_with_payment_fee).toBe(
      booking.price_breakdown.total_with_payment_fee,
    );
    const bad = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}?payment_method=7`, rival);
    expect(bad.status).toBe(422);
    const paid = await call(s, 'POST', '/adyen/pay-with-saved-card', rival, {
      booking_id: booking.booking_id,
      payment_method: 3,
      recurringDetailReference: 'sandbox_visa_4242',
    });
    expect(resultOf(paid).status).toBe(1);
    const after = (await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, rival)).body
      .data as unknown as { payment: { amount: number } };
    expect(after.payment.amount).toBe(byCard.total_with_payment_fee);
  });

  it('pays by card through the sandbox: the server reads the intent, never the browser', async () => {
    const listing = await openListing(s, sellerId);
    const booking = await book(s, seller, listing, 1, 2);
    const total = booking.price_breakdown.total_with_payment_fee;
    const intentBody = (amount: number) => ({
      gateway: 'stripe',
      amount,
      currency: 'gbp',
      metadata: { order_id: booking.booking_no, booking_id: booking.booking_id },
    });
    expect((await call(s, 'POST', '/payments/create-payment-intent', seller, intentBody(total - 1))).status).toBe(422);
    const made = await call(s, 'POST', '/payments/create-payment-intent', seller, intentBody(total));
    expect(made.status).toBe(200);
    const intent = made.body.data as {
      client_secret: string;
      payment_intent_id: string;
      gateway: string;
      publishable_key: string;
    };
    expect(intent).toMatchObject({ gateway: 'sandbox', publishable_key: 'pk_sandbox' });
    // confirming before the card is confirmed: not completed
    const early = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 2,
      payment_intent_id: intent.payment_intent_id,
    });
    expect(resultOf(early)).toMatchObject({ booking_status: 'Failed', reason: 'payment_not_completed' });
    const card = (number: string) => ({
      client_secret: intent.client_secret,
      card_number: number,
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
    });
    const declined = await call(s, 'POST', '/payments/sandbox/confirm-card', seller, card('4000 0000 0000 0002'));
    expect(declined.body.data).toMatchObject({
      payment_intent: { status: 'requires_payment_method' },
      error: { code: 'card_declined', decline_code: 'generic_decline' },
    });
    const noFunds = await call(s, 'POST', '/payments/sandbox/confirm-card', seller, card('4000000000009995'));
    expect(noFunds.body.data).toMatchObject({ error: { decline_code: 'insufficient_funds' } });
    expect((await call(s, 'POST', '/payments/sandbox/confirm-card', rival, card('4242424242424242'))).status).toBe(404);
    const good = await call(s, 'POST', '/payments/sandbox/confirm-card', seller, card('4242424242424242'));
    expect(good.body.data).toMatchObject({ payment_intent: { status: 'succeeded' }, error: null });
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 2,
      payment_intent_id: intent.payment_intent_id,
    });
    expect(resultOf(paid)).toMatchObject({ booking_status: 'Success' });
    // another buyer's booking is not found
    expect(
      (
        await call(s, 'POST', '/purchase/lmt-trade/confirmation', rival, {
          booking_id: booking.booking_id,
          payment_method: 1,
        })
      ).status,
    ).toBe(404);
    expect((await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, rival)).status).toBe(404);
  });

  it('refunds a card payment that lands after the hold ended, and does not fulfil it', async () => {
    const listing = await openListing(s, sellerId);
    const before = await available(listing.id);
    const booking = await book(s, seller, listing, 1, 2);
    const made = await call(s, 'POST', '/payments/create-payment-intent', seller, {
      gateway: 'stripe',
      amount: booking.price_breakdown.total_with_payment_fee,
      currency: 'GBP',
      metadata: { booking_id: booking.booking_id },
    });
    const intent = made.body.data as { client_secret: string; payment_intent_id: string };
    s.clock.advance(HOLD_MS + 1000);
    await call(s, 'POST', '/payments/sandbox/confirm-card', seller, {
      client_secret: intent.client_secret,
      card_number: '4242424242424242',
      exp_month: 1,
      exp_year: 2031,
      cvc: '999',
    });
    const late = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 2,
      payment_intent_id: intent.payment_intent_id,
    });
    expect(resultOf(late)).toMatchObject({ booking_status: 'Failed', reason: 'hold_expired', refunded: true });
    expect(bookingOf(late)).toMatchObject({
      status: 'expired',
      status_reason: 'The payment arrived after the 15-minute hold ended; it was refunded.',
    });
    const sandbox = await s.db
      .selectFrom('sandbox_intents')
      .select('refunded')
      .where('id', '=', intent.payment_intent_id)
      .executeTakeFirstOrThrow();
    expect(sandbox.refunded).toBe(1);
    expect(await available(listing.id)).toBe(before);
    expect(await s.db.selectFrom('orders').select('id').where('booking_no', '=', booking.booking_no).execute()).toEqual(
      [],
    );
  });

  it('asks the guests of an event that needs them, and confirms only when every required field is given', async () => {
    const listing = await openListing(s, sellerId, { guests: true });
    const booking = await book(s, seller, listing, 2);
    expect(booking.guest_data.list).toEqual([
      { index: 1, required_fields: ['first_name', 'last_name', 'contact_email', 'date_of_birth', 'gender'] },
      { index: 2, required_fields: ['first_name', 'last_name', 'contact_email', 'date_of_birth', 'gender'] },
    ]);
    const early = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(early.status).toBe(422);
    expect(early.body.message).toBe('submit all guest details');
    const guest = (n: number, dob: string) => ({
      attendee_number: n,
      fields: [
        { field: 'first_name', value: `Guest${n}` },
        { field: 'last_name', value: 'Lee' },
        { field: 'contact_email', value: `g${n}@example.com` },
        { field: 'date_of_birth', value: dob },
        { field: 'gender', value: 'other' },
      ],
    });
    const path = `/purchase/atendee-update-bulk/${booking.booking_id}`;
    const one = await call(s, 'POST', path, seller, { attendees: [guest(1, '1990-05-01')] });
    expect(one.status).toBe(422);
    expect(one.body.message).toBe('submit all guest details');
    expect(one.body.errors?.[0]?.path).toBe('/body/attendees/1/first_name');
    // the date of birth picker ends with the calendar year two years ago (2024 in 2026)
    const young = await call(s, 'POST', path, seller, { attendees: [guest(1, '1990-05-01'), guest(2, '2025-01-01')] });
    expect(young.status).toBe(422);
    expect(young.body.errors).toEqual([
      { path: '/body/attendees/1/date_of_birth', message: 'must be on or before 2024-12-31' },
    ]);
    const ok = await call(s, 'POST', path, seller, { attendees: [guest(1, '1990-05-01'), guest(2, '2024-12-31')] });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ guest_details_complete: 1 });
    const paid = await call(s, 'POST', '/adyen/pay-with-saved-card', seller, {
      booking_id: booking.booking_id,
      payment_method: 3,
      recurringDetailReference: 'sandbox_visa_4242',
    });
    expect(resultOf(paid).booking_status).toBe('Success');
  });

  it('cancels a pending booking, gives the tickets back, and lists it with its reason', async () => {
    const listing = await openListing(s, rivalId);
    const before = await available(listing.id);
    const booking = await book(s, rival, listing, 1);
    expect((await call(s, 'POST', `/purchase/lmt-trade/bookings/${booking.booking_id}/cancel`, seller)).status).toBe(
      404,
    );
    const cancelled = await call(s, 'POST', `/purchase/lmt-trade/bookings/${booking.booking_id}/cancel`, rival);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', status_reason: 'Cancelled by the buyer.' });
    expect(await available(listing.id)).toBe(before);
    const list = await call(s, 'GET', '/purchase/lmt-trade/history?status=cancelled', rival);
    expect(
      (list.body.data as unknown as { booking_list: { booking_id: number }[] }).booking_list.map((b) => b.booking_id),
    ).toContain(booking.booking_id);
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', rival, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(resultOf(paid)).toMatchObject({ booking_status: 'Failed', reason: 'booking_cancelled' });
  });

  describe('the Stripe webhook', () => {
    async function paidIntent() {
      const listing = await openListing(s, sellerId);
      const booking = await book(s, seller, listing, 1, 2);
      const made = await call(s, 'POST', '/payments/create-payment-intent', seller, {
        gateway: 'stripe',
        amount: booking.price_breakdown.total_with_payment_fee,
        currency: 'GBP',
        metadata: { booking_id: booking.booking_id },
      });
      const intent = made.body.data as { client_secret: string; payment_intent_id: string; amount: number };
      await call(s, 'POST', '/payments/sandbox/confirm-card', seller, {
        client_secret: intent.client_secret,
        card_number: '4242424242424242',
        exp_month: 12,
        exp_year: 2031,
        cvc: '123',
      });
      return { booking, intent };
    }
    const eventFor = (id: string, intent: { payment_intent_id: string; amount: number }, bookingId: number) =>
      JSON.stringify(
        {
          id,
          object: 'event',
          type: 'payment_intent.succeeded',
          data: {
            object: {
              id: intent.payment_intent_id,
              object: 'payment_intent',
              status: 'succeeded',
              amount: intent.amount,
              currency: 'gbp',
              metadata: { booking_id: String(bookingId) },
            },
          },
        },
        null,
        2,
      );
    const post = (payload: string, signature: string) =>
      s.app.request('/api/payments/stripe/webhook', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });

    it('refuses a payload whose signature is wrong or missing, and changes nothing', async () => {
      const { booking, intent } = await paidIntent();
      const payload = eventFor('evt_bad_sig', intent, booking.booking_id);
      const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
      expect((await post(payload, forged)).status).toBe(401);
      const signed = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      expect((await post(`${payload} `, signed)).status).toBe(401);
      expect((await post(payload, 't=1,v1=00')).status).toBe(401);
      expect(
        await s.db.selectFrom('webhook_events').select('event_id').where('event_id', '=', 'evt_bad_sig').execute(),
      ).toEqual([]);
      const read = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, seller);
      expect(read.body.data).toMatchObject({ status: 'pending' });
    });

    it('confirms the booking of a succeeded intent once, however often the event comes', async () => {
      const { booking, intent } = await paidIntent();
      const payload = eventFor('evt_trade_1', intent, booking.booking_id);
      const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      const first = await post(payload, signature);
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ data: { received: true, duplicate: false } });
      const again = await post(payload, signature);
      expect(await again.json()).toMatchObject({ data: { received: true, duplicate: true } });
      const read = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, seller);
      expect(read.body.data).toMatchObject({
        status: 'confirmed',
        payment: { gateway: 'sandbox', status: 'succeeded' },
      });
      expect(
        await s.db.selectFrom('orders').select('id').where('booking_no', '=', booking.booking_no).execute(),
      ).toHaveLength(1);
      // the browser's confirmation after the webhook: Success, nothing more
      const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
        booking_id: booking.booking_id,
        payment_method: 2,
        payment_intent_id: intent.payment_intent_id,
      });
      expect(resultOf(paid).booking_status).toBe('Success');
      expect(
        await s.db.selectFrom('orders').select('id').where('booking_no', '=', booking.booking_no).execute(),
      ).toHaveLength(1);
    });

    it('refunds a succeeded intent whose hold had ended, under a new event id too', async () => {
      const { booking, intent } = await paidIntent();
      s.clock.advance(HOLD_MS + 1);
      const payload = eventFor('evt_trade_late', intent, booking.booking_id);
      const res = await post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
      expect(res.status).toBe(200);
      const read = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, seller);
      expect(read.body.data).toMatchObject({ status: 'expired', payment: { status: 'refunded' } });
      const later = eventFor('evt_trade_late_2', intent, booking.booking_id);
      await post(later, stripe.webhooks.generateTestHeaderString({ payload: later, secret: WEBHOOK_SECRET }));
      expect(
        await s.db.selectFrom('orders').select('id').where('booking_no', '=', booking.booking_no).execute(),
      ).toEqual([]);
    });
  });

  it('keeps the ledger whole after all of it', async () => {
    expect(await auditLedger(s.db)).toEqual([]);
  });
});
