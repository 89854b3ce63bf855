import { describe, expect, it } from 'vitest';
import { ApiError } from '../openapi/client';
import { type AdminErasure, adminErasuresMachine } from './admin-erasures.machine';
import { modelPaths, replay, uncovered } from './testing/model';
import { startWithStandIns } from './testing/stand-ins';

const request: AdminErasure = {
  id: 4,
  status: 'requested',
  name: 'Erin Erasable',
  email: 'erin@example.org',
  requested_at: '2026-11-28T10:00:00.000Z',
  decided_at: null,
  rejection_reason: null,
  blockers: [],
};
const held = new ApiError(409, 'This account cannot be erased while money is held or owed. A payout is waiting.');
const events = [
  { type: 'erase.started', id: 4 },
  { type: 'erase.confirmed' },
  { type: 'erase.cancelled' },
  { type: 'reject.started', id: 4 },
  { type: 'reason.changed', reason: '  Call us first ' },
  { type: 'reason.changed', reason: '  ' },
  { type: 'reject.confirmed' },
  { type: 'reject.cancelled' },
  { type: 'xstate.done.actor.erase', output: { ...request, status: 'erased', email: null, name: 'Erased account' } },
  { type: 'xstate.error.actor.erase', error: held },
  { type: 'xstate.done.actor.reject', output: { ...request, status: 'rejected', rejection_reason: 'Call us first' } },
  { type: 'xstate.error.actor.reject', error: new ApiError(409, 'This account was erased already.') },
];

const start = () =>
  startWithStandIns(adminErasuresMachine, { settled: ['erase', 'reject'], listening: { children: ['queue'] } });

describe('back-office erasures statechart, model-based', () => {
  const paths = modelPaths(adminErasuresMachine, {
    events,
    invariant:
      'an account is erased only after the confirmation, the one picked; a rejection carries its reason, trimmed; every decision reloads the queue',
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(adminErasuresMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const run = start();
      let reloads = 0;
      await replay(
        path,
        run.actor,
        (event) => {
          if (/^xstate\.(done|error)\.actor\.(erase|reject)$/.test(event.type)) reloads++;
          return run.perform(event);
        },
        (real) => {
          if (real.matches('idle')) expect(real.context.id).toBeNull();
          else expect(real.context.id).toBe(4);
          if (real.matches('erasing')) expect(run.control.pending('erase')?.input).toEqual({ id: 4 });
          else expect(run.control.isPending('erase')).toBe(false);
          if (real.matches('rejecting'))
            expect(run.control.pending('reject')?.input).toEqual({ id: 4, reason: 'Call us first' });
          expect(real.hasTag('deciding')).toBe(real.matches('erasing') || real.matches('rejecting'));
          expect(run.heard('queue').map((e) => e.type)).toEqual(Array(reloads).fill('list.refreshed'));
        },
      );
      await run.stop();
    });
  }

  it('shows a refusal in place', async () => {
    const run = start();
    run.actor.send({ type: 'erase.started', id: 4 });
    run.actor.send({ type: 'erase.confirmed' });
    await run.perform({ type: 'xstate.error.actor.erase', error: held } as never);
    expect(run.actor.getSnapshot().context.problem).toBe(held.message);
    await run.stop();
  });
});
