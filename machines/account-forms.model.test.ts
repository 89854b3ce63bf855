import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  changePasswordFormMachine,
  forgotPasswordFormMachine,
  PASSWORDS_DIFFER,
  resendFormMachine,
  resetPasswordFormMachine,
  signupFormMachine,
} from './account-forms';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

interface Case {
  machine: AnyStateMachine;
  field: string;
  filled: Record<string, string>;
  output: unknown;
}

const pw = { password: 'N3w-password!', password_confirmation: 'N3w-password!' };
const cases: Case[] = [
  {
    machine: signupFormMachine,
    field: 'email',
    filled: { first_name: 'Nell', last_name: 'New', email: 'nell@example.test', ...pw },
    output: { email: 'nell@example.test' },
  },
  {
    machine: resendFormMachine,
    field: 'email',
    filled: { email: 'nell@example.test' },
    output: { email: 'nell@example.test' },
  },
  {
    machine: forgotPasswordFormMachine,
    field: 'email',
    filled: { email: 'nell@example.test' },
    output: { email: 'nell@example.test' },
  },
  {
    machine: resetPasswordFormMachine,
    field: 'password',
    filled: { token: 't0ken', ...pw },
    output: { email: 'n@e.test' },
  },
  {
    machine: changePasswordFormMachine,
    field: 'current_password',
    filled: { current_password: 'Demo1234!', ...pw },
    output: { sessions_ended: 2 },
  },
];

for (const { machine, field, filled, output } of cases) {
  const empty = Object.fromEntries(Object.keys(filled).map((k) => [k, '']));
  const input = { values: empty };
  const events = [
    { type: 'field.changed', field, value: filled[field] },
    { type: 'form.submitted' },
    { type: 'form.reset' },
    { type: 'xstate.done.actor.validate', output: { success: true, output: filled } },
    { type: 'xstate.done.actor.validate', output: { success: false, errors: { [field]: 'Enter it.' } } },
    { type: 'xstate.error.actor.validate', error: new Error('the check itself broke') },
    { type: 'xstate.done.actor.submit', output },
    {
      type: 'xstate.error.actor.submit',
      error: new ApiError(422, 'Some fields are missing or invalid.', [
        { path: `/body/${field}`, message: 'Not this one.' },
      ]),
    },
    { type: 'xstate.error.actor.submit', error: new ApiError(429, 'Too many requests from your network.') },
  ];

  describe(`${machine.id} (the form machine), model-based`, () => {
    const paths = modelPaths(machine, {
      events,
      input,
      identity: ({ value, context }) => [value, context.values, context.errors, context.formError],
    });

    it('the generated paths reach every state and every transition', () => {
      expect(uncovered(machine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
    });

    for (const path of paths) {
      it(path.description, async () => {
        const control = controllableActors(['validate', 'submit'] as const);
        const actor = createActor(machine.provide({ actors: control.actors }), { input });
        actor.start();
        await replay(path, actor, control.settle, (real) => {
          if (real.matches('submitting')) expect(control.pending('submit')?.input).toEqual(filled);
          if (real.matches({ failed: 'invalid' })) expect(real.context.errors).toEqual({ [field]: 'Not this one.' });
          if (real.status === 'done') expect(real.output).toEqual(output);
        });
        actor.stop();
        await flush();
      });
    }
  });
}

describe('the account forms check what the contract cannot', () => {
  it('refuses a confirmation that differs, under the confirmation field', async () => {
    const actor = createActor(resetPasswordFormMachine, {
      input: { values: { token: 't', password: 'N3w-password!', password_confirmation: 'other-pass' } },
    }).start();
    actor.send({ type: 'form.submitted' });
    await flush();
    expect(actor.getSnapshot().context.errors).toEqual({ password_confirmation: PASSWORDS_DIFFER });
  });

  it('asks for 8 characters at least in a new password', async () => {
    const actor = createActor(changePasswordFormMachine, {
      input: { values: { current_password: 'x', password: 'short', password_confirmation: 'short' } },
    }).start();
    actor.send({ type: 'form.submitted' });
    await flush();
    expect(actor.getSnapshot().context.errors.password).toBe('Use at least 8 characters.');
  });
});
