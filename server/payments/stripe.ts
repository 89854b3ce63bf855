import Stripe from 'stripe';
import type { StripeApiBase } from '../config';
import type { Authentication, CardGateway, GatewayEvent, Intent, WebhookVerifier } from './port';
import { GatewayError } from './port';

/**
 * The Stripe adapter (the `stripe` package): PaymentIntents created and read on the server with the secret key,
 * refunds, and webhook signatures. Every write carries an idempotency key of ours, so a transaction of ours that
 * runs again never makes a second intent or refund.
 */
export function stripeCardGateway(settings: {
  secretKey: string;
  publishableKeyGbp: string;
  publishableKeyOther: string;
  /** STRIPE_API_BASE: another API base (a local fake, stripe-mock) instead of https://api.stripe.com */
  apiBase?: StripeApiBase;
}): CardGateway {
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    ...(settings.apiBase ?? {}),
  });
  const intentOf = (pi: Stripe.PaymentIntent): Intent => ({
    id: pi.id,
    clientSecret: pi.client_secret ?? '',
    status: pi.status,
    amount: pi.amount,
    currency: pi.currency,
    metadata: { ...pi.metadata },
    authentication: authenticationOfIntent(pi),
    nextAction: pi.next_action?.type ?? null,
  });
  const failed = (what: string, cause: unknown) => new GatewayError(`Stripe could not ${what}.`, { cause });
  return {
    name: 'stripe',
    publishableKey: (currency) => (currency === 'GBP' ? settings.publishableKeyGbp : settings.publishableKeyOther),
    async createIntent(_db, intent) {
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: intent.amount,
            currency: intent.currency.toLowerCase(),
            // a card confirmed in the page (Stripe Elements), never a redirect
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            metadata: { booking_id: String(intent.bookingId), order_id: intent.bookingNo },
          },
          { idempotencyKey: intent.idempotencyKey },
        );
        return intentOf(pi);
      } catch (error) {
        throw failed('create the payment intent', error);
      }
    },
    async retrieveIntent(_db, id) {
      try {
        // the charge says how the card holder was authenticated (its three_d_secure)
        return intentOf(await stripe.paymentIntents.retrieve(id, { expand: ['latest_charge'] }));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw failed('read the payment intent', error);
      }
    },
    async refund(_db, intentId) {
      try {
        await stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: `refund-${intentId}` });
      } catch (error) {
        // refunded already: nothing more to do
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'charge_already_refunded')
          return;
        throw failed('refund the payment', error);
      }
    },
  };
}

/** Stripe's webhook signature (`Stripe-Signature`), checked over the raw body with the endpoint's secret. */
export function stripeWebhooks(secret: string | null): WebhookVerifier {
  // verifying a signature needs no API key; the instance only carries the helpers
  const stripe = new Stripe('sk_verify_only');
  return {
    verify(payload, signature): GatewayEvent | null {
      if (!secret) return null;
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(payload, signature, secret);
      } catch {
        return null;
      }
      const object = (event.data?.object ?? null) as Partial<Stripe.PaymentIntent> | null;
      const isIntent = !!object && object.object === 'payment_intent' && typeof object.id === 'string';
      return {
        id: event.id,
        type: event.type,
        intent: isIntent
          ? {
              id: object.id as string,
              status: String(object.status ?? ''),
              amount: Number(object.amount ?? 0),
              currency: String(object.currency ?? ''),
              metadata: { ...(object.metadata ?? {}) },
            }
          : null,
        failureMessage: isIntent ? (object.last_payment_error?.message ?? null) : null,
      };
    },
  };
}

/** How a succeeded intent's card holder was authenticated, by its charge's three_d_secure (null: not said). */
export function authenticationOfIntent(pi: Stripe.PaymentIntent): Authentication | null {
  if (pi.status !== 'succeeded' || !pi.latest_charge || typeof pi.latest_charge === 'string') return null;
  const secure = pi.latest_charge.payment_method_details?.card?.three_d_secure;
  if (!secure) return 'none';
  if (secure.result === 'exempted') return 'exemption';
  if (secure.authentication_flow === 'challenge') return 'challenge';
  if (secure.authentication_flow === 'frictionless') return 'frictionless';
  return 'none';
}
