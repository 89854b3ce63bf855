import { api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import { loginBody } from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';

export type LoginOutput = DataOf<'/auth/login', 'post'>;

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

/**
 * The login form on the form machine. It runs as a child of the session (`loginForm`): when the server
 * accepts the email and password, the session hears `xstate.done.actor.loginForm` with the token and loads
 * the profile. A wrong password shows the server's message above the form; a 422 puts its messages under
 * the fields.
 */
export const loginFormMachine = createFormMachine({
  id: 'loginForm',
  schema: loginSchema,
  submit: async (body, signal): Promise<LoginOutput> => unwrap(await api.POST('/auth/login', { body, signal })),
});

export const EMPTY_LOGIN = { email: '', password: '' };
