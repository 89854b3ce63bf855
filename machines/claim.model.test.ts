import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { CLAIM_OPENED, claimMachine } from './claim.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const claim = {
  id: 7,
  booking_id: 42,
  booking_no: 'SB-100042',
  reason: 'wrong_tickets' as const,
  description: 'Block 9, not block 1.',
  status: 'open' as const,
  opened_at: '2026-11-28T10:00:00.000Z',
  resolved_at: null,
  resolution_note: null,
};
const refused = new ApiError(409, 'A claim was already opened on this booking.', [], {});

const events = [
  { type: 'claim.started' },
  { type: 'reason.changed', reason: 'wrong_tickets' },
  { type: 'description.changed', description: 'Block 9, not block 1.' },
  { type: 'description.changed', description: '   ' },
  { type: 'claim.submitted' },
  { type: 'claim.cancelled' },
  { type: 'xstate.done.actor.openClaim', output: claim },
  { type: 'xstate.error.actor.openClaim', error: refused },
];

describe('a buyer’s claim statechart, model-based', () => {
  const paths = modelPaths(claimMachine, {
    events,
    input: { bookingId: 42 },
    identity: (s) => ({ value: s.value, described: s.context.description.trim() !== '', problem: s.context.problem }),
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(claimMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['openClaim'] as const);
      const toasts: string[] = [];
      const actor = createActor(claimMachine.provide({ actors: control.actors }), { input: { bookingId: 42 } });
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // nothing is sent without a description; the call carries the booking and one key per claim
          if (real.matches('submitting')) {
            const input = control.pending('openClaim')?.input as {
              bookingId: number;
              key: string;
              description: string;
            };
            expect(input.bookingId).toBe(42);
            expect(input.key).not.toBe('');
            expect(input.description.trim()).not.toBe('');
          }
          if (real.matches('opened')) {
            expect(real.context.claim?.id).toBe(7);
            expect(toasts).toEqual([CLAIM_OPENED]);
          } else expect(toasts).toEqual([]);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
