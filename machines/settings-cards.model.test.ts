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
  { type: 'xstate.done.actor.loadConfig', output: true },
  { type: 'xstate.error.actor.loadConfig', error: new ApiError(500, 'Request failed') },
  { type: 'add.requested' },
  { type: 'add.changed', field: 'holder', value: 'Sam Seller' },
  { type: 'add.changed', field: 'number', value: '4242 4242 4242 4242' },
  { type: 'add.changed', field: 'expiry', value: '12/34' },
  { type: 'add.changed', field: 'cvc', value: '123' },
  { type: 'add.submitted' },
  { type: 'add.cancelled' },
  { type: 'add.retried' },
  { type: 'xstate.done.actor.addCard', output: card },
  { type: 'xstate.error.actor.addCard', error: new Error('Your card was declined.') },
];

describe('settings › stored cards statechart, model-based', () => {
  const paths = modelPaths(storedCardsMachine, { events, settling: ['removeCard', 'loadConfig', 'addCard'] });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(storedCardsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['cardList', 'removeCard', 'loadConfig', 'addCard'] as const);
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
          // the card verified is the one typed, and only a filled-in card is sent
          if (real.matches({ adding: 'verifying' })) {
            expect(control.pending('addCard')?.input).toEqual(real.context.card);
            expect(real.context.card.cvc).toBe('123');
          }
          if (real.matches({ adding: 'failed' })) expect(real.context.failure).toBe('Your card was declined.');
        },
      );
      actor.stop();
      await flush();
    });
  }
});
