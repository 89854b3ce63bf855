import { messageOf } from '../../openapi/client';
import { purchaseSetup } from './actions';
import { PURCHASE_TEXT } from './api';

/** Review Purchase: the quantity (priced again by the server), the billing address and the payment method. */
export const editing = purchaseSetup.createStateConfig({
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
});

/** Submit: the cart (a 15-minute hold), then the booking from it. */
export const submitting = purchaseSetup.createStateConfig({
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
              params: ({ event }: { event: { error: unknown } }) => messageOf(event.error, PURCHASE_TEXT.bookingFailed),
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
});
