import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger, payFromWallet, walletBalances } from '../domain/ledger';
import { HOLD_MS } from '../domain/purchase/pricing';
import {
  availableOf,
  bookingOf,
  closeTradeServer,
  openTradeServer,
  resultOf,
  stripe,
  WEBHOOK_SECRET,
} from './trade-suite';
import { book, call, openListing, type Server } from './trade-testing';

describe('trade and purchase (server): payment failures, cards, guests, cancelling and the webhook', () => {
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
