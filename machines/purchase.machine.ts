import { messageOf } from '../openapi/client';
import { purchaseSetup } from './purchase/actions';
import { PURCHASE_TEXT } from './purchase/api';
import { emptyBilling } from './purchase/forms';
import { guests, sendingGuests } from './purchase/guests';
import { paying } from './purchase/paying';
import { editing, submitting } from './purchase/review';
import type { PurchaseContext, PurchaseOutput } from './purchase/types';

// The chart of a purchase. Its parts are in machines/purchase/: the types, the calls (api.ts), the forms, the
// guards, the actions (setup), and the states of the review (editing, submitting), the guests and the payment.

export { CLIENT_COUNTRY, LANG, PURCHASE_TEXT } from './purchase/api';
export {
  BILLING_LIMITS,
  type BillingField,
  type BillingValues,
  billingSchema,
  buyerAsGuest,
  type GuestValues,
  guestProblems,
  latestBirthDate,
  toAttendees,
} from './purchase/forms';
export type * from './purchase/types';

/**
 * A purchase in the Confirm Purchase panel (spec section 4): choose the quantity from the listing's split_list
 * (the server prices it again), the billing address (the primary one preselected, or 'other' with the billing
 * form), the payment method (1 SB Pay, 2 card, 3 stored card); submit creates the cart (a 15-minute hold) and
 * the booking from it; when the booking asks guest details the guest form shows and they are posted; then
 * payment starts with the chosen method. A failed payment keeps the booking and its hold: pay again, or by
 * another method, until the hold runs out (expired, said so) or the buyer cancels. Confirmed: the toast
 * 'Booking Confirmed Successfully' and the machine's output, the booking number for the success page.
 */
export const purchaseMachine = purchaseSetup.createMachine({
  id: 'purchase',
  context: ({ input }) => {
    const makeKey = input.makeKey ?? (() => crypto.randomUUID());
    return {
      sellTicketId: input.sellTicketId,
      matchId: input.matchId,
      currency: input.currency,
      makeKey,
      keys: { cart: makeKey(), booking: makeKey(), guests: makeKey(), pay: makeKey(), cancel: makeKey() },
      listing: null,
      // 0 until the listing is read: the server then prices the least it sells
      quantity: input.quantity ?? 0,
      breakdown: null,
      addresses: [],
      addressChoice: null,
      billing: emptyBilling(),
      billingErrors: {},
      countries: [],
      cities: [],
      paymentMethods: null,
      method: 1,
      storedCard: null,
      cart: null,
      booking: null,
      holdDeadline: null,
      guests: {},
      guestErrors: {},
      failure: null,
      outcome: null,
      paymentIntentId: null,
      action: null,
      challengeDetails: null,
    };
  },
  initial: 'loading',
  states: {
    loading: {
      description: 'The listing and its price, the address book and the payment methods, together.',
      tags: ['loading'],
      invoke: {
        id: 'loadPanel',
        src: 'loadPanel',
        input: ({ context }) => ({
          sellTicketId: context.sellTicketId,
          currency: context.currency,
          quantity: context.quantity,
        }),
        onDone: { target: 'editing', actions: { type: 'storePanel', params: ({ event }) => event.output } },
        onError: { target: 'loadFailed', actions: { type: 'toast', params: PURCHASE_TEXT.loadFailed } },
      },
    },
    loadFailed: {
      description: "'Failed to load address and payment details', with Retry.",
      tags: ['error'],
      on: { 'panel.retried': 'loading' },
    },
    editing,
    submitting,
    guests,
    sendingGuests,
    paying,
    payable: {
      description:
        'The booking holds the tickets but is not paid (a payment failed or the card step was closed): pay again, or by another method, while the hold lasts.',
      initial: 'idle',
      after: { holdEnds: 'expired' },
      states: {
        idle: { on: { 'payment.started': '#purchase.paying' } },
        repricing: {
          description: "The booking's total for the new method (its payment fee).",
          tags: ['pricing'],
          invoke: {
            id: 'reprice',
            src: 'reprice',
            input: ({ context }) => ({ bookingId: context.booking?.booking_id ?? 0, method: context.method }),
            onDone: { target: 'idle', actions: { type: 'storeBreakdown', params: ({ event }) => event.output } },
            // the total shown stays the one of the method chosen: back to the method it was priced for
            onError: {
              target: 'idle',
              actions: [
                'revertMethod',
                { type: 'renewKey', params: 'pay' },
                { type: 'toast', params: PURCHASE_TEXT.priceFailed },
              ],
            },
          },
        },
      },
      on: {
        'method.changed': {
          guard: 'isAvailableMethod',
          target: '.repricing',
          actions: ['setMethod', { type: 'renewKey', params: 'pay' }],
        },
        'storedCard.chosen': { actions: ['setStoredCard', { type: 'renewKey', params: 'pay' }] },
        'booking.cancelled': 'cancelling',
      },
    },
    cancelling: {
      tags: ['submitting'],
      invoke: {
        id: 'cancelBooking',
        src: 'cancelBooking',
        input: ({ context }) => ({ context }),
        onDone: { target: 'cancelled', actions: { type: 'storeCancelled', params: ({ event }) => event.output } },
        onError: {
          target: 'payable',
          actions: {
            type: 'toast',
            params: ({ event }: { event: { error: unknown } }) => messageOf(event.error),
          },
        },
      },
    },
    expired: {
      description: 'The hold ran out: the tickets went back on sale. Start again to hold them anew.',
      tags: ['error'],
      on: { 'purchase.restarted': { target: 'loading', actions: 'startOver' } },
    },
    cancelled: { type: 'final', description: 'The buyer gave the booking up: its tickets went back on sale.' },
    confirmed: {
      type: 'final',
      description: "Paid: 'Booking Confirmed Successfully', then the purchase page of the booking.",
      entry: 'toastConfirmed',
    },
  },
  output: ({ context }): PurchaseOutput =>
    context.booking && (context.outcome?.booking_status === 'Success' || context.outcome?.status === 1)
      ? { status: 'confirmed', booking: context.booking, bookingNo: context.booking.booking_no }
      : { status: 'cancelled' },
});

/** The hold's time left in whole seconds at `now` (0 once it ran out), for the countdown. */
export const holdSecondsLeft = (context: Pick<PurchaseContext, 'holdDeadline'>, now: number) =>
  context.holdDeadline === null ? null : Math.max(0, Math.ceil((context.holdDeadline - now) / 1000));
