import { assign, type EventObject, emit, enqueueActions, fromPromise, setup } from 'xstate';
import type { components } from '../openapi/schema';
import { type NotifyEvent, notifyError } from './notify';

/** One page of a list as the machine keeps it, whatever the endpoint calls its fields. */
export interface ListPage<Item> {
  items: readonly Item[];
  /** This page's number, from 1. */
  page: number;
  /** The last page with rows (1 when the list is empty). */
  lastPage: number;
  /** How many rows all the pages hold, when the server says. */
  total?: number;
  /**
   * The cursor of the next page when the server pages by cursor: `null` on the last page. When it is
   * given, it decides whether more pages exist and is sent back for the next page.
   */
  nextCursor?: string | null;
}

/** What `fetchPage` is asked for. */
export interface ListRequest<Filters, Sort> {
  page: number;
  /** The server's cursor for this page (infinite paging by cursor), else null. */
  cursor: string | null;
  filters: Filters;
  sort: Sort | null;
}

export interface ListOptions<Item, Filters, Sort> {
  /** The machine's id (shown in the visualiser and in errors). */
  id: string;
  /**
   * Reads one page. Typed by the endpoint it calls, which types the whole machine:
   * `fetchPage: async ({ page }, signal) => fromPageMeta(unwrap(await api.GET('/x', { params: { query: { page } }, signal })))`.
   * The signal aborts a request whose answer is no longer wanted (the filters changed meanwhile).
   */
  fetchPage: (request: ListRequest<Filters, Sort>, signal: AbortSignal) => Promise<ListPage<Item>>;
  /** An item's identity: a page that overlaps the previous one adds no duplicate. */
  keyOf: (item: Item) => string | number;
  /** The message shown (with Retry) when a page fails. */
  errorMessage: (filters: Filters) => string;
  /** Whether a failure is also toasted; when not, it is logged (default: logged only). */
  toastsErrors?: (filters: Filters) => boolean;
  /**
   * Opening an item (`item.opened`): how it shows at once, and which actor of the system hears of it
   * (for example a notification shows as read and the menu counts mark it read on the server).
   */
  opened?: {
    patch?: (item: Item) => Item;
    tell?: { systemId: string; event: (item: Item) => EventObject | null };
  };
  /** Infinite scroll: how near the bottom a scroll must pause to load more (px, default 50). */
  scrollThresholdPx?: number;
  /** Infinite scroll: how long scrolling must pause (ms, default 100). */
  scrollDebounceMs?: number;
  /** Infinite scroll: how long after a page the view is asked whether it is filled (ms, default 200). */
  fillCheckMs?: number;
}

export interface ListInput<Filters, Sort> {
  filters: Filters;
  sort?: Sort | null;
  /** The page to show first (numbered paging), default 1. */
  page?: number;
}

export interface ListContext<Item, Filters, Sort> {
  filters: Filters;
  sort: Sort | null;
  items: Item[];
  /** The page asked for by the next first load (1, or the one `page.requested` named). */
  requested: number;
  /** The last page loaded (0 before the first). */
  page: number;
  lastPage: number;
  total: number | null;
  /** The cursor of the page after the last one loaded, when the server pages by cursor. */
  cursor: string | null;
  /** Distance from the bottom of the list at the last scroll event, in px. */
  distance: number;
  error: string | null;
}

export type ListEvent<Item, Filters, Sort> =
  | { type: 'filters.changed'; filters: Filters }
  | { type: 'sort.changed'; sort: Sort | null }
  | { type: 'page.requested'; page: number }
  | { type: 'list.scrolled'; distanceFromBottom: number }
  | { type: 'list.measured'; fillsView: boolean }
  | { type: 'list.moreRequested' }
  | { type: 'list.retried' }
  | { type: 'list.refreshed' }
  | { type: 'item.opened'; key: string | number }
  | { type: 'item.patched'; key: string | number; changes: Partial<Item> };

/** The spec's infinite-scroll numbers (section 9): threshold, debounce, delayed fill check. */
export const SCROLL_THRESHOLD_PX = 50;
export const SCROLL_DEBOUNCE_MS = 100;
export const FILL_CHECK_MS = 200;

type PageMeta = components['schemas']['PageMeta'];

/** A page from the contract's `meta` (`current_page`, `last_page`, `total`) and its rows. */
export function fromPageMeta<Item>(items: readonly Item[], meta: PageMeta): ListPage<Item> {
  return { items, page: meta.current_page, lastPage: meta.last_page, total: meta.total };
}

const hasMorePages = (page: ListPage<unknown>) =>
  page.nextCursor !== undefined ? page.nextCursor !== null : page.page < page.lastPage;

/**
 * A paging list, typed by the endpoint `fetchPage` reads: its items, filters and sort. One machine serves
 * infinite paging (the view reports scrolling and whether the list fills its box; pages are appended) and
 * numbered paging (the view sends `page.requested`; the page replaces the items), by page number or by
 * the server's cursor. Changing the filters or the sort starts again at page 1; a failed page shows its
 * message with Retry (and toasts when `toastsErrors` says so). States, not flags, say what the view shows:
 * `loading` (first page: placeholders), `ready` (more pages exist), `loadingMore`, `complete` (all loaded),
 * `empty`, `failed` and `failedMore`.
 *
 * @example
 * const ordersMachine = createListMachine({
 *   id: 'orders',
 *   fetchPage: async ({ page, filters }, signal) => {
 *     const data = unwrap(await api.GET('/sales/history-all-currency', { params: { query: { page, ...filters } }, signal }));
 *     return fromPageMeta(data.orders, data.meta);
 *   },
 *   keyOf: (order) => order.id,
 *   errorMessage: () => 'Failed to fetch data',
 *   toastsErrors: () => true,
 * });
 */
export function createListMachine<Item, Filters, Sort = never>(options: ListOptions<Item, Filters, Sort>) {
  const threshold = options.scrollThresholdPx ?? SCROLL_THRESHOLD_PX;
  type Context = ListContext<Item, Filters, Sort>;
  type Event = ListEvent<Item, Filters, Sort>;
  type Page = ListPage<Item>;
  const merge = (known: readonly Item[], page: Page) => [
    ...known,
    ...page.items.filter((i) => !known.some((k) => options.keyOf(k) === options.keyOf(i))),
  ];

  return setup({
    types: {
      context: {} as Context,
      input: {} as ListInput<Filters, Sort>,
      events: {} as Event,
      emitted: {} as NotifyEvent,
    },
    actors: {
      fetchPage: fromPromise<Page, ListRequest<Filters, Sort>>(({ input, signal }) => options.fetchPage(input, signal)),
    },
    delays: {
      scrollDebounce: options.scrollDebounceMs ?? SCROLL_DEBOUNCE_MS,
      fillCheck: options.fillCheckMs ?? FILL_CHECK_MS,
    },
    guards: {
      isEmpty: (_, page: Page) => page.items.length === 0,
      hasMorePages: (_, page: Page) => hasMorePages(page),
      isNearBottom: ({ context }) => context.distance <= threshold,
      doesNotFillView: ({ event }) => event.type === 'list.measured' && !event.fillsView,
      toastsErrors: ({ context }) => options.toastsErrors?.(context.filters) ?? false,
      changesFilters: ({ context, event }) =>
        event.type === 'filters.changed' && JSON.stringify(event.filters) !== JSON.stringify(context.filters),
      changesSort: ({ context, event }) =>
        event.type === 'sort.changed' && JSON.stringify(event.sort) !== JSON.stringify(context.sort),
      isAnotherPage: ({ context, event }) =>
        event.type === 'page.requested' &&
        Number.isInteger(event.page) &&
        event.page >= 1 &&
        event.page <= Math.max(context.lastPage, 1) &&
        event.page !== context.page,
    },
    actions: {
      startOver: assign(({ event }) => ({
        ...(event.type === 'filters.changed' ? { filters: event.filters } : {}),
        ...(event.type === 'sort.changed' ? { sort: event.sort } : {}),
        requested: event.type === 'page.requested' ? event.page : 1,
        items: [],
        page: 0,
        cursor: null,
        error: null,
      })),
      showPage: assign((_, page: Page) => ({
        items: [...page.items],
        page: page.page,
        lastPage: page.lastPage,
        total: page.total ?? null,
        cursor: page.nextCursor ?? null,
        error: null,
      })),
      appendPage: assign(({ context }, page: Page) => ({
        items: merge(context.items, page),
        page: page.page,
        lastPage: page.lastPage,
        total: page.total ?? context.total,
        cursor: page.nextCursor ?? null,
        error: null,
      })),
      storeDistance: assign({
        distance: ({ event }) => (event.type === 'list.scrolled' ? event.distanceFromBottom : Number.POSITIVE_INFINITY),
      }),
      recordError: assign({ error: ({ context }) => options.errorMessage(context.filters) }),
      clearError: assign({ error: null }),
      toastError: emit(({ context }) => notifyError(options.errorMessage(context.filters))),
      logError: ({ context }, params: { error: unknown }) => {
        console.error(options.errorMessage(context.filters), params.error);
      },
      patchItem: assign({
        items: ({ context, event }) =>
          event.type === 'item.patched'
            ? context.items.map((i) => (options.keyOf(i) === event.key ? { ...i, ...event.changes } : i))
            : context.items,
      }),
      openItem: enqueueActions(({ context, event, system, enqueue }) => {
        if (event.type !== 'item.opened') return;
        const item = context.items.find((i) => options.keyOf(i) === event.key);
        if (item === undefined) return;
        const { patch, tell } = options.opened ?? {};
        if (patch) enqueue.assign({ items: context.items.map((i) => (i === item ? patch(i) : i)) });
        const told = tell?.event(item);
        const target = tell && system.get(tell.systemId);
        if (told && target) enqueue.sendTo(target, told);
      }),
    },
  }).createMachine({
    id: options.id,
    context: ({ input }) => ({
      filters: input.filters,
      sort: input.sort ?? null,
      items: [],
      requested: input.page ?? 1,
      page: 0,
      lastPage: 1,
      total: null,
      cursor: null,
      distance: Number.POSITIVE_INFINITY,
      error: null,
    }),
    initial: 'loading',
    states: {
      loading: {
        description: 'The first page of the filters (or the page asked for): placeholders, no items.',
        tags: ['loading', 'loadingFirst'],
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => ({
            page: context.requested,
            cursor: null,
            filters: context.filters,
            sort: context.sort,
          }),
          onDone: [
            { guard: { type: 'isEmpty', params: ({ event }) => event.output }, target: 'empty' },
            {
              guard: { type: 'hasMorePages', params: ({ event }) => event.output },
              target: 'ready',
              actions: { type: 'showPage', params: ({ event }) => event.output },
            },
            { target: 'complete', actions: { type: 'showPage', params: ({ event }) => event.output } },
          ],
          onError: [
            { guard: 'toastsErrors', target: 'failed', actions: ['recordError', 'toastError'] },
            {
              target: 'failed',
              actions: ['recordError', { type: 'logError', params: ({ event }) => ({ error: event.error }) }],
            },
          ],
        },
      },
      ready: {
        description: 'Some pages are shown and more exist.',
        initial: 'settling',
        states: {
          settling: { after: { fillCheck: 'measuring' } },
          measuring: {
            description: 'The view reports whether the items fill their box; if not, the next page loads.',
            tags: ['measure'],
            on: {
              'list.measured': [
                { guard: 'doesNotFillView', target: `#${options.id}.loadingMore` },
                { target: 'waiting' },
              ],
            },
          },
          waiting: {},
          debouncing: {
            description: 'Scrolling: once it pauses near the bottom, the next page loads.',
            after: {
              scrollDebounce: [{ guard: 'isNearBottom', target: `#${options.id}.loadingMore` }, { target: 'waiting' }],
            },
          },
        },
        on: {
          'list.scrolled': { target: '.debouncing', reenter: true, actions: 'storeDistance' },
          'list.moreRequested': 'loadingMore',
        },
      },
      loadingMore: {
        description: 'The next page, under the items already shown.',
        tags: ['loading', 'loadingMore'],
        invoke: {
          id: 'fetchPage',
          src: 'fetchPage',
          input: ({ context }) => ({
            page: context.page + 1,
            cursor: context.cursor,
            filters: context.filters,
            sort: context.sort,
          }),
          onDone: [
            {
              guard: { type: 'hasMorePages', params: ({ event }) => event.output },
              target: 'ready',
              actions: { type: 'appendPage', params: ({ event }) => event.output },
            },
            { target: 'complete', actions: { type: 'appendPage', params: ({ event }) => event.output } },
          ],
          onError: [
            { guard: 'toastsErrors', target: 'failedMore', actions: ['recordError', 'toastError'] },
            {
              target: 'failedMore',
              actions: ['recordError', { type: 'logError', params: ({ event }) => ({ error: event.error }) }],
            },
          ],
        },
      },
      failed: {
        description: 'The first page failed: the message and Retry.',
        tags: ['error'],
        on: { 'list.retried': { target: 'loading', actions: 'clearError' } },
      },
      failedMore: {
        description: 'A later page failed: the items stay, with the message and Retry under them.',
        tags: ['error'],
        on: { 'list.retried': { target: 'loadingMore', actions: 'clearError' } },
      },
      empty: { description: 'The filters match nothing: the empty text.' },
      complete: { description: 'Every page is loaded (infinite), or the last page is shown (numbered).' },
    },
    on: {
      'filters.changed': { guard: 'changesFilters', target: '.loading', actions: 'startOver' },
      'sort.changed': { guard: 'changesSort', target: '.loading', actions: 'startOver' },
      'page.requested': { guard: 'isAnotherPage', target: '.loading', actions: 'startOver' },
      'list.refreshed': { target: '.loading', actions: 'startOver' },
      'item.opened': { actions: 'openItem' },
      'item.patched': { actions: 'patchItem' },
    },
  });
}

/** The machine `createListMachine` makes for these types. */
export type ListMachine<Item, Filters, Sort = never> = ReturnType<typeof createListMachine<Item, Filters, Sort>>;
