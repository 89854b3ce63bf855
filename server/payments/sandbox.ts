import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import type {
  Authentication,
  CardGateway,
  CardSetup,
  Intent,
  StoredCardGateway,
  StoredCardOutcome,
  VerifiedCard,
} from './port';

/**
 * The sandbox gateway: the default when no keys are configured, so that the whole purchase runs on a machine
 * with no network. It behaves like the providers' test modes: its payment intents live in `sandbox_intents` and
 * are confirmed with test card numbers (confirmSandboxCard, the browser's stand-in for Stripe.js); its stored
 * cards charge by their reference. Both follow the same test numbers.
 */
export const SANDBOX_PUBLISHABLE_KEY = 'pk_sandbox';

export const SANDBOX_TEST_CARDS = [
  { number: '4242 4242 4242 4242', outcome: 'succeeded' },
  { number: '4000 0000 0000 0002', outcome: 'card_declined' },
  { number: '4000 0000 0000 9995', outcome: 'insufficient_funds' },
  { number: '4000 0027 6000 3184', outcome: 'challenge_passes' },
  { number: '4000 0027 6000 3192', outcome: 'challenge_fails' },
] as const;

/**
 * Cards whose bank asks for 3-D Secure (Strong Customer Authentication) at each payment, new or stored: the
 * challenge of the first passes, of the second fails. Storing them (a verification, no money) asks nothing.
 */
export const CHALLENGE_PASSES = '4000002760003184';
export const CHALLENGE_FAILS = '4000002760003192';

/** Stripe's text when the card holder's authentication failed. */
export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
/** The stored card's refusal when the buyer's bank did not confirm the buyer. */
export const STORED_AUTHENTICATION_FAILED = 'Your bank could not confirm it was you (3-D Secure). Nothing was charged.';

const DECLINED = '4000000000000002';
const NO_FUNDS = '4000000000009995';

/** The Luhn check of a card number (digits only). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export interface CardError {
  type: 'card_error' | 'validation_error';
  code: string;
  decline_code: string | null;
  message: string;
}

/** What a test card does: null when it pays, the error Stripe would give otherwise. */
export function testCardError(card: { number: string; expMonth: number; expYear: number; cvc: string }, now: Date) {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) {
    return error('validation_error', 'incorrect_number', null, 'Your card number is incorrect.');
  }
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  if (card.expYear < year || (card.expYear === year && card.expMonth < month)) {
    return error('card_error', 'expired_card', null, 'Your card has expired.');
  }
  if (!/^\d{3,4}$/.test(card.cvc)) {
    return error('validation_error', 'incorrect_cvc', null, "Your card's security code is incorrect.");
  }
  if (digits === DECLINED) return error('card_error', 'card_declined', 'generic_decline', 'Your card was declined.');
  if (digits === NO_FUNDS) {
    return error('card_error', 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.');
  }
  return null;
}

const error = (type: CardError['type'], code: string, decline: string | null, message: string): CardError => ({
  type,
  code,
  decline_code: decline,
  message,
});

type IntentRow = {
  id: string;
  client_secret: string;
  owner_id: number;
  amount: number | string;
  currency: string;
  metadata: string;
  status: string;
};
const intentOf = (r: IntentRow): Intent => {
  const metadata = JSON.parse(r.metadata) as Record<string, string>;
  return {
    id: r.id,
    clientSecret: r.client_secret,
    status: r.status,
    amount: Number(r.amount),
    currency: r.currency,
    metadata,
    authentication: r.status === 'succeeded' ? ((metadata.authentication ?? 'none') as Authentication) : null,
    nextAction: r.status === 'requires_action' ? 'use_stripe_sdk' : null,
  };
};

const COLUMNS = ['id', 'client_secret', 'owner_id', 'amount', 'currency', 'metadata', 'status'] as const;

/** A card verification (Add a card) is a sandbox intent of no amount whose metadata says so. */
const SETUP_PURPOSE = 'card_setup';
const isSetup = (metadata: Record<string, string>) => metadata.purpose === SETUP_PURPOSE;

/** The brand and Adyen's variant of a card number, by its first digits. */
export function brandOf(digits: string): { brand: string; variant: string } {
  if (digits.startsWith('4')) return { brand: 'visa', variant: 'visa' };
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return { brand: 'mastercard', variant: 'mc' };
  if (two === 34 || two === 37) return { brand: 'amex', variant: 'amex' };
  return { brand: 'card', variant: 'card' };
}

const setupOf = (r: IntentRow): CardSetup => {
  const m = JSON.parse(r.metadata) as Record<string, string>;
  const card: VerifiedCard | null =
    r.status === 'succeeded' && m.card_reference
      ? {
          brand: m.card_brand ?? 'card',
          variant: m.card_variant ?? 'card',
          last4: m.card_last4 ?? '',
          expMonth: Number(m.card_exp_month),
          expYear: Number(m.card_exp_year),
          reference: m.card_reference,
        }
      : null;
  return {
    id: r.id,
    clientSecret: r.client_secret,
    status: r.status,
    ownerId: r.owner_id,
    holderName: m.holder_name ?? '',
    card,
  };
};

/**
 * Stores a new sandbox intent (a payment's, or a card verification's) once per idempotency key, and answers the
 * row of that key: a retry with the same key gets the first one.
 */
async function keepIntent(
  db: Db,
  prefix: 'sbpi' | 'sbseti' | 'sb3ds',
  values: {
    ownerId: number;
    idempotencyKey: string;
    amount: number;
    currency: string;
    metadata: Record<string, string>;
  },
  now: Date,
) {
  const at = now.toISOString();
  const id = `${prefix}_${randomBytes(12).toString('hex')}`;
  await db
    .insertInto('sandbox_intents')
    .values({
      id,
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      owner_id: values.ownerId,
      idempotency_key: values.idempotencyKey,
      amount: values.amount,
      currency: values.currency,
      metadata: JSON.stringify(values.metadata),
      status: 'requires_payment_method',
      last_error: null,
      refunded: 0,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('idempotency_key').doNothing())
    .execute();
  return db
    .selectFrom('sandbox_intents')
    .select(COLUMNS)
    .where('idempotency_key', '=', values.idempotencyKey)
    .executeTakeFirstOrThrow();
}

export const sandboxCardGateway: CardGateway & {
  confirmCard(
    db: Db,
    input: { clientSecret: string; ownerId: number; number: string; expMonth: number; expYear: number; cvc: string },
    now: Date,
  ): Promise<{ intent: Intent; error: CardError | null } | null>;
  /** The bank's answer to a payment's challenge (null: not the owner's intent; 'no_challenge': none asked). */
  authenticate(
    db: Db,
    input: { clientSecret: string; ownerId: number },
    now: Date,
  ): Promise<{ intent: Intent; error: CardError | null } | null | 'no_challenge'>;
} = {
  name: 'sandbox',
  publishableKey: () => SANDBOX_PUBLISHABLE_KEY,

  async createIntent(db, intent, now) {
    const row = await keepIntent(
      db,
      'sbpi',
      {
        ownerId: intent.ownerId,
        idempotencyKey: intent.idempotencyKey,
        amount: intent.amount,
        currency: intent.currency.toLowerCase(),
        metadata: { booking_id: String(intent.bookingId), order_id: intent.bookingNo },
      },
      now,
    );
    return intentOf(row);
  },

  async retrieveIntent(db, id) {
    const row = await db.selectFrom('sandbox_intents').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    return row ? intentOf(row) : null;
  },

  async refund(db, intentId, now) {
    await db
      .updateTable('sandbox_intents')
      .set({ refunded: 1, updated_at: now.toISOString() })
      .where('id', '=', intentId)
      .execute();
  },

  async createSetup(db, setup, now) {
    const row = await keepIntent(
      db,
      'sbseti',
      {
        ownerId: setup.ownerId,
        idempotencyKey: setup.idempotencyKey,
        amount: 0,
        currency: 'gbp',
        metadata: { purpose: SETUP_PURPOSE, holder_name: setup.holderName },
      },
      now,
    );
    return setupOf(row);
  },

  async retrieveSetup(db, id) {
    const row = await db.selectFrom('sandbox_intents').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    if (!row || !isSetup(JSON.parse(row.metadata) as Record<string, string>)) return null;
    return setupOf(row);
  },

  async confirmCard(db, input, now) {
    const row = await db
      .selectFrom('sandbox_intents')
      .select(COLUMNS)
      .where('client_secret', '=', input.clientSecret)
      .where('owner_id', '=', input.ownerId)
      .executeTakeFirst();
    if (!row) return null;
    if (row.status === 'succeeded') return { intent: intentOf(row), error: null };
    const metadata = JSON.parse(row.metadata) as Record<string, string>;
    const setup = isSetup(metadata);
    let problem = testCardError(input, now);
    // a verification takes no money: a card without funds is verified (its charges are refused later)
    if (setup && problem?.decline_code === 'insufficient_funds') problem = null;
    const digits = input.number.replace(/[\s-]/g, '');
    // a payment (not a verification) with a card whose bank asks for 3-D Secure waits for the challenge
    const challenge = !setup && !problem && (digits === CHALLENGE_PASSES || digits === CHALLENGE_FAILS);
    const status = problem ? 'requires_payment_method' : challenge ? 'requires_action' : 'succeeded';
    const verified =
      setup && !problem
        ? {
            ...metadata,
            card_brand: brandOf(digits).brand,
            card_variant: brandOf(digits).variant,
            card_last4: digits.slice(-4),
            card_exp_month: String(input.expMonth),
            card_exp_year: String(input.expYear),
            // reusable, unique to this verification, and ending with the last four as the stored-card charge reads
            card_reference: `sbpm_${row.id.slice(-16)}_${digits.slice(-4)}`,
          }
        : null;
    await db
      .updateTable('sandbox_intents')
      .set({
        status,
        last_error: problem ? (problem.decline_code ?? problem.code) : null,
        ...(verified ? { metadata: JSON.stringify(verified) } : {}),
        ...(challenge
          ? { metadata: JSON.stringify({ ...metadata, challenge_passes: digits === CHALLENGE_PASSES ? '1' : '0' }) }
          : {}),
        updated_at: now.toISOString(),
      })
      .where('id', '=', row.id)
      .where('status', '<>', 'succeeded')
      .execute();
    return { intent: intentOf({ ...row, status }), error: problem };
  },

  async authenticate(db, input, now) {
    const row = await db
      .selectFrom('sandbox_intents')
      .select(COLUMNS)
      .where('client_secret', '=', input.clientSecret)
      .where('owner_id', '=', input.ownerId)
      .executeTakeFirst();
    if (!row) return null;
    const metadata = JSON.parse(row.metadata) as Record<string, string>;
    if (row.status === 'succeeded' && metadata.authentication === 'challenge')
      return { intent: intentOf(row), error: null };
    if (row.status !== 'requires_action') return 'no_challenge';
    const passes = metadata.challenge_passes === '1';
    const status = passes ? 'succeeded' : 'requires_payment_method';
    const next = { ...metadata, authentication: 'challenge' };
    await db
      .updateTable('sandbox_intents')
      .set({
        status,
        last_error: passes ? null : 'payment_intent_authentication_failure',
        metadata: JSON.stringify(next),
        updated_at: now.toISOString(),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'requires_action')
      .execute();
    const intent = intentOf({ ...row, status, metadata: JSON.stringify(next) });
    return {
      intent,
      error: passes ? null : error('card_error', 'payment_intent_authentication_failure', null, AUTHENTICATION_FAILED),
    };
  },
};

/** A stored card asks for a challenge when its reference ends with a challenge card's last four digits. */
const challengeOf = (reference: string) =>
  reference.endsWith(CHALLENGE_PASSES.slice(-4)) ? '1' : reference.endsWith(CHALLENGE_FAILS.slice(-4)) ? '0' : null;
const STORED_CHALLENGE = 'stored_card_challenge';

/**
 * Stored cards in the sandbox: the card's reference ends with its test number's last four digits. The buyer's
 * payment with a challenge card waits for its challenge (a sandbox intent keeps it, with whose it is); its answer
 * passes or fails by the card.
 */
export const sandboxStoredCardGateway: StoredCardGateway = {
  name: 'sandbox',
  async charge(db, charge, now): Promise<StoredCardOutcome> {
    const reference = `sbpsp_${charge.reference}`;
    if (charge.recurringDetailReference.endsWith('0002')) {
      return { ok: false, reason: 'card_declined', message: 'Your card was declined.', reference };
    }
    if (charge.recurringDetailReference.endsWith('9995')) {
      return { ok: false, reason: 'insufficient_funds', message: 'Your card has insufficient funds.', reference };
    }
    const passes = challengeOf(charge.recurringDetailReference);
    if (passes === null) return { ok: true, reference, authentication: 'none' };
    const row = await keepIntent(
      db,
      'sb3ds',
      {
        ownerId: charge.ownerId,
        idempotencyKey: `3ds-${charge.reference}`,
        amount: charge.amount,
        currency: charge.currency.toLowerCase(),
        metadata: { purpose: STORED_CHALLENGE, psp_reference: reference, challenge_passes: passes },
      },
      now,
    );
    await db
      .updateTable('sandbox_intents')
      .set({ status: 'requires_action', updated_at: now.toISOString() })
      .where('id', '=', row.id)
      .where('status', '=', 'requires_payment_method')
      .execute();
    return {
      ok: false,
      reason: 'requires_action',
      message: 'Your bank asks you to confirm this payment.',
      reference,
      action: { gateway: 'sandbox', type: 'threeDS2', token: row.client_secret, data: {} },
    };
  },
  async submitDetails(db, answer, now): Promise<StoredCardOutcome> {
    const row = await db
      .selectFrom('sandbox_intents')
      .select(COLUMNS)
      .where('client_secret', '=', answer.details.threeDSResult ?? '')
      .where('owner_id', '=', answer.ownerId)
      .executeTakeFirst();
    const metadata = row ? (JSON.parse(row.metadata) as Record<string, string>) : {};
    if (!row || metadata.purpose !== STORED_CHALLENGE || metadata.psp_reference !== answer.reference) {
      return {
        ok: false,
        reason: 'authentication_failed',
        message: 'This authentication is not for this payment.',
        reference: answer.reference,
      };
    }
    const passes = metadata.challenge_passes === '1';
    await db
      .updateTable('sandbox_intents')
      .set({ status: passes ? 'succeeded' : 'failed', updated_at: now.toISOString() })
      .where('id', '=', row.id)
      .where('status', '=', 'requires_action')
      .execute();
    return passes
      ? { ok: true, reference: answer.reference, authentication: 'challenge' }
      : {
          ok: false,
          reason: 'authentication_failed',
          message: STORED_AUTHENTICATION_FAILED,
          reference: answer.reference,
        };
  },
  async refund() {},
};
