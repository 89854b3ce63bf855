import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { signupMachine } from './signup.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const sent = { email: 'nell@example.test' };
const events = [
  { type: 'email.typed', email: 'nell@example.test' },
  { type: 'email.typed', email: 'nell@' },
  { type: 'resend.requested' },
  { type: 'xstate.done.actor.signupForm', output: sent },
  { type: 'xstate.done.actor.checkEmail', output: { email: 'nell@example.test', available: true } },
  { type: 'xstate.done.actor.checkEmail', output: { email: 'nell@example.test', available: false } },
  { type: 'xstate.error.actor.checkEmail', error: new ApiError(429, 'Too many requests from your network.') },
  { type: 'xstate.done.actor.resend', output: sent },
  { type: 'xstate.error.actor.resend', error: new Error('Request failed') },
];

describe('sign-up statechart, model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const paths = modelPaths(signupMachine, { events, identity: ({ value, context }) => [value, context.email] });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(signupMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['signupForm', 'checkEmail', 'resend'] as const);
      const actor = createActor(signupMachine.provide({ actors: control.actors }));
      actor.start();
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type === 'after.typingPause') {
            await vi.advanceTimersByTimeAsync(400);
            return true;
          }
          return control.settle(event);
        },
        (real) => {
          // the check asks about the address as typed, and only a plausible one
          if (real.matches({ filling: 'checking' }))
            expect(control.pending('checkEmail')?.input).toBe('nell@example.test');
          if (real.matches({ sent: 'resending' })) expect(control.pending('resend')?.input).toBe('nell@example.test');
          if (real.matches('sent')) expect(real.context.sentTo).toBe('nell@example.test');
          if (real.hasTag('checkingEmail')) expect(real.matches({ filling: 'checking' })).toBe(true);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
