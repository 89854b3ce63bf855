import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { type StoredCard, storedCardsMachine } from './settings-cards.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const card: StoredCard = {
  id: 3,
  card_id: 3,
  brand: 'visa',
  last4: '4242',
  exp_month: 12,
  exp_year: 2029,
  holder_name: 'Sam Seller',
  recurringDetailReference: 'ref-1',
  variant: 'visa',
  number: '**** 4242',
  gateway: 'sandbox',
};

const events = [
  { type: 'remove.requested', card },
  { type: 'remove.confirmed' },
  { type: 'remove.cancelled' },
  { type: 'xstate.done.actor.removeCard', output: { removed_id: 3 } },
  { type: 'xstate.error.actor.removeCard', error: new ApiError(404, 'This card is not one of your stored cards.') },
];

describe('settings › stored cards statechart, model-based', () => {
  const paths = modelPaths(storedCardsMachine, { events, settling: ['removeCard'] });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(storedCardsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['cardList', 'removeCard'] as const);
      const toasts: string[] = [];
      const actor = createActor(storedCardsMachine.provide({ actors: control.actors }));
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // the card removed is the one asked about, and only after the confirmation
          if (real.matches('removing')) expect(control.pending('removeCard')?.input).toBe(3);
          if (real.matches('browsing')) expect(real.context.target).toBeNull();
        },
      );
      actor.stop();
      await flush();
    });
  }
});
