import { stateIn } from 'xstate';
import { ApiError } from '../../openapi/client';
import type { CardPaymentOutput } from '../card-payment.machine';
import { billingProblems, guestProblems } from './forms';
import type { Booking, PaymentOutcome, PurchaseContext, PurchaseEvent } from './types';

/** What a guard of the purchase reads: the machine's context and the event at hand. */
type Args = { context: PurchaseContext; event: PurchaseEvent };

/** A refusal (4xx) is an answer: the next try is a new action with a new key. A network failure or 5xx is not. */
export const isAnswered = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;
const isHoldOver = (reason: string | null | undefined) => reason === 'hold_expired' || reason === 'booking_cancelled';

/** The purchase statechart's guards (machines/purchase.machine.ts). */
export const purchaseGuards = {
  isOfferedQuantity: ({ context, event }: Args) =>
    event.type === 'quantity.changed' &&
    event.quantity !== context.quantity &&
    (context.listing?.split_list.includes(event.quantity) ?? false),
  isAvailableMethod: ({ context, event }: Args) =>
    event.type === 'method.changed' &&
    event.method !== context.method &&
    (context.paymentMethods?.methods.some((m) => m.payment_method === event.method && m.available === 1) ?? false),
  choosesOther: ({ event }: Args) => event.type === 'address.chosen' && event.address === 'other',
  choosesSaved: ({ context, event }: Args) =>
    event.type === 'address.chosen' && context.addresses.some((a) => a.address_id === event.address),
  choseOther: ({ context }: Args) => context.addressChoice === 'other',
  hasAddressChosen: ({ context }: Args) => typeof context.addressChoice === 'number',
  changesCountry: ({ context, event }: Args) =>
    event.type === 'billing.changed' && event.field === 'country' && event.value !== context.billing.country,
  isRepricing: stateIn('#purchase.editing.price.recalculating'),
  lacksBillingAddress: ({ context }: Args) => context.addressChoice === null,
  billingInvalid: ({ context }: Args) =>
    context.addressChoice === 'other' && Object.keys(billingProblems(context.billing)).length > 0,
  needsGuestDetails: (_: Args, booking: Booking) =>
    booking.guest_details_complete === 0 && booking.guest_data.list.some((g) => g.required_fields.length > 0),
  guestsIncomplete: ({ context }: Args) =>
    Object.keys(guestProblems(context.booking, context.guests, new Date())).length > 0,
  isSbPay: ({ context }: Args) => context.method === 1,
  isCard: ({ context }: Args) => context.method === 2,
  isConfirmed: (_: Args, outcome: PaymentOutcome) => outcome.result.booking_status === 'Success',
  isPaidByStoredCard: (_: Args, outcome: PaymentOutcome) => outcome.result.status === 1,
  asksChallenge: (_: Args, outcome: PaymentOutcome) =>
    outcome.result.reason === 'requires_action' && Boolean(outcome.result.action),
  holdIsOver: (_: Args, outcome: PaymentOutcome) => isHoldOver(outcome.result.reason),
  cardSucceeded: (_: Args, output: CardPaymentOutput) => output.status === 'succeeded',
  hasFieldErrors: (_: Args, error: unknown) =>
    error instanceof ApiError && error.status === 422 && error.errors.length > 0,
  isConflict: (_: Args, error: unknown) => error instanceof ApiError && error.status === 409,
};
