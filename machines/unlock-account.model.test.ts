import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';
import { UNLOCK_FAILED, unlockAccountMachine } from './unlock-account.machine';

const input = { token: 'abc_DEF-123' };
const events = [
  { type: 'retry.requested' },
  { type: 'xstate.done.actor.unlock', output: { email: 'owner@example.test' } },
  { type: 'xstate.error.actor.unlock', error: new ApiError(404, 'This unlock link is not valid.') },
  { type: 'xstate.error.actor.unlock', error: new ApiError(0, UNLOCK_FAILED) },
];

describe('unlock link statechart, model-based', () => {
  const paths = modelPaths(unlockAccountMachine, { events, input });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(unlockAccountMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['unlock'] as const);
      const actor = createActor(unlockAccountMachine.provide({ actors: control.actors }), { input });
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        if (real.matches('unlocking')) expect(control.pending('unlock')?.input).toBe('abc_DEF-123');
        if (real.matches('unlocked')) expect(real.context.email).toBe('owner@example.test');
        if (real.matches('refused')) expect(real.context.error).toBe('This unlock link is not valid.');
        if (real.matches('failed')) expect(real.context.error).toBe(UNLOCK_FAILED);
        if (real.hasTag('error')) expect(real.matches('failed') || real.matches('refused')).toBe(true);
      });
      actor.stop();
      await flush();
    });
  }
});
