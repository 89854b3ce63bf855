import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import type { CardGateway, CardSetup, Intent, StoredCardGateway, StoredCardOutcome, VerifiedCard } from './port';

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
] as const;

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
const intentOf = (r: IntentRow): Intent => ({
  id: r.id,
  clientSecret: r.client_secret,
  status: r.status,
  amount: Number(r.amount),
  currency: r.currency,
  metadata: JSON.parse(r.metadata) as Record<string, string>,
});

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
  prefix: 'sbpi' | 'sbseti',
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
    const status = problem ? 'requires_payment_method' : 'succeeded';
    const digits = input.number.replace(/[\s-]/g, '');
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
        updated_at: now.toISOString(),
      })
      .where('id', '=', row.id)
      .where('status', '<>', 'succeeded')
      .execute();
    return { intent: intentOf({ ...row, status }), error: problem };
  },
};

/** Stored cards in the sandbox: the card's reference ends with its test number's last four digits. */
export const sandboxStoredCardGateway: StoredCardGateway = {
  name: 'sandbox',
  async charge(_db, charge): Promise<StoredCardOutcome> {
    const reference = `sbpsp_${charge.reference}`;
    if (charge.recurringDetailReference.endsWith('0002')) {
      return { ok: false, reason: 'card_declined', message: 'Your card was declined.', reference };
    }
    if (charge.recurringDetailReference.endsWith('9995')) {
      return { ok: false, reason: 'insufficient_funds', message: 'Your card has insufficient funds.', reference };
    }
    return { ok: true, reference };
  },
  async refund() {},
};
