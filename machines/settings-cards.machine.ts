import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { createListMachine } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';

export type StoredCard = components['schemas']['LinkedCard'];

export const CARDS_LOAD_ERROR = 'Failed to fetch data';

/** The stored cards of the seller the caller works for (one call, no paging). */
export const cardListMachine = createListMachine<StoredCard, Record<string, never>>({
  id: 'cardList',
  fetchPage: async (_request, signal) => {
    const items = unwrap(await api.GET('/settings/lmt-pay/linked-cards', { signal }), CARDS_LOAD_ERROR).linked_cards
      .data;
    return { items, page: 1, lastPage: 1, total: items.length };
  },
  keyOf: (c) => c.id,
  errorMessage: () => CARDS_LOAD_ERROR,
  toastsErrors: () => true,
});

/** The texts of Add a card (the card step's 'Payment Failed' in the words of a verification). */
export const ADD_CARD_TEXT = {
  add: 'Add a card',
  verifying: 'Verifying your card...',
  failed: 'Card not added',
  added: 'Card added.',
  unexpected: 'An unexpected error occurred. Please try again later.',
} as const;

/** The card as typed into the sandbox card form (the sandbox gateway verifies it; no Stripe.js). */
export interface NewCard {
  holder: string;
  number: string;
  /** 'MM/YY' */
  expiry: string;
  cvc: string;
}
const EMPTY_CARD: NewCard = { holder: '', number: '', expiry: '', cvc: '' };

export interface StoredCardsContext {
  /** The card a removal is about. */
  target: StoredCard | null;
  /**
   * Whether Add a card is offered: only when the card gateway can charge what it verifies (getPaymentConfig says
   * gateway 'sandbox' and stored_card_gateway 'sandbox'); with Stripe or Adyen the button is absent.
   */
  canAdd: boolean;
  configLoaded: boolean;
  card: NewCard;
  /** Why the last Add a card failed (the gateway's or the server's words). */
  failure: string | null;
}

export type StoredCardsEvent =
  | { type: 'remove.requested'; card: StoredCard }
  | { type: 'remove.confirmed' }
  | { type: 'remove.cancelled' }
  | { type: 'add.requested' }
  | { type: 'add.changed'; field: keyof NewCard; value: string }
  | { type: 'add.submitted' }
  | { type: 'add.cancelled' }
  | { type: 'add.retried' };

const messageOfError = (error: unknown) =>
  error instanceof Error && error.message ? error.message : ADD_CARD_TEXT.unexpected;

/** 'MM/YY' (or 'MM/YYYY') to month and four-digit year; null when it is not one. */
export function expiryOf(text: string): { month: number; year: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return null;
  const month = Number(m[1]);
  const year = (m[2] as string).length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

const filled = (c: NewCard) =>
  c.holder.trim() !== '' &&
  c.number.replace(/\D/g, '').length >= 12 &&
  expiryOf(c.expiry) !== null &&
  /^\d{3,4}$/.test(c.cvc);

/**
 * Add a card, in three calls: the verification (createLinkedCardPayment with the holder's name), the card
 * confirmed at the sandbox gateway (confirmSandboxCard: a declined card ends here with its reason), and the
 * card stored from what the gateway verified (createLinkedCardPayment with the setup_id).
 */
async function addCard(card: NewCard, signal: AbortSignal): Promise<StoredCard> {
  const key = () => globalThis.crypto.randomUUID();
  const started = unwrap(
    await api.POST('/settings/lmt-pay/create-payment', {
      body: { holder_name: card.holder.trim() },
      params: { header: { 'Idempotency-Key': key() } },
      signal,
    }),
  );
  const expiry = expiryOf(card.expiry) ?? { month: 0, year: 0 };
  const confirmed = unwrap(
    await api.POST('/payments/sandbox/confirm-card', {
      body: {
        client_secret: started.client_secret,
        card_number: card.number,
        exp_month: expiry.month,
        exp_year: expiry.year,
        cvc: card.cvc,
      },
      params: { header: { 'Idempotency-Key': key() } },
      signal,
    }),
  );
  if (confirmed.error) throw new Error(confirmed.error.message);
  const stored = unwrap(
    await api.POST('/settings/lmt-pay/create-payment', {
      body: { setup_id: started.setup_id },
      params: { header: { 'Idempotency-Key': key() } },
      signal,
    }),
  );
  if (!stored.card) throw new Error(ADD_CARD_TEXT.unexpected);
  return stored.card;
}

/**
 * Settings › Stored Cards: the list (the shared list machine, child `cardList`) and Remove after a
 * confirmation; a removal reloads the list. The card stops being offered at checkout (method 3) at once.
 */
export const storedCardsMachine = setup({
  types: {
    context: {} as StoredCardsContext,
    events: {} as StoredCardsEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    cardList: cardListMachine,
    removeCard: fromPromise<unknown, number>(async ({ input, signal }) =>
      unwrap(await api.POST('/settings/lmt-pay/remove-card', { body: { card_id: input }, signal })),
    ),
    loadConfig: fromPromise<boolean>(async ({ signal }) => {
      const config = unwrap(await api.GET('/settings/lmt-pay/payment-config', { signal }));
      return config.gateway === 'sandbox' && config.stored_card_gateway === 'sandbox';
    }),
    addCard: fromPromise<StoredCard, NewCard>(({ input, signal }) => addCard(input, signal)),
  },
  guards: {
    canAdd: ({ context }) => context.canAdd,
    configPending: ({ context }) => !context.configLoaded,
    cardFilled: ({ context }) => filled(context.card),
  },
  actions: {
    pickTarget: assign(({ event }) => (event.type === 'remove.requested' ? { target: event.card } : {})),
    forgetTarget: assign({ target: null }),
    reloadList: enqueueActions(({ enqueue, system }) => {
      const list = system.get('cardList');
      if (list) enqueue.sendTo(list, { type: 'list.refreshed' });
    }),
    notifyRemoved: emit({ type: 'notify', level: 'success', message: 'Card removed.' } as const),
    notifyAdded: emit({ type: 'notify', level: 'success', message: ADD_CARD_TEXT.added } as const),
    setCanAdd: assign((_, canAdd: boolean) => ({ canAdd, configLoaded: true })),
    editCard: assign(({ context, event }) =>
      event.type === 'add.changed' ? { card: { ...context.card, [event.field]: event.value } } : {},
    ),
    clearCard: assign({ card: EMPTY_CARD, failure: null }),
    setFailure: assign((_, error: unknown) => ({ failure: messageOfError(error) })),
    clearFailure: assign({ failure: null }),
    notifyFailure: emit((_, error: unknown) =>
      notifyError(
        error instanceof Error && error.message
          ? error.message
          : 'An unexpected error occurred. Please try again later.',
      ),
    ),
  },
}).createMachine({
  id: 'storedCards',
  context: { target: null, canAdd: false, configLoaded: false, card: EMPTY_CARD, failure: null },
  invoke: { id: 'cardList', systemId: 'cardList', src: 'cardList', input: { filters: {} } },
  initial: 'browsing',
  states: {
    browsing: {
      initial: 'entered',
      states: {
        entered: { always: [{ guard: 'configPending', target: 'configuring' }, { target: 'ready' }] },
        configuring: {
          // once; without the configuration Add a card stays absent and the list works either way
          invoke: {
            id: 'loadConfig',
            src: 'loadConfig',
            onDone: {
              target: 'ready',
              actions: { type: 'setCanAdd', params: ({ event }: { event: { output: boolean } }) => event.output },
            },
            onError: { target: 'ready', actions: { type: 'setCanAdd', params: false } },
          },
        },
        ready: {},
      },
      on: {
        'remove.requested': { target: 'confirming', actions: 'pickTarget' },
        'add.requested': { guard: 'canAdd', target: 'adding', actions: 'clearCard' },
      },
    },
    adding: {
      description: 'Add a card: the card form (name on the card, number, expiry, CVC)',
      initial: 'editing',
      on: { 'add.cancelled': { target: 'browsing', actions: 'clearCard' } },
      states: {
        editing: {
          on: {
            'add.changed': { actions: 'editCard' },
            'add.submitted': { guard: 'cardFilled', target: 'verifying', actions: 'clearFailure' },
          },
        },
        verifying: {
          description: 'Verifying your card... (no money is taken)',
          tags: ['busy'],
          on: { 'add.cancelled': {} },
          invoke: {
            id: 'addCard',
            src: 'addCard',
            input: ({ context }) => context.card,
            onDone: { target: '#storedCards.browsing', actions: ['notifyAdded', 'clearCard', 'reloadList'] },
            onError: {
              target: 'failed',
              actions: { type: 'setFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
        failed: {
          description: 'Card not added: the reason, then change the card and try again, or cancel',
          on: {
            'add.retried': 'editing',
            'add.changed': { target: 'editing', actions: 'editCard' },
          },
        },
      },
    },
    confirming: {
      description: 'Remove this card? (Remove or Cancel)',
      on: {
        'remove.confirmed': 'removing',
        'remove.cancelled': { target: 'browsing', actions: 'forgetTarget' },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        id: 'removeCard',
        src: 'removeCard',
        input: ({ context }) => context.target?.id ?? 0,
        onDone: { target: 'browsing', actions: ['notifyRemoved', 'forgetTarget', 'reloadList'] },
        onError: {
          target: 'browsing',
          actions: [
            { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forgetTarget',
            'reloadList',
          ],
        },
      },
    },
  },
});
