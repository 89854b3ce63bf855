import { assign, type EventObject, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { createListMachine, fromPageMeta } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';

export type ReportOverview = DataOf<'/reports/overview', 'get'>;
export type ReportMatch = DataOf<'/reports/events-search', 'get'>['events'][number];
export type ReportOrderRow = DataOf<'/reports/history', 'get'>['orders'][number];
export type ReportOrderDetails = DataOf<'/reports/order-details', 'get'>;
export type ReportOrderLog = DataOf<'/reports/order-logs', 'get'>['logs'][number];
export type ReportInventoryLog = DataOf<'/reports/inventory-logs', 'get'>['logs'][number];
export type ReportNotes = DataOf<'/reports/save-notes', 'post'>;
export type ReportPreset = components['schemas']['ReportPeriodPreset'];
export type ReportCurrency = components['schemas']['CurrencyCode'];
export type ReportSort = components['schemas']['SalesSort'];
export type ExportFormat = components['schemas']['SalesExportFormat'];

export const REPORT_LOAD_ERROR = 'Failed to fetch data';
export const REPORT_EXPORT_ERROR = 'The export failed. Please try again.';
export const REPORT_NOTES_SAVED = 'Notes saved';
export const REPORT_NOTES_ERROR = 'The notes were not saved. Please try again.';
export const REPORT_PAGE_SIZE = 20;

/** The period: a preset, or the seller's own days (UTC, inclusive). */
export type ReportPeriod = { preset: ReportPreset } | { from: string; to: string };

/** What the report reads: the period and currency (overview and history), and the history's own narrowing. */
export interface ReportFilters {
  period: ReportPeriod;
  currency: ReportCurrency;
  match_id: number | null;
  q: string;
}

export const DEFAULT_REPORT_FILTERS: ReportFilters = {
  period: { preset: 'this_month' },
  currency: 'GBP',
  match_id: null,
  q: '',
};

/** The filters as a query of the report calls: an unset filter is not sent. */
export function reportQuery(f: ReportFilters) {
  return {
    ...('preset' in f.period ? { period: f.period.preset } : { date_from: f.period.from, date_to: f.period.to }),
    currency: f.currency,
    ...(f.match_id ? { match_id: f.match_id } : {}),
    ...(f.q.trim() ? { q: f.q.trim().slice(0, 100) } : {}),
  };
}

/** The history table: the shared list machine, typed by /reports/history. */
export const reportHistoryListMachine = createListMachine<ReportOrderRow, ReportFilters, ReportSort>({
  id: 'reportHistoryList',
  fetchPage: async ({ page, filters, sort }, signal) => {
    const data = unwrap(
      await api.GET('/reports/history', {
        params: {
          query: { ...reportQuery(filters), page, per_page: REPORT_PAGE_SIZE, ...(sort ? { sort } : {}) },
        },
        signal,
      }),
    );
    return fromPageMeta(data.orders, data.meta);
  },
  keyOf: (o) => o.booking_id,
  errorMessage: () => REPORT_LOAD_ERROR,
});

export interface ReportFile {
  name: string;
  file: Blob;
}

const toBlob = ({ content_base64, mime }: { content_base64: string; mime: string }) =>
  new Blob([Uint8Array.from(atob(content_base64), (c) => c.charCodeAt(0))], { type: mime });

export interface ReportContext {
  filters: ReportFilters;
  sort: ReportSort | null;
  overview: ReportOverview | null;
  matches: ReportMatch[];
  error: string | null;
  details: ReportOrderDetails | null;
  logs: ReportOrderLog[];
  /** The log of the listing the open order was sold from (price, quantity, status changes). */
  inventoryLogs: ReportInventoryLog[];
  openId: number | null;
}

export type ReportEvent =
  | { type: 'period.presetChosen'; preset: ReportPreset }
  | { type: 'period.rangeChosen'; from: string; to: string }
  | { type: 'currency.changed'; currency: ReportCurrency }
  | { type: 'match.changed'; matchId: number | null }
  | { type: 'search.changed'; q: string }
  | { type: 'sort.changed'; sort: ReportSort | null }
  | { type: 'overview.retried' }
  | { type: 'export.requested'; format: ExportFormat }
  | { type: 'order.opened'; bookingId: number }
  | { type: 'order.closed' }
  | { type: 'notes.saved'; notes: string };

export type ReportEmitted = NotifyEvent | { type: 'export.ready'; file: ReportFile };

/**
 * Report history (/report-history): the seller picks a period (a preset or a date range) and a currency; the
 * overview (figures, sales over time, top matches) and the match list of the filter load for them, and the
 * history table (the shared list machine, child `history`) follows every filter. Export saves exactly the
 * filtered history as CSV or XLSX; an order opens read-only details with its log.
 */
export const reportHistoryMachine = setup({
  types: {
    context: {} as ReportContext,
    events: {} as ReportEvent,
    emitted: {} as ReportEmitted,
    /** `currency`: the account's own, which the report opens in (GBP when absent, spec section 7's default). */
    input: {} as { filters?: ReportFilters; currency?: ReportCurrency } | undefined,
  },
  actors: {
    history: reportHistoryListMachine,
    fetchOverview: fromPromise<{ overview: ReportOverview; matches: ReportMatch[] }, ReportFilters>(
      async ({ input, signal }) => {
        const query = reportQuery(input);
        const [overview, events] = await Promise.all([
          api.GET('/reports/overview', {
            params: {
              query: {
                ...('period' in query ? { period: query.period } : {}),
                ...('date_from' in query ? { date_from: query.date_from, date_to: query.date_to } : {}),
                currency: query.currency,
              },
            },
            signal,
          }),
          api.GET('/reports/events-search', { params: { query: { currency: input.currency } }, signal }),
        ]);
        return { overview: unwrap(overview), matches: unwrap(events).events };
      },
    ),
    exportFile: fromPromise<ReportFile, { filters: ReportFilters; sort: ReportSort | null; format: ExportFormat }>(
      async ({ input, signal }) => {
        const data = unwrap(
          await api.GET('/reports/export', {
            params: {
              query: {
                ...reportQuery(input.filters),
                format: input.format,
                ...(input.sort ? { sort: input.sort } : {}),
              },
            },
            signal,
          }),
        );
        return { name: data.name, file: toBlob(data) };
      },
    ),
    fetchOrder: fromPromise<
      { details: ReportOrderDetails; logs: ReportOrderLog[]; inventoryLogs: ReportInventoryLog[] },
      number
    >(async ({ input, signal }) => {
      const [details, logs, inventory] = await Promise.all([
        api.GET('/reports/order-details', { params: { query: { order_id: input } }, signal }),
        api.GET('/reports/order-logs', { params: { query: { order_id: input } }, signal }),
        api.GET('/reports/inventory-logs', { params: { query: { order_id: input, per_page: 100 } }, signal }),
      ]);
      return { details: unwrap(details), logs: unwrap(logs).logs, inventoryLogs: unwrap(inventory).logs };
    }),
    saveNotes: fromPromise<ReportNotes, { id: number; notes: string }>(async ({ input, signal }) =>
      unwrap(await api.POST('/reports/save-notes', { body: { order_id: input.id, notes: input.notes }, signal })),
    ),
  },
  actions: {
    // the history list is reached through the system (absent in the path model, where invokes are events)
    tellHistoryFilters: enqueueActions(({ context, system, enqueue }) => {
      const list = system.get('reportHistoryList');
      const event: EventObject & { filters: ReportFilters } = { type: 'filters.changed', filters: context.filters };
      if (list) enqueue.sendTo(list, event);
    }),
    tellHistorySort: enqueueActions(({ context, system, enqueue }) => {
      const list = system.get('reportHistoryList');
      const event: EventObject & { sort: ReportSort | null } = { type: 'sort.changed', sort: context.sort };
      if (list) enqueue.sendTo(list, event);
    }),
  },
  guards: {
    isAnotherOrder: ({ context, event }) => event.type === 'order.opened' && event.bookingId !== context.openId,
  },
}).createMachine({
  id: 'reportHistory',
  type: 'parallel',
  context: ({ input }) => ({
    filters: input?.filters ?? { ...DEFAULT_REPORT_FILTERS, currency: input?.currency ?? 'GBP' },
    sort: null,
    overview: null,
    matches: [],
    error: null,
    details: null,
    logs: [],
    inventoryLogs: [],
    openId: null,
  }),
  invoke: {
    id: 'history',
    systemId: 'reportHistoryList',
    src: 'history',
    input: ({ context }) => ({ filters: context.filters }),
  },
  on: {
    'match.changed': {
      actions: [
        assign({ filters: ({ context, event }) => ({ ...context.filters, match_id: event.matchId }) }),
        'tellHistoryFilters',
      ],
    },
    'search.changed': {
      actions: [
        assign({ filters: ({ context, event }) => ({ ...context.filters, q: event.q }) }),
        'tellHistoryFilters',
      ],
    },
    'sort.changed': { actions: [assign({ sort: ({ event }) => event.sort }), 'tellHistorySort'] },
  },
  states: {
    overview: {
      initial: 'loading',
      on: {
        'period.presetChosen': {
          target: '.loading',
          actions: [
            assign({ filters: ({ context, event }) => ({ ...context.filters, period: { preset: event.preset } }) }),
            'tellHistoryFilters',
          ],
        },
        'period.rangeChosen': {
          target: '.loading',
          actions: [
            assign({
              filters: ({ context, event }) => ({ ...context.filters, period: { from: event.from, to: event.to } }),
            }),
            'tellHistoryFilters',
          ],
        },
        'currency.changed': {
          target: '.loading',
          // another currency has other matches: the match filter starts again
          actions: [
            assign({
              filters: ({ context, event }) => ({ ...context.filters, currency: event.currency, match_id: null }),
            }),
            'tellHistoryFilters',
          ],
        },
      },
      states: {
        loading: {
          tags: ['loading'],
          description: 'The figures, the charts and the match list load for the period and currency.',
          invoke: {
            id: 'fetchOverview',
            src: 'fetchOverview',
            input: ({ context }) => context.filters,
            onDone: {
              target: 'ready',
              actions: assign({
                overview: ({ event }) => event.output.overview,
                matches: ({ event }) => event.output.matches,
                error: null,
              }),
            },
            onError: { target: 'failed', actions: assign({ error: REPORT_LOAD_ERROR }) },
          },
        },
        ready: { description: 'The overview of the period shows.' },
        failed: {
          tags: ['error'],
          description: 'The overview could not load; Retry asks again.',
          on: { 'overview.retried': 'loading' },
        },
      },
    },
    export: {
      initial: 'idle',
      states: {
        idle: { on: { 'export.requested': 'exporting' } },
        exporting: {
          tags: ['exporting'],
          description: 'The file of exactly the filtered history is made on the server.',
          invoke: {
            id: 'exportFile',
            src: 'exportFile',
            input: ({ context, event }) => ({
              filters: context.filters,
              sort: context.sort,
              format: event.type === 'export.requested' ? event.format : 'xlsx',
            }),
            onDone: {
              target: 'idle',
              actions: emit(({ event }) => ({ type: 'export.ready' as const, file: event.output })),
            },
            onError: { target: 'idle', actions: emit(notifyError(REPORT_EXPORT_ERROR)) },
          },
        },
      },
    },
    details: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'order.opened': { target: 'loading', actions: assign({ openId: ({ event }) => event.bookingId }) } },
        },
        loading: {
          tags: ['detailsLoading'],
          invoke: {
            id: 'fetchOrder',
            src: 'fetchOrder',
            input: ({ context }) => context.openId ?? 0,
            onDone: {
              target: 'open',
              actions: assign({
                details: ({ event }) => event.output.details,
                logs: ({ event }) => event.output.logs,
                inventoryLogs: ({ event }) => event.output.inventoryLogs,
              }),
            },
            onError: { target: 'failed' },
          },
          on: {
            'order.closed': { target: 'closed', actions: assign({ openId: null }) },
            // another row clicked while this one loads: the last click wins (this load is stopped)
            'order.opened': {
              guard: 'isAnotherOrder',
              target: 'loading',
              reenter: true,
              actions: assign({ openId: ({ event }) => event.bookingId }),
            },
          },
        },
        open: {
          description:
            "The order, its amounts, its log and its listing's log show beside the table; notes can be saved.",
          on: {
            'order.closed': {
              target: 'closed',
              actions: assign({ openId: null, details: null, logs: [], inventoryLogs: [] }),
            },
            'order.opened': {
              guard: 'isAnotherOrder',
              target: 'loading',
              actions: assign({ openId: ({ event }) => event.bookingId }),
            },
            'notes.saved': 'savingNotes',
          },
        },
        savingNotes: {
          tags: ['savingNotes'],
          description: "The seller's notes on the order are saved; the order stays open either way.",
          invoke: {
            id: 'saveNotes',
            src: 'saveNotes',
            input: ({ context, event }) => ({
              id: context.openId ?? 0,
              notes: event.type === 'notes.saved' ? event.notes : '',
            }),
            onDone: {
              target: 'open',
              actions: [
                assign({
                  details: ({ context, event }) =>
                    context.details && {
                      ...context.details,
                      notes: event.output.notes,
                      notes_updated_at: event.output.notes_updated_at,
                    },
                }),
                emit({ type: 'notify' as const, level: 'success' as const, message: REPORT_NOTES_SAVED }),
              ],
            },
            onError: { target: 'open', actions: emit(notifyError(REPORT_NOTES_ERROR)) },
          },
        },
        failed: {
          tags: ['detailsError'],
          on: {
            'order.closed': { target: 'closed', actions: assign({ openId: null }) },
            'order.opened': { target: 'loading', actions: assign({ openId: ({ event }) => event.bookingId }) },
          },
        },
      },
    },
  },
});
