import { assign, emit, fromPromise, setup } from 'xstate';
import {
  deleteListingView,
  FETCH_FAILED,
  type ListingView,
  type ListingViewInput,
  loadListingViews,
  saveListingView,
} from './listings-api';
import { type NotifyEvent, notifyError } from './notify';

export type { ListingView, ListingViewInput };

export type InventoryViewsEvent =
  | { type: 'views.retried' }
  | { type: 'view.saved'; view: ListingViewInput }
  | { type: 'view.deleted'; id: number };

export interface InventoryViewsContext {
  views: ListingView[];
  /** The view the seller saved last (the picker shows it as chosen). */
  lastSaved: number | null;
}

const errorText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

/**
 * Inventory's saved views (filters, sort, columns by name), kept on the server per seller so that the team and
 * another browser see them. Saving a name again replaces that view; a failure to save or delete says why.
 */
export const inventoryViewsMachine = setup({
  types: {
    context: {} as InventoryViewsContext,
    events: {} as InventoryViewsEvent,
    emitted: {} as NotifyEvent | { type: 'view.done'; message: string },
  },
  actors: {
    loadViews: fromPromise<ListingView[]>(({ signal }) => loadListingViews(signal)),
    saveView: fromPromise<ListingView, ListingViewInput>(({ input, signal }) => saveListingView(input, signal)),
    deleteView: fromPromise<number, number>(async ({ input, signal }) => {
      await deleteListingView(input, signal);
      return input;
    }),
  },
  actions: {
    storeViews: assign((_, views: ListingView[]) => ({ views })),
    storeView: assign(({ context }, view: ListingView) => ({
      lastSaved: view.id,
      views: [...context.views.filter((v) => v.id !== view.id), view].sort((a, b) =>
        a.name.toLowerCase().localeCompare(b.name.toLowerCase()),
      ),
    })),
    dropView: assign(({ context }, id: number) => ({
      views: context.views.filter((v) => v.id !== id),
      lastSaved: context.lastSaved === id ? null : context.lastSaved,
    })),
    announce: emit((_, message: string) => ({ type: 'view.done' as const, message })),
    toastError: emit((_, message: string) => notifyError(message)),
  },
}).createMachine({
  id: 'inventoryViews',
  context: { views: [], lastSaved: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadViews',
        src: 'loadViews',
        onDone: { target: 'ready', actions: { type: 'storeViews', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    failed: {
      description: `The views did not load ('${FETCH_FAILED}'): Retry.`,
      tags: ['error'],
      on: { 'views.retried': 'loading' },
    },
    ready: {
      on: {
        'view.saved': 'saving',
        'view.deleted': 'deleting',
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveView',
        src: 'saveView',
        input: ({ event }) => (event as Extract<InventoryViewsEvent, { type: 'view.saved' }>).view,
        onDone: {
          target: 'ready',
          actions: [
            { type: 'storeView', params: ({ event }) => event.output },
            { type: 'announce', params: ({ event }) => `View '${event.output.name}' saved` },
          ],
        },
        onError: {
          target: 'ready',
          actions: { type: 'toastError', params: ({ event }) => errorText(event.error, 'The view was not saved') },
        },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteView',
        src: 'deleteView',
        input: ({ event }) => (event as Extract<InventoryViewsEvent, { type: 'view.deleted' }>).id,
        onDone: {
          target: 'ready',
          actions: [
            { type: 'dropView', params: ({ event }) => event.output },
            { type: 'announce', params: 'View deleted' },
          ],
        },
        onError: {
          target: 'ready',
          actions: { type: 'toastError', params: ({ event }) => errorText(event.error, 'The view was not deleted') },
        },
      },
    },
  },
});
