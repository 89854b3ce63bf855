/** Paying a booking by card (method 2): an intent and its confirmation or webhook. Stored cards: stored-card.ts. */
import { sql } from 'kysely';
import type { FieldError } from '../../contract/contract';
import type { Db } from '../../db/database';
import type { Payments } from '../../payments/port';
import { lockBooking } from './bookings';
import { expireCart } from './holds';
import { fulfil, noteFailure, outcome, termsOf } from './payments';
import type { CurrencyCode } from './pricing';
import {
  type BookingRow,
  CONFIRMED_MESSAGE,
  chargeOf,
  invalid,
  iso,
  LATE_PAYMENT_REASON,
  notPayable,
  type Outcome,
  refusalOf,
  requireGuests,
  result,
} from './rules';

/** The intent a card payment of this booking made (createPaymentIntent), as we recorded it. */
async function cardPayment(db: Db, gateway: string, bookingId: number, intentId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'status', 'amount', 'reference'])
    .where('gateway', '=', gateway)
    .where('reference', '=', intentId)
    .where('booking_id', '=', bookingId)
    .executeTakeFirst();
}

async function refundCard(db: Db, payments: Payments, paymentId: number, intentId: string, now: Date) {
  await payments.card.refund(db, intentId, now);
  await db
    .updateTable('payments')
    .set({ status: 'refunded', refunded_amount: sql<number>`amount`, updated_at: iso(now) })
    .where('id', '=', paymentId)
    .execute();
}

/**
 * Method 2, and the webhook's payment_intent.succeeded: the intent is read from the gateway (never the
 * browser's word) and must have succeeded for this booking's method-2 total and currency. A payment for a
 * booking that can no longer be fulfilled (hold ended, cancelled, or paid by another payment) is refunded.
 */
export async function confirmWithCard(
  db: Db,
  payments: Payments,
  input: { buyerId: number; bookingId: number; intentId: string; fromWebhook?: boolean },
  now: Date,
): Promise<Outcome> {
  const b = await lockBooking(db, input.buyerId, input.bookingId, now);
  const payment = await cardPayment(db, payments.card.name, b.id, input.intentId);
  if (!payment)
    throw invalid([{ path: '/body/payment_intent_id', message: 'is not a payment intent of this booking' }]);
  const intent = await payments.card.retrieveIntent(db, input.intentId);
  const succeeded = intent?.status === 'succeeded';
  if (b.status === 'confirmed') {
    // paid by this intent before: nothing to do; paid by another payment: this one is refunded
    if (succeeded && payment.status === 'requires_payment_method') {
      await refundCard(db, payments, payment.id, input.intentId, now);
      return outcome(
        db,
        b,
        result(b, true, 'This booking was already paid; this card payment was refunded.', null, true),
        now,
      );
    }
    return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
  }
  if (!succeeded || !intent) {
    await noteFailure(db, b, 'The card payment has not completed.', now);
    return outcome(db, b, result(b, false, 'The card payment has not completed.', 'payment_not_completed'), now);
  }
  if (payment.status === 'refunded') {
    return outcome(db, b, result(b, false, LATE_PAYMENT_REASON, 'hold_expired', true), now);
  }
  if (b.status !== 'pending') {
    await refundCard(db, payments, payment.id, input.intentId, now);
    await lateNote(db, b, now);
    return outcome(
      db,
      b,
      { ...notPayable(b), refunded: true, ...(b.status === 'expired' ? { message: LATE_PAYMENT_REASON } : {}) },
      now,
    );
  }
  requireGuests(b);
  const listing = await termsOf(db, b.cart_id);
  const total = chargeOf(b, listing.ticket_type_id, 2);
  if (
    intent.amount !== total ||
    intent.currency.toUpperCase() !== b.currency ||
    intent.metadata.booking_id !== String(b.id)
  ) {
    await refundCard(db, payments, payment.id, input.intentId, now);
    const message = 'The card payment was not for this booking and total; it was refunded.';
    await noteFailure(db, b, message, now);
    return outcome(db, b, result(b, false, message, 'amount_mismatch', true), now);
  }
  await db
    .updateTable('payments')
    .set({ status: 'succeeded', authentication: intent.authentication ?? null, updated_at: iso(now) })
    .where('id', '=', payment.id)
    .execute();
  if (!(await fulfil(db, b, listing, 2, now))) {
    await refundCard(db, payments, payment.id, input.intentId, now);
    return paidLate(db, b, now);
  }
  return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
}

/**
 * A payment that came after the booking's hold ended (and was refunded by the caller): the cart's tickets go back
 * to the listing and the booking says why.
 */
export async function paidLate(db: Db, b: BookingRow, now: Date): Promise<Outcome> {
  const cart = await db
    .selectFrom('carts')
    .select(['id', 'listing_id', 'quantity'])
    .where('id', '=', b.cart_id)
    .executeTakeFirstOrThrow();
  await expireCart(db, cart, now);
  await lateNote(db, b, now);
  return outcome(db, b, result(b, false, LATE_PAYMENT_REASON, 'hold_expired', true), now);
}

/** An expired booking whose payment came late says so. */
export async function lateNote(db: Db, b: BookingRow, now: Date) {
  await db
    .updateTable('bookings')
    .set({ status_reason: LATE_PAYMENT_REASON, updated_at: iso(now) })
    .where('id', '=', b.id)
    .where('status', 'in', ['expired', 'failed'])
    .execute();
}

/**
 * A card payment intent for a pending booking (method 2): the amount must be its method-2 total, the currency
 * its own. One intent per booking and amount at the gateway (its idempotency key), recorded in `payments`.
 */
export async function createCardIntent(
  db: Db,
  payments: Payments,
  input: { buyerId: number; bookingId: number; amount: number; currency: string; orderId?: string },
  now: Date,
) {
  const b = await lockBooking(db, input.buyerId, input.bookingId, now);
  if (b.status !== 'pending') {
    throw new (refusalOf(b))(409, b.status === 'confirmed' ? 'This booking is already paid.' : notPayable(b).message);
  }
  const listing = await termsOf(db, b.cart_id);
  const total = chargeOf(b, listing.ticket_type_id, 2);
  const errors: FieldError[] = [];
  if (input.amount !== total) {
    errors.push({ path: '/body/amount', message: `must be the booking's card total, ${total} (minor units)` });
  }
  if (input.currency.toUpperCase() !== b.currency) {
    errors.push({ path: '/body/currency', message: `must be the booking's currency, ${b.currency}` });
  }
  if (input.orderId !== undefined && input.orderId !== b.booking_no) {
    errors.push({ path: '/body/metadata/order_id', message: `must be the booking's number, ${b.booking_no}` });
  }
  if (errors.length > 0) throw invalid(errors);
  const intent = await payments.card.createIntent(
    db,
    {
      amount: total,
      currency: b.currency as CurrencyCode,
      bookingId: b.id,
      bookingNo: b.booking_no,
      ownerId: b.buyer_id,
      idempotencyKey: `intent-${b.booking_no}-${total}`,
    },
    now,
  );
  const at = iso(now);
  await db
    .insertInto('payments')
    .values({
      booking_id: b.id,
      buyer_id: b.buyer_id,
      payment_method: 2,
      gateway: payments.card.name,
      reference: intent.id,
      amount: total,
      currency: b.currency,
      status: intent.status === 'succeeded' ? 'succeeded' : 'requires_payment_method',
      failure_reason: null,
      refunded_amount: 0,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['gateway', 'reference']).doNothing())
    .execute();
  return {
    client_secret: intent.clientSecret,
    payment_intent_id: intent.id,
    gateway: payments.card.name,
    publishable_key: payments.card.publishableKey(b.currency as CurrencyCode),
    amount: intent.amount,
    currency: intent.currency,
    status: intent.status,
  };
}

/** The buyer whose booking a recorded card payment belongs to (for the webhook, which has no caller). */
export async function cardPaymentOwner(db: Db, gateways: readonly string[], intentId: string) {
  return db
    .selectFrom('payments')
    .select(['booking_id', 'buyer_id'])
    .where('gateway', 'in', gateways)
    .where('reference', '=', intentId)
    .executeTakeFirst();
}

/** The webhook's payment_intent.payment_failed: the booking (still pending) notes why. */
export async function noteCardFailure(db: Db, bookingId: number, message: string, now: Date) {
  await db
    .updateTable('bookings')
    .set({ status_reason: `Payment failed: ${message}`, updated_at: iso(now) })
    .where('id', '=', bookingId)
    .where('status', '=', 'pending')
    .execute();
}
