import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../openapi/client';
import type { OrderLogs, SalesOrder, SalesTicket } from './sales-api';
import { salesOrderMachine } from './sales-order.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const ticket = (no: number, delivered: boolean): SalesTicket => ({
  ticket_no: no,
  ticket_block: '112',
  row: 'F',
  seat: `${10 + no}`,
  delivered,
  delivery: delivered
    ? {
        type: 'pdf',
        file: {
          file_id: `f${no}`,
          name: `ticket-${no}.pdf`,
          kind: 'pdf',
          size: 2048,
          created_at: '2026-11-22T10:00:00Z',
        },
        page: null,
        transfer_link: null,
        courier: null,
        tracking_number: null,
        delivered_at: '2026-11-22T10:00:00Z',
        delivered_by: 'Sam Seller',
      }
    : null,
});

const row: SalesOrder['order'] = {
  booking_id: 41,
  booking_no: 'BK000041',
  status: 'pending',
  status_label: 'Pending',
  created_at: '2026-11-20T09:00:00Z',
  updated_at: '2026-11-20T09:00:00Z',
  match_id: 7,
  match_name: 'Arsenal vs Chelsea',
  tournament: 'Premier League',
  match_date: '2026-12-10',
  match_time: '20:00',
  stadium_name: 'Emirates Stadium',
  city_name: 'London',
  listing_id: 3,
  category: 'Longside Lower',
  ticket_block: '112',
  row: 'F',
  seats: '11-12',
  ticket_type_id: 1,
  ticket_type: 'E-ticket',
  delivery_method: 'pdf',
  quantity: 2,
  delivered: 0,
  currency: 'GBP',
  unit_price: 12_500,
  amount: 22_500,
  accept_by: '2026-11-22T09:00:00Z',
  deliver_by: '2026-12-08T20:00:00Z',
};

const order = (changes: Partial<SalesOrder['order']>, tickets = [ticket(1, false), ticket(2, false)]): SalesOrder => ({
  order: { ...row, ...changes },
  transfer: null,
  tickets,
  guests: [
    { ticket_no: 1, first_name: 'Ada', last_name: 'Lovelace' },
    { ticket_no: 2, first_name: 'Alan', last_name: 'Turing' },
  ],
  amounts: { currency: 'GBP', unit_price: 12_500, quantity: 2, subtotal: 25_000, seller_fee: 2_500, payout: 22_500 },
  notes: null,
  notes_updated_at: null,
  instruction_file: null,
  actions: { accept: false, decline: false, deliver: false, remove_ticket: false, cancel: false, replace: false },
});

const pending = order({});
const confirmed = order({ status: 'confirmed' });
const partly = order({ status: 'confirmed', delivered: 1 }, [ticket(1, true), ticket(2, false)]);
const delivered = order({ status: 'delivered', delivered: 2 }, [ticket(1, true), ticket(2, true)]);
const completed = order({ status: 'completed', delivered: 2 }, [ticket(1, true), ticket(2, true)]);
const cancelled = order({ status: 'cancelled' });
const typeTwo = order({ ticket_type_id: 2 });
const logs: OrderLogs = { order: [], inventory: [] };
const refused = new ApiError(409, 'This order can no longer be accepted.');
const down = new ApiError(500, 'down');
const pdf = new File(['%PDF-1.7'], 'tickets.pdf', { type: 'application/pdf' });

const events = [
  { type: 'order.opened', id: 41 },
  { type: 'order.opened', id: 42 },
  // the delivery cockpit's one-click upload: the order opens with the files picked
  { type: 'order.opened', id: 43, delivery: { kind: 'pdf', files: [pdf], mode: 'split' } },
  { type: 'order.closed' },
  { type: 'order.retried' },
  { type: 'order.accepted' },
  { type: 'decline.requested' },
  { type: 'decline.confirmed', reason: '  ' },
  { type: 'decline.confirmed', reason: 'Sold elsewhere' },
  { type: 'decline.cancelled' },
  { type: 'notes.saved', notes: 'Call the buyer' },
  { type: 'ticketType.changed', ticketTypeId: 1 },
  { type: 'ticketType.changed', ticketTypeId: 2 },
  { type: 'delivery.sent', delivery: { kind: 'pdf', files: [pdf], mode: 'per_ticket' } },
  { type: 'delivery.sent', delivery: { kind: 'instructions', file: pdf } },
  { type: 'upload.progressed', fraction: 0.5 },
  { type: 'upload.cancelled' },
  { type: 'ticket.deleted', ticketNo: 1 },
  { type: 'ticket.deleted', ticketNo: 2 },
  { type: 'tickets.downloaded' },
  { type: 'logs.retried' },
  { type: 'xstate.done.actor.loadOrder', output: pending },
  { type: 'xstate.done.actor.loadOrder', output: partly },
  { type: 'xstate.done.actor.loadOrder', output: delivered },
  { type: 'xstate.done.actor.loadOrder', output: completed },
  { type: 'xstate.error.actor.loadOrder', error: down },
  { type: 'xstate.done.actor.loadLogs', output: logs },
  { type: 'xstate.error.actor.loadLogs', error: down },
  { type: 'xstate.done.actor.acceptOrder', output: confirmed },
  { type: 'xstate.error.actor.acceptOrder', error: refused },
  { type: 'xstate.done.actor.declineOrder', output: cancelled },
  { type: 'xstate.error.actor.declineOrder', error: refused },
  { type: 'xstate.done.actor.saveNotes', output: { ...pending, notes: 'Call the buyer' } },
  { type: 'xstate.error.actor.saveNotes', error: down },
  { type: 'xstate.done.actor.changeTicketType', output: typeTwo },
  { type: 'xstate.error.actor.changeTicketType', error: refused },
  { type: 'xstate.done.actor.deliver', output: delivered },
  { type: 'xstate.error.actor.deliver', error: new ApiError(422, 'This file is not a PDF.') },
  { type: 'xstate.done.actor.deleteTicket', output: confirmed },
  { type: 'xstate.error.actor.deleteTicket', error: down },
  { type: 'xstate.done.actor.downloadTickets', output: { name: 'BK000041-tickets.zip', file: new Blob(['zip']) } },
  { type: 'xstate.error.actor.downloadTickets', error: down },
];

const ACTORS = [
  'loadOrder',
  'loadLogs',
  'acceptOrder',
  'declineOrder',
  'saveNotes',
  'changeTicketType',
  'deliver',
  'deleteTicket',
  'downloadTickets',
] as const;

const TOASTS = [
  'Order accepted',
  'Order declined',
  'Notes saved',
  'Ticket type changed',
  'Tickets uploaded',
  'Ticket deleted',
  'Failed to download the tickets',
  refused.message,
  down.message,
  'This file is not a PDF.',
];

describe('sales order drawer statechart, model-based', () => {
  const paths = modelPaths(salesOrderMachine, {
    events,
    identity: ({ value, context }) => [
      value,
      context.order?.order.status ?? null,
      context.order?.order.delivered ?? null,
      context.order?.order.ticket_type_id ?? null,
      context.id,
      context.queued !== null,
    ],
    invariant:
      'the open order, its loaded details, the decline reason sent and the upload progress are what the state shows; only the toasts of the drawer appear',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(salesOrderMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(ACTORS);
      const actor = createActor(salesOrderMachine.provide({ actors: control.actors }));
      const emitted: Array<{ type: string; message?: string }> = [];
      actor.on('*', (e) => emitted.push(e));
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        const { context } = real;
        if (real.matches('closed')) {
          expect(context.id).toBeNull();
          expect(context.order).toBeNull();
        } else expect(context.id).not.toBeNull();
        if (real.matches({ open: 'loading' })) {
          expect(context.order).toBeNull();
          expect(control.pending('loadOrder')?.input).toEqual({ id: context.id });
        }
        if (real.matches({ open: 'ready' })) {
          expect(context.order).not.toBeNull();
          // files picked before the order loaded are sent once it has, never kept
          expect(context.queued).toBeNull();
        }
        if (real.matches({ open: { ready: { work: 'delivering' } } })) {
          expect(context.progress).not.toBeNull();
          expect((control.pending('deliver')?.input as { id: number } | undefined)?.id).toBe(context.id);
        } else expect(context.progress).toBeNull();
        if (real.matches({ open: { ready: { work: 'sendingDecline' } } }))
          expect(control.pending('declineOrder')?.input).toEqual({ id: context.id, reason: 'Sold elsewhere' });
        // an action is only ever sent for an order whose lifecycle allows it
        if (real.matches({ open: { ready: { work: 'accepting' } } }))
          expect(context.order?.order.status).toBe('pending');
        if (real.matches({ open: { ready: { work: 'deletingTicket' } } }))
          expect(['confirmed', 'delivered']).toContain(context.order?.order.status);
        for (const e of emitted.filter((x) => x.type === 'notify')) expect(TOASTS).toContain(e.message);
      });
      actor.stop();
      await flush();
    });
  }
});

describe('sales order drawer statechart', () => {
  function inSystem() {
    const heard: Array<{ to: string; type: string }> = [];
    const listener = (to: string) =>
      createMachine({ on: { '*': { actions: ({ event }) => heard.push({ to, type: event.type }) } } });
    const control = controllableActors(ACTORS);
    const shell = createMachine({
      invoke: [
        { src: listener('menuCounts'), systemId: 'menuCounts' },
        { src: listener('sales'), systemId: 'sales' },
        { id: 'order', src: salesOrderMachine.provide({ actors: control.actors }), systemId: 'salesOrder' },
      ],
    });
    const actor = createActor(shell).start();
    const drawer = actor.system.get('salesOrder');
    return { drawer, control, heard };
  }

  it('after accepting, the Sales page and the menu counts hear of it and the logs load again', async () => {
    const { drawer, control, heard } = inSystem();
    drawer.send({ type: 'order.opened', id: 41 });
    await control.settle({ type: 'xstate.done.actor.loadOrder', output: pending });
    await control.settle({ type: 'xstate.done.actor.loadLogs', output: logs });
    drawer.send({ type: 'order.accepted' });
    await flush();
    expect(control.pending('acceptOrder')?.input).toEqual({ id: 41 });
    await control.settle({ type: 'xstate.done.actor.acceptOrder', output: confirmed });
    expect(heard).toEqual([
      { to: 'sales', type: 'order.changed' },
      { to: 'menuCounts', type: 'counts.refreshed' },
    ]);
    expect(drawer.getSnapshot().hasTag('loadingLogs')).toBe(true);
    expect(drawer.getSnapshot().context.order.order.status).toBe('confirmed');
  });

  it('a refused accept leaves the order as it was, with the server message', async () => {
    const { drawer, control, heard } = inSystem();
    drawer.send({ type: 'order.opened', id: 41 });
    await control.settle({ type: 'xstate.done.actor.loadOrder', output: pending });
    drawer.send({ type: 'order.accepted' });
    await flush();
    await control.settle({ type: 'xstate.error.actor.acceptOrder', error: refused });
    expect(drawer.getSnapshot().context.error).toBe(refused.message);
    expect(drawer.getSnapshot().context.order.order.status).toBe('pending');
    expect(heard).toEqual([]);
  });

  it('the upload progress only grows, in whole percent', async () => {
    const { drawer, control } = inSystem();
    drawer.send({ type: 'order.opened', id: 41 });
    await control.settle({ type: 'xstate.done.actor.loadOrder', output: confirmed });
    drawer.send({ type: 'delivery.sent', delivery: { kind: 'pdf', files: [pdf], mode: 'per_ticket' } });
    await flush();
    drawer.send({ type: 'upload.progressed', fraction: 0.427 });
    expect(drawer.getSnapshot().context.progress).toBe(42);
    drawer.send({ type: 'upload.progressed', fraction: 0.1 });
    expect(drawer.getSnapshot().context.progress).toBe(42);
    await control.settle({ type: 'xstate.done.actor.deliver', output: delivered });
    expect(drawer.getSnapshot().context.progress).toBeNull();
  });

  it('files picked in the delivery cockpit go out once the order loads, and only while it awaits delivery', async () => {
    const picked = { kind: 'pdf', files: [pdf], mode: 'split' } as const;
    const { drawer, control, heard } = inSystem();
    drawer.send({ type: 'order.opened', id: 41, delivery: picked });
    await control.settle({ type: 'xstate.done.actor.loadOrder', output: confirmed });
    expect(control.pending('deliver')?.input).toMatchObject({ id: 41, delivery: picked });
    expect(drawer.getSnapshot().context.queued).toBeNull();
    await control.settle({ type: 'xstate.done.actor.deliver', output: delivered });
    expect(heard).toContainEqual({ to: 'sales', type: 'order.changed' });

    // delivered meanwhile (another tab): nothing is sent, the drawer shows the order as it is
    drawer.send({ type: 'order.closed' });
    drawer.send({ type: 'order.opened', id: 42, delivery: picked });
    await control.settle({ type: 'xstate.done.actor.loadOrder', output: delivered });
    await flush();
    expect(control.pending('deliver')).toBeUndefined();
    expect(drawer.getSnapshot().context.queued).toBeNull();
  });
});
