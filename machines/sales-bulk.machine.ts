import { type ActorRef, assign, enqueueActions, fromPromise, type Snapshot, setup } from 'xstate';
import { type BulkOrderAction, type BulkOrderResults, sendBulkOrderAction } from './sales-api';

export type { BulkOrderAction, BulkOrderResults };
export const BULK_FAILED = 'The orders could not be changed. Nothing was changed; try again.';

export interface SalesBulkContext {
  /** The orders ticked in the list, in the order they were ticked. */
  selected: number[];
  action: BulkOrderAction | null;
  reason: string;
  results: BulkOrderResults | null;
  error: string | null;
}

export type SalesBulkEvent =
  | { type: 'selection.toggled'; id: number }
  /** Ticks every order given (the page's), or clears them when all are ticked already. */
  | { type: 'selection.allToggled'; ids: readonly number[] }
  | { type: 'selection.cleared' }
  /** The ticked orders the seller sees (a page's), with what to do with them. */
  | { type: 'bulk.requested'; action: BulkOrderAction; ids: readonly number[] }
  | { type: 'reason.changed'; reason: string }
  | { type: 'bulk.confirmed' }
  | { type: 'bulk.cancelled' }
  | { type: 'results.dismissed' };

type SalesChanged = { type: 'order.changed'; id: number; status: string };

/**
 * Working through pending sales from the list: the seller ticks orders, asks to accept or decline them, reads a
 * confirmation that says what will happen (a decline needs a reason), and the call (POST /sales/order-actions)
 * answers per order: each that went through, and each that could not with why. The page's lists, overview and
 * the menu's counts then reload. In the app's actor system as `salesBulk`.
 */
export const salesBulkMachine = setup({
  types: { context: {} as SalesBulkContext, events: {} as SalesBulkEvent },
  actors: {
    sendBulk: fromPromise<BulkOrderResults, { ids: number[]; action: BulkOrderAction; reason: string }>(({ input }) =>
      sendBulkOrderAction(input.ids, input.action, input.reason),
    ),
  },
  guards: {
    hasSelection: ({ event }) => event.type === 'bulk.requested' && event.ids.length > 0,
    hasReason: ({ context }) => context.action !== 'decline' || context.reason.trim() !== '',
  },
  actions: {
    toggle: assign({
      selected: ({ context, event }) => {
        if (event.type !== 'selection.toggled') return context.selected;
        return context.selected.includes(event.id)
          ? context.selected.filter((id) => id !== event.id)
          : [...context.selected, event.id];
      },
    }),
    toggleAll: assign({
      selected: ({ context, event }) => {
        if (event.type !== 'selection.allToggled') return context.selected;
        const all = event.ids.every((id) => context.selected.includes(id));
        return all
          ? context.selected.filter((id) => !event.ids.includes(id))
          : [...context.selected, ...event.ids.filter((id) => !context.selected.includes(id))];
      },
    }),
    clearSelection: assign({ selected: [] }),
    storeAction: assign({
      action: ({ context, event }) => (event.type === 'bulk.requested' ? event.action : context.action),
      selected: ({ context, event }) => (event.type === 'bulk.requested' ? [...event.ids] : context.selected),
      reason: '',
    }),
    storeReason: assign({
      reason: ({ context, event }) => (event.type === 'reason.changed' ? event.reason : context.reason),
    }),
    storeResults: assign((_, params: { results: BulkOrderResults }) => ({
      results: params.results,
      error: null,
      // the list reloads without the orders that changed: nothing stays ticked that the seller cannot see
      selected: [],
    })),
    storeError: assign({ error: BULK_FAILED }),
    forget: assign({ action: null, reason: '', results: null, error: null }),
    /** The page reloads its lists and overview, the menu its counts. */
    tellChanged: enqueueActions(({ context, system, enqueue }) => {
      const changed = context.results?.results.find((r) => r.ok);
      if (!changed) return;
      const page: ActorRef<Snapshot<unknown>, SalesChanged> | undefined = system.get('sales');
      if (page) enqueue.sendTo(page, { type: 'order.changed', id: changed.booking_id, status: changed.status });
      const counts: ActorRef<Snapshot<unknown>, { type: 'counts.refreshed' }> | undefined = system.get('menuCounts');
      if (counts) enqueue.sendTo(counts, { type: 'counts.refreshed' });
    }),
  },
}).createMachine({
  id: 'salesBulk',
  context: { selected: [], action: null, reason: '', results: null, error: null },
  initial: 'selecting',
  states: {
    selecting: {
      description: 'The seller ticks the pending orders to work on.',
      on: {
        'selection.toggled': { actions: 'toggle' },
        'selection.allToggled': { actions: 'toggleAll' },
        'selection.cleared': { actions: 'clearSelection' },
        'bulk.requested': { guard: 'hasSelection', target: 'confirming', actions: 'storeAction' },
      },
    },
    confirming: {
      description: 'A confirmation says what will happen to the ticked orders; declining them needs a reason.',
      on: {
        'reason.changed': { actions: 'storeReason' },
        'bulk.confirmed': { guard: 'hasReason', target: 'sending' },
        'bulk.cancelled': { target: 'selecting', actions: 'forget' },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'sendBulk',
        src: 'sendBulk',
        input: ({ context }) => ({
          ids: context.selected,
          action: context.action ?? 'accept',
          reason: context.reason,
        }),
        onDone: {
          target: 'done',
          actions: [{ type: 'storeResults', params: ({ event }) => ({ results: event.output }) }, 'tellChanged'],
        },
        onError: { target: 'confirming', actions: 'storeError' },
      },
    },
    done: {
      description: 'Each order says whether it went through, and why not when it could not.',
      on: {
        'results.dismissed': { target: 'selecting', actions: 'forget' },
        'selection.toggled': { target: 'selecting', actions: ['forget', 'toggle'] },
        'bulk.requested': { guard: 'hasSelection', target: 'confirming', actions: ['forget', 'storeAction'] },
      },
    },
  },
});
