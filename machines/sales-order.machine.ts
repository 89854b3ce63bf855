import { type ActorRef, assign, emit, enqueueActions, fromPromise, type Snapshot, setup } from 'xstate';
import { type NotifyEvent, notifyError } from './notify';
import { allowedOrderActions } from './order.machine';
import {
  type Delivery,
  deleteOrderTicket,
  deliverOrder,
  downloadOrderTickets,
  loadOrder,
  loadOrderLogs,
  type OrderLogs,
  type SalesOrder,
  type SavedFile,
  saveOrderNotes,
  sendOrderAction,
  updateOrderTicketType,
} from './sales-api';

export type { Delivery, OrderLogs, SalesOrder, SavedFile };

export const ORDER_LOAD_ERROR = 'Failed to fetch data';
const UNEXPECTED = 'An unexpected error occurred. Please try again later.';

export interface SalesOrderContext {
  /** The order the drawer shows (null while closed). */
  id: number | null;
  order: SalesOrder | null;
  logs: OrderLogs | null;
  /** The reason typed for a decline, while it is sent. */
  reason: string;
  /** 0 to 100 while a delivery uploads, else null. */
  progress: number | null;
  /** The server's refusal of the last change, shown in the drawer. */
  error: string | null;
  /** Files the seller picked before the order loaded (the delivery cockpit's one-click upload). */
  queued: Delivery | null;
}

export type SalesOrderEvent =
  | { type: 'order.opened'; id: number; delivery?: Delivery }
  | { type: 'order.closed' }
  | { type: 'order.retried' }
  | { type: 'order.accepted' }
  | { type: 'decline.requested' }
  | { type: 'decline.confirmed'; reason: string }
  | { type: 'decline.cancelled' }
  | { type: 'notes.saved'; notes: string }
  | { type: 'ticketType.changed'; ticketTypeId: number }
  | { type: 'delivery.sent'; delivery: Delivery }
  | { type: 'upload.progressed'; fraction: number }
  | { type: 'upload.cancelled' }
  | { type: 'ticket.deleted'; ticketNo: number }
  | { type: 'tickets.downloaded' }
  | { type: 'logs.retried' }
  /** Raised after a change: the logs load again and show it. */
  | { type: 'logs.reloaded' };

export type SalesOrderEmitted =
  | NotifyEvent
  | { type: 'tickets.ready'; file: SavedFile }
  | { type: 'order.changed'; order: SalesOrder };

/** What the Sales page hears when the drawer changed an order. */
type SalesChanged = { type: 'order.changed'; id: number; status: SalesOrder['order']['status'] };

export interface DeliverInput {
  id: number;
  delivery: Delivery;
  /** The drawer: the upload tells it how far the files have gone. */
  parent: ActorRef<Snapshot<unknown>, SalesOrderEvent>;
}

const percent = (fraction: number) =>
  Math.floor(Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0)) * 100);
const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : UNEXPECTED);
/** What the order machine allows the seller on this order now. */
const can = (details: SalesOrder | null) =>
  details
    ? allowedOrderActions(
        details.order.status,
        { tickets: details.order.quantity, delivered: details.order.delivered },
        'seller',
      )
    : null;
const statusOf = (details: SalesOrder | null) => details?.order.status ?? null;

const DONE_TEXT = {
  accept: 'Order accepted',
  decline: 'Order declined',
  notes: 'Notes saved',
  ticketType: 'Ticket type changed',
  delivery: 'Tickets uploaded',
  deleted: 'Ticket deleted',
} as const;

/**
 * An order in the Sales drawer (in the app's actor system as `salesOrder`): its details, the lifecycle
 * actions the order machine allows the seller now (accept; decline with a reason), its notes, and its
 * delivery: change the ticket type, upload PDF e-tickets with their progress, send mobile-ticket links or
 * the courier and tracking number of paper tickets, add an instruction file, delete a wrongly uploaded
 * ticket, download every ticket as one zip. One change at a time; the server's answer is the order as it now
 * is. After a change the drawer reloads the order's logs and tells the Sales page (`order.changed`, which
 * reloads its lists and overview) and the menu counts (the badges follow without a reload). A refusal keeps
 * the drawer open with the server's message.
 */
export const salesOrderMachine = setup({
  types: {
    context: {} as SalesOrderContext,
    events: {} as SalesOrderEvent,
    emitted: {} as SalesOrderEmitted,
  },
  actors: {
    loadOrder: fromPromise<SalesOrder, { id: number }>(({ input, signal }) => loadOrder(input.id, signal)),
    loadLogs: fromPromise<OrderLogs, { id: number }>(({ input, signal }) => loadOrderLogs(input.id, signal)),
    acceptOrder: fromPromise<SalesOrder, { id: number }>(({ input }) => sendOrderAction(input.id, 'accept', '')),
    declineOrder: fromPromise<SalesOrder, { id: number; reason: string }>(({ input }) =>
      sendOrderAction(input.id, 'decline', input.reason),
    ),
    saveNotes: fromPromise<SalesOrder, { id: number; notes: string }>(({ input }) =>
      saveOrderNotes(input.id, input.notes),
    ),
    changeTicketType: fromPromise<SalesOrder, { id: number; ticketTypeId: number }>(({ input }) =>
      updateOrderTicketType(input.id, input.ticketTypeId),
    ),
    deliver: fromPromise<SalesOrder, DeliverInput>(({ input, signal }) =>
      deliverOrder(input.id, input.delivery, signal, (fraction) =>
        input.parent.send({ type: 'upload.progressed', fraction }),
      ),
    ),
    deleteTicket: fromPromise<SalesOrder, { id: number; ticketNo: number }>(({ input }) =>
      deleteOrderTicket(input.id, input.ticketNo),
    ),
    downloadTickets: fromPromise<SavedFile, { id: number }>(({ input, signal }) =>
      downloadOrderTickets(input.id, signal),
    ),
  },
  guards: {
    canAccept: ({ context }) => can(context.order)?.accept ?? false,
    canDecline: ({ context }) => can(context.order)?.decline ?? false,
    hasReason: ({ event }) => event.type === 'decline.confirmed' && event.reason.trim().length > 0,
    /**
     * Tickets go to the buyer while the order awaits delivery (the order machine's `ticket.delivered`); an
     * instruction file also once it is delivered (the contract: confirmed or delivered orders).
     */
    canDeliver: ({ context, event }) =>
      event.type === 'delivery.sent' &&
      (event.delivery.kind === 'instructions'
        ? statusOf(context.order) === 'confirmed' || statusOf(context.order) === 'delivered'
        : (can(context.order)?.deliver ?? false)),
    /** A ticket may be deleted until the order is completed (the order machine's `ticket.removed`). */
    canDeleteTicket: ({ context, event }) =>
      event.type === 'ticket.deleted' &&
      (can(context.order)?.removeTicket ?? false) &&
      (context.order?.tickets.some((t) => t.ticket_no === event.ticketNo && t.delivered) ?? false),
    /** The ticket type changes on an open order while none of its tickets is delivered. */
    canChangeType: ({ context, event }) =>
      event.type === 'ticketType.changed' &&
      (statusOf(context.order) === 'pending' || statusOf(context.order) === 'confirmed') &&
      context.order?.order.delivered === 0 &&
      event.ticketTypeId !== context.order.order.ticket_type_id,
    hasTickets: ({ context }) => (context.order?.order.delivered ?? 0) > 0,
    isAnotherOrder: ({ context, event }) => event.type === 'order.opened' && event.id !== context.id,
  },
  actions: {
    openOrder: assign({
      id: ({ event }) => (event.type === 'order.opened' ? event.id : null),
      order: null,
      logs: null,
      error: null,
      reason: '',
      queued: ({ event }) => (event.type === 'order.opened' ? (event.delivery ?? null) : null),
    }),
    closeOrder: assign({ id: null, order: null, logs: null, error: null, reason: '', progress: null, queued: null }),
    /**
     * The files picked in the cockpit go out as soon as the order has loaded, as if sent from the drawer: the
     * same guard decides (an order delivered meanwhile refuses them, and the drawer shows it as it is).
     */
    sendQueued: enqueueActions(({ context, enqueue }) => {
      if (!context.queued) return;
      enqueue.raise({ type: 'delivery.sent', delivery: context.queued });
      enqueue.assign({ queued: null });
    }),
    storeOrder: assign((_, params: { order: SalesOrder }) => ({ order: params.order })),
    storeLogs: assign((_, params: { logs: OrderLogs }) => ({ logs: params.logs })),
    storeReason: assign({ reason: ({ event }) => (event.type === 'decline.confirmed' ? event.reason.trim() : '') }),
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown }) => ({ error: messageOf(params.error), progress: null })),
    toastError: emit((_, params: { error: unknown }) => notifyError(messageOf(params.error))),
    startProgress: assign({ progress: 0 }),
    storeProgress: assign({
      progress: ({ context, event }) =>
        event.type === 'upload.progressed' ? Math.max(context.progress ?? 0, percent(event.fraction)) : null,
    }),
    stopProgress: assign({ progress: null }),
    done: emit((_, params: { message: string }) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: params.message,
    })),
    /** The page reloads its lists and overview, the menu its counts; the logs show the change. */
    tellChanged: enqueueActions(({ context, system, enqueue }) => {
      if (!context.order) return;
      enqueue.raise({ type: 'logs.reloaded' });
      enqueue.emit({ type: 'order.changed', order: context.order });
      const page: ActorRef<Snapshot<unknown>, SalesChanged> | undefined = system.get('sales');
      const { booking_id, status } = context.order.order;
      if (page) enqueue.sendTo(page, { type: 'order.changed', id: booking_id, status });
      const counts: ActorRef<Snapshot<unknown>, { type: 'counts.refreshed' }> | undefined = system.get('menuCounts');
      if (counts) enqueue.sendTo(counts, { type: 'counts.refreshed' });
    }),
    announceZip: emit((_, params: { file: SavedFile }) => ({ type: 'tickets.ready' as const, file: params.file })),
    toastZipFailure: emit(notifyError('Failed to download the tickets')),
  },
}).createMachine({
  id: 'salesOrder',
  context: { id: null, order: null, logs: null, reason: '', progress: null, error: null, queued: null },
  initial: 'closed',
  states: {
    closed: {
      description: 'No order is open.',
      on: { 'order.opened': { target: 'open', actions: 'openOrder' } },
    },
    open: {
      description: 'The drawer shows one order.',
      initial: 'loading',
      on: {
        'order.closed': { target: 'closed', actions: 'closeOrder' },
        'order.opened': { guard: 'isAnotherOrder', target: '.loading', actions: 'openOrder' },
      },
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadOrder',
            src: 'loadOrder',
            input: ({ context }) => ({ id: context.id ?? 0 }),
            onDone: {
              target: 'ready',
              actions: [{ type: 'storeOrder', params: ({ event }) => ({ order: event.output }) }, 'sendQueued'],
            },
            onError: 'failed',
          },
        },
        failed: {
          description: 'The order did not load: the message and Retry.',
          tags: ['error'],
          on: { 'order.retried': 'loading' },
        },
        ready: {
          type: 'parallel',
          states: {
            work: {
              initial: 'idle',
              states: {
                idle: {
                  description: 'The seller may take any action the order machine allows now.',
                  on: {
                    'order.accepted': { guard: 'canAccept', target: 'accepting', actions: 'clearError' },
                    'decline.requested': { guard: 'canDecline', target: 'declining', actions: 'clearError' },
                    'notes.saved': { target: 'savingNotes', actions: 'clearError' },
                    'ticketType.changed': { guard: 'canChangeType', target: 'changingType', actions: 'clearError' },
                    'delivery.sent': { guard: 'canDeliver', target: 'delivering', actions: 'clearError' },
                    'ticket.deleted': { guard: 'canDeleteTicket', target: 'deletingTicket', actions: 'clearError' },
                    'tickets.downloaded': { guard: 'hasTickets', target: 'downloading' },
                  },
                },
                accepting: {
                  tags: ['busy'],
                  invoke: {
                    id: 'acceptOrder',
                    src: 'acceptOrder',
                    input: ({ context }) => ({ id: context.id ?? 0 }),
                    onDone: {
                      target: 'idle',
                      actions: [
                        { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
                        { type: 'done', params: { message: DONE_TEXT.accept } },
                        'tellChanged',
                      ],
                    },
                    onError: {
                      target: 'idle',
                      actions: [
                        { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                        { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
                      ],
                    },
                  },
                },
                declining: {
                  description: 'The seller gives the reason for declining (the buyer is refunded).',
                  on: {
                    'decline.confirmed': { guard: 'hasReason', target: 'sendingDecline', actions: 'storeReason' },
                    'decline.cancelled': 'idle',
                  },
                },
                sendingDecline: {
                  tags: ['busy'],
                  invoke: {
                    id: 'declineOrder',
                    src: 'declineOrder',
                    input: ({ context }) => ({ id: context.id ?? 0, reason: context.reason }),
                    onDone: {
                      target: 'idle',
                      actions: [
                        { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
                        { type: 'done', params: { message: DONE_TEXT.decline } },
                        'tellChanged',
                      ],
                    },
                    onError: {
                      target: 'declining',
                      actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                    },
                  },
                },
                savingNotes: {
                  tags: ['busy', 'savingNotes'],
                  invoke: {
                    id: 'saveNotes',
                    src: 'saveNotes',
                    input: ({ context, event }) => ({
                      id: context.id ?? 0,
                      notes: event.type === 'notes.saved' ? event.notes : '',
                    }),
                    onDone: {
                      target: 'idle',
                      actions: [
                        { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
                        { type: 'done', params: { message: DONE_TEXT.notes } },
                      ],
                    },
                    onError: {
                      target: 'idle',
                      actions: [
                        { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                        { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
                      ],
                    },
                  },
                },
                changingType: {
                  tags: ['busy'],
                  invoke: {
                    id: 'changeTicketType',
                    src: 'changeTicketType',
                    input: ({ context, event }) => ({
                      id: context.id ?? 0,
                      ticketTypeId: event.type === 'ticketType.changed' ? event.ticketTypeId : 0,
                    }),
                    onDone: {
                      target: 'idle',
                      actions: [
                        { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
                        { type: 'done', params: { message: DONE_TEXT.ticketType } },
                        'tellChanged',
                      ],
                    },
                    onError: {
                      target: 'idle',
                      actions: [
                        { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                        { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
                      ],
                    },
                  },
                },
                delivering: {
                  description: 'The tickets (or the instruction file) go out, with their upload progress.',
                  tags: ['busy', 'uploading'],
                  entry: 'startProgress',
                  exit: 'stopProgress',
                  invoke: {
                    id: 'deliver',
                    src: 'deliver',
                    input: ({ context, event, self }) => ({
                      id: context.id ?? 0,
                      delivery:
                        event.type === 'delivery.sent'
                          ? event.delivery
                          : ({ kind: 'mobile', links: [] } satisfies Delivery),
                      parent: self,
                    }),
                    onDone: {
                      target: 'idle',
                      actions: [
                        { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
                        { type: 'done', params: { message: DONE_TEXT.delivery } },
                        'tellChanged',
                      ],
                    },
                    onError: {
                      target: 'idle',
                      actions: [
                        { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                        { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
                      ],
                    },
                  },
                  on: {
                    'upload.progressed': { actions: 'storeProgress' },
                    'upload.cancelled': 'idle',
                  },
                },
                deletingTicket: {
                  tags: ['busy'],
                  invoke: {
                    id: 'deleteTicket',
                    src: 'deleteTicket',
                    input: ({ context, event }) => ({
                      id: context.id ?? 0,
                      ticketNo: event.type === 'ticket.deleted' ? event.ticketNo : 0,
                    }),
                    onDone: {
                      target: 'idle',
                      actions: [
                        { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
                        { type: 'done', params: { message: DONE_TEXT.deleted } },
                        'tellChanged',
                      ],
                    },
                    onError: {
                      target: 'idle',
                      actions: [
                        { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
                        { type: 'toastError', params: ({ event }) => ({ error: event.error }) },
                      ],
                    },
                  },
                },
                downloading: {
                  tags: ['downloading'],
                  invoke: {
                    id: 'downloadTickets',
                    src: 'downloadTickets',
                    input: ({ context }) => ({ id: context.id ?? 0 }),
                    onDone: {
                      target: 'idle',
                      actions: { type: 'announceZip', params: ({ event }) => ({ file: event.output }) },
                    },
                    onError: { target: 'idle', actions: 'toastZipFailure' },
                  },
                },
              },
            },
            logs: {
              initial: 'loading',
              states: {
                loading: {
                  tags: ['loadingLogs'],
                  invoke: {
                    id: 'loadLogs',
                    src: 'loadLogs',
                    input: ({ context }) => ({ id: context.id ?? 0 }),
                    onDone: {
                      target: 'shown',
                      actions: { type: 'storeLogs', params: ({ event }) => ({ logs: event.output }) },
                    },
                    onError: 'failed',
                  },
                },
                shown: { description: 'The order log and the inventory log.' },
                failed: { tags: ['logsError'], on: { 'logs.retried': 'loading' } },
              },
              // a change the seller made shows in the logs at once
              on: { 'logs.reloaded': '.loading' },
            },
          },
        },
      },
    },
  },
});
