import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../domain/ledger';
import { MIN_TICKET_PRICE } from '../domain/purchase/pricing';
import { UNPAYABLE } from '../domain/purchase/purchase';
import { freshServer } from '../test-support';
import { book, call, makeListing, newKey, type Server } from './trade-testing';

/**
 * The minimum charge (docs/decisions/minimum-charge.md). A listing at AED 0.01 bought in GBP converted to a total
 * of 0: a stored card 'paid' 0 and the booking was confirmed (100 tickets for nothing), and SB Pay answered 500
 * (the ledger refuses a zero entry). A listing asks at least 5.00 a ticket, a conversion never makes a positive
 * price nothing, a purchase that cannot be priced is a 422, and no payment confirms a total below the minimum.
 */
describe('the minimum charge', () => {
  let s: Server;
  let seller: string;
  let matchId: number;

  beforeAll(async () => {
    s = await freshServer();
    seller = await s.loginAs('seller@demo.test');
    matchId = (await makeListing(s.db, s.clock.now(), { tickets: 1 })).event_id;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const save = async (price: number, currency = 'AED') => {
    const form = new FormData();
    const fields = {
      match_id: String(matchId),
      category: 'Longside Lower Tier',
      ticket_block: 'Block 7',
      row: '12',
      ticket_type_id: '1',
      quantity: '100',
      split_type: 'any',
      price: String(price),
      currency,
    };
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    const res = await s.app.request('/api/api/save-listing', {
      method: 'POST',
      headers: { authorization: `Bearer ${seller}`, 'idempotency-key': newKey() },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as { data?: { id: number }; errors?: { path: string }[] } };
  };

  it('refuses a price per ticket below 5.00 when a listing is made, edited, repriced or listed in bulk', async () => {
    const low = await save(1);
    expect(low.status).toBe(422);
    expect(low.body.errors?.map((e) => e.path)).toEqual(['/body/price']);
    const made = await save(MIN_TICKET_PRICE);
    expect(made.status).toBe(200);
    const id = made.body.data?.id as number;
    const refusals = [
      await call(s, 'PUT', `/my-listings/update-ticket/${id}`, seller, { price: MIN_TICKET_PRICE - 1 }),
      await call(s, 'POST', '/my-listings/update-ticket-price', seller, { ticket_ids: [id], price: 2 }),
      await call(s, 'POST', '/my-listings/update-ticket-price', seller, { ticket_ids: [id], change_percent: -10 }),
    ];
    expect(refusals.map((r) => [r.status, r.body.errors?.[0]?.path])).toEqual([
      [422, '/body/price'],
      [422, '/body/price'],
      [422, '/body/change_percent'],
    ]);
    expect(refusals[2]?.body.errors?.[0]?.message).toMatch(/5\.00/);
    const bulk = await call(s, 'POST', '/api/bulk-listing', seller, {
      listings: [
        {
          match_id: matchId,
          category: 'Longside Lower Tier',
          ticket_block: 'Block 8',
          row: '1',
          ticket_type_id: 1,
          quantity: 2,
          split_type: 'any',
          price: 1,
          currency: 'AED',
        },
      ],
    });
    expect([bulk.status, bulk.body.errors?.[0]?.path]).toEqual([422, '/body/listings/0/price']);
    const row = await s.db.selectFrom('listings').select('price').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.price).toBe(MIN_TICKET_PRICE);
  });

  it('answers 422 for a listing stored below the least price, in any currency: no quote, nothing held', async () => {
    // stored before the rule: AED 0.01 a ticket, 100 tickets
    const listing = await makeListing(s.db, s.clock.now(), { price: 1, currency: 'AED', tickets: 100 });
    for (const currency of ['GBP', 'AED']) {
      const quote = await call(s, 'GET', `/purchase/lmt-trade/tickets/${listing.id}?currency=${currency}`, seller);
      expect([quote.status, quote.body.message]).toEqual([
        422,
        'These tickets cannot be bought: they ask AED 0.01 each, below the least price of AED 5.00 a ticket.',
      ]);
      const cart = await call(
        s,
        'POST',
        `/purchase/lmt-trade/add-to-cart?currrency=${currency}&match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=100&payment_method=3`,
        seller,
      );
      expect([cart.status, cart.body.errors?.[0]?.path]).toEqual([422, '/query/sell_ticket_id']);
    }
    const row = await s.db
      .selectFrom('listings')
      .select('available')
      .where('id', '=', listing.id)
      .executeTakeFirstOrThrow();
    expect(row.available).toBe(100);
  });

  it('confirms no booking whose total is below the minimum charge, by any method, and never answers 500', async () => {
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 10 });
    const booking = await book(s, seller, listing, 2, 3);
    // made before the rule: AED 0.01 a ticket converted to GBP 0.00
    await s.db.updateTable('carts').set({ unit_price: 0 }).where('listing_id', '=', listing.id).execute();
    await s.db.updateTable('bookings').set({ unit_price: 0 }).where('id', '=', booking.booking_id).execute();
    const answers = [
      await call(s, 'POST', '/adyen/pay-with-saved-card', seller, {
        booking_id: booking.booking_id,
        payment_method: 3,
        recurringDetailReference: 'sandbox_visa_4242',
      }),
      await call(s, 'POST', '/purchase/lmt-trade/confirmation', seller, {
        booking_id: booking.booking_id,
        payment_method: 1,
      }),
      await call(s, 'POST', '/payments/create-payment-intent', seller, {
        gateway: 'stripe',
        amount: 1,
        currency: 'GBP',
        metadata: { booking_id: booking.booking_id },
      }),
    ];
    expect(answers.map((a) => [a.status, a.body.message])).toEqual(
      Array(3).fill([422, `The total, GBP 0.00, is below the minimum charge of GBP 0.30 a booking. ${UNPAYABLE}`]),
    );
    const read = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}`, seller);
    expect((read.body.data as { status: string }).status).toBe('pending');
    const paid = await s.db
      .selectFrom('payments')
      .select('id')
      .where('booking_id', '=', booking.booking_id)
      .where('status', '=', 'succeeded')
      .execute();
    expect(paid).toEqual([]);
    expect(await auditLedger(s.db)).toEqual([]);
  });
});
