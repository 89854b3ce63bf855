import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import {
  allowedOrderActions,
  nextOrderStatus,
  type OrderActor,
  type OrderEvent,
  type OrderSnapshot,
  orderMachine,
} from './order.machine';
import type { SalesStatus } from './sales-statuses';
import { modelPaths, replay, uncovered } from './testing/model';

// each event from every kind of caller, with and without a reason: the model takes only what the guards allow
const ACTORS: OrderActor[] = ['seller', 'admin', 'system'];
const events: OrderEvent[] = ACTORS.flatMap((by): OrderEvent[] => [
  { type: 'order.accept', by },
  { type: 'order.decline', by, reason: 'Sold elsewhere' },
  { type: 'order.decline', by, reason: '  ' },
  { type: 'order.acceptanceExpired', by },
  { type: 'ticket.delivered', by, delivered: 1 },
  { type: 'ticket.delivered', by, delivered: 2 },
  { type: 'ticket.removed', by, delivered: 1 },
  { type: 'order.cancel', by, reason: 'Seller cannot deliver' },
  { type: 'order.cancel', by, reason: '' },
  { type: 'order.replace', by, reason: 'Tickets from another seller' },
  { type: 'event.settled', by },
]);
const input = { tickets: 2, delivered: 0 };

describe('order lifecycle statechart, model-based', () => {
  const paths = modelPaths(orderMachine, { events, input, invariant: 'nextOrderStatus agrees with the machine' });

  it('the generated paths reach every state and every transition', () => {
    const { missingStates, missingTransitions } = uncovered(orderMachine, paths);
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const actor = createActor(orderMachine, { input }).start();
      await replay(path, actor, async () => false);
      // the server's question, asked of the stored status and counts before each step, answers where it went
      for (let i = 1; i < path.steps.length; i++) {
        const was = path.steps[i - 1]?.state as OrderSnapshot;
        const step = path.steps[i] as { event: OrderEvent; state: OrderSnapshot };
        const next = nextOrderStatus(was.value as SalesStatus, was.context, step.event);
        expect(next ?? { status: was.value, delivered: was.context.delivered }).toEqual({
          status: step.state.value,
          delivered: step.state.context.delivered,
        });
      }
    });
  }
});

const STATUSES: SalesStatus[] = ['pending', 'confirmed', 'delivered', 'completed', 'cancelled', 'replaced'];

describe('order lifecycle: every status against every event and caller', () => {
  // the table the server enforces: [from, event, by] -> to (absent: refused)
  const allowed: Record<string, SalesStatus> = {
    'pending order.accept seller': 'confirmed',
    'pending order.decline seller': 'cancelled',
    'pending order.acceptanceExpired system': 'cancelled',
    'pending order.cancel admin': 'cancelled',
    'confirmed ticket.delivered seller': 'confirmed', // 1 of 2
    'confirmed ticket.removed seller': 'confirmed',
    'confirmed order.cancel admin': 'cancelled',
    'confirmed order.replace admin': 'replaced',
    'delivered ticket.removed seller': 'confirmed',
    'delivered event.settled system': 'completed',
    'delivered order.cancel admin': 'cancelled',
    'delivered order.replace admin': 'replaced',
  };
  const sample = (type: OrderEvent['type'], by: OrderActor): OrderEvent =>
    type === 'ticket.delivered' || type === 'ticket.removed'
      ? { type, by, delivered: 1 }
      : type === 'order.decline' || type === 'order.cancel' || type === 'order.replace'
        ? { type, by, reason: 'A reason' }
        : ({ type, by } as OrderEvent);
  const TYPES = [...new Set(events.map((e) => e.type))];

  for (const from of STATUSES) {
    it(`from ${from}`, () => {
      for (const type of TYPES) {
        for (const by of ACTORS) {
          const counts = { tickets: 2, delivered: from === 'delivered' ? 2 : 0 };
          const next = nextOrderStatus(from, counts, sample(type, by));
          expect([type, by, next?.status ?? null]).toEqual([type, by, allowed[`${from} ${type} ${by}`] ?? null]);
        }
      }
    });
  }

  it('delivers the order when the last ticket is delivered, and takes it back when a ticket is removed', () => {
    const counts = { tickets: 2, delivered: 1 };
    expect(nextOrderStatus('confirmed', counts, { type: 'ticket.delivered', by: 'seller', delivered: 2 })).toEqual({
      status: 'delivered',
      delivered: 2,
    });
    expect(
      nextOrderStatus(
        'delivered',
        { tickets: 2, delivered: 2 },
        { type: 'ticket.removed', by: 'seller', delivered: 1 },
      ),
    ).toEqual({ status: 'confirmed', delivered: 1 });
  });

  it('needs a reason to decline, cancel or replace', () => {
    const counts = { tickets: 2, delivered: 0 };
    expect(nextOrderStatus('pending', counts, { type: 'order.decline', by: 'seller', reason: ' ' })).toBeNull();
    expect(nextOrderStatus('confirmed', counts, { type: 'order.cancel', by: 'admin', reason: '' })).toBeNull();
    expect(nextOrderStatus('confirmed', counts, { type: 'order.replace', by: 'admin', reason: '\t' })).toBeNull();
  });

  it('offers each caller only the actions the machine allows', () => {
    expect(allowedOrderActions('pending', { tickets: 2, delivered: 0 }, 'seller')).toEqual({
      accept: true,
      decline: true,
      deliver: false,
      removeTicket: false,
      cancel: false,
      replace: false,
    });
    expect(allowedOrderActions('confirmed', { tickets: 2, delivered: 1 }, 'seller')).toMatchObject({
      accept: false,
      deliver: true,
      removeTicket: true,
    });
    expect(allowedOrderActions('confirmed', { tickets: 2, delivered: 1 }, 'admin')).toMatchObject({
      deliver: false,
      cancel: true,
      replace: true,
    });
    for (const final of ['completed', 'cancelled', 'replaced'] as const) {
      expect(Object.values(allowedOrderActions(final, { tickets: 2, delivered: 2 }, 'admin'))).not.toContain(true);
    }
  });
});
