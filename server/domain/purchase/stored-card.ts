/**
 * Method 3, a stored card: the buyer's own payment at checkout (customer-initiated), so its bank may ask for a
 * challenge (Strong Customer Authentication); the challenge's answer completes or refuses it. Each payment
 * records which authentication or exemption applied.
 */
import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { BrowserInfo, Payments, StoredCardOutcome } from '../../payments/port';
import { lockBooking } from './bookings';
import { paidLate } from './cards';
import { fulfil, noteFailure, outcome, recordPayment, type Terms, termsOf } from './payments';
import type { CurrencyCode } from './pricing';
import {
  type BookingRow,
  CONFIRMED_MESSAGE,
  chargeOf,
  invalid,
  iso,
  notPayable,
  type Outcome,
  requireGuests,
  result,
} from './rules';

/** A payment's status while the bank waits for the buyer's challenge (not authorised yet). */
const AWAITING_CHALLENGE = 'requires_payment_method';

/**
 * Charges a stored card by its recurring reference at the stored-card gateway (our reference per booking and
 * attempt is its idempotency key), then confirms as the others do. A refusal answers status 0 with 'Payment
 * failed: {reason}', and the booking stays pending; a challenge answers status 0, reason requires_action and the
 * action for the panel, the booking pending with its hold.
 */
export async function payWithStoredCard(
  db: Db,
  payments: Payments,
  input: { buyerId: number; bookingId: number; recurringDetailReference: string; browserInfo?: BrowserInfo },
  now: Date,
): Promise<Outcome> {
  const card = await db
    .selectFrom('stored_cards')
    .select(['id', 'recurring_reference'])
    .where('owner_id', '=', input.buyerId)
    .where('recurring_reference', '=', input.recurringDetailReference)
    .executeTakeFirst();
  const b = await lockBooking(db, input.buyerId, input.bookingId, now);
  if (!card) throw invalid([{ path: '/body/recurringDetailReference', message: 'is not one of your stored cards' }]);
  if (b.status === 'confirmed') return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
  if (b.status !== 'pending') return outcome(db, b, notPayable(b), now);
  requireGuests(b);
  const listing = await termsOf(db, b.cart_id);
  const total = chargeOf(b, listing.ticket_type_id, 3);
  const attempts = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('booking_id', '=', b.id)
    .where('payment_method', '=', 3)
    .executeTakeFirstOrThrow();
  const reference = `${b.booking_no}-m3-${Number(attempts.n) + 1}`;
  const charged = await payments.storedCard.charge(
    db,
    {
      amount: total,
      currency: b.currency as CurrencyCode,
      recurringDetailReference: card.recurring_reference,
      shopperReference: `buyer-${b.buyer_id}`,
      ownerId: b.buyer_id,
      reference,
      ...(input.browserInfo ? { browserInfo: input.browserInfo } : {}),
    },
    now,
  );
  return settle(db, payments, b, listing, total, charged, now);
}

/**
 * The answer to a stored card's challenge: the booking's last stored-card payment must be waiting for it
 * (409 otherwise); the gateway says whether the bank confirmed the buyer; then as a payment's outcome.
 */
export async function submitStoredCardDetails(
  db: Db,
  payments: Payments,
  input: { buyerId: number; bookingId: number; details: { threeDSResult?: string; redirectResult?: string } },
  now: Date,
): Promise<Outcome> {
  const b = await lockBooking(db, input.buyerId, input.bookingId, now);
  if (!input.details.threeDSResult && !input.details.redirectResult) {
    throw invalid([{ path: '/body/details', message: 'must have threeDSResult or redirectResult' }]);
  }
  if (b.status === 'confirmed') return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
  const waiting = await db
    .selectFrom('payments')
    .select(['reference', 'amount', 'status'])
    .where('booking_id', '=', b.id)
    .where('payment_method', '=', 3)
    .where('gateway', '=', payments.storedCard.name)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  // a stored card's payment not yet authorised is one waiting for its challenge
  if (!waiting || waiting.status !== AWAITING_CHALLENGE) {
    throw new HttpError(409, 'This payment is not waiting for an authentication.');
  }
  if (b.status !== 'pending') {
    // the hold ended while the buyer answered: nothing is charged, the challenge is given up
    await db
      .updateTable('payments')
      .set({ status: 'failed', failure_reason: 'The hold ended during the authentication.', updated_at: iso(now) })
      .where('gateway', '=', payments.storedCard.name)
      .where('reference', '=', waiting.reference)
      .execute();
    return outcome(db, b, notPayable(b), now);
  }
  const listing = await termsOf(db, b.cart_id);
  const answered = await payments.storedCard.submitDetails(
    db,
    { ownerId: b.buyer_id, reference: waiting.reference, details: input.details },
    now,
  );
  return settle(db, payments, b, listing, Number(waiting.amount), answered, now);
}

/** A stored card's outcome recorded and acted on: confirmed, refused, or waiting for its challenge. */
async function settle(
  db: Db,
  payments: Payments,
  b: BookingRow,
  listing: Terms,
  total: number,
  charged: StoredCardOutcome,
  now: Date,
): Promise<Outcome> {
  const waiting = !charged.ok && charged.reason === 'requires_action';
  await recordPayment(
    db,
    b,
    {
      method: 3,
      gateway: payments.storedCard.name,
      reference: charged.reference,
      amount: total,
      status: charged.ok ? 'succeeded' : waiting ? AWAITING_CHALLENGE : 'failed',
      failure: charged.ok || waiting ? null : charged.message,
      authentication: charged.ok
        ? charged.authentication
        : charged.reason === 'authentication_failed'
          ? 'challenge'
          : null,
    },
    now,
  );
  if (!charged.ok && charged.reason === 'requires_action') {
    return outcome(db, b, { ...result(b, false, charged.message, 'requires_action'), action: charged.action }, now);
  }
  if (!charged.ok) {
    const message = `Payment failed: ${charged.message}`;
    await noteFailure(db, b, message, now);
    return outcome(db, b, result(b, false, message, charged.reason), now);
  }
  if (!(await fulfil(db, b, listing, 3, now))) {
    await payments.storedCard.refund(db, charged.reference, total, b.currency as CurrencyCode);
    await db
      .updateTable('payments')
      .set({ status: 'refunded', refunded_amount: total, updated_at: iso(now) })
      .where('gateway', '=', payments.storedCard.name)
      .where('reference', '=', charged.reference)
      .execute();
    return paidLate(db, b, now);
  }
  return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
}
