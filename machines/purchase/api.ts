import { fromPromise } from 'xstate';
import { api, unwrap } from '../../openapi/client';
import { CITIES_ERROR, loadCities } from '../reference-api';
import { toAttendees } from './forms';
import type {
  Booking,
  Cart,
  ChallengeDetails,
  Country,
  CurrencyCode,
  PanelData,
  PaymentMethodCode,
  PaymentOutcome,
  PriceBreakdown,
  PurchaseContext,
} from './types';

/** The purchase's calls to the server: the purchase statechart's actors (machines/purchase.machine.ts). */

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
  challengeCancelled:
    'You did not confirm the payment with your bank: nothing was charged. Pay again or choose another way.',
} as const;

const header = (key: string) => ({ header: { 'Idempotency-Key': key } });

/** The browser as 3-D Secure 2 asks for it (Adyen's browserInfo); nothing outside a browser. */
function browserInfo() {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return {};
  return {
    browser_info: {
      userAgent: navigator.userAgent.slice(0, 500),
      acceptHeader: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
      language: (navigator.language || 'en').slice(0, 35),
      colorDepth: Math.min(64, Math.max(1, window.screen?.colorDepth || 24)),
      screenHeight: Math.min(100_000, window.screen?.height || 0),
      screenWidth: Math.min(100_000, window.screen?.width || 0),
      timeZoneOffset: new Date().getTimezoneOffset(),
      javaEnabled: false,
    },
  };
}

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

export const purchaseActors = {
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
          ...browserInfo(),
        },
        signal,
      }),
      PURCHASE_TEXT.processingFailed,
    ),
  ),
  submitChallenge: fromPromise<PaymentOutcome, { context: PurchaseContext; details: ChallengeDetails }>(
    async ({ input: { context, details }, signal }) =>
      unwrap(
        await api.POST('/adyen/payment-details', {
          params: header(context.keys.pay),
          body: { booking_id: context.booking?.booking_id ?? 0, details },
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
};
