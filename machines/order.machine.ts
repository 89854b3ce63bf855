import { and, assign, type SnapshotFrom, setup, transition } from 'xstate';
import type { SalesStatus } from './sales-statuses';

/**
 * Who asks for a change: the seller (or a member of the seller's team with the `sales` permission), the
 * marketplace's back office, or the platform itself (a deadline, the end of the event).
 */
export type OrderActor = 'seller' | 'admin' | 'system';

/** How many tickets the order has and how many of them the seller has delivered (files, links, couriered). */
export interface OrderContext {
  tickets: number;
  delivered: number;
}

export type OrderEvent =
  | { type: 'order.accept'; by: OrderActor }
  | { type: 'order.decline'; by: OrderActor; reason: string }
  | { type: 'order.acceptanceExpired'; by: OrderActor }
  | { type: 'ticket.delivered'; by: OrderActor; delivered: number }
  | { type: 'ticket.removed'; by: OrderActor; delivered: number }
  | { type: 'order.cancel'; by: OrderActor; reason: string }
  | { type: 'order.replace'; by: OrderActor; reason: string }
  | { type: 'event.settled'; by: OrderActor };

const reasonOf = (e: OrderEvent) => ('reason' in e ? e.reason.trim() : '');
const deliveredOf = (e: OrderEvent) => ('delivered' in e ? e.delivered : 0);

/**
 * The life of a sale, as the server enforces it and the browser offers it. It has no side effects: the server
 * reads an order's status and delivery counts into a snapshot, asks the machine whether an event moves it
 * (`nextOrderStatus`), and writes the new status with an order log row (who, when, from, to, why) in the same
 * transaction as what the change does (refund, stock, earnings); the browser shows only the actions the machine
 * accepts (`allowedOrderActions`).
 *
 * The decisions, as the large resale marketplaces make them:
 * - **pending**: the buyer has paid; the seller confirms the tickets are still theirs to sell within 48 hours.
 *   The seller accepts (confirmed) or declines with a reason (cancelled: the buyer is refunded, the tickets
 *   go back to the listing); unanswered for 48 hours, the platform cancels it. The back office may cancel it.
 * - **confirmed** (Awaiting Delivery): the seller delivers each ticket (e-ticket PDF, mobile transfer or
 *   paper by courier) before the deadline. When the last ticket is delivered the order is delivered. A seller
 *   who cannot deliver asks to cancel, with a reason; the back office either cancels (the buyer refunded) or
 *   replaces the tickets from another seller (replaced: the buyer keeps a booking, the seller's sale ends).
 * - **delivered**: every ticket is with the buyer. A wrongly uploaded ticket may still be removed (back to
 *   confirmed until it is delivered again). Two days after the event, with no open problem, the platform
 *   completes the sale (the seller's earnings are credited). Before that, the back office may still replace
 *   tickets that failed at the gate, or cancel.
 * - **completed**, **cancelled** and **replaced** are final.
 */
export const orderMachine = setup({
  types: {
    context: {} as OrderContext,
    events: {} as OrderEvent,
    input: {} as OrderContext,
  },
  guards: {
    bySeller: ({ event }) => event.by === 'seller',
    byAdmin: ({ event }) => event.by === 'admin',
    bySystem: ({ event }) => event.by === 'system',
    sellerOrAdmin: ({ event }) => event.by === 'seller' || event.by === 'admin',
    hasReason: ({ event }) => reasonOf(event).length > 0,
    everyTicketDelivered: ({ context, event }) => deliveredOf(event) >= context.tickets,
  },
  actions: {
    countDelivered: assign({
      delivered: ({ context, event }) => Math.max(0, Math.min(context.tickets, deliveredOf(event))),
    }),
  },
}).createMachine({
  id: 'order',
  context: ({ input }) => ({ tickets: input.tickets, delivered: input.delivered }),
  initial: 'pending',
  states: {
    pending: {
      description: 'Paid by the buyer; the seller has 48 hours to accept.',
      on: {
        'order.accept': { guard: 'bySeller', target: 'confirmed' },
        'order.decline': { guard: and(['bySeller', 'hasReason']), target: 'cancelled' },
        'order.acceptanceExpired': { guard: 'bySystem', target: 'cancelled' },
        'order.cancel': { guard: and(['byAdmin', 'hasReason']), target: 'cancelled' },
      },
    },
    confirmed: {
      description: 'Awaiting Delivery: the seller delivers every ticket before the deadline.',
      on: {
        'ticket.delivered': [
          { guard: and(['bySeller', 'everyTicketDelivered']), target: 'delivered', actions: 'countDelivered' },
          { guard: 'bySeller', actions: 'countDelivered' },
        ],
        'ticket.removed': { guard: 'bySeller', actions: 'countDelivered' },
        'order.cancel': { guard: and(['byAdmin', 'hasReason']), target: 'cancelled' },
        'order.replace': { guard: and(['byAdmin', 'hasReason']), target: 'replaced' },
      },
    },
    delivered: {
      description: 'Every ticket is with the buyer; completed two days after the event.',
      on: {
        'ticket.removed': { guard: 'bySeller', target: 'confirmed', actions: 'countDelivered' },
        'event.settled': { guard: 'bySystem', target: 'completed' },
        'order.cancel': { guard: and(['byAdmin', 'hasReason']), target: 'cancelled' },
        'order.replace': { guard: and(['byAdmin', 'hasReason']), target: 'replaced' },
      },
    },
    completed: { type: 'final', description: "The sale is done; the seller's earnings are credited." },
    cancelled: { type: 'final', description: 'The buyer is refunded and the tickets go back to the listing.' },
    replaced: {
      type: 'final',
      description: "The marketplace supplied other tickets to the buyer; this seller's sale ends.",
    },
  },
});

export type OrderSnapshot = SnapshotFrom<typeof orderMachine>;

/** The snapshot of an order as the database holds it. */
export function orderSnapshot(status: SalesStatus, counts: OrderContext): OrderSnapshot {
  return orderMachine.resolveState({ value: status, context: counts });
}

/**
 * Where `event` takes an order, or null when the machine does not allow it (the status and the delivered
 * count unchanged). A delivery that leaves the order in the same status still answers its status.
 */
export function nextOrderStatus(
  status: SalesStatus,
  counts: OrderContext,
  event: OrderEvent,
): { status: SalesStatus; delivered: number } | null {
  const before = orderSnapshot(status, counts);
  if (!before.can(event)) return null;
  const [after] = transition(orderMachine, before, event);
  return { status: after.value as SalesStatus, delivered: after.context.delivered };
}

/** The actions the browser offers `by` on an order: the events the machine accepts from them now. */
export function allowedOrderActions(status: SalesStatus, counts: OrderContext, by: OrderActor) {
  const snapshot = orderSnapshot(status, counts);
  const probe = 'probe';
  return {
    accept: snapshot.can({ type: 'order.accept', by }),
    decline: snapshot.can({ type: 'order.decline', by, reason: probe }),
    deliver: snapshot.can({ type: 'ticket.delivered', by, delivered: counts.delivered + 1 }),
    removeTicket: snapshot.can({ type: 'ticket.removed', by, delivered: Math.max(0, counts.delivered - 1) }),
    cancel: snapshot.can({ type: 'order.cancel', by, reason: probe }),
    replace: snapshot.can({ type: 'order.replace', by, reason: probe }),
  };
}
