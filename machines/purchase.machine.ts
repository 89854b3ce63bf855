import * as v from 'valibot';
import { assign, emit, fromPromise, setup, stateIn } from 'xstate';
import { ApiError, api, type DataOf, messageOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { createBookingBody } from '../openapi/valibot';
import { type CardPaymentOutput, cardPaymentMachine } from './card-payment.machine';
import { type FieldErrors, fieldLimits, issuesToErrors, serverErrorsToFields } from './form.machine';
import { type NotifyEvent, notifyError } from './notify';
import { CITIES_ERROR, loadCities } from './reference-api';

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

/** The spec's client constants (section 9). */
export const CLIENT_COUNTRY = 'IN';
export const LANG = 'en';

/** The spec's texts of the purchase (sections 4, 5 and 8). */
export const PURCHASE_TEXT = {
  confirmed: 'Booking Confirmed Successfully',
  noBillingAddress: 'Please add a billing address',
  guestsMissing: 'submit all guest details',
  guestsError: 'An error occurred while validating guest details',
  loadFailed: 'Failed to load address and payment details',
  citiesFailed: CITIES_ERROR,
  priceFailed: 'Failed to fetch data',
  bookingFailed: 'Booking failed',
  confirmationFailed: 'Booking confirmation failed',
  paymentError: 'An error occurred during payment',
  processingFailed: 'Payment processing failed',
  holdExpired: 'Your hold on these tickets has run out: they have been released.',
} as const;

/** The billing form (spec section 3), for the 'other' address. */
export interface BillingValues {
  first_name: string;
  last_name: string;
  email: string;
  dialing_code: string;
  mobile_no: string;
  /** The country id. */
  country: number | null;
  /** The city id (optional). */
  city: number | null;
  address: string;
  postal_code: string;
}
export type BillingField = keyof BillingValues;

/** The length limits of the billing fields, from the contract's createBooking body. */
export const BILLING_LIMITS = fieldLimits(createBookingBody());

const required = (message: string, field: BillingField) =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.nonEmpty(message),
    v.maxLength(BILLING_LIMITS[field]?.maxLength ?? 300, `Use at most ${BILLING_LIMITS[field]?.maxLength} characters.`),
  );
const optional = (field: BillingField) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(BILLING_LIMITS[field]?.maxLength ?? 300, `Use at most ${BILLING_LIMITS[field]?.maxLength} characters.`),
  );

/** The spec's mandatory billing fields (section 5): first name, last name, email, address, country, postal code. */
export const billingSchema = v.object({
  first_name: required('Enter the first name.', 'first_name'),
  last_name: required('Enter the last name.', 'last_name'),
  email: v.pipe(required('Enter the email address.', 'email'), v.email('Enter a valid email address.')),
  dialing_code: optional('dialing_code'),
  mobile_no: optional('mobile_no'),
  country: v.number('Choose the country.'),
  city: v.nullable(v.number()),
  address: required('Enter the address.', 'address'),
  postal_code: required('Enter the postal code.', 'postal_code'),
});

const emptyBilling = (): BillingValues => ({
  first_name: '',
  last_name: '',
  email: '',
  dialing_code: '',
  mobile_no: '',
  country: null,
  city: null,
  address: '',
  postal_code: '',
});

const billingProblems = (values: BillingValues): FieldErrors => {
  const result = v.safeParse(billingSchema, values, { abortPipeEarly: true });
  return result.success ? {} : issuesToErrors(result.issues);
};

/** The guests' answers: by guest index (the attendee number), each field's value. */
export type GuestValues = Readonly<Record<number, Partial<Record<GuestField, string>>>>;

/** The latest date of birth a guest may have: 31 December of the calendar year two years ago (spec section 5). */
export function latestBirthDate(now: Date): string {
  return `${now.getUTCFullYear() - 2}-12-31`;
}

/** A guest's problems by `<index>.<field>`: every required field non-empty, the date of birth within its bound. */
export function guestProblems(booking: Booking | null, guests: GuestValues, now: Date): FieldErrors {
  const errors: Record<string, string> = {};
  for (const entry of booking?.guest_data.list ?? []) {
    for (const field of entry.required_fields) {
      const value = guests[entry.index]?.[field]?.trim() ?? '';
      if (!value) errors[`${entry.index}.${field}`] = 'This field is required.';
      else if (field === 'date_of_birth' && value > latestBirthDate(now))
        errors[`${entry.index}.${field}`] = `The date of birth must be on or before ${latestBirthDate(now)}.`;
    }
  }
  return errors;
}

/** The guests' answers as the contract's attendees: one per guest, each required field's value. */
export function toAttendees(booking: Booking, guests: GuestValues) {
  return booking.guest_data.list.map((entry) => ({
    attendee_number: entry.index,
    fields: entry.required_fields.map((field) => ({ field, value: guests[entry.index]?.[field]?.trim() ?? '' })),
  }));
}

/** The buyer's own details as guest answers (from the chosen billing address). */
export function buyerAsGuest(context: PurchaseContext): Partial<Record<GuestField, string>> {
  const saved = context.addresses.find((a) => a.address_id === context.addressChoice);
  if (saved) {
    return {
      first_name: saved.first_name,
      last_name: saved.last_name,
      contact_email: saved.email,
      contact_phone: [saved.country_code, saved.mobile_number].filter(Boolean).join(' '),
      country_of_residence: saved.country_name,
      city: saved.city_name ?? '',
      street_name: saved.address,
      zip: saved.zip_code,
    };
  }
  const b = context.billing;
  return {
    first_name: b.first_name,
    last_name: b.last_name,
    contact_email: b.email,
    contact_phone: [b.dialing_code, b.mobile_no].filter(Boolean).join(' '),
    country_of_residence: context.countries.find((c) => c.id === b.country)?.name ?? '',
    city: context.cities.find((c) => c.id === b.city)?.name ?? '',
    street_name: b.address,
    zip: b.postal_code,
  };
}

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

const header = (key: string) => ({ header: { 'Idempotency-Key': key } });

/** A refusal (4xx) is an answer: the next try is a new action with a new key. A network failure or 5xx is not. */
const isAnswered = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;
const isHoldOver = (reason: string | null | undefined) => reason === 'hold_expired' || reason === 'booking_cancelled';

const recalculate = fromPromise<
  PriceBreakdown,
  { sellTicketId: number; currency: CurrencyCode; quantity: number; method: PaymentMethodCode }
>(async ({ input, signal }) => {
  const data = unwrap(
    await api.POST('/purchase/lmt-trade/tickets-quantity-update/{sell_ticket_id}', {
      params: { path: { sell_ticket_id: input.sellTicketId } },
      body: { currency: input.currency, quantity: input.quantity, payment_method: input.method },
      signal,
    }),
  );
  return data.purchase.price_breakdown;
});

const confirmBooking = fromPromise<PaymentOutcome, { context: PurchaseContext; paymentIntentId?: string }>(
  async ({ input: { context, paymentIntentId }, signal }) =>
    unwrap(
      await api.POST('/purchase/lmt-trade/confirmation', {
        params: header(context.keys.pay),
        body: {
          booking_id: context.booking?.booking_id ?? 0,
          payment_method: paymentIntentId ? 2 : 1,
          ...(paymentIntentId ? { payment_intent_id: paymentIntentId } : {}),
          lang: LANG,
          client_country: CLIENT_COUNTRY,
        },
        signal,
      }),
      PURCHASE_TEXT.confirmationFailed,
    ),
);

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
    loadPanel: fromPromise<PanelData, { sellTicketId: number; currency: CurrencyCode; quantity?: number }>(
      async ({ input, signal }) => {
        const [ticket, addresses, methods] = await Promise.all([
          api.GET('/purchase/lmt-trade/tickets/{sell_ticket_id}', {
            params: {
              path: { sell_ticket_id: input.sellTicketId },
              query: {
                currency: input.currency,
                quantity: input.quantity || undefined,
                payment_method: 1,
                client_country: CLIENT_COUNTRY,
                lang: LANG,
              },
            },
            signal,
          }),
          api.GET('/settings/address-book', { signal }),
          api.GET('/purchase/lmt-trade/payment-methods', { params: { query: { currency: input.currency } }, signal }),
        ]);
        const data = unwrap(ticket);
        return {
          listing: data.listing,
          breakdown: data.purchase.price_breakdown,
          addresses: unwrap(addresses),
          paymentMethods: unwrap(methods).payment_methods,
        };
      },
    ),
    recalculate,
    // the booking's own total for another method: priced from the booking (its hold has taken the listing's
    // tickets, so the listing's quote of that quantity would answer 'not found' when it held them all)
    reprice: fromPromise<PriceBreakdown, { bookingId: number; method: PaymentMethodCode }>(
      async ({ input, signal }) =>
        unwrap(
          await api.GET('/purchase/lmt-trade/bookings/{booking_id}', {
            params: { path: { booking_id: input.bookingId }, query: { payment_method: input.method } },
            signal,
          }),
        ).price_breakdown,
    ),
    loadCountries: fromPromise<Country[]>(async ({ signal }) => unwrap(await api.GET('/countries', { signal }))),
    loadCities,
    createCart: fromPromise<Cart, { context: PurchaseContext }>(async ({ input: { context }, signal }) =>
      unwrap(
        await api.POST('/purchase/lmt-trade/add-to-cart', {
          params: {
            ...header(context.keys.cart),
            query: {
              currrency: context.currency,
              client_country: CLIENT_COUNTRY,
              lang: LANG,
              match_id: context.matchId,
              quantity: context.quantity,
              sell_ticket_id: context.sellTicketId,
              payment_method: context.method,
            },
          },
          signal,
        }),
        PURCHASE_TEXT.bookingFailed,
      ),
    ),
    createBooking: fromPromise<Booking, { context: PurchaseContext }>(async ({ input: { context }, signal }) => {
      const b = context.billing;
      const billing =
        typeof context.addressChoice === 'number'
          ? { address_id: context.addressChoice }
          : {
              first_name: b.first_name.trim(),
              last_name: b.last_name.trim(),
              email: b.email.trim(),
              ...(b.dialing_code.trim() ? { dialing_code: b.dialing_code.trim() } : {}),
              ...(b.mobile_no.trim() ? { mobile_no: b.mobile_no.trim() } : {}),
              ...(b.country !== null ? { country: b.country } : {}),
              city: b.city,
              address: b.address.trim(),
              postal_code: b.postal_code.trim(),
            };
      return unwrap(
        await api.POST('/purchase/lmt-trade/inventory/buy/{sell_ticket_id}', {
          params: { ...header(context.keys.booking), path: { sell_ticket_id: context.sellTicketId } },
          body: {
            cart_id: context.cart?.cart_id ?? 0,
            lang: LANG,
            client_country: CLIENT_COUNTRY,
            payment_method: context.method,
            ...billing,
          },
          signal,
        }),
        PURCHASE_TEXT.bookingFailed,
      );
    }),
    submitGuests: fromPromise<Booking, { context: PurchaseContext }>(async ({ input: { context }, signal }) => {
      const booking = context.booking as Booking;
      return unwrap(
        await api.POST('/purchase/atendee-update-bulk/{booking_id}', {
          params: { ...header(context.keys.guests), path: { booking_id: booking.booking_id } },
          body: { attendees: toAttendees(booking, context.guests) },
          signal,
        }),
        PURCHASE_TEXT.guestsError,
      );
    }),
    confirmSbPay: confirmBooking,
    confirmCardBooking: confirmBooking,
    payStoredCard: fromPromise<PaymentOutcome, { context: PurchaseContext }>(async ({ input: { context }, signal }) =>
      unwrap(
        await api.POST('/adyen/pay-with-saved-card', {
          params: header(context.keys.pay),
          body: {
            booking_id: context.booking?.booking_id ?? 0,
            payment_method: 3,
            recurringDetailReference: context.storedCard ?? '',
          },
          signal,
        }),
        PURCHASE_TEXT.processingFailed,
      ),
    ),
    cancelBooking: fromPromise<Booking, { context: PurchaseContext }>(async ({ input: { context }, signal }) =>
      unwrap(
        await api.POST('/purchase/lmt-trade/bookings/{booking_id}/cancel', {
          params: { ...header(context.keys.cancel), path: { booking_id: context.booking?.booking_id ?? 0 } },
          signal,
        }),
      ),
    ),
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
