import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { BULK_FAILED, type BulkOrderResults, salesBulkMachine } from './sales-bulk.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const results: BulkOrderResults = {
  message: '1 order accepted; 1 could not be.',
  done: 1,
  refused: 1,
  results: [
    { booking_id: 7, booking_no: 'SB-7', ok: true, status: 'confirmed', message: 'Order accepted.' },
    {
      booking_id: 8,
      booking_no: 'SB-8',
      ok: false,
      status: 'confirmed',
      message: 'This order is confirmed: it cannot be accepted.',
    },
  ],
};

const events = [
  { type: 'selection.toggled', id: 7 },
  { type: 'selection.allToggled', ids: [7, 8] },
  { type: 'selection.cleared' },
  { type: 'bulk.requested', action: 'accept', ids: [7, 8] },
  { type: 'bulk.requested', action: 'accept', ids: [] },
  { type: 'bulk.requested', action: 'decline', ids: [8] },
  { type: 'reason.changed', reason: 'Sold elsewhere' },
  { type: 'reason.changed', reason: ' ' },
  { type: 'bulk.confirmed' },
  { type: 'bulk.cancelled' },
  { type: 'results.dismissed' },
  { type: 'xstate.done.actor.sendBulk', output: results },
  { type: 'xstate.error.actor.sendBulk', error: new Error('offline') },
];

describe('sales › working through pending orders statechart, model-based', () => {
  const paths = modelPaths(salesBulkMachine, {
    events,
    identity: ({ value, context }) => [value, context.selected.length, context.action, context.reason.trim() !== ''],
    invariant:
      'only the ticked orders the seller sees are sent, with the chosen action and, for a decline, its reason; a decline is never sent without one; the orders that went through leave the selection and the page is told to reload',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(salesBulkMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['sendBulk'] as const);
      const actor = createActor(salesBulkMachine.provide({ actors: control.actors }));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          if (real.matches('sending')) {
            const sent = control.pending('sendBulk')?.input as { ids: number[]; action: string; reason: string };
            expect(sent.ids).toEqual(real.context.selected);
            expect(sent.ids.length).toBeGreaterThan(0);
            if (sent.action === 'decline') expect(sent.reason.trim()).not.toBe('');
          }
          if (real.matches('done')) expect(real.context.selected).toEqual([]);
          if (real.matches('confirming') && real.context.error) expect(real.context.error).toBe(BULK_FAILED);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
