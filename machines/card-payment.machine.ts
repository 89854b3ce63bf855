import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import { assign, emit, fromPromise, setup } from 'xstate';
import { ApiError, api, type DataOf, messageOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { type NotifyEvent, notifyError } from './notify';

export type CurrencyCode = components['schemas']['CurrencyCode'];
export type PaymentConfig = DataOf<'/settings/lmt-pay/payment-config', 'get'>;
export type PaymentIntent = DataOf<'/payments/create-payment-intent', 'post'>;

/** The spec's texts of the card step (sections 2, 5 and 8). */
export const CARD_TEXT = {
  details: 'Payment Details',
  processing: 'Processing Payment...',
  failed: 'Payment Failed',
  retry: 'Retry Payment',
  loadFailed: 'Failed to load payment form',
  stripeNotLoaded: 'Stripe is not loaded yet',
  formNotReady: 'Payment form is not ready',
  intentFailed: 'Failed to create payment intent',
  paymentError: 'An error occurred during payment',
  unexpected: 'An unexpected error occurred. Please try again later.',
  challenge: 'Your bank asks you to confirm this payment',
  challengeCancelled: 'You did not confirm the payment with your bank: nothing was charged.',
} as const;

/** 'Payment failed: {reason}' (spec section 8). */
export const paymentFailedText = (reason: string) => `Payment failed: ${reason}`;

/** A refusal (4xx) is the server's answer, with a reason for the person; a network failure or 5xx is not. */
const isRefusal = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

/** The card as typed into the sandbox's plain form (the sandbox gateway needs no Stripe.js). */
export interface SandboxCard {
  number: string;
  /** 'MM/YY' */
  expiry: string;
  cvc: string;
}

/** What confirming the card answered, in the shape of Stripe.js's confirmCardPayment. */
export interface CardResult {
  status: 'succeeded' | 'requires_payment_method' | 'requires_action' | 'processing' | string;
  paymentIntentId: string;
  error: { message: string; code: string | null; decline_code: string | null } | null;
}

export interface CardPaymentInput {
  bookingId: number;
  bookingNo: string;
  /** The booking's method-2 total_with_payment_fee, in minor units (what the intent charges). */
  amount: number;
  currency: CurrencyCode;
  /** Makes an Idempotency-Key (one per intended action); default crypto.randomUUID. */
  makeKey?: () => string;
}

export interface CardPaymentContext extends Omit<CardPaymentInput, 'makeKey'> {
  makeKey: () => string;
  config: PaymentConfig | null;
  /** Stripe.js, once loaded (gateway 'stripe' only). */
  stripe: Stripe | null;
  /** Stripe's card element, once the view has mounted it. */
  element: StripeCardElement | null;
  /** Whether the card element says the card is complete (Stripe), or the typed card (sandbox). */
  cardComplete: boolean;
  sandboxCard: SandboxCard;
  /** The problem shown under the card: Stripe's inline error, the sandbox's checks, or the spec's texts. */
  cardError: string | null;
  intent: PaymentIntent | null;
  /** Why the last attempt failed (shown on 'Payment Failed'). */
  failure: string | null;
  /** The succeeded intent's id: the card step's output. */
  paymentIntentId: string | null;
  keys: { intent: string; confirm: string };
}

export type CardPaymentEvent =
  | { type: 'card.viewReady' }
  | { type: 'card.elementReady'; element: StripeCardElement | null }
  | { type: 'card.changed'; complete: boolean; error: string | null }
  | { type: 'sandbox.changed'; field: keyof SandboxCard; value: string }
  | { type: 'card.submitted' }
  | { type: 'card.retried' }
  | { type: 'card.cancelled' }
  | { type: 'challenge.completed' }
  | { type: 'challenge.cancelled' };

/** How the card step ended: paid (confirm the booking with this intent), or cancelled (the buttons come back). */
export type CardPaymentOutput = { status: 'succeeded'; paymentIntentId: string } | { status: 'cancelled' };

export interface ConfirmInput {
  gateway: 'stripe' | 'sandbox';
  stripe: Stripe | null;
  element: StripeCardElement | null;
  clientSecret: string;
  sandboxCard: SandboxCard;
  key: string;
}

/** The sandbox card's own checks before it is sent (the server checks again). */
export function sandboxCardProblem(card: SandboxCard): string | null {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return 'Your card number is incomplete.';
  if (!/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/.test(card.expiry.trim())) return "Your card's expiration date is incomplete.";
  if (!/^\d{3,4}$/.test(card.cvc.trim())) return "Your card's security code is incomplete.";
  return null;
}

function parseExpiry(expiry: string) {
  const [month = '0', year = '0'] = expiry.split('/').map((part) => part.trim());
  return { exp_month: Number(month), exp_year: 2000 + Number(year) };
}

type StripeAnswer = Pick<Awaited<ReturnType<Stripe['confirmCardPayment']>>, 'paymentIntent' | 'error'>;
const resultOf = ({ paymentIntent, error }: StripeAnswer): CardResult => ({
  status: paymentIntent?.status ?? 'requires_payment_method',
  paymentIntentId: paymentIntent?.id ?? error?.payment_intent?.id ?? '',
  error: error
    ? {
        message: error.message ?? CARD_TEXT.paymentError,
        code: error.code ?? null,
        decline_code: error.decline_code ?? null,
      }
    : null,
});

async function confirmCard(input: ConfirmInput, signal: AbortSignal): Promise<CardResult> {
  if (input.gateway === 'stripe') {
    if (!input.stripe || !input.element) throw new Error(CARD_TEXT.formNotReady);
    // the bank's challenge is the next step of this machine (authenticating), not hidden inside this call
    return resultOf(
      await input.stripe.confirmCardPayment(
        input.clientSecret,
        { payment_method: { card: input.element } },
        { handleActions: false },
      ),
    );
  }
  const data = unwrap(
    await api.POST('/payments/sandbox/confirm-card', {
      params: { header: { 'Idempotency-Key': input.key } },
      body: {
        client_secret: input.clientSecret,
        card_number: input.sandboxCard.number,
        cvc: input.sandboxCard.cvc.trim(),
        ...parseExpiry(input.sandboxCard.expiry),
      },
      signal,
    }),
  );
  return { status: data.payment_intent.status, paymentIntentId: data.payment_intent.id, error: data.error };
}

export interface AuthenticateInput {
  gateway: 'stripe' | 'sandbox';
  stripe: Stripe | null;
  clientSecret: string;
  key: string;
}

/** The bank's challenge answered: Stripe.js shows it (handleNextAction), or the sandbox's stand-in answers it. */
async function authenticateCard(input: AuthenticateInput, signal: AbortSignal): Promise<CardResult> {
  if (input.gateway === 'stripe') {
    if (!input.stripe) throw new Error(CARD_TEXT.stripeNotLoaded);
    return resultOf((await input.stripe.handleNextAction({ clientSecret: input.clientSecret })) as StripeAnswer);
  }
  const data = unwrap(
    await api.POST('/payments/sandbox/authenticate', {
      params: { header: { 'Idempotency-Key': input.key } },
      body: { client_secret: input.clientSecret },
      signal,
    }),
  );
  return { status: data.payment_intent.status, paymentIntentId: data.payment_intent.id, error: data.error };
}

/**
 * The card step of a purchase (payment method 2), started by the purchase machine once the booking holds the
 * tickets: it reads the payment config (the gateway, and the publishable key of the booking's currency), loads
 * Stripe.js only for the 'stripe' gateway (the sandbox takes a plain card form), shows 'Payment Details',
 * creates the payment intent on submit ('Processing Payment...'), confirms the card, and ends with the
 * succeeded intent's id. A refused card shows 'Payment Failed' with Retry Payment and Cancel; Cancel ends the
 * step without paying, and the purchase keeps its hold.
 */
export const cardPaymentMachine = setup({
  types: {
    context: {} as CardPaymentContext,
    input: {} as CardPaymentInput,
    events: {} as CardPaymentEvent,
    emitted: {} as NotifyEvent,
    output: {} as CardPaymentOutput,
  },
  actors: {
    loadConfig: fromPromise<PaymentConfig, { currency: CurrencyCode }>(async ({ input, signal }) =>
      unwrap(
        await api.GET('/settings/lmt-pay/payment-config', { params: { query: { currency: input.currency } }, signal }),
      ),
    ),
    // the pure entry point: Stripe's script is fetched only now, on the card step, never at import time
    loadStripe: fromPromise<Stripe | null, { publishableKey: string }>(async ({ input }) => {
      const { loadStripe } = await import('@stripe/stripe-js/pure');
      return loadStripe(input.publishableKey);
    }),
    createIntent: fromPromise<PaymentIntent, { context: CardPaymentContext }>(async ({ input: { context }, signal }) =>
      unwrap(
        await api.POST('/payments/create-payment-intent', {
          params: { header: { 'Idempotency-Key': context.keys.intent } },
          body: {
            gateway: 'stripe',
            amount: context.amount,
            currency: context.currency,
            metadata: { order_id: context.bookingNo, booking_id: context.bookingId },
          },
          signal,
        }),
        CARD_TEXT.intentFailed,
      ),
    ),
    confirmCard: fromPromise<CardResult, ConfirmInput>(({ input, signal }) => confirmCard(input, signal)),
    authenticateCard: fromPromise<CardResult, AuthenticateInput>(({ input, signal }) =>
      authenticateCard(input, signal),
    ),
  },
  guards: {
    usesStripe: (_, config: PaymentConfig) => config.gateway === 'stripe',
    stripeMissing: ({ context }) => context.config?.gateway === 'stripe' && context.stripe === null,
    elementMissing: ({ context }) => context.config?.gateway === 'stripe' && context.element === null,
    sandboxCardInvalid: ({ context }) =>
      context.config?.gateway !== 'stripe' && sandboxCardProblem(context.sandboxCard) !== null,
    hasIntent: ({ context }) => context.intent !== null,
    succeeded: (_, result: CardResult) => result.status === 'succeeded' && result.error === null,
    needsAction: (_, result: CardResult) => result.status === 'requires_action' && result.error === null,
    stripeAnswers: ({ context }) => context.config?.gateway === 'stripe',
  },
  actions: {
    storeConfig: assign((_, config: PaymentConfig) => ({ config })),
    storeStripe: assign((_, stripe: Stripe | null) => ({ stripe })),
    storeElement: assign(({ event }) => (event.type === 'card.elementReady' ? { element: event.element } : {})),
    storeCardState: assign(({ event }) =>
      event.type === 'card.changed' ? { cardComplete: event.complete, cardError: event.error } : {},
    ),
    storeSandboxCard: assign(({ context, event }) =>
      event.type === 'sandbox.changed'
        ? { sandboxCard: { ...context.sandboxCard, [event.field]: event.value }, cardError: null }
        : {},
    ),
    sayStripeNotLoaded: assign({ cardError: CARD_TEXT.stripeNotLoaded }),
    sayFormNotReady: assign({ cardError: CARD_TEXT.formNotReady }),
    saySandboxProblem: assign(({ context }) => ({ cardError: sandboxCardProblem(context.sandboxCard) })),
    clearProblems: assign({ cardError: null, failure: null }),
    storeIntent: assign((_, intent: PaymentIntent) => ({ intent })),
    storeSuccess: assign((_, result: CardResult) => ({ paymentIntentId: result.paymentIntentId })),
    sayChallengeCancelled: assign({ failure: CARD_TEXT.challengeCancelled }),
    toastChallengeCancelled: emit(notifyError(CARD_TEXT.challengeCancelled)),
    storeDecline: assign((_, result: CardResult) => ({
      failure: result.error?.message ?? CARD_TEXT.paymentError,
    })),
    // a refusal's reason goes under the form; a network failure or a 5xx says nothing a person can act on there
    storeError: assign((_, error: unknown) => ({ failure: isRefusal(error) ? messageOf(error) : null })),
    // a new attempt is a new action; the intent (one per booking and amount) is asked for again under it
    renewKeys: assign(({ context }) => ({ keys: { intent: context.makeKey(), confirm: context.makeKey() } })),
    toastLoadFailed: emit(notifyError(CARD_TEXT.loadFailed)),
    toastIntentFailed: emit(notifyError(CARD_TEXT.intentFailed)),
    toastDecline: emit((_, result: CardResult) =>
      notifyError(paymentFailedText(result.error?.message ?? result.status)),
    ),
    toastPaymentError: emit((_, error: unknown) =>
      notifyError(isRefusal(error) ? CARD_TEXT.paymentError : CARD_TEXT.unexpected),
    ),
  },
}).createMachine({
  id: 'cardPayment',
  context: ({ input }) => {
    const makeKey = input.makeKey ?? (() => crypto.randomUUID());
    return {
      bookingId: input.bookingId,
      bookingNo: input.bookingNo,
      amount: input.amount,
      currency: input.currency,
      makeKey,
      config: null,
      stripe: null,
      element: null,
      cardComplete: false,
      sandboxCard: { number: '', expiry: '', cvc: '' },
      cardError: null,
      intent: null,
      failure: null,
      paymentIntentId: null,
      keys: { intent: makeKey(), confirm: makeKey() },
    };
  },
  initial: 'awaitingView',
  states: {
    awaitingView: {
      description:
        "The card form's view is loading: it listens for the step's toasts before anything is asked, so that a failure that comes at once is still said.",
      tags: ['loading'],
      on: { 'card.viewReady': 'loadingConfig', 'card.cancelled': 'cancelled' },
    },
    loadingConfig: {
      description: 'Which gateway takes the card, and the publishable key of the booking currency.',
      tags: ['loading'],
      invoke: {
        id: 'loadConfig',
        src: 'loadConfig',
        input: ({ context }) => ({ currency: context.currency }),
        onDone: [
          {
            guard: { type: 'usesStripe', params: ({ event }) => event.output },
            target: 'loadingStripe',
            actions: { type: 'storeConfig', params: ({ event }) => event.output },
          },
          { target: 'details', actions: { type: 'storeConfig', params: ({ event }) => event.output } },
        ],
        onError: { target: 'loadFailed', actions: 'toastLoadFailed' },
      },
    },
    loadingStripe: {
      description: "Stripe.js from Stripe's network, only now that the card step is open.",
      tags: ['loading'],
      invoke: {
        id: 'loadStripe',
        src: 'loadStripe',
        input: ({ context }) => ({ publishableKey: context.config?.publishable_key ?? '' }),
        // loadStripe answers null where it cannot run (no window): the form then says 'Stripe is not loaded yet'
        onDone: { target: 'details', actions: { type: 'storeStripe', params: ({ event }) => event.output } },
        onError: { target: 'loadFailed', actions: 'toastLoadFailed' },
      },
    },
    loadFailed: {
      description: "'Failed to load payment form': try again, or cancel and pay another way.",
      tags: ['error'],
      on: { 'card.retried': 'loadingConfig', 'card.cancelled': 'cancelled' },
    },
    details: {
      description: "'Payment Details': the card form.",
      on: {
        'card.elementReady': { actions: 'storeElement' },
        'card.changed': { actions: 'storeCardState' },
        'sandbox.changed': { actions: 'storeSandboxCard' },
        'card.submitted': [
          { guard: 'stripeMissing', actions: 'sayStripeNotLoaded' },
          { guard: 'elementMissing', actions: 'sayFormNotReady' },
          { guard: 'sandboxCardInvalid', actions: 'saySandboxProblem' },
          { target: 'processing', actions: 'clearProblems' },
        ],
        'card.cancelled': 'cancelled',
      },
    },
    processing: {
      description: "'Processing Payment...': the intent is made, then the card confirmed.",
      tags: ['submitting'],
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'hasIntent', target: 'confirming' }, { target: 'creatingIntent' }] },
        creatingIntent: {
          invoke: {
            id: 'createIntent',
            src: 'createIntent',
            input: ({ context }) => ({ context }),
            onDone: { target: 'confirming', actions: { type: 'storeIntent', params: ({ event }) => event.output } },
            onError: {
              target: '#cardPayment.failed',
              actions: [
                { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error },
                'toastIntentFailed',
              ],
            },
          },
        },
        confirming: {
          invoke: {
            id: 'confirmCard',
            src: 'confirmCard',
            input: ({ context }) => ({
              gateway: context.config?.gateway ?? 'sandbox',
              stripe: context.stripe,
              element: context.element,
              clientSecret: context.intent?.client_secret ?? '',
              sandboxCard: context.sandboxCard,
              key: context.keys.confirm,
            }),
            onDone: [
              {
                guard: { type: 'succeeded', params: ({ event }) => event.output },
                target: '#cardPayment.succeeded',
                actions: { type: 'storeSuccess', params: ({ event }) => event.output },
              },
              {
                guard: { type: 'needsAction', params: ({ event }) => event.output },
                target: '#cardPayment.authenticating',
              },
              {
                target: '#cardPayment.failed',
                actions: [
                  { type: 'storeDecline', params: ({ event }) => event.output },
                  { type: 'toastDecline', params: ({ event }) => event.output },
                ],
              },
            ],
            onError: {
              target: '#cardPayment.failed',
              actions: [
                { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error },
                { type: 'toastPaymentError', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
      },
    },
    authenticating: {
      description:
        "The card's bank asks the buyer to confirm the payment (3-D Secure): Stripe.js shows its challenge, or the sandbox's stand-in shows in the panel; nothing is charged until it is answered.",
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'stripeAnswers', target: 'answering' }, { target: 'asking' }] },
        asking: {
          description: "The sandbox's challenge: confirm with the bank, or cancel.",
          tags: ['challenge'],
          on: {
            'challenge.completed': 'answering',
            'challenge.cancelled': {
              target: '#cardPayment.failed',
              actions: ['sayChallengeCancelled', 'toastChallengeCancelled'],
            },
          },
        },
        answering: {
          tags: ['submitting'],
          invoke: {
            id: 'authenticateCard',
            src: 'authenticateCard',
            input: ({ context }) => ({
              gateway: context.config?.gateway ?? 'sandbox',
              stripe: context.stripe,
              clientSecret: context.intent?.client_secret ?? '',
              key: context.keys.confirm,
            }),
            onDone: [
              {
                guard: { type: 'succeeded', params: ({ event }) => event.output },
                target: '#cardPayment.succeeded',
                actions: { type: 'storeSuccess', params: ({ event }) => event.output },
              },
              {
                target: '#cardPayment.failed',
                actions: [
                  { type: 'storeDecline', params: ({ event }) => event.output },
                  { type: 'toastDecline', params: ({ event }) => event.output },
                ],
              },
            ],
            onError: {
              target: '#cardPayment.failed',
              actions: [
                { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error },
                { type: 'toastPaymentError', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
      },
    },
    failed: {
      description: "'Payment Failed': Retry Payment shows the card form again; Cancel ends the card step.",
      tags: ['error'],
      on: {
        'card.retried': { target: 'details', actions: ['renewKeys', 'clearProblems'] },
        'card.cancelled': 'cancelled',
      },
    },
    succeeded: { type: 'final', description: 'The card is charged: the purchase confirms the booking.' },
    cancelled: { type: 'final', description: 'Closed without paying: the buttons come back, the hold stays.' },
  },
  output: ({ context }): CardPaymentOutput =>
    context.paymentIntentId
      ? { status: 'succeeded', paymentIntentId: context.paymentIntentId }
      : { status: 'cancelled' },
});
