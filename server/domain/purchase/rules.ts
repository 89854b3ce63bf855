/**
 * The purchase's rules and texts, without the database: messages, the booking's row and its answer's types,
 * the charge by payment method, the payment results, the guests' field rules.
 */
import type { components } from '../../../openapi/schema';
import type { FieldError } from '../../contract/contract';
import { HttpError, KeptRefusal, MESSAGES } from '../../http/errors';
import type { GuestField } from './catalog';
import { HOLD_EXPIRED_MESSAGE } from './holds';
import { type CurrencyCode, chargeProblem, type PaymentMethod, type PricingProblem, priceBreakdown } from './pricing';

export type Cart = components['schemas']['Cart'];
export type Booking = components['schemas']['Booking'];
export type PaymentResult = components['schemas']['PaymentResult'];
export type Attendee = components['schemas']['Attendee'];
export type FailureReason = components['schemas']['PaymentFailureReason'];
export type BillingAddress = components['schemas']['BillingAddress'];

export const CONFIRMED_MESSAGE = 'Booking Confirmed Successfully';
export const GUESTS_MISSING_MESSAGE = 'submit all guest details';
export const NO_BILLING_ADDRESS_MESSAGE = 'Please add a billing address';
export const LATE_PAYMENT_REASON = 'The payment arrived after the 15-minute hold ended; it was refunded.';
export const NOT_FOUND_TICKETS = 'These tickets were not found.';
export const NO_LONGER_AVAILABLE = 'These tickets are no longer available.';
const SYMBOLS: Record<string, string> = { GBP: '£', EUR: '€', USD: '$', AED: 'AED ' };
/** '£1,240.50' from 124050 minor units. */
export const money = (minor: number, currency: string) =>
  `${SYMBOLS[currency] ?? `${currency} `}${Math.floor(minor / 100).toLocaleString('en-GB')}.${String(minor % 100).padStart(2, '0')}`;

export const invalid = (errors: FieldError[], message: string = MESSAGES.validation) =>
  new HttpError(422, message, errors);
export const unpriced = (problem: PricingProblem) => new HttpError(422, problem.message, [problem.error]);
/** What a buyer can do with a booking whose total is below the minimum charge (made before that rule). */
export const UNPAYABLE = 'It cannot be paid: cancel this booking and choose more tickets.';
export const iso = (d: Date) => d.toISOString();
export const secondsLeft = (expiresAt: string, now: Date) =>
  Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));

export const bookingNoOf = (cartId: number) => `BK${String(cartId).padStart(8, '0')}`;

/** A booking's row as the table holds it. */
export type BookingRow = {
  id: number;
  booking_no: string;
  cart_id: number;
  buyer_id: number;
  user_id: number;
  seller_id: number;
  listing_id: number;
  event_id: number;
  quantity: number;
  currency: string;
  unit_price: number;
  payment_method: number;
  status: string;
  status_reason: string | null;
  billing: string;
  guest_fields: string;
  attendees: string;
  guests_complete: number;
  order_id: number | null;
  expires_at: string;
  confirmed_at: string | null;
  created_at: string;
};

export const breakdownOf = (
  b: { currency: string; unit_price: number; quantity: number; ticket_type_id: number },
  method: number,
) =>
  priceBreakdown({
    currency: b.currency as CurrencyCode,
    unitPrice: b.unit_price,
    quantity: b.quantity,
    ticketTypeId: b.ticket_type_id,
    method: method as PaymentMethod,
  });

/** The booking's charge by `method`, refused (422) below the minimum charge: nothing confirms a total of 0. */
export function chargeOf(b: BookingRow, ticketTypeId: number, method: PaymentMethod): number {
  const priced = breakdownOf({ ...b, ticket_type_id: ticketTypeId }, method);
  const problem = chargeProblem(priced, '/body/booking_id', UNPAYABLE);
  if (problem) throw unpriced(problem);
  return priced.total_with_payment_fee;
}

export interface BillingInput {
  address_id?: number;
  first_name?: string;
  last_name?: string;
  email?: string;
  dialing_code?: string;
  mobile_no?: string;
  country?: number;
  city?: number | null;
  address?: string;
  postal_code?: string;
}

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// ------------------------------------------------------------------------------------------------------------
// Payment results

export interface Outcome {
  result: PaymentResult;
  booking: Booking;
}

export const result = (
  b: Pick<BookingRow, 'id' | 'booking_no'>,
  ok: boolean,
  message: string,
  reason: FailureReason | null,
  refunded = false,
): PaymentResult => ({
  status: ok ? 1 : 0,
  booking_status: ok ? 'Success' : 'Failed',
  message,
  reason,
  refunded,
  booking_id: b.id,
  booking_no: b.booking_no,
});

/** Why a booking that is not pending cannot be paid, as a result. */
export function notPayable(b: BookingRow): PaymentResult {
  if (b.status === 'cancelled') return result(b, false, 'This booking was cancelled.', 'booking_cancelled');
  if (b.status === 'failed') return result(b, false, b.status_reason ?? 'This booking failed.', 'booking_failed');
  return result(b, false, HOLD_EXPIRED_MESSAGE, 'hold_expired');
}

export function requireGuests(b: BookingRow) {
  if (b.guests_complete !== 1) {
    throw invalid([{ path: '/body/booking_id', message: 'has guest details missing' }], GUESTS_MISSING_MESSAGE);
  }
}

/** A refusal of a call whose booking lockBooking found ended: it keeps the release (the tickets stay back). */
export const refusalOf = (b: { endedNow?: true }) => (b.endedNow ? KeptRefusal : HttpError);

// ------------------------------------------------------------------------------------------------------------
// Guest details

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function fieldProblem(field: GuestField, value: string, now: Date): string | null {
  switch (field) {
    case 'contact_email':
      return EMAIL.test(value) ? null : 'must be an email address';
    case 'contact_phone':
      return /^\+?[0-9 ()-]{5,30}$/.test(value) ? null : 'must be a phone number';
    case 'gender':
      return ['male', 'female', 'other'].includes(value) ? null : 'must be male, female or other';
    case 'date_of_birth': {
      const m = DATE.exec(value);
      const date = m ? new Date(`${value}T00:00:00Z`) : null;
      if (!m || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
        return 'must be a date (YYYY-MM-DD)';
      }
      const latest = `${now.getUTCFullYear() - 2}-12-31`;
      if (value > latest) return `must be on or before ${latest}`;
      if (value < '1900-01-01') return 'must be on or after 1900-01-01';
      return null;
    }
    default:
      return null;
  }
}
