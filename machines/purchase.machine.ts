import { assign, emit, setup, stateIn } from 'xstate';
import { ApiError, type DataOf, messageOf } from '../openapi/client';
import type { components } from '../openapi/schema';
import { type CardPaymentOutput, cardPaymentMachine } from './card-payment.machine';
import { type FieldErrors, serverErrorsToFields } from './form.machine';
import { type NotifyEvent, notifyError } from './notify';
import { PURCHASE_TEXT, purchaseActors } from './purchase-api';
import {
  type BillingField,
  type BillingValues,
  billingProblems,
  buyerAsGuest,
  emptyBilling,
  type GuestValues,
  guestProblems,
} from './purchase-forms';

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

export { CLIENT_COUNTRY, LANG, PURCHASE_TEXT } from './purchase-api';

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
} from './purchase-forms';

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

/** A refusal (4xx) is an answer: the next try is a new action with a new key. A network failure or 5xx is not. */
const isAnswered = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;
const isHoldOver = (reason: string | null | undefined) => reason === 'hold_expired' || reason === 'booking_cancelled';

/**
 * What the server's answer to a confirmation (SB Pay, or the booking after a card payment) does: confirmed,
 * the hold over, or back to payable with the server's message (a new key for the next attempt); a failed call
 * goes back to payable with the spec's 'confirmation failed' toast.
 */
const outcomeOf = ({ event }: { event: { output: PaymentOutcome } }) => event.output;
const confirmationAnswer = {
  onDone: [
    {
      guard: { type: 'isConfirmed', params: outcomeOf },
      target: '#purchase.confirmed',
      actions: { type: 'storeOutcome', params: outcomeOf },
    },
    {
      guard: { type: 'holdIsOver', params: outcomeOf },
      target: '#purchase.expired',
      actions: { type: 'storeOutcome', params: outcomeOf },
    },
    {
      target: '#purchase.payable',
      actions: [
        { type: 'storeOutcome', params: outcomeOf },
        { type: 'renewKey', params: 'pay' },
        { type: 'toast', params: ({ event }: { event: { output: PaymentOutcome } }) => event.output.result.message },
      ],
    },
  ],
  onError: {
    target: '#purchase.payable',
    actions: [
      {
        type: 'renewKeyIfAnswered',
        params: ({ event }: { event: { error: unknown } }) => ({ name: 'pay' as const, error: event.error }),
      },
      { type: 'storeFailure', params: PURCHASE_TEXT.confirmationFailed },
      { type: 'toast', params: PURCHASE_TEXT.confirmationFailed },
    ],
  },
} as const;

/**
 * A purchase in the Confirm Purchase panel (spec section 4): choose the quantity from the listing's split_list
 * (the server prices it again), the billing address (the primary one preselected, or 'other' with the billing
 * form), the payment method (1 SB Pay, 2 card, 3 stored card); submit creates the cart (a 15-minute hold) and
 * the booking from it; when the booking asks guest details the guest form shows and they are posted; then
 * payment starts with the chosen method. A failed payment keeps the booking and its hold: pay again, or by
 * another method, until the hold runs out (expired, said so) or the buyer cancels. Confirmed: the toast
 * 'Booking Confirmed Successfully' and the machine's output, the booking number for the success page.
 */
export const purchaseMachine = setup({
  types: {
    context: {} as PurchaseContext,
    input: {} as PurchaseInput,
    events: {} as PurchaseEvent,
    emitted: {} as NotifyEvent,
    output: {} as PurchaseOutput,
  },
  actors: {
    ...purchaseActors,
    cardPayment: cardPaymentMachine,
  },
  delays: {
    // from the deadline, so that leaving and coming back to a state does not restart the 15 minutes
    holdEnds: ({ context }) => Math.max(0, (context.holdDeadline ?? 0) - Date.now()),
  },
  guards: {
    isOfferedQuantity: ({ context, event }) =>
      event.type === 'quantity.changed' &&
      event.quantity !== context.quantity &&
      (context.listing?.split_list.includes(event.quantity) ?? false),
    isAvailableMethod: ({ context, event }) =>
      event.type === 'method.changed' &&
      event.method !== context.method &&
      (context.paymentMethods?.methods.some((m) => m.payment_method === event.method && m.available === 1) ?? false),
    choosesOther: ({ event }) => event.type === 'address.chosen' && event.address === 'other',
    choosesSaved: ({ context, event }) =>
      event.type === 'address.chosen' && context.addresses.some((a) => a.address_id === event.address),
    choseOther: ({ context }) => context.addressChoice === 'other',
    hasAddressChosen: ({ context }) => typeof context.addressChoice === 'number',
    changesCountry: ({ context, event }) =>
      event.type === 'billing.changed' && event.field === 'country' && event.value !== context.billing.country,
    isRepricing: stateIn('#purchase.editing.price.recalculating'),
    lacksBillingAddress: ({ context }) => context.addressChoice === null,
    billingInvalid: ({ context }) =>
      context.addressChoice === 'other' && Object.keys(billingProblems(context.billing)).length > 0,
    needsGuestDetails: (_, booking: Booking) =>
      booking.guest_details_complete === 0 && booking.guest_data.list.some((g) => g.required_fields.length > 0),
    guestsIncomplete: ({ context }) =>
      Object.keys(guestProblems(context.booking, context.guests, new Date())).length > 0,
    isSbPay: ({ context }) => context.method === 1,
    isCard: ({ context }) => context.method === 2,
    isConfirmed: (_, outcome: PaymentOutcome) => outcome.result.booking_status === 'Success',
    isPaidByStoredCard: (_, outcome: PaymentOutcome) => outcome.result.status === 1,
    asksChallenge: (_, outcome: PaymentOutcome) =>
      outcome.result.reason === 'requires_action' && Boolean(outcome.result.action),
    holdIsOver: (_, outcome: PaymentOutcome) => isHoldOver(outcome.result.reason),
    cardSucceeded: (_, output: CardPaymentOutput) => output.status === 'succeeded',
    hasFieldErrors: (_, error: unknown) => error instanceof ApiError && error.status === 422 && error.errors.length > 0,
    isConflict: (_, error: unknown) => error instanceof ApiError && error.status === 409,
  },
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
}).createMachine({
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
    editing: {
      description: 'Review Purchase, Billing Address and Payment: quantity, address and method, then submit.',
      type: 'parallel',
      states: {
        price: {
          initial: 'idle',
          states: {
            idle: {},
            recalculating: {
              description: 'The server prices the new quantity or method.',
              tags: ['pricing'],
              invoke: {
                id: 'recalculate',
                src: 'recalculate',
                input: ({ context }) => ({
                  sellTicketId: context.sellTicketId,
                  currency: context.currency,
                  quantity: context.quantity,
                  method: context.method,
                }),
                onDone: { target: 'idle', actions: { type: 'storeBreakdown', params: ({ event }) => event.output } },
                onError: { target: 'idle', actions: { type: 'toast', params: PURCHASE_TEXT.priceFailed } },
              },
            },
          },
          on: {
            'quantity.changed': {
              guard: 'isOfferedQuantity',
              target: '.recalculating',
              actions: ['setQuantity', { type: 'renewKey', params: 'cart' }],
            },
            'method.changed': {
              guard: 'isAvailableMethod',
              target: '.recalculating',
              actions: ['setMethod', { type: 'renewKey', params: 'cart' }],
            },
          },
        },
        billing: {
          initial: 'deciding',
          states: {
            deciding: {
              always: [
                { guard: 'choseOther', target: 'other' },
                { guard: 'hasAddressChosen', target: 'saved' },
                { target: 'none' },
              ],
            },
            none: { description: 'No saved address: the buyer must enter one (other).' },
            saved: { description: 'A saved address (the primary one preselected).' },
            other: {
              description: 'A new billing address: the billing form.',
              initial: 'loadingCountries',
              states: {
                loadingCountries: {
                  invoke: {
                    id: 'loadCountries',
                    src: 'loadCountries',
                    onDone: {
                      target: 'ready',
                      actions: { type: 'storeCountries', params: ({ event }) => event.output },
                    },
                    onError: {
                      target: 'countriesFailed',
                      actions: { type: 'toast', params: PURCHASE_TEXT.loadFailed },
                    },
                  },
                },
                countriesFailed: { tags: ['error'], on: { 'countries.retried': 'loadingCountries' } },
                ready: {},
                loadingCities: {
                  entry: 'clearCities',
                  invoke: {
                    id: 'loadCities',
                    src: 'loadCities',
                    input: ({ context }) => context.billing.country ?? 0,
                    onDone: { target: 'ready', actions: { type: 'storeCities', params: ({ event }) => event.output } },
                    onError: { target: 'ready', actions: { type: 'toast', params: PURCHASE_TEXT.citiesFailed } },
                  },
                },
              },
              on: {
                'billing.changed': [
                  { guard: 'changesCountry', target: '.loadingCities', actions: 'changeBilling' },
                  { actions: 'changeBilling' },
                ],
              },
            },
          },
          on: {
            'address.chosen': [
              { guard: 'choosesOther', target: '.other', actions: 'chooseAddress' },
              { guard: 'choosesSaved', target: '.saved', actions: 'chooseAddress' },
            ],
          },
        },
      },
      on: {
        'storedCard.chosen': { actions: 'setStoredCard' },
        'purchase.submitted': [
          { guard: 'isRepricing' },
          { guard: 'lacksBillingAddress', actions: { type: 'toast', params: PURCHASE_TEXT.noBillingAddress } },
          {
            guard: 'billingInvalid',
            actions: ['showBillingErrors', { type: 'toast', params: PURCHASE_TEXT.noBillingAddress }],
          },
          { target: 'submitting' },
        ],
      },
    },
    submitting: {
      description: 'The cart (a 15-minute hold), then the booking from it.',
      tags: ['submitting'],
      initial: 'creatingCart',
      states: {
        creatingCart: {
          invoke: {
            id: 'createCart',
            src: 'createCart',
            input: ({ context }) => ({ context }),
            onDone: { target: 'creatingBooking', actions: { type: 'storeCart', params: ({ event }) => event.output } },
            onError: {
              target: '#purchase.editing',
              actions: [
                {
                  type: 'renewKeyIfAnswered',
                  params: ({ event }: { event: { error: unknown } }) => ({ name: 'cart' as const, error: event.error }),
                },
                {
                  type: 'toast',
                  params: ({ event }: { event: { error: unknown } }) =>
                    messageOf(event.error, PURCHASE_TEXT.bookingFailed),
                },
              ],
            },
          },
        },
        creatingBooking: {
          invoke: {
            id: 'createBooking',
            src: 'createBooking',
            input: ({ context }) => ({ context }),
            onDone: [
              {
                guard: { type: 'needsGuestDetails', params: ({ event }) => event.output },
                target: '#purchase.guests',
                actions: { type: 'storeBooking', params: ({ event }) => event.output },
              },
              { target: '#purchase.paying', actions: { type: 'storeBooking', params: ({ event }) => event.output } },
            ],
            onError: [
              {
                guard: { type: 'hasFieldErrors', params: ({ event }: { event: { error: unknown } }) => event.error },
                target: '#purchase.editing',
                actions: [
                  {
                    type: 'storeBillingServerErrors',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                  { type: 'renewKey', params: 'booking' },
                  {
                    type: 'toast',
                    params: ({ event }: { event: { error: unknown } }) =>
                      messageOf(event.error, PURCHASE_TEXT.bookingFailed),
                  },
                ],
              },
              {
                target: '#purchase.editing',
                actions: [
                  {
                    type: 'renewKeyIfAnswered',
                    params: ({ event }: { event: { error: unknown } }) => ({
                      name: 'booking' as const,
                      error: event.error,
                    }),
                  },
                  {
                    type: 'toast',
                    params: ({ event }: { event: { error: unknown } }) =>
                      messageOf(event.error, PURCHASE_TEXT.bookingFailed),
                  },
                ],
              },
            ],
          },
        },
      },
    },
    guests: {
      description: 'Guest Details: one section per guest with the fields the event requires.',
      after: { holdEnds: 'expired' },
      on: {
        'guest.changed': { actions: 'changeGuest' },
        'guests.copied': { actions: 'copyBuyerToGuests' },
        'guests.submitted': [
          {
            guard: 'guestsIncomplete',
            actions: ['showGuestErrors', { type: 'toast', params: PURCHASE_TEXT.guestsMissing }],
          },
          { target: 'sendingGuests' },
        ],
        'booking.cancelled': 'cancelling',
      },
    },
    sendingGuests: {
      tags: ['submitting'],
      invoke: {
        id: 'submitGuests',
        src: 'submitGuests',
        input: ({ context }) => ({ context }),
        onDone: {
          target: 'paying',
          actions: [
            { type: 'storeBooking', params: ({ event }) => event.output },
            { type: 'renewKey', params: 'guests' },
          ],
        },
        onError: [
          {
            guard: { type: 'hasFieldErrors', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'guests',
            actions: [
              { type: 'storeGuestServerErrors', params: ({ event }: { event: { error: unknown } }) => event.error },
              { type: 'renewKey', params: 'guests' },
              { type: 'toast', params: PURCHASE_TEXT.guestsMissing },
            ],
          },
          {
            guard: { type: 'isConflict', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'expired',
          },
          {
            target: 'guests',
            actions: [
              {
                type: 'renewKeyIfAnswered',
                params: ({ event }: { event: { error: unknown } }) => ({ name: 'guests' as const, error: event.error }),
              },
              { type: 'toast', params: PURCHASE_TEXT.guestsError },
            ],
          },
        ],
      },
    },
    paying: {
      description: 'Payment by the chosen method.',
      tags: ['paying'],
      initial: 'deciding',
      states: {
        deciding: {
          always: [
            { guard: 'isSbPay', target: 'sbPay' },
            { guard: 'isCard', target: 'card' },
            { target: 'storedCard' },
          ],
        },
        sbPay: {
          description: 'Method 1: confirmed directly when booking_status is Success.',
          invoke: {
            id: 'confirmSbPay',
            src: 'confirmSbPay',
            input: ({ context }) => ({ context }),
            ...confirmationAnswer,
          },
        },
        card: {
          description: 'Method 2: the card step (its own machine) pays, then the booking is confirmed.',
          invoke: {
            id: 'cardPayment',
            src: 'cardPayment',
            input: ({ context }) => ({
              bookingId: context.booking?.booking_id ?? 0,
              bookingNo: context.booking?.booking_no ?? '',
              amount: context.breakdown?.total_with_payment_fee ?? 0,
              currency: context.breakdown?.currency ?? context.currency,
              makeKey: context.makeKey,
            }),
            onDone: [
              {
                guard: { type: 'cardSucceeded', params: ({ event }) => event.output },
                target: 'confirmingCard',
                actions: [
                  { type: 'storeIntentId', params: ({ event }) => event.output },
                  { type: 'renewKey', params: 'pay' },
                ],
              },
              { target: '#purchase.payable' },
            ],
            onError: {
              target: '#purchase.payable',
              actions: [
                { type: 'storeFailure', params: PURCHASE_TEXT.paymentError },
                { type: 'toast', params: PURCHASE_TEXT.paymentError },
              ],
            },
          },
        },
        confirmingCard: {
          description: 'The card is charged: the server checks the intent and confirms the booking.',
          invoke: {
            id: 'confirmCardBooking',
            src: 'confirmCardBooking',
            input: ({ context }) => ({ context, paymentIntentId: context.paymentIntentId ?? undefined }),
            ...confirmationAnswer,
          },
        },
        storedCard: {
          description: 'Method 3: the stored card by its recurring reference; paid when the result status is 1.',
          invoke: {
            id: 'payStoredCard',
            src: 'payStoredCard',
            input: ({ context }) => ({ context }),
            onDone: [
              {
                guard: { type: 'isPaidByStoredCard', params: ({ event }) => event.output },
                target: '#purchase.confirmed',
                actions: { type: 'storeOutcome', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'asksChallenge', params: ({ event }) => event.output },
                target: 'challenge',
                actions: [
                  { type: 'storeAction', params: ({ event }) => event.output },
                  { type: 'renewKey', params: 'pay' },
                ],
              },
              {
                guard: { type: 'holdIsOver', params: ({ event }) => event.output },
                target: '#purchase.expired',
                actions: { type: 'storeOutcome', params: ({ event }) => event.output },
              },
              {
                target: '#purchase.payable',
                actions: [
                  { type: 'storeOutcome', params: ({ event }) => event.output },
                  { type: 'renewKey', params: 'pay' },
                  // the server's reason is already the spec's 'Payment failed: {reason}' (the contract)
                  { type: 'toast', params: ({ event }) => event.output.result.message },
                ],
              },
            ],
            onError: {
              target: '#purchase.payable',
              actions: [
                {
                  type: 'renewKeyIfAnswered',
                  params: ({ event }: { event: { error: unknown } }) => ({ name: 'pay' as const, error: event.error }),
                },
                { type: 'storeFailure', params: PURCHASE_TEXT.processingFailed },
                { type: 'toast', params: PURCHASE_TEXT.processingFailed },
              ],
            },
          },
        },
        challenge: {
          description:
            "The stored card's bank asks the buyer to confirm the payment (3-D Secure): the challenge shows in the panel; nothing is charged until it is answered.",
          tags: ['challenge'],
          after: { holdEnds: '#purchase.expired' },
          on: {
            'challenge.completed': { target: 'answeringChallenge', actions: 'storeChallengeDetails' },
            'challenge.cancelled': {
              target: '#purchase.payable',
              actions: [
                'clearAction',
                { type: 'storeFailure', params: PURCHASE_TEXT.challengeCancelled },
                { type: 'toast', params: PURCHASE_TEXT.challengeCancelled },
              ],
            },
          },
        },
        answeringChallenge: {
          description: "The challenge's answer goes to the server, which asks the gateway whether the bank confirmed.",
          invoke: {
            id: 'submitChallenge',
            src: 'submitChallenge',
            input: ({ context }) => ({ context, details: context.challengeDetails ?? {} }),
            onDone: [
              {
                guard: { type: 'isPaidByStoredCard', params: ({ event }) => event.output },
                target: '#purchase.confirmed',
                actions: ['clearAction', { type: 'storeOutcome', params: ({ event }) => event.output }],
              },
              {
                guard: { type: 'holdIsOver', params: ({ event }) => event.output },
                target: '#purchase.expired',
                actions: ['clearAction', { type: 'storeOutcome', params: ({ event }) => event.output }],
              },
              {
                target: '#purchase.payable',
                actions: [
                  'clearAction',
                  { type: 'storeOutcome', params: ({ event }) => event.output },
                  { type: 'renewKey', params: 'pay' },
                  { type: 'toast', params: ({ event }) => event.output.result.message },
                ],
              },
            ],
            onError: {
              target: '#purchase.payable',
              actions: [
                'clearAction',
                {
                  type: 'renewKeyIfAnswered',
                  params: ({ event }: { event: { error: unknown } }) => ({ name: 'pay' as const, error: event.error }),
                },
                { type: 'storeFailure', params: PURCHASE_TEXT.processingFailed },
                { type: 'toast', params: PURCHASE_TEXT.processingFailed },
              ],
            },
          },
        },
      },
    },
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
