import type { DataOf } from '../../openapi/client';
import type { components } from '../../openapi/schema';
import type { FieldErrors } from '../form.machine';
import type { BillingField, BillingValues, GuestValues } from './forms';

// The purchase statechart's types: its context, input, events and output, and the contract's shapes it holds.

type Schemas = components['schemas'];
export type CurrencyCode = Schemas['CurrencyCode'];
export type PaymentMethodCode = Schemas['PaymentMethodCode'];
export type Listing = Schemas['PurchaseListing'];
export type PriceBreakdown = Schemas['PriceBreakdown'];
export type Address = Schemas['Address'];
export type Country = Schemas['Country'];
export type City = Schemas['City'];
export type Cart = Schemas['Cart'];
export type Booking = Schemas['Booking'];
export type GuestField = Schemas['GuestField'];
export type PaymentMethods = DataOf<'/purchase/lmt-trade/payment-methods', 'get'>['payment_methods'];
export type PaymentOutcome = DataOf<'/purchase/lmt-trade/confirmation', 'post'>;
export type PaymentAction = Schemas['PaymentAction'];
export type ChallengeDetails = Schemas['PaymentDetailsRequest']['details'];

/** The Idempotency-Keys of the purchase's writes: one per intended action, renewed when it got an answer. */
export interface PurchaseKeys {
  cart: string;
  booking: string;
  guests: string;
  pay: string;
  cancel: string;
}
export type KeyName = keyof PurchaseKeys;

export interface PurchaseInput {
  sellTicketId: number;
  matchId: number;
  currency: CurrencyCode;
  /** The quantity the listing was shown for (its all-in price), one of its split_list; default the least it sells. */
  quantity?: number;
  /** Makes an Idempotency-Key; default crypto.randomUUID. */
  makeKey?: () => string;
}

export interface PurchaseContext {
  sellTicketId: number;
  matchId: number;
  currency: CurrencyCode;
  makeKey: () => string;
  keys: PurchaseKeys;
  listing: Listing | null;
  quantity: number;
  breakdown: PriceBreakdown | null;
  addresses: Address[];
  /** The chosen billing address: a saved one's id, 'other' (the billing form), or none yet. */
  addressChoice: number | 'other' | null;
  billing: BillingValues;
  billingErrors: FieldErrors;
  countries: Country[];
  cities: City[];
  paymentMethods: PaymentMethods | null;
  method: PaymentMethodCode;
  /** The stored card's recurringDetailReference (method 3). */
  storedCard: string | null;
  cart: Cart | null;
  booking: Booking | null;
  /** When the hold ends (ms since the epoch, by this machine's clock), once a booking holds the tickets. */
  holdDeadline: number | null;
  guests: GuestValues;
  guestErrors: FieldErrors;
  /** What the last payment said when it did not confirm (shown beside the buttons). */
  failure: string | null;
  outcome: PaymentOutcome['result'] | null;
  /** The card step's succeeded payment intent (method 2), confirmed with the booking. */
  paymentIntentId: string | null;
  /** The challenge the stored card's bank asks for (method 3), while it is shown. */
  action: PaymentAction | null;
  /** What the challenge gave, sent to the server. */
  challengeDetails: ChallengeDetails | null;
}

export type PurchaseEvent =
  | { type: 'panel.retried' }
  | { type: 'quantity.changed'; quantity: number }
  | { type: 'method.changed'; method: PaymentMethodCode }
  | { type: 'storedCard.chosen'; reference: string }
  | { type: 'address.chosen'; address: number | 'other' }
  | { type: 'billing.changed'; field: BillingField; value: string | number | null }
  | { type: 'countries.retried' }
  | { type: 'purchase.submitted' }
  | { type: 'guest.changed'; index: number; field: GuestField; value: string }
  | { type: 'guests.copied' }
  | { type: 'guests.submitted' }
  | { type: 'payment.started' }
  | { type: 'booking.cancelled' }
  | { type: 'challenge.completed'; details: ChallengeDetails }
  | { type: 'challenge.cancelled' }
  | { type: 'purchase.restarted' };

export type PurchaseOutput =
  | { status: 'confirmed'; booking: Booking | null; bookingNo: string }
  | { status: 'cancelled' };

export interface PanelData {
  listing: Listing;
  breakdown: PriceBreakdown;
  addresses: Address[];
  paymentMethods: PaymentMethods;
}
