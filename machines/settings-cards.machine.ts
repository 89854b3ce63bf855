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

export interface StoredCardsContext {
  /** The card a removal is about. */
  target: StoredCard | null;
}

export type StoredCardsEvent =
  | { type: 'remove.requested'; card: StoredCard }
  | { type: 'remove.confirmed' }
  | { type: 'remove.cancelled' };

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
  },
  actions: {
    pickTarget: assign(({ event }) => (event.type === 'remove.requested' ? { target: event.card } : {})),
    forgetTarget: assign({ target: null }),
    reloadList: enqueueActions(({ enqueue, system }) => {
      const list = system.get('cardList');
      if (list) enqueue.sendTo(list, { type: 'list.refreshed' });
    }),
    notifyRemoved: emit({ type: 'notify', level: 'success', message: 'Card removed.' } as const),
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
  context: { target: null },
  invoke: { id: 'cardList', systemId: 'cardList', src: 'cardList', input: { filters: {} } },
  initial: 'browsing',
  states: {
    browsing: { on: { 'remove.requested': { target: 'confirming', actions: 'pickTarget' } } },
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
