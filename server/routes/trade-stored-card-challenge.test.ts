import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../domain/ledger';
import { paymentsFrom } from '../payments';
import { adyenPaymentRequest, outcomeOf } from '../payments/adyen';
import { freshServer } from '../test-support';
import { type Answer, book, call, openListing, type Server, userId } from './trade-testing';

type Result = {
  status: number;
  message: string;
  reason: string | null;
  action: { gateway: string; type: string; token: string | null } | null;
};
type Booking = { status: string; payment: { authentication: string | null; status: string } | null };
const resultOf = (a: Answer) => (a.body.data as unknown as { result: Result }).result;
const bookingOf = (a: Answer) => (a.body.data as unknown as { booking: Booking }).booking;

describe('a stored card with Strong Customer Authentication (sandbox)', () => {
  let s: Server;
  let rival: string;
  let rivalId: number;

  beforeAll(async () => {
    s = await freshServer({
      payments: paymentsFrom({ stripe: null, stripeWebhookSecret: null, adyen: null }),
    });
    rival = await s.loginAs('rival@demo.test');
    rivalId = await userId(s, 'rival@demo.test');
    const now = s.clock.now().toISOString();
    await s.db
      .insertInto('stored_cards')
      .values(
        ['3184', '3192'].map((last4) => ({
          owner_id: rivalId,
          gateway: 'sandbox',
          brand: 'visa',
          variant: 'visa',
          last4,
          exp_month: 12,
          exp_year: 2030,
          holder_name: 'Rival Buyer',
          recurring_reference: `sandbox_visa_${last4}`,
          created_at: now,
        })),
      )
      .execute();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const pay = (bookingId: number, reference: string) =>
    call(s, 'POST', '/adyen/pay-with-saved-card', rival, {
      booking_id: bookingId,
      payment_method: 3,
      recurringDetailReference: reference,
    });
  const answer = (bookingId: number, token: string) =>
    call(s, 'POST', '/adyen/payment-details', rival, { booking_id: bookingId, details: { threeDSResult: token } });
  const held = async (listingId: number) =>
    (await s.db.selectFrom('listings').select('available').where('id', '=', listingId).executeTakeFirstOrThrow())
      .available;

  it('asks for a challenge, never declines for it, and pays once the bank confirms the buyer', async () => {
    const listing = await openListing(s, rivalId);
    const booking = await book(s, rival, listing, 1, 3);
    const asked = await pay(booking.booking_id, 'sandbox_visa_3184');
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(resultOf(asked)).toMatchObject({ status: 0, reason: 'requires_action' });
    expect(resultOf(asked).action).toMatchObject({ gateway: 'sandbox', type: 'threeDS2' });
    expect(bookingOf(asked).status).toBe('pending');
    const paid = await answer(booking.booking_id, resultOf(asked).action?.token ?? '');
    expect(resultOf(paid)).toMatchObject({ status: 1, reason: null });
    expect(bookingOf(paid).status).toBe('confirmed');
    expect(bookingOf(paid).payment).toMatchObject({ status: 'succeeded', authentication: 'challenge' });
    // answered again: the same confirmation, nothing charged twice
    const again = await answer(booking.booking_id, resultOf(asked).action?.token ?? '');
    expect(resultOf(again).status).toBe(1);
    const rows = await s.db.selectFrom('payments').selectAll().where('booking_id', '=', booking.booking_id).execute();
    expect(rows.map((r) => [r.status, r.authentication])).toEqual([['succeeded', 'challenge']]);
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('a failed challenge refuses clearly, charges nothing and keeps the hold; another card then pays', async () => {
    const listing = await openListing(s, rivalId);
    const before = await held(listing.id);
    const booking = await book(s, rival, listing, 1, 3);
    const asked = await pay(booking.booking_id, 'sandbox_visa_3192');
    expect(resultOf(asked).reason).toBe('requires_action');
    const refused = await answer(booking.booking_id, resultOf(asked).action?.token ?? '');
    expect(resultOf(refused)).toMatchObject({
      status: 0,
      reason: 'authentication_failed',
      message: 'Payment failed: Your bank could not confirm it was you (3-D Secure). Nothing was charged.',
    });
    expect(bookingOf(refused).status).toBe('pending');
    expect(await held(listing.id)).toBe(before - 1);
    // nothing waits any more: a second answer is refused
    expect((await answer(booking.booking_id, resultOf(asked).action?.token ?? '')).status).toBe(409);
    const paid = await pay(booking.booking_id, 'sandbox_visa_4242');
    expect(resultOf(paid).status).toBe(1);
    expect(bookingOf(paid).payment?.authentication).toBe('none');
    const rows = await s.db
      .selectFrom('payments')
      .select(['status', 'authentication'])
      .where('booking_id', '=', booking.booking_id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { status: 'failed', authentication: 'challenge' },
      { status: 'succeeded', authentication: 'none' },
    ]);
  });

  it("refuses an answer for another payment, another buyer's booking, or none waiting", async () => {
    const listing = await openListing(s, rivalId);
    const booking = await book(s, rival, listing, 1, 3);
    expect((await answer(booking.booking_id, 'sb3ds_nothing')).status).toBe(409);
    const asked = await pay(booking.booking_id, 'sandbox_visa_3184');
    const wrong = await answer(booking.booking_id, 'sb3ds_not_a_token');
    expect(resultOf(wrong)).toMatchObject({ status: 0, reason: 'authentication_failed' });
    const seller = await s.loginAs('seller@demo.test');
    const theirs = await call(s, 'POST', '/adyen/payment-details', seller, {
      booking_id: booking.booking_id,
      details: { threeDSResult: resultOf(asked).action?.token ?? '' },
    });
    expect(theirs.status).toBe(404);
  });

  it('a new sandbox card that asks for 3-D Secure waits for its challenge, which passes or fails by the card', async () => {
    for (const [card, passes] of [
      ['4000 0027 6000 3184', true],
      ['4000 0027 6000 3192', false],
    ] as const) {
      const listing = await openListing(s, rivalId);
      const booking = await book(s, rival, listing, 1, 2);
      const intent = await call(s, 'POST', '/payments/create-payment-intent', rival, {
        gateway: 'stripe',
        amount: booking.price_breakdown.total_with_payment_fee,
        currency: 'GBP',
        metadata: { order_id: booking.booking_no, booking_id: booking.booking_id },
      });
      const secret = (intent.body.data as { client_secret: string }).client_secret;
      const confirmed = await call(s, 'POST', '/payments/sandbox/confirm-card', rival, {
        client_secret: secret,
        card_number: card,
        exp_month: 12,
        exp_year: 2030,
        cvc: '123',
      });
      const pi = (confirmed.body.data as { payment_intent: { id: string; status: string; next_action: unknown } })
        .payment_intent;
      expect(pi).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      const early = await call(s, 'POST', '/purchase/lmt-trade/confirmation', rival, {
        booking_id: booking.booking_id,
        payment_method: 2,
        payment_intent_id: pi.id,
      });
      expect(resultOf(early).status).toBe(0);
      const done = await call(s, 'POST', '/payments/sandbox/authenticate', rival, { client_secret: secret });
      const after = done.body.data as { payment_intent: { status: string }; error: { code: string } | null };
      if (!passes) {
        expect(after.payment_intent.status).toBe('requires_payment_method');
        expect(after.error?.code).toBe('payment_intent_authentication_failure');
        continue;
      }
      expect(after).toMatchObject({ payment_intent: { status: 'succeeded' }, error: null });
      const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', rival, {
        booking_id: booking.booking_id,
        payment_method: 2,
        payment_intent_id: pi.id,
      });
      expect(resultOf(paid).status).toBe(1);
      expect(bookingOf(paid).payment).toMatchObject({ authentication: 'challenge' });
    }
  });

  it('a card that asks nothing answers 409 to a challenge', async () => {
    const listing = await openListing(s, rivalId);
    const booking = await book(s, rival, listing, 1, 2);
    const intent = await call(s, 'POST', '/payments/create-payment-intent', rival, {
      gateway: 'stripe',
      amount: booking.price_breakdown.total_with_payment_fee,
      currency: 'GBP',
      metadata: { order_id: booking.booking_no, booking_id: booking.booking_id },
    });
    const secret = (intent.body.data as { client_secret: string }).client_secret;
    expect((await call(s, 'POST', '/payments/sandbox/authenticate', rival, { client_secret: secret })).status).toBe(
      409,
    );
    expect((await call(s, 'POST', '/payments/sandbox/authenticate', rival, { client_secret: 'nope' })).status).toBe(
      404,
    );
  });
});

describe('the Adyen adapter', () => {
  it("sends a stored card at checkout as the buyer's own payment, with 3-D Secure 2 natively", () => {
    const request = adyenPaymentRequest(
      { merchantAccount: 'SBPortal', returnUrl: 'https://portal.example/trade/purchase' },
      {
        amount: 6318,
        currency: 'GBP',
        recurringDetailReference: 'ref_1',
        shopperReference: 'buyer-7',
        ownerId: 7,
        reference: 'B-1-m3-1',
      },
    );
    expect(request).toMatchObject({
      shopperInteraction: 'Ecommerce',
      recurringProcessingModel: 'CardOnFile',
      paymentMethod: { type: 'scheme', storedPaymentMethodId: 'ref_1' },
      channel: 'Web',
      origin: 'https://portal.example',
      authenticationData: { threeDSRequestData: { nativeThreeDS: 'preferred' } },
    });
  });

  it('reads a challenge as an action, not a decline, and records what applied', () => {
    const action = { type: 'threeDS2', subtype: 'challenge', token: 'abc', paymentMethodType: 'scheme' };
    expect(outcomeOf({ resultCode: 'ChallengeShopper', pspReference: 'P1', action }, 'r', false)).toMatchObject({
      ok: false,
      reason: 'requires_action',
      action: { gateway: 'adyen', type: 'threeDS2', data: action },
    });
    expect(outcomeOf({ resultCode: 'Authorised', pspReference: 'P1' }, 'r', true)).toEqual({
      ok: true,
      reference: 'P1',
      authentication: 'challenge',
    });
    expect(
      outcomeOf({ resultCode: 'Authorised', additionalData: { scaExemptionRequested: 'lowValue' } }, 'r', false),
    ).toMatchObject({ authentication: 'exemption' });
    expect(
      outcomeOf({ resultCode: 'Authorised', additionalData: { threeDAuthenticated: 'true' } }, 'r', false),
    ).toMatchObject({ authentication: 'frictionless' });
    expect(outcomeOf({ resultCode: 'Refused', refusalReason: '3D Not Authenticated' }, 'r', true)).toMatchObject({
      reason: 'authentication_failed',
    });
  });
});
