import { type ActorRefFrom, assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { createListMachine } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';
import {
  type ExportFormat,
  exportOrders,
  fetchOrdersPage,
  loadOverview,
  SALES_LOAD_ERROR,
  type SalesCurrencyOverview,
  type SalesFilters,
  type SalesOrderRow,
  type SalesSort,
  type SavedFile,
} from './sales-api';
import { salesOrderMachine } from './sales-order.machine';
import type { SalesStatus } from './sales-statuses';

export type { ExportFormat, SalesCurrencyOverview, SalesFilters, SalesOrderRow, SalesSort, SavedFile };
export { SALES_LOAD_ERROR };
export const EXPORT_FAILED = 'Failed to export the sales';
/** Orders a page of a sales list holds. */
export const SALES_PAGE_SIZE = 20;
/** Orders the delivery cockpit shows at once, soonest deadline first. */
export const COCKPIT_SIZE = 50;

/** The list's filters: the page's status and what the seller chose. */
export interface SalesListFilters extends SalesFilters {
  status: SalesStatus;
}

export const emptySalesFilters = (): SalesFilters => ({
  date_from: null,
  date_to: null,
  date_field: 'order_date',
  q: '',
  booking_no: '',
  ticket_type_id: null,
  currency: null,
});

/** One sales sub-page's orders, numbered pages. */
export const salesOrdersMachine = createListMachine<SalesOrderRow, SalesListFilters, SalesSort>({
  id: 'salesOrders',
  fetchPage: ({ filters: { status, ...filters }, ...request }, signal) =>
    fetchOrdersPage(status, { ...request, filters }, SALES_PAGE_SIZE, signal),
  keyOf: (order) => order.booking_id,
  errorMessage: () => SALES_LOAD_ERROR,
  toastsErrors: () => true,
});

/** The delivery cockpit: the orders awaiting delivery, soonest deadline first, whatever the filters. */
export const deliveryCockpitMachine = createListMachine<SalesOrderRow, SalesListFilters, SalesSort>({
  id: 'deliveryCockpit',
  fetchPage: ({ filters: { status, ...filters }, ...request }, signal) =>
    fetchOrdersPage(status, { ...request, filters, sort: 'deadline' }, COCKPIT_SIZE, signal),
  keyOf: (order) => order.booking_id,
  errorMessage: () => SALES_LOAD_ERROR,
});

type OrdersRef = ActorRefFrom<typeof salesOrdersMachine>;

export interface SalesInput {
  status: SalesStatus;
}

export interface SalesContext {
  status: SalesStatus;
  filters: SalesFilters;
  sort: SalesSort | null;
  overview: SalesCurrencyOverview[] | null;
}

export type SalesEvent =
  | { type: 'filters.changed'; filters: SalesFilters }
  | { type: 'sort.changed'; sort: SalesSort | null }
  | { type: 'overview.retried' }
  | { type: 'export.requested'; format: ExportFormat }
  /** The drawer changed an order (its status, its delivery): the lists and the overview load again. */
  | { type: 'order.changed'; id: number; status: SalesStatus };

export type SalesEmitted = NotifyEvent | { type: 'export.ready'; file: SavedFile };

/**
 * A Sales sub-page (sales/pending ... sales/replaced), in the app's actor system as `sales`: the seller's
 * sales per currency and status (the overview), the orders of the status (the shared list machine, numbered
 * pages), the delivery cockpit on Awaiting Delivery (every order awaiting delivery by deadline), the export of
 * the filtered list as CSV or XLSX, and the order drawer (its child `salesOrder`). A filter or a sort reloads
 * the list from page 1; an order the drawer changed reloads the list, the cockpit and the overview, so it
 * leaves this page's list at once.
 */
export const salesMachine = setup({
  types: {
    context: {} as SalesContext,
    input: {} as SalesInput,
    events: {} as SalesEvent,
    emitted: {} as SalesEmitted,
  },
  actors: {
    orders: salesOrdersMachine,
    cockpit: deliveryCockpitMachine,
    order: salesOrderMachine,
    loadOverview: fromPromise<SalesCurrencyOverview[]>(({ signal }) => loadOverview(signal)),
    exportOrders: fromPromise<
      SavedFile,
      { status: SalesStatus; filters: SalesFilters; sort: SalesSort | null; format: ExportFormat }
    >(({ input, signal }) => exportOrders(input.status, input.filters, input.sort, input.format, signal)),
  },
  guards: {
    isAwaitingDelivery: ({ context }) => context.status === 'confirmed',
    changesFilters: ({ context, event }) =>
      event.type === 'filters.changed' && JSON.stringify(event.filters) !== JSON.stringify(context.filters),
  },
  actions: {
    storeFilters: assign({
      filters: ({ context, event }) => (event.type === 'filters.changed' ? event.filters : context.filters),
    }),
    storeSort: assign({ sort: ({ context, event }) => (event.type === 'sort.changed' ? event.sort : context.sort) }),
    // the lists as they run, by their system ids (the test model has no children to resolve a name against)
    filterList: enqueueActions(({ context, enqueue, system }) => {
      const orders: OrdersRef | undefined = system.get('salesOrders');
      if (orders)
        enqueue.sendTo(orders, { type: 'filters.changed', filters: { ...context.filters, status: context.status } });
    }),
    sortList: enqueueActions(({ context, enqueue, system }) => {
      const orders: OrdersRef | undefined = system.get('salesOrders');
      if (orders) enqueue.sendTo(orders, { type: 'sort.changed', sort: context.sort });
    }),
    reloadLists: enqueueActions(({ enqueue, system }) => {
      const orders: OrdersRef | undefined = system.get('salesOrders');
      if (orders) enqueue.sendTo(orders, { type: 'list.refreshed' });
      const cockpit = system.get('deliveryCockpit');
      if (cockpit) enqueue.sendTo(cockpit, { type: 'list.refreshed' });
    }),
    storeOverview: assign((_, params: { overview: SalesCurrencyOverview[] }) => ({ overview: params.overview })),
    announceExport: emit((_, params: { file: SavedFile }) => ({ type: 'export.ready' as const, file: params.file })),
    failExport: emit(notifyError(EXPORT_FAILED)),
  },
}).createMachine({
  id: 'sales',
  context: ({ input }) => ({
    status: input.status,
    filters: emptySalesFilters(),
    sort: null,
    overview: null,
  }),
  invoke: [
    {
      id: 'orders',
      systemId: 'salesOrders',
      src: 'orders',
      input: ({ context }) => ({ filters: { ...context.filters, status: context.status } }),
    },
    { id: 'order', systemId: 'salesOrder', src: 'order' },
  ],
  type: 'parallel',
  states: {
    overview: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loadingOverview'],
          invoke: {
            id: 'loadOverview',
            src: 'loadOverview',
            onDone: {
              target: 'ready',
              actions: { type: 'storeOverview', params: ({ event }) => ({ overview: event.output }) },
            },
            onError: 'failed',
          },
        },
        ready: { description: "The seller's orders, tickets and takings per currency and per status." },
        failed: { tags: ['overviewError'], on: { 'overview.retried': 'loading' } },
      },
      // a change of status moves the figures between statuses at once (the server keeps them)
      on: { 'order.changed': { target: '.loading', actions: 'reloadLists' } },
    },
    cockpit: {
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'isAwaitingDelivery', target: 'shown' }, { target: 'hidden' }] },
        hidden: { description: 'Only Awaiting Delivery has the delivery cockpit.' },
        shown: {
          description: 'Every order awaiting delivery, soonest deadline first (red within 24 h, amber within 72 h).',
          invoke: {
            id: 'cockpit',
            systemId: 'deliveryCockpit',
            src: 'cockpit',
            input: ({ context }) => ({ filters: { ...emptySalesFilters(), status: context.status }, sort: 'deadline' }),
          },
        },
      },
    },
    list: {
      description: 'The orders of this status under the filters and the sort (the list machine, its child).',
      on: {
        'filters.changed': { guard: 'changesFilters', actions: ['storeFilters', 'filterList'] },
        'sort.changed': { actions: ['storeSort', 'sortList'] },
      },
    },
    export: {
      initial: 'idle',
      states: {
        idle: { on: { 'export.requested': 'exporting' } },
        exporting: {
          tags: ['exporting'],
          invoke: {
            id: 'exportOrders',
            src: 'exportOrders',
            input: ({ context, event }) => ({
              status: context.status,
              filters: context.filters,
              sort: context.sort,
              format: event.type === 'export.requested' ? event.format : ('csv' as const),
            }),
            onDone: {
              target: 'idle',
              actions: { type: 'announceExport', params: ({ event }) => ({ file: event.output }) },
            },
            onError: { target: 'idle', actions: 'failExport' },
          },
        },
      },
    },
  },
});
