import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { ApiError } from '../openapi/client';
import { createListMachine, type ListEvent } from './list.machine';
import {
  type AdditionalTemplate,
  type ChangeOutcome,
  type DetailKind,
  deleteListings,
  editListing,
  FETCH_FAILED,
  fetchInventoryPage,
  type InventoryFilters,
  type InventorySort,
  type Listing,
  type ListingDetail,
  type ListingPatch,
  type ListingStatus,
  type ListingTarget,
  type ListingUpdate,
  loadColumnSettings,
  loadListingDetail,
  loadTemplates,
  type PriceAsk,
  saveColumnSettings,
  undoListingChange,
  updateListingPrices,
  updateListingStatus,
} from './listings-api';
import { type NotifyEvent, notifyError } from './notify';

/**
 * A refused change in words: the server's message, and what its field errors say (the edit dialog has no field
 * for some of them: 'Pairs need an even quantity.' is about the split, which it does not show).
 */
function changeErrorOf(error: unknown): string {
  const base =
    error instanceof Error && error.message ? error.message : 'An unexpected error occurred. Please try again later.';
  if (!(error instanceof ApiError)) return base;
  const details = error.errors
    .filter((e) => e.message !== base)
    .map((e) => (/^[A-Z]/.test(e.message) ? e.message : `${e.path.split('/').pop()} ${e.message}.`));
  return [base, ...new Set(details)].join(' ');
}

export type {
  AdditionalTemplate,
  DetailKind,
  InventoryFilters,
  InventorySort,
  Listing,
  ListingDetail,
  ListingPatch,
  ListingStatus,
  ListingUpdate,
  PriceAsk,
};

export const INVENTORY_LOAD_ERROR = FETCH_FAILED;

/** The Inventory table's columns a seller may hide (the match and the actions always show). */
export const INVENTORY_COLUMNS = [
  'category',
  'block',
  'row',
  'ticket_type',
  'quantity',
  'sold',
  'split',
  'price',
  'face_value',
  'status',
] as const;
export type InventoryColumn = (typeof INVENTORY_COLUMNS)[number];

export const emptyInventoryFilters = (): InventoryFilters => ({
  q: '',
  date_from: null,
  date_to: null,
  status: null,
  ticket_type_id: null,
});

/** The seller's listings, infinite paging: the virtualised table asks for the next page near its end. */
export const inventoryListMachine = createListMachine<Listing, InventoryFilters, InventorySort>({
  id: 'inventoryListings',
  fetchPage: (request, signal) => fetchInventoryPage(request, signal),
  keyOf: (listing) => listing.id,
  errorMessage: () => INVENTORY_LOAD_ERROR,
  toastsErrors: () => true,
});

/**
 * A change the seller asked for, until it is confirmed or sent: for the listings of `ids`, or (`filter`) for every
 * listing the list's filters match ('select all that match'), which the server reads in the change's transaction.
 */
export type PendingChange =
  | { kind: 'edit'; ids: number[] }
  | { kind: 'price'; ids: number[]; filter?: InventoryFilters }
  | { kind: 'status'; ids: number[]; status: ListingStatus; filter?: InventoryFilters }
  | { kind: 'delete'; ids: number[]; filter?: InventoryFilters };

/** The last change of a selection that can be undone: its id and what it did, in words. */
export interface UndoOffer {
  changeId: string;
  message: string;
}

export interface InventoryContext {
  /** The listings ticked for a change at once. */
  selected: number[];
  /** Every listing the filters match is selected (not only the loaded ones). */
  allMatching: boolean;
  hidden: InventoryColumn[];
  change: PendingChange | null;
  /** The new price (an amount, or a change by an amount or a percentage), while it is being sent. */
  price: PriceAsk | null;
  /** The fields an edit changes, while it is being sent. */
  edit: ListingUpdate | null;
  /** The server's refusal of the last change (a sold listing cannot be deleted...). */
  changeError: string | null;
  detail: { listing: Listing; kind: DetailKind } | null;
  detailData: ListingDetail | null;
  /** The seller's additional templates (Settings › Templates), to pick in the edit dialog. */
  templates: AdditionalTemplate[];
  /** The last change of prices or statuses, offered for Undo until another change or a dismissal. */
  undo: UndoOffer | null;
}

export type InventoryEvent =
  | { type: 'selection.toggled'; id: number }
  | { type: 'selection.set'; ids: number[] }
  | { type: 'selection.cleared' }
  | { type: 'selection.allMatching' }
  | { type: 'columns.toggled'; column: InventoryColumn }
  | { type: 'columns.retried' }
  | { type: 'edit.requested'; id: number }
  | { type: 'price.requested'; ids: number[]; filter?: InventoryFilters }
  | { type: 'price.saved'; id: number; price: number }
  | { type: 'status.requested'; ids: number[]; status: ListingStatus; filter?: InventoryFilters }
  | { type: 'delete.requested'; ids: number[]; filter?: InventoryFilters }
  | { type: 'change.confirmed'; price?: PriceAsk; edit?: ListingUpdate }
  | { type: 'change.cancelled' }
  | { type: 'undo.requested' }
  | { type: 'undo.dismissed' }
  | { type: 'detail.opened'; listing: Listing; kind: DetailKind }
  | { type: 'detail.tabbed'; kind: DetailKind }
  | { type: 'detail.retried' }
  | { type: 'detail.closed' }
  | { type: 'templates.retried' };

export type InventoryEmitted = NotifyEvent | { type: 'change.done'; message: string };

interface ChangeInput {
  change: PendingChange;
  price: PriceAsk | null;
  edit: ListingUpdate | null;
}

/** What a sent change did: the rows to patch (or reload the list), its Undo, and the words to say. */
export interface ChangeDone {
  patches: ListingPatch[];
  reload: boolean;
  changeId: string | null;
  message: string;
}

const targetOf = (change: PendingChange): ListingTarget =>
  'filter' in change && change.filter ? { filter: change.filter } : { ids: change.ids };
const fromOutcome = (o: ChangeOutcome, reload: boolean): ChangeDone => ({ ...o, reload });

const DONE_TEXT: Record<PendingChange['kind'], string> = {
  edit: 'Listing updated',
  price: 'Price updated',
  status: 'Status updated',
  delete: 'Listing deleted',
};

/**
 * Inventory (/my-listings): the seller's listings (the list machine, its child) grouped by match in a virtualised
 * table, with the columns the seller chose to see (saved through the field settings). One listing or a selection
 * changes price or is published or unpublished at once; a deletion is confirmed first, and refused by the server
 * once tickets of it were sold (its message shows). A listing's history, logs and market insights open in a
 * drawer. A change patches the rows it touched; a deletion reloads the list. The seller's additional templates load
 * beside the list, for the edit dialog's picker.
 */
export const inventoryMachine = setup({
  types: {
    context: {} as InventoryContext,
    events: {} as InventoryEvent,
    emitted: {} as InventoryEmitted,
  },
  actors: {
    listings: inventoryListMachine,
    loadColumns: fromPromise<InventoryColumn[]>(async ({ signal }) => {
      const hidden = await loadColumnSettings(signal);
      return hidden.filter((c): c is InventoryColumn => (INVENTORY_COLUMNS as readonly string[]).includes(c));
    }),
    saveColumns: fromPromise<void, InventoryColumn[]>(({ input, signal }) =>
      saveColumnSettings(INVENTORY_COLUMNS, input, signal),
    ),
    applyChange: fromPromise<ChangeDone, ChangeInput>(async ({ input, signal }) => {
      const { change, price, edit } = input;
      const target = targetOf(change);
      // a change of every listing that matches touches rows not loaded: the list is read again
      const all = 'filter' in target;
      if (change.kind === 'edit') {
        const patch = await editListing(change.ids[0] ?? 0, edit ?? {}, signal);
        return { patches: [patch], reload: false, changeId: null, message: DONE_TEXT.edit };
      }
      if (change.kind === 'price')
        return fromOutcome(await updateListingPrices(target, price ?? { price: 0 }, signal), all);
      if (change.kind === 'status') return fromOutcome(await updateListingStatus(target, change.status, signal), all);
      const message = await deleteListings(target, signal);
      return { patches: [], reload: true, changeId: null, message };
    }),
    undoChange: fromPromise<string, string>(({ input, signal }) => undoListingChange(input, signal)),
    loadDetail: fromPromise<ListingDetail, { listing: Listing; kind: DetailKind }>(({ input, signal }) =>
      loadListingDetail(input.listing, input.kind, signal),
    ),
    loadTemplates: fromPromise<AdditionalTemplate[]>(({ signal }) => loadTemplates(signal)),
  },
  guards: {
    hasPrice: ({ context, event }) => {
      if (event.type !== 'change.confirmed') return false;
      if (context.change?.kind === 'price') return !!event.price && Object.values(event.price)[0] !== 0;
      if (context.change?.kind === 'edit') return !!event.edit && Object.keys(event.edit).length > 0;
      return true;
    },
    reloads: ({ event }) => (event as unknown as { output: ChangeDone }).output.reload,
    hasIds: ({ event }) =>
      event.type === 'edit.requested' ||
      (event.type === 'price.saved' && event.price > 0) ||
      ((event.type === 'price.requested' || event.type === 'status.requested' || event.type === 'delete.requested') &&
        (event.ids.length > 0 || !!event.filter)),
    canUndo: ({ context }) => context.undo !== null,
  },
  actions: {
    toggleSelected: assign({
      allMatching: false,
      selected: ({ context, event }) => {
        if (event.type !== 'selection.toggled') return context.selected;
        return context.selected.includes(event.id)
          ? context.selected.filter((id) => id !== event.id)
          : [...context.selected, event.id];
      },
    }),
    setSelected: assign({
      allMatching: false,
      selected: ({ event }) => (event.type === 'selection.set' ? [...new Set(event.ids)] : []),
    }),
    clearSelected: assign({ selected: [], allMatching: false }),
    selectAllMatching: assign({ allMatching: true }),
    toggleColumn: assign({
      hidden: ({ context, event }) => {
        if (event.type !== 'columns.toggled') return context.hidden;
        return context.hidden.includes(event.column)
          ? context.hidden.filter((c) => c !== event.column)
          : [...context.hidden, event.column];
      },
    }),
    storeColumns: assign((_, hidden: InventoryColumn[]) => ({ hidden })),
    toastColumnsFailure: emit(notifyError('Failed to save the column settings')),
    requestChange: assign(({ event }) => {
      if (event.type === 'edit.requested')
        return { change: { kind: 'edit' as const, ids: [event.id] }, changeError: null };
      const filter = 'filter' in event && event.filter ? { filter: event.filter } : {};
      if (event.type === 'price.requested')
        return { change: { kind: 'price' as const, ids: event.ids, ...filter }, changeError: null };
      if (event.type === 'price.saved')
        return {
          change: { kind: 'price' as const, ids: [event.id] },
          price: { price: event.price },
          changeError: null,
        };
      if (event.type === 'delete.requested')
        return { change: { kind: 'delete' as const, ids: event.ids, ...filter }, changeError: null };
      if (event.type === 'status.requested')
        return {
          change: { kind: 'status' as const, ids: event.ids, status: event.status, ...filter },
          changeError: null,
        };
      return {};
    }),
    storePrice: assign(({ event }) =>
      event.type === 'change.confirmed' ? { price: event.price ?? null, edit: event.edit ?? null } : {},
    ),
    endChange: assign({ change: null, price: null, edit: null, changeError: null }),
    storeChangeError: assign((_, error: unknown) => ({ changeError: changeErrorOf(error) })),
    toastChangeError: emit(({ context }) => notifyError(context.changeError ?? '')),
    // the list by its system id: the test model has no child to resolve a name against
    patchRows: enqueueActions(({ enqueue, system }, changed: ListingPatch[]) => {
      const list = system.get('inventoryListings');
      if (!list) return;
      for (const { id, changes } of changed) {
        const patch: ListEvent<Listing, InventoryFilters, InventorySort> = { type: 'item.patched', key: id, changes };
        enqueue.sendTo(list, patch);
      }
    }),
    reloadList: enqueueActions(({ enqueue, system }) => {
      const list = system.get('inventoryListings');
      if (list) enqueue.sendTo(list, { type: 'list.refreshed' });
      enqueue.assign({ selected: [], allMatching: false });
    }),
    announceDone: emit((_, done: ChangeDone) => ({ type: 'change.done' as const, message: done.message })),
    offerUndo: assign((_, done: ChangeDone) => ({
      undo: done.changeId ? { changeId: done.changeId, message: done.message } : null,
    })),
    dropUndo: assign({ undo: null }),
    announceUndone: emit((_, message: string) => ({ type: 'change.done' as const, message })),
    openDetail: assign(({ context, event }) => {
      if (event.type === 'detail.opened')
        return { detail: { listing: event.listing, kind: event.kind }, detailData: null };
      if (event.type === 'detail.tabbed' && context.detail)
        return { detail: { ...context.detail, kind: event.kind }, detailData: null };
      return {};
    }),
    storeDetail: assign((_, data: ListingDetail) => ({ detailData: data })),
    closeDetail: assign({ detail: null, detailData: null }),
    storeTemplates: assign((_, templates: AdditionalTemplate[]) => ({ templates })),
  },
}).createMachine({
  id: 'inventory',
  context: {
    selected: [],
    allMatching: false,
    hidden: [],
    change: null,
    price: null,
    edit: null,
    changeError: null,
    detail: null,
    detailData: null,
    templates: [],
    undo: null,
  },
  invoke: {
    id: 'listings',
    systemId: 'inventoryListings',
    src: 'listings',
    input: { filters: emptyInventoryFilters(), sort: 'match_date' },
  },
  type: 'parallel',
  states: {
    columns: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadColumns',
            src: 'loadColumns',
            onDone: { target: 'ready', actions: { type: 'storeColumns', params: ({ event }) => event.output } },
            // every column shows when the settings cannot be read
            onError: 'ready',
          },
        },
        ready: { on: { 'columns.toggled': { target: 'saving', actions: 'toggleColumn' } } },
        saving: {
          description: 'The visible columns are saved through the field settings.',
          invoke: {
            id: 'saveColumns',
            src: 'saveColumns',
            input: ({ context }) => context.hidden,
            onDone: 'ready',
            onError: { target: 'ready', actions: 'toastColumnsFailure' },
          },
          on: { 'columns.toggled': { target: 'saving', reenter: true, actions: 'toggleColumn' } },
        },
      },
    },
    selection: {
      on: {
        'selection.toggled': { actions: 'toggleSelected' },
        'selection.set': { actions: 'setSelected' },
        'selection.cleared': { actions: 'clearSelected' },
        'selection.allMatching': { actions: 'selectAllMatching' },
      },
    },
    change: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'edit.requested': { guard: 'hasIds', target: 'confirming', actions: 'requestChange' },
            'price.requested': { guard: 'hasIds', target: 'confirming', actions: 'requestChange' },
            'delete.requested': { guard: 'hasIds', target: 'confirming', actions: 'requestChange' },
            'status.requested': { guard: 'hasIds', target: 'sending', actions: 'requestChange' },
            // a price typed in the grid's cell (Enter): no dialog
            'price.saved': { guard: 'hasIds', target: 'sending', actions: 'requestChange' },
            'undo.requested': { guard: 'canUndo', target: 'undoing' },
            'undo.dismissed': { actions: 'dropUndo' },
          },
        },
        undoing: {
          tags: ['changing'],
          description: 'The last change of prices or statuses is being undone; the list is read again after.',
          invoke: {
            id: 'undoChange',
            src: 'undoChange',
            input: ({ context }) => context.undo?.changeId ?? '',
            onDone: {
              target: 'idle',
              actions: [{ type: 'announceUndone', params: ({ event }) => event.output }, 'dropUndo', 'reloadList'],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'storeChangeError', params: ({ event }: { event: { error: unknown } }) => event.error },
                'toastChangeError',
                'dropUndo',
                'endChange',
              ],
            },
          },
        },
        confirming: {
          description: 'A new price to type, a listing to edit, or a deletion to confirm, in a dialog.',
          on: {
            'change.confirmed': { guard: 'hasPrice', target: 'sending', actions: 'storePrice' },
            'change.cancelled': { target: 'idle', actions: 'endChange' },
          },
        },
        sending: {
          tags: ['changing'],
          invoke: {
            id: 'applyChange',
            src: 'applyChange',
            input: ({ context }) => ({
              change: context.change as PendingChange,
              price: context.price,
              edit: context.edit,
            }),
            onDone: [
              {
                guard: 'reloads',
                target: 'idle',
                actions: [
                  { type: 'announceDone', params: ({ event }) => event.output },
                  { type: 'offerUndo', params: ({ event }) => event.output },
                  'reloadList',
                  'endChange',
                ],
              },
              {
                target: 'idle',
                actions: [
                  { type: 'patchRows', params: ({ event }) => event.output.patches },
                  { type: 'announceDone', params: ({ event }) => event.output },
                  { type: 'offerUndo', params: ({ event }) => event.output },
                  'endChange',
                ],
              },
            ],
            onError: {
              target: 'refused',
              actions: [
                { type: 'storeChangeError', params: ({ event }: { event: { error: unknown } }) => event.error },
                'toastChangeError',
              ],
            },
          },
        },
        refused: {
          description: 'The server refused the change: its message (a sold listing cannot be deleted).',
          tags: ['error'],
          on: {
            'change.cancelled': { target: 'idle', actions: 'endChange' },
            'change.confirmed': { guard: 'hasPrice', target: 'sending', actions: 'storePrice' },
          },
        },
      },
    },
    detail: {
      initial: 'closed',
      states: {
        closed: { on: { 'detail.opened': { target: 'open', actions: 'openDetail' } } },
        open: {
          initial: 'loading',
          states: {
            loading: {
              tags: ['loadingDetail'],
              invoke: {
                id: 'loadDetail',
                src: 'loadDetail',
                input: ({ context }) => context.detail as { listing: Listing; kind: DetailKind },
                onDone: { target: 'shown', actions: { type: 'storeDetail', params: ({ event }) => event.output } },
                onError: 'failed',
              },
            },
            shown: {},
            failed: { tags: ['error'], on: { 'detail.retried': 'loading' } },
          },
          on: {
            // another listing or another tab: its data loads again (re-entering this state, not the region,
            // whose parent is the whole parallel machine)
            'detail.opened': { target: 'open', reenter: true, actions: 'openDetail' },
            'detail.tabbed': { target: 'open', reenter: true, actions: 'openDetail' },
            'detail.closed': { target: 'closed', actions: 'closeDetail' },
          },
        },
      },
    },
    templates: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadTemplates',
            src: 'loadTemplates',
            onDone: { target: 'ready', actions: { type: 'storeTemplates', params: ({ event }) => event.output } },
            onError: 'failed',
          },
        },
        ready: { description: "The seller's templates, to pick in the edit dialog (Settings › Templates keeps them)." },
        failed: {
          description:
            "The templates did not load (or the caller lacks `settings`): an edit keeps the listing's, or Retry.",
          on: { 'templates.retried': 'loading' },
        },
      },
    },
  },
});
