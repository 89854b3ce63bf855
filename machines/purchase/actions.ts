import { assign, emit } from 'xstate';
import { ApiError } from '../../openapi/client';
import type { CardPaymentOutput } from '../card-payment.machine';
import { serverErrorsToFields } from '../form.machine';
import { notifyError } from '../notify';
import { PURCHASE_TEXT } from './api';
import { type BillingValues, billingProblems, buyerAsGuest, emptyBilling, guestProblems } from './forms';
import { isAnswered } from './guards';
import { purchaseBase } from './setup';
import type {
  Booking,
  Cart,
  City,
  Country,
  GuestField,
  KeyName,
  PanelData,
  PaymentOutcome,
  PriceBreakdown,
} from './types';

/** The purchase statechart's setup with its actions: what its states are written against. */
export const purchaseSetup = purchaseBase.extend({
  actions: {
    storePanel: assign(({ context }, data: PanelData) => {
      const primary = data.addresses.find((a) => a.primary_address === 1) ?? data.addresses[0];
      return {
        listing: data.listing,
        quantity: data.breakdown.ticket_quantity,
        breakdown: data.breakdown,
        addresses: data.addresses,
        addressChoice: context.addressChoice ?? primary?.address_id ?? null,
        paymentMethods: data.paymentMethods,
        storedCard: context.storedCard ?? data.paymentMethods.linked_cards.data[0]?.recurringDetailReference ?? null,
      };
    }),
    setQuantity: assign(({ event }) => (event.type === 'quantity.changed' ? { quantity: event.quantity } : {})),
    setMethod: assign(({ event }) => (event.type === 'method.changed' ? { method: event.method, failure: null } : {})),
    setStoredCard: assign(({ event }) => (event.type === 'storedCard.chosen' ? { storedCard: event.reference } : {})),
    storeBreakdown: assign((_, breakdown: PriceBreakdown) => ({ breakdown })),
    revertMethod: assign(({ context }) => ({ method: context.breakdown?.payment_method ?? context.method })),
    chooseAddress: assign(({ event }) =>
      event.type === 'address.chosen' ? { addressChoice: event.address, billingErrors: {} } : {},
    ),
    changeBilling: assign(({ context, event }) => {
      if (event.type !== 'billing.changed') return {};
      const { [event.field]: _dropped, ...billingErrors } = context.billingErrors;
      const billing = { ...context.billing, [event.field]: event.value } as BillingValues;
      // a city belongs to its country
      if (event.field === 'country') billing.city = null;
      return { billing, billingErrors };
    }),
    clearCities: assign({ cities: [] }),
    storeCountries: assign((_, countries: Country[]) => ({ countries })),
    storeCities: assign((_, cities: City[]) => ({ cities })),
    showBillingErrors: assign(({ context }) => ({ billingErrors: billingProblems(context.billing) })),
    storeBillingServerErrors: assign((_, error: unknown) => ({
      billingErrors: serverErrorsToFields(error instanceof ApiError ? error.errors : [], Object.keys(emptyBilling())),
    })),
    storeCart: assign(({ context }, cart: Cart) => ({ cart, keys: { ...context.keys, booking: context.makeKey() } })),
    storeBooking: assign((_, booking: Booking) => ({
      booking,
      breakdown: booking.price_breakdown,
      holdDeadline: Date.now() + booking.hold_seconds_left * 1000,
    })),
    renewKey: assign(({ context }, name: KeyName) => ({ keys: { ...context.keys, [name]: context.makeKey() } })),
    renewKeyIfAnswered: assign(({ context }, params: { name: KeyName; error: unknown }) =>
      isAnswered(params.error) ? { keys: { ...context.keys, [params.name]: context.makeKey() } } : {},
    ),
    changeGuest: assign(({ context, event }) => {
      if (event.type !== 'guest.changed') return {};
      const { [`${event.index}.${event.field}`]: _dropped, ...guestErrors } = context.guestErrors;
      return {
        guests: { ...context.guests, [event.index]: { ...context.guests[event.index], [event.field]: event.value } },
        guestErrors,
      };
    }),
    copyBuyerToGuests: assign(({ context }) => {
      const me = buyerAsGuest(context);
      const guests: Record<number, Partial<Record<GuestField, string>>> = { ...context.guests };
      for (const entry of context.booking?.guest_data.list ?? []) {
        const copied = Object.fromEntries(entry.required_fields.filter((f) => me[f]).map((f) => [f, me[f]]));
        guests[entry.index] = { ...guests[entry.index], ...copied };
      }
      return { guests, guestErrors: {} };
    }),
    showGuestErrors: assign(({ context }) => ({
      guestErrors: guestProblems(context.booking, context.guests, new Date()),
    })),
    storeGuestServerErrors: assign((_, error: unknown) => {
      const errors: Record<string, string> = {};
      for (const { path, message } of error instanceof ApiError ? error.errors : []) {
        // /body/attendees/{i}/{field}: the i-th attendee sent, which is the i-th guest of the list
        const match = /^\/body\/attendees\/(\d+)\/(\w+)/.exec(path);
        if (match) errors[`${Number(match[1]) + 1}.${match[2]}`] = message;
      }
      return { guestErrors: errors };
    }),
    storeOutcome: assign((_, outcome: PaymentOutcome) => ({
      outcome: outcome.result,
      booking: outcome.booking,
      failure:
        outcome.result.booking_status === 'Success' || outcome.result.status === 1 ? null : outcome.result.message,
    })),
    storeFailure: assign((_, failure: string) => ({ failure })),
    storeAction: assign((_, outcome: PaymentOutcome) => ({
      action: outcome.result.action ?? null,
      booking: outcome.booking,
      failure: null,
    })),
    clearAction: assign({ action: null }),
    storeChallengeDetails: assign(({ event }) =>
      event.type === 'challenge.completed' ? { challengeDetails: event.details } : {},
    ),
    storeIntentId: assign((_, output: CardPaymentOutput) => ({
      paymentIntentId: output.status === 'succeeded' ? output.paymentIntentId : null,
    })),
    storeCancelled: assign((_, booking: Booking) => ({ booking })),
    startOver: assign(({ context }) => ({
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
      keys: {
        cart: context.makeKey(),
        booking: context.makeKey(),
        guests: context.makeKey(),
        pay: context.makeKey(),
        cancel: context.makeKey(),
      },
    })),
    toast: emit((_, message: string) => notifyError(message)),
    toastConfirmed: emit({ type: 'notify', level: 'success', message: PURCHASE_TEXT.confirmed } as const),
  },
});
