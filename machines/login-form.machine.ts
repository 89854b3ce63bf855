import { assign, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { loginBody, loginTwoFactorBody } from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';
import { lazyMachine } from './lazy-machine';

export type LoginOutput = DataOf<'/auth/login', 'post'>;
/** The 202 of a right password when the user turned two-factor login on: a code is due. */
export type CodeDue = components['schemas']['TwoFactorChallengeResponse']['data'];
type PasswordAnswer = LoginOutput | CodeDue;

/** The login form's words; the constraints are the contract's (LoginRequest). */
export const loginSchema = loginBody(
  formMessages({
    email: {
      required: 'Enter your email address.',
      maxLength: 'An email address has at most 254 characters.',
      minLength: 'Enter a valid email address, like name@example.com.',
      format: 'Enter a valid email address, like name@example.com.',
    },
    password: {
      required: 'Enter your password.',
      maxLength: 'A password has at most 128 characters.',
    },
  }),
);

/** The fields' length limits, from the same schema: the inputs' `maxLength`. */
export const loginLimits = fieldLimits(loginSchema);

/** The code step's words; the constraints are the contract's (TwoFactorLoginRequest). */
export const codeSchema = loginTwoFactorBody(
  formMessages({
    code: { pattern: 'Enter the 6 digits your app shows.' },
    recovery_code: { minLength: 'Enter a recovery code.', maxLength: 'Enter a recovery code.' },
  }),
);
export const codeLimits = fieldLimits(codeSchema);

/** How long the code step lasts: the server's challenge lives 5 minutes. */
export const CODE_STEP_MS = 5 * 60_000;
export const CODE_STEP_EXPIRED = 'This login has expired. Enter your email and password again.';

/** The email and password; a user with two-factor login gets a challenge instead of a session (202). */
export const passwordFormMachine = lazyMachine(() =>
  // built when the login form first starts: every page evaluates this module, only /login uses the form
  createFormMachine({
    id: 'passwordForm',
    schema: loginSchema,
    submit: async (body, signal): Promise<PasswordAnswer> =>
      // two successful answers (200 a session, 202 a code is due): their union is the data
      unwrap<PasswordAnswer>(
        (await api.POST('/auth/login', { body, signal })) as {
          data?: { data?: PasswordAnswer };
          error?: unknown;
          response: Response;
        },
      ),
  }),
);

const completeWithCode = async (
  body: { challenge: string; code?: string; recovery_code?: string },
  signal: AbortSignal,
): Promise<LoginOutput> => unwrap(await api.POST('/auth/login/two-factor', { body, signal }));

/** The code from the authenticator app, or a recovery code, with the challenge the password earned. */
export const codeFormMachine = lazyMachine(() =>
  // built at its first use, as the password's form
  createFormMachine({ id: 'codeForm', schema: codeSchema, submit: completeWithCode }),
);

export type LoginFormEvent =
  | { type: 'xstate.done.actor.passwordForm'; output: PasswordAnswer }
  | { type: 'xstate.done.actor.codeForm'; output: LoginOutput }
  | { type: 'xstate.done.actor.recoveryForm'; output: LoginOutput }
  /** 'Use a recovery code' */
  | { type: 'code.recovery.chosen' }
  /** 'Use the code from the app' */
  | { type: 'code.app.chosen' }
  /** 'Back' to the email and password */
  | { type: 'code.cancelled' };

export interface LoginFormContext {
  email: string;
  /** The challenge of the code step, while it runs. */
  challenge: string | null;
  /** Why the user is back at the password (the code step ran out), else null. */
  notice: string | null;
  login: LoginOutput | null;
}

const isCodeDue = (output: PasswordAnswer): output is CodeDue => 'two_factor_required' in output;

/**
 * The login: the email and password (`passwordForm`, the shared form machine with the contract's
 * LoginRequest), then for a user who turned two-factor login on the code step: the code from the authenticator
 * app (`codeForm`) or, on 'Use a recovery code', a recovery code (`recoveryForm`), both sent with the challenge
 * the password earned. The step ends after 5 minutes (the challenge's life) or on 'Back', at the password again.
 * It runs as a child of the session (`loginForm`): once logged in, the session hears
 * `xstate.done.actor.loginForm` with the token and loads the profile.
 */
export const loginFormMachine = lazyMachine(() =>
  setup({
    types: {
      context: {} as LoginFormContext,
      events: {} as LoginFormEvent,
      input: {} as { values: { email: string; password: string } },
      output: {} as LoginOutput,
    },
    actors: { passwordForm: passwordFormMachine, codeForm: codeFormMachine, recoveryForm: codeFormMachine },
    guards: {
      codeIsDue: ({ event }) => event.type === 'xstate.done.actor.passwordForm' && isCodeDue(event.output),
    },
    actions: {
      keepChallenge: assign(({ event }) =>
        event.type === 'xstate.done.actor.passwordForm' && isCodeDue(event.output)
          ? { challenge: event.output.challenge, notice: null }
          : {},
      ),
      keepLogin: assign(({ event }) =>
        'output' in event && !isCodeDue(event.output) ? { login: event.output, challenge: null } : {},
      ),
      dropChallenge: assign({ challenge: null }),
      noteExpired: assign({ challenge: null, notice: CODE_STEP_EXPIRED }),
    },
    delays: { codeStepEnds: CODE_STEP_MS },
  }).createMachine({
    id: 'loginForm',
    context: ({ input }) => ({ email: input.values.email, challenge: null, notice: null, login: null }),
    initial: 'password',
    states: {
      password: {
        invoke: {
          id: 'passwordForm',
          src: 'passwordForm',
          input: ({ context }) => ({ values: { email: context.email, password: '' } }),
          onDone: [
            { guard: 'codeIsDue', target: 'code', actions: 'keepChallenge' },
            { target: 'loggedIn', actions: 'keepLogin' },
          ],
        },
      },
      code: {
        initial: 'app',
        after: { codeStepEnds: { target: 'password', actions: 'noteExpired' } },
        on: { 'code.cancelled': { target: 'password', actions: 'dropChallenge' } },
        states: {
          app: {
            invoke: {
              id: 'codeForm',
              src: 'codeForm',
              input: ({ context }) => ({ values: { challenge: context.challenge ?? '', code: '' } }),
              onDone: { target: '#loginForm.loggedIn', actions: 'keepLogin' },
            },
            on: { 'code.recovery.chosen': 'recovery' },
          },
          recovery: {
            invoke: {
              id: 'recoveryForm',
              src: 'recoveryForm',
              input: ({ context }) => ({ values: { challenge: context.challenge ?? '', recovery_code: '' } }),
              onDone: { target: '#loginForm.loggedIn', actions: 'keepLogin' },
            },
            on: { 'code.app.chosen': 'app' },
          },
        },
      },
      loggedIn: { type: 'final' },
    },
    output: ({ context }) => context.login as LoginOutput,
  }),
);

export const EMPTY_LOGIN = { email: '', password: '' };
