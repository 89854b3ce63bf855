import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';
import { REQUEST_FAILED, verifyEmailMachine } from './verify-email.machine';

const input = { token: 'abc_DEF-123' };
const events = [
  { type: 'retry.requested' },
  { type: 'xstate.done.actor.verify', output: { email: 'nell@example.test' } },
  {
    type: 'xstate.error.actor.verify',
    error: new ApiError(404, 'This verification link is not valid or has expired.'),
  },
  { type: 'xstate.error.actor.verify', error: new ApiError(0, REQUEST_FAILED) },
  { type: 'xstate.done.actor.resendForm', output: { email: 'nell@example.test' } },
];

describe('email verification statechart, model-based', () => {
  const paths = modelPaths(verifyEmailMachine, { events, input });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(verifyEmailMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['verify', 'resendForm'] as const);
      const actor = createActor(verifyEmailMachine.provide({ actors: control.actors }), { input });
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        if (real.matches('verifying')) expect(control.pending('verify')?.input).toBe('abc_DEF-123');
        if (real.matches('verified')) expect(real.context.email).toBe('nell@example.test');
        if (real.matches('refused'))
          expect(real.context.error).toBe('This verification link is not valid or has expired.');
        if (real.matches('failed')) expect(real.context.error).toBe(REQUEST_FAILED);
        if (real.hasTag('error')) expect(real.matches('failed') || real.matches('refused')).toBe(true);
      });
      actor.stop();
      await flush();
    });
  }
});
