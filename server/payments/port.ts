import type { components } from '../../openapi/schema';
import type { Db } from '../db/database';

export type CurrencyCode = components['schemas']['CurrencyCode'];

/**
 * The payment gateways behind ports (ARCHITECTURE.md, "Payments behind ports"). The purchase flow speaks only
 * to these interfaces; which adapter answers is configuration (server/config.ts, readPaymentSettings):
 *
 * - card payments (method 2): `stripe` (PaymentIntents with STRIPE_SECRET_KEY) or `sandbox`;
 * - stored cards (method 3): `adyen` (ADYEN_API_KEY and ADYEN_MERCHANT_ACCOUNT) or `sandbox`;
 * - webhooks: Stripe's signature (STRIPE_WEBHOOK_SECRET), checked by the `stripe` package either way.
 *
 * The sandbox is a real adapter chosen when no keys are configured, never a shortcut inside the flow: it keeps
 * its intents in our database (so a transaction that is undone undoes them too) and follows the providers'
 * test cards. Calls take the caller's transaction `db` for that reason; the network adapters ignore it and
 * protect retries with idempotency keys of their own, since a transaction may run again.
 */

/** A payment intent as the gateway holds it. `currency` is lower case, as Stripe writes it. */
export interface Intent {
  id: string;
  clientSecret: string;
  status: string;
  amount: number;
  currency: string;
  metadata: Record<string, string>;
  /** How the card holder was authenticated, once the intent succeeded (null when the gateway does not say). */
  authentication?: Authentication | null;
  /** What the bank asks for while `status` is requires_action (Stripe's next_action type). */
  nextAction?: string | null;
}

export interface NewIntent {
  amount: number;
  currency: CurrencyCode;
  bookingId: number;
  bookingNo: string;
  /** the buyer (the sandbox answers its intents only to their owner) */
  ownerId: number;
  /** the same key gets the same intent (Stripe's Idempotency-Key) */
  idempotencyKey: string;
}

export interface CardGateway {
  readonly name: 'stripe' | 'sandbox';
  /** The publishable key for a currency: GBP one key, every other currency another. */
  publishableKey(currency: CurrencyCode): string;
  createIntent(db: Db, intent: NewIntent, now: Date): Promise<Intent>;
  /** The intent as the gateway has it now, or null when it does not know the id. */
  retrieveIntent(db: Db, id: string): Promise<Intent | null>;
  /** Refunds a succeeded intent in full (once: asking again refunds nothing more). */
  refund(db: Db, intentId: string, now: Date): Promise<void>;
  /**
   * A card verification that takes no money (Stripe's SetupIntent, usage off_session): Settings › Stored Cards'
   * Add a card. Only the adapters that can verify a card for storing have it (the sandbox today).
   */
  createSetup?(db: Db, setup: NewSetup, now: Date): Promise<CardSetup>;
  /** The verification as the gateway has it now, or null when it does not know the id. */
  retrieveSetup?(db: Db, id: string): Promise<CardSetup | null>;
}

export interface NewSetup {
  /** the seller the card is for (the sandbox answers its verifications only to their owner) */
  ownerId: number;
  holderName: string;
  /** the same key gets the same verification */
  idempotencyKey: string;
}

/** A verified card as the gateway describes it: never its number. */
export interface VerifiedCard {
  brand: string;
  /** the card's variant as Adyen names it (visa, mc, amex...) */
  variant: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** the gateway's reusable reference, what a stored-card charge sends */
  reference: string;
}

export interface CardSetup {
  id: string;
  clientSecret: string;
  status: string;
  /** whose verification it is (the owner given at creation) */
  ownerId: number;
  holderName: string;
  /** the card, once the verification succeeded */
  card: VerifiedCard | null;
}

export type ChargeRefusal = 'card_declined' | 'insufficient_funds' | 'unknown_card' | 'authentication_failed';

/** How the card holder was authenticated, or the exemption that applied (payments.authentication). */
export type Authentication = components['schemas']['PaymentAuthentication'];

/** A challenge the card's bank asks for (Strong Customer Authentication), for the checkout panel to show. */
export type PaymentAction = components['schemas']['PaymentAction'];

export type StoredCardOutcome =
  | { ok: true; reference: string; authentication: Authentication }
  | { ok: false; reason: ChargeRefusal; message: string; reference: string }
  /** the bank asks the buyer to authenticate: nothing is charged until the challenge's answer (submitDetails) */
  | { ok: false; reason: 'requires_action'; message: string; reference: string; action: PaymentAction };

/** What a browser tells 3-D Secure 2 about itself (Adyen's browserInfo). */
export type BrowserInfo = NonNullable<components['schemas']['PayWithSavedCardRequest']['browser_info']>;

export interface StoredCardCharge {
  amount: number;
  currency: CurrencyCode;
  recurringDetailReference: string;
  /** the buyer's id at the gateway */
  shopperReference: string;
  /** the buyer (the sandbox answers its challenges only to their owner) */
  ownerId: number;
  /** our reference of the payment (the booking and attempt): the gateway's idempotency key */
  reference: string;
  browserInfo?: BrowserInfo;
}

/** The answer to a challenge: the details it gave, for the payment it was asked for. */
export interface ChallengeAnswer {
  ownerId: number;
  /** the payment's reference at the gateway (the charge's outcome's) */
  reference: string;
  details: { threeDSResult?: string; redirectResult?: string };
}

export interface StoredCardGateway {
  readonly name: 'adyen' | 'sandbox';
  /**
   * A payment the buyer makes at checkout with a card stored before: customer-initiated (Adyen's
   * shopperInteraction Ecommerce, recurringProcessingModel CardOnFile), so that the bank may ask for a challenge.
   */
  charge(db: Db, charge: StoredCardCharge, now: Date): Promise<StoredCardOutcome>;
  /** The challenge's answer (Adyen's /payments/details): paid, or refused; never a second challenge. */
  submitDetails(db: Db, answer: ChallengeAnswer, now: Date): Promise<StoredCardOutcome>;
  refund(db: Db, pspReference: string, amount: number, currency: CurrencyCode): Promise<void>;
}

/** A verified gateway event (the fields the purchase flow reads). */
export interface GatewayEvent {
  id: string;
  type: string;
  intent: { id: string; status: string; amount: number; currency: string; metadata: Record<string, string> } | null;
  failureMessage: string | null;
}

export interface WebhookVerifier {
  /** The event when `signature` signs `payload` with the configured secret; null otherwise (or no secret). */
  verify(payload: string, signature: string): GatewayEvent | null;
}

export interface Payments {
  card: CardGateway;
  storedCard: StoredCardGateway;
  webhooks: WebhookVerifier;
}

/** A gateway could not be reached or answered an error: the call answers 502 and nothing of ours changes. */
export class GatewayError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayError';
  }
}
