import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStripeApiBase, readPaymentSettings, StartupError } from '../config';
import { type Answer, book, call, openListing, type Server, userId } from '../routes/trade-testing';
import { freshServer } from '../test-support';
import { type StripeFake, startStripeFake } from '../testing/stripe-fake';
import { paymentsFrom } from './index';

// The stripe adapter (the `stripe` package) end to end against a local fake of the PaymentIntents API
// (server/testing/stripe-fake.ts), reached through STRIPE_API_BASE: the server creates the intent and reads it
// back with the secret key; the card is confirmed at the fake as Stripe.js does it, with the publishable key.

type Result = { status: number; booking_status: string; reason: string | null; refunded: boolean };
const resultOf = (a: Answer) => (a.body.data as unknown as { result: Result }).result;

const KEYS = { secret: 'sk_test_fake_secret', gbp: 'pk_test_fake_gbp', other: 'pk_test_fake_other' };

/** What Stripe.js does in confirmCardPayment: the card to a PaymentMethod, then the intent confirmed with it. */
async function confirmAsStripeJs(fake: StripeFake, clientSecret: string, cardNumber: string) {
  const post = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${fake.url}/v1${path}`, {
      method: 'POST',
      body: new URLSearchParams({ ...params, key: KEYS.gbp }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const pm = await post('/payment_methods', {
    type: 'card',
    'card[number]': cardNumber,
    'card[exp_month]': '12',
    'card[exp_year]': '2034',
    'card[cvc]': '123',
  });
  const intentId = clientSecret.split('_secret_')[0] ?? '';
  return post(`/payment_intents/${intentId}/confirm`, {
    client_secret: clientSecret,
    payment_method: String(pm.body.id),
  });
}

describe('STRIPE_API_BASE', () => {
  const env = {
    STRIPE_SECRET_KEY: KEYS.secret,
    STRIPE_PUBLISHABLE_KEY_GBP: KEYS.gbp,
    STRIPE_PUBLISHABLE_KEY_OTHER: KEYS.other,
  };

  it('is read as the host, port and protocol of the Stripe client, and absent by default', () => {
    expect(readPaymentSettings({ ...env, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).stripe?.apiBase).toEqual({
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
    expect(parseStripeApiBase('https://stripe-mock.internal')).toEqual({
      host: 'stripe-mock.internal',
      port: 443,
      protocol: 'https',
    });
    expect(readPaymentSettings(env).stripe).not.toHaveProperty('apiBase');
  });

  it('refuses what is not an http(s) origin, in one line', () => {
    for (const bad of ['127.0.0.1:12111', 'ftp://127.0.0.1', 'http://127.0.0.1:12111/v1', 'nonsense']) {
      expect(() => readPaymentSettings({ ...env, STRIPE_API_BASE: bad })).toThrow(StartupError);
    }
  });
});

describe('the stripe gateway against a local fake of the PaymentIntents API', () => {
  let s: Server;
  let fake: StripeFake;
  let seller: string;
  let rival: string;
  let sellerId: number;
  let rivalId: number;

  beforeAll(async () => {
    fake = await startStripeFake();
    s = await freshServer({
      payments: paymentsFrom(
        readPaymentSettings({
          STRIPE_SECRET_KEY: KEYS.secret,
          STRIPE_PUBLISHABLE_KEY_GBP: KEYS.gbp,
          STRIPE_PUBLISHABLE_KEY_OTHER: KEYS.other,
          STRIPE_API_BASE: fake.url,
        }),
      ),
    });
    [seller, rival] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
    [sellerId, rivalId] = await Promise.all([userId(s, 'seller@demo.test'), userId(s, 'rival@demo.test')]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await fake?.close();
  });

  const intentFor = async (token: string, booking: Awaited<ReturnType<typeof book>>) => {
    const made = await call(s, 'POST', '/payments/create-payment-intent', token, {
      gateway: 'stripe',
      amount: booking.price_breakdown.total_with_payment_fee,
      currency: 'gbp',
      metadata: { order_id: booking.booking_no, booking_id: booking.booking_id },
    });
    expect(made.status).toBe(200);
    return made.body.data as {
      client_secret: string;
      payment_intent_id: string;
      gateway: string;
      publishable_key: string;
      amount: number;
      currency: string;
      status: string;
    };
  };
  const confirm = (token: string, bookingId: number, intentId: string) =>
    call(s, 'POST', '/purchase/lmt-trade/confirmation', token, {
      booking_id: bookingId,
      payment_method: 2,
      payment_intent_id: intentId,
    });

  it('the payment config names stripe and the publishable key of the currency', async () => {
    const gbp = await call(s, 'GET', '/settings/lmt-pay/payment-config?currency=GBP', seller);
    expect(gbp.body.data).toMatchObject({ gateway: 'stripe', publishable_key: KEYS.gbp, sandbox_test_cards: [] });
    const eur = await call(s, 'GET', '/settings/lmt-pay/payment-config?currency=EUR', seller);
    expect(eur.body.data).toMatchObject({ publishable_key: KEYS.other });
  });

  it('creates the intent at Stripe with the amount in minor units and the booking in its metadata', async () => {
    const booking = await book(s, seller, await openListing(s, sellerId), 1, 2);
    const total = booking.price_breakdown.total_with_payment_fee;
    const intent = await intentFor(seller, booking);
    expect(intent).toMatchObject({
      gateway: 'stripe',
      publishable_key: KEYS.gbp,
      amount: total,
      currency: 'gbp',
      status: 'requires_payment_method',
    });
    const atStripe = fake.intents.get(intent.payment_intent_id);
    expect(atStripe).toMatchObject({
      amount: total,
      currency: 'gbp',
      metadata: { booking_id: String(booking.booking_id), order_id: booking.booking_no },
      client_secret: intent.client_secret,
    });
    expect(Number.isInteger(atStripe?.amount)).toBe(true);
    const create = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(create.at(-1)).toMatchObject({ auth: 'secret', params: { amount: String(total), currency: 'gbp' } });
    // asked again (the browser's retry): the same intent, by our idempotency key
    expect((await intentFor(seller, booking)).payment_intent_id).toBe(intent.payment_intent_id);
  });

  it('refuses a confirmation the fake did not confirm, and confirms once Stripe says succeeded', async () => {
    const listing = await openListing(s, sellerId);
    const booking = await book(s, seller, listing, 1, 2);
    const intent = await intentFor(seller, booking);

    // the browser says paid before any card was confirmed: refused, the booking stays payable
    expect(resultOf(await confirm(seller, booking.booking_id, intent.payment_intent_id))).toMatchObject({
      status: 0,
      booking_status: 'Failed',
      reason: 'payment_not_completed',
    });
    // the server asked Stripe (the fake), with the secret key
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: `/v1/payment_intents/${intent.payment_intent_id}`,
      auth: 'secret',
    });

    // a declined card leaves the intent requires_payment_method: still refused
    const declined = await confirmAsStripeJs(fake, intent.client_secret, '4000000000000002');
    expect(declined.status).toBe(402);
    expect(declined.body.error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });
    expect(fake.intents.get(intent.payment_intent_id)).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { decline_code: 'generic_decline' },
    });
    expect(resultOf(await confirm(seller, booking.booking_id, intent.payment_intent_id))).toMatchObject({
      status: 0,
      reason: 'payment_not_completed',
    });

    // another buyer cannot confirm with it; the card that pays confirms the booking
    expect((await confirm(rival, booking.booking_id, intent.payment_intent_id)).status).toBe(404);
    const paid = await confirmAsStripeJs(fake, intent.client_secret, '4242424242424242');
    expect(paid.body).toMatchObject({ status: 'succeeded', amount_received: intent.amount });
    expect(resultOf(await confirm(seller, booking.booking_id, intent.payment_intent_id))).toMatchObject({
      status: 1,
      booking_status: 'Success',
    });
    const sale = await s.db
      .selectFrom('payments')
      .select(['gateway', 'status', 'amount'])
      .where('reference', '=', intent.payment_intent_id)
      .executeTakeFirstOrThrow();
    expect(sale).toEqual({ gateway: 'stripe', status: 'succeeded', amount: intent.amount });
    expect(fake.refunds.size).toBe(0);
  });

  it('refunds at Stripe a card payment for a booking that was cancelled meanwhile', async () => {
    const booking = await book(s, rival, await openListing(s, rivalId), 1, 2);
    const intent = await intentFor(rival, booking);
    expect((await confirmAsStripeJs(fake, intent.client_secret, '4242424242424242')).status).toBe(200);
    const cancelled = await call(s, 'POST', `/purchase/lmt-trade/bookings/${booking.booking_id}/cancel`, rival);
    expect(cancelled.status).toBe(200);
    const late = resultOf(await confirm(rival, booking.booking_id, intent.payment_intent_id));
    expect(late).toMatchObject({ status: 0, refunded: true });
    expect([...fake.refunds.values()]).toContainEqual(
      expect.objectContaining({ payment_intent: intent.payment_intent_id, amount: intent.amount }),
    );
    // asked again: refunded once, not twice
    await confirm(rival, booking.booking_id, intent.payment_intent_id);
    expect([...fake.refunds.values()].filter((r) => r.payment_intent === intent.payment_intent_id)).toHaveLength(1);
  });
});
