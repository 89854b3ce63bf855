import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { ApiError } from '../openapi/client';
import { fieldLimits, issuesToErrors, serverErrorsToFields } from './form.machine';
import { type LoginOutput, passwordFormMachine as loginFormMachine, loginLimits } from './login-form.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const accepted: LoginOutput = {
  token: 't',
  user_token: 'u',
  first_name: 'Sam',
  last_name: 'Seller',
  expires_at: '2026-11-23T12:00:00Z',
};
const unprocessable = new ApiError(422, 'The request is not valid.', [
  { path: '/body/email', message: 'must match format "email"' },
  { path: '/body', message: 'must NOT have additional properties' },
]);
const wrongPassword = new ApiError(401, 'Incorrect email or password.');

const events = [
  { type: 'field.changed', field: 'email', value: 'seller@demo.test' },
  { type: 'field.changed', field: 'password', value: '' },
  { type: 'form.submitted' },
  { type: 'form.reset' },
  {
    type: 'xstate.done.actor.validate',
    output: { success: true, output: { email: 'seller@demo.test', password: 'Demo1234!' } },
  },
  { type: 'xstate.done.actor.validate', output: { success: false, errors: { password: 'Enter your password.' } } },
  { type: 'xstate.error.actor.validate', error: new Error('the check itself broke') },
  { type: 'xstate.done.actor.submit', output: accepted },
  { type: 'xstate.error.actor.submit', error: unprocessable },
  { type: 'xstate.error.actor.submit', error: wrongPassword },
];
const input = { values: { email: '', password: '' } };

describe('form statechart (the login form), model-based', () => {
  const paths = modelPaths(loginFormMachine, {
    events,
    input,
    identity: ({ value, context }) => [value, context.values, context.errors, context.formError],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(loginFormMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['validate', 'submit'] as const);
      const actor = createActor(loginFormMachine.provide({ actors: control.actors }), { input });
      const invalid: string[] = [];
      actor.on('form.invalid', (e) => invalid.push(e.field));
      actor.start();
      await replay(path, actor, control.settle, (real) => {
        const { context } = real;
        // what each state promises the views
        if (real.matches({ editing: 'pristine' })) expect(context.errors).toEqual({});
        if (real.matches('submitting')) {
          expect(real.hasTag('submitting')).toBe(true);
          expect(control.pending('submit')?.input).toEqual({ email: 'seller@demo.test', password: 'Demo1234!' });
        }
        if (real.matches('validating')) expect(control.pending('validate')?.input).toEqual(context.values);
        if (real.matches({ failed: 'invalid' })) {
          expect(context.errors).toEqual({ email: 'must match format "email"' });
          expect(context.formError).toBe('must NOT have additional properties');
        }
        if (real.matches({ failed: 'refused' })) expect(context.formError).not.toBeNull();
        if (real.hasTag('error')) expect(real.matches('failed')).toBe(true);
        if (real.status === 'done') expect(real.output).toEqual(accepted);
        // each failed check points the view at its first field
        if (real.matches({ editing: 'checked' }) && Object.keys(context.errors).length > 0) {
          expect(invalid.length).toBeGreaterThan(0);
        }
      });
      actor.stop();
      await flush();
    });
  }
});

/** The login form with its real checks and a stand-in server. */
function loginForm(answer: () => Promise<LoginOutput>) {
  const sent: unknown[] = [];
  const actor = createActor(
    loginFormMachine.provide({
      actors: {
        submit: fromPromise(async ({ input }) => {
          sent.push(input);
          return answer();
        }),
      },
    }),
    { input },
  );
  const invalid: string[] = [];
  actor.on('form.invalid', (e) => invalid.push(e.field));
  actor.start();
  const type = (field: 'email' | 'password', value: string) => actor.send({ type: 'field.changed', field, value });
  return { actor, sent, invalid, type };
}

describe('the login form', () => {
  it('shows nothing until the first submit, then the first problem of each field, and points at the first', async () => {
    const { actor, sent, invalid, type } = loginForm(async () => accepted);
    type('email', 'not an email');
    expect(actor.getSnapshot().context.errors).toEqual({});
    actor.send({ type: 'form.submitted' });
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'checked' })).toBe(true);
    expect(actor.getSnapshot().context.errors).toEqual({
      email: 'Enter a valid email address, like name@example.com.',
      password: 'Enter your password.',
    });
    expect(invalid).toEqual(['email']);
    // from now on every change is checked again
    type('email', `${'x'.repeat(250)}@b.co`);
    expect(actor.getSnapshot().context.errors.email).toBe('An email address has at most 254 characters.');
    type('email', '  seller@demo.test ');
    expect(actor.getSnapshot().context.errors.email).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it('sends the checked values (the email trimmed) once, even when submitted twice', async () => {
    const { actor, sent, type } = loginForm(() => new Promise(() => {}));
    type('email', ' seller@demo.test ');
    type('password', 'Demo1234!');
    actor.send({ type: 'form.submitted' });
    await flush();
    actor.send({ type: 'form.submitted' });
    await flush();
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(sent).toEqual([{ email: 'seller@demo.test', password: 'Demo1234!' }]);
  });

  it("puts the server's 422 under the fields it names, until that field changes", async () => {
    const { actor, invalid, type } = loginForm(async () => {
      throw new ApiError(422, 'The request is not valid.', [{ path: '/body/email', message: 'is not a known format' }]);
    });
    type('email', 'seller@demo.test');
    type('password', 'Demo1234!');
    actor.send({ type: 'form.submitted' });
    await flush();
    expect(actor.getSnapshot().matches({ failed: 'invalid' })).toBe(true);
    expect(actor.getSnapshot().context.errors).toEqual({ email: 'is not a known format' });
    expect(invalid).toEqual(['email']);
    type('password', 'Other1234!');
    expect(actor.getSnapshot().context.errors).toEqual({ email: 'is not a known format' });
    type('email', 'sam@demo.test');
    expect(actor.getSnapshot().context.errors).toEqual({});
  });

  it("shows the server's refusal above the form, and ends with the server's answer when accepted", async () => {
    let refuse = true;
    const { actor, type } = loginForm(async () => {
      if (refuse) throw new ApiError(401, 'Incorrect email or password.');
      return accepted;
    });
    type('email', 'seller@demo.test');
    type('password', 'wrong');
    actor.send({ type: 'form.submitted' });
    await flush();
    expect(actor.getSnapshot().matches({ failed: 'refused' })).toBe(true);
    expect(actor.getSnapshot().context.formError).toBe('Incorrect email or password.');
    refuse = false;
    type('password', 'Demo1234!');
    expect(actor.getSnapshot().context.formError).toBeNull();
    actor.send({ type: 'form.submitted' });
    await flush();
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual(accepted);
  });
});

describe('form errors', () => {
  it('maps JSON pointers of the body to field paths, and the rest to the form', () => {
    expect(
      serverErrorsToFields(
        [
          { path: '/body/email', message: 'bad email' },
          { path: '/body/email', message: 'second problem' },
          { path: '/body/address/city', message: 'bad city' },
          { path: '/body/a~1b', message: 'escaped' },
          { path: '/query/page', message: 'bad page' },
          { path: '/body/unknown', message: 'not a field' },
        ],
        ['email', 'address', 'a/b'],
      ),
    ).toEqual({ email: 'bad email', 'address.city': 'bad city', 'a/b': 'escaped', '': 'bad page' });
  });

  it('keeps the first issue of each field', () => {
    expect(
      issuesToErrors([
        { message: 'first', path: [{ key: 'email' }] },
        { message: 'second', path: [{ key: 'email' }] },
        { message: 'whole' },
      ] as never),
    ).toEqual({ email: 'first', '': 'whole' });
  });
});

describe('fieldLimits', () => {
  it("reads each field's length limits from the contract's schema", () => {
    expect(loginLimits).toEqual({ email: { maxLength: 254, minLength: 3 }, password: { maxLength: 128 } });
  });

  it('sees through optional fields and ignores what is not an object schema', () => {
    const schema = v.object({ note: v.optional(v.pipe(v.string(), v.maxLength(5))), n: v.number() });
    expect(fieldLimits(schema)).toEqual({ note: { maxLength: 5 }, n: {} });
    expect(fieldLimits(v.string())).toEqual({});
  });
});
