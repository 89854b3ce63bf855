import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { adminPayoutsMachine } from './payouts-admin.machine';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const payout = { id: 3, reference: 'PO-000003', status: 'sent' };
const events = [
  { type: 'xstate.done.actor.markSent', output: payout },
  { type: 'xstate.error.actor.markSent', error: new Error('This payout was already marked sent') },
  { type: 'xstate.done.actor.markFailed', output: { ...payout, status: 'failed' } },
  { type: 'xstate.error.actor.markFailed', error: new Error('already') },
  { type: 'payout.sent', id: 3 },
  { type: 'fail.started', id: 3 },
  { type: 'reason.changed', reason: 'Bounced' },
  { type: 'reason.changed', reason: '   ' },
  { type: 'fail.confirmed' },
  { type: 'fail.cancelled' },
];

describe('back-office payouts statechart, model-based', () => {
  const paths = modelPaths(adminPayoutsMachine, {
    events,
    settling: ['markSent', 'markFailed'],
    identity: (s) => [s.value, s.context.reason.trim().length > 0],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(adminPayoutsMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const control = controllableActors(['markSent', 'markFailed'] as const);
      const queue = createMachine({});
      const actor = createActor(
        adminPayoutsMachine.provide({ actors: { ...control.actors, queue: queue as never } }),
      ).start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // a failure is never sent without its reason
          const failing = control.pending('markFailed');
          if (failing) expect((failing.input as { reason: string }).reason.length).toBeGreaterThan(0);
          if (real.matches('idle')) expect(real.context.id).toBeNull();
        },
      );
      actor.stop();
      log.mockRestore();
    });
  }
});
