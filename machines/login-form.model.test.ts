import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import {
  CODE_STEP_EXPIRED,
  CODE_STEP_MS,
  type CodeDue,
  type LoginFormContext,
  type LoginOutput,
  loginFormMachine,
} from './login-form.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const session: LoginOutput = {
  token: 't',
  user_token: 'u',
  first_name: 'Sam',
  last_name: 'Seller',
  expires_at: '2026-11-23T12:00:00Z',
};
const codeDue: CodeDue = {
  two_factor_required: true,
  challenge: 'challenge-abcdefghijklmnopqrstuvwxyz',
  expires_at: '',
};

const events = [
  { type: 'xstate.done.actor.passwordForm', output: session },
  { type: 'xstate.done.actor.passwordForm', output: codeDue },
  { type: 'xstate.done.actor.codeForm', output: session },
  { type: 'xstate.done.actor.recoveryForm', output: session },
  { type: 'code.recovery.chosen' },
  { type: 'code.app.chosen' },
  { type: 'code.cancelled' },
];
const input = { values: { email: 'sam@demo.test', password: '' } };
const ACTORS = ['passwordForm', 'codeForm', 'recoveryForm'] as const;

describe('login statechart (password, then a code for two-factor login), model-based', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const identity = ({ value, context }: { value: unknown; context: LoginFormContext }) => [
    value,
    context.challenge,
    context.notice,
    context.login?.token,
  ];
  const paths = modelPaths(loginFormMachine, { events, input, identity });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(loginFormMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(ACTORS);
      const actor = createActor(loginFormMachine.provide({ actors: control.actors }), { input });
      actor.start();
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type === 'after.codeStepEnds') {
            await vi.advanceTimersByTimeAsync(CODE_STEP_MS);
            return true;
          }
          return control.settle(event);
        },
        (real) => {
          // the forms start with what they need: the email typed, the challenge the password earned
          if (real.matches('password')) {
            expect(control.pending('passwordForm')?.input).toEqual({
              values: { email: 'sam@demo.test', password: '' },
            });
            expect(real.context.challenge).toBeNull();
          }
          if (real.matches({ code: 'app' }))
            expect(control.pending('codeForm')?.input).toEqual({ values: { challenge: codeDue.challenge, code: '' } });
          if (real.matches({ code: 'recovery' }))
            expect(control.pending('recoveryForm')?.input).toEqual({
              values: { challenge: codeDue.challenge, recovery_code: '' },
            });
          if (real.matches('loggedIn')) {
            expect(real.status).toBe('done');
            expect(real.output).toEqual(session);
          }
          if (real.context.notice !== null) expect(real.context.notice).toBe(CODE_STEP_EXPIRED);
        },
      );
      actor.stop();
      await flush();
    });
  }

  it('the code step ends after 5 minutes, back at the password with a note, and not a moment before', async () => {
    const control = controllableActors(ACTORS);
    const actor = createActor(loginFormMachine.provide({ actors: control.actors }), { input });
    actor.start();
    await control.settle({ type: 'xstate.done.actor.passwordForm', output: codeDue });
    expect(actor.getSnapshot().matches({ code: 'app' })).toBe(true);
    await vi.advanceTimersByTimeAsync(CODE_STEP_MS - 1);
    expect(actor.getSnapshot().matches('code')).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().matches('password')).toBe(true);
    expect(actor.getSnapshot().context.notice).toBe(CODE_STEP_EXPIRED);
    actor.stop();
  });
});
