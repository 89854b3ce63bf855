import * as v from 'valibot';
import { api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import {
  changePasswordBody,
  registerBody,
  requestPasswordResetBody,
  resendVerifyEmailBody,
  resetPasswordBody,
} from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';

// The account flows' forms (issue 13), each the shared form machine with the contract's constraints and its
// own words. The pages' statecharts (signup, verify-email) run them as children; the simpler pages run them alone.

const EMAIL_WORDS = {
  required: 'Enter your email address.',
  maxLength: 'An email address has at most 254 characters.',
  minLength: 'Enter a valid email address, like name@example.com.',
  format: 'Enter a valid email address, like name@example.com.',
};
const NEW_PASSWORD_WORDS = {
  required: 'Choose a password.',
  minLength: 'Use at least 8 characters.',
  maxLength: 'A password has at most 128 characters.',
};
const CONFIRM_WORDS = { required: 'Type the password again.', maxLength: 'A password has at most 128 characters.' };
export const PASSWORDS_DIFFER = 'The passwords do not match.';

/** The confirmation must equal the password; the message goes under the confirmation field. */
const sameAsPassword = (input: { password: string; password_confirmation: string }) =>
  input.password === input.password_confirmation;

const signupFields = registerBody(
  formMessages({
    first_name: { required: 'Enter your first name.', maxLength: 'Use at most 100 characters.' },
    last_name: { required: 'Enter your last name.', maxLength: 'Use at most 100 characters.' },
    email: EMAIL_WORDS,
    password: NEW_PASSWORD_WORDS,
    password_confirmation: CONFIRM_WORDS,
  }),
);
export const signupLimits = fieldLimits(signupFields);
export const EMPTY_SIGNUP = { first_name: '', last_name: '', email: '', password: '', password_confirmation: '' };

export type AccountMailOutput = DataOf<'/auth/register', 'post'>;

/** Sign-up's form: the server's error body shows as it is (spec section 8). */
export const signupFormMachine = createFormMachine({
  id: 'signupForm',
  schema: v.pipe(
    signupFields,
    v.forward(v.partialCheck([['password'], ['password_confirmation']], sameAsPassword, PASSWORDS_DIFFER), [
      'password_confirmation',
    ]),
  ),
  submit: async (body, signal): Promise<AccountMailOutput> =>
    unwrap(await api.POST('/auth/register', { body, signal })),
});

const emailFields = (words = EMAIL_WORDS) => resendVerifyEmailBody(formMessages({ email: words }));
export const emailLimits = fieldLimits(emailFields());

/** 'Send a new link' on a verification page whose link failed. */
export const resendFormMachine = createFormMachine({
  id: 'resendForm',
  schema: emailFields(),
  submit: async (body, signal): Promise<AccountMailOutput> =>
    unwrap(await api.POST('/auth/resend-verify-email', { body, signal }), 'Request failed'),
});

/** 'Forgot password?': the reset request. */
export const forgotPasswordFormMachine = createFormMachine({
  id: 'forgotPasswordForm',
  schema: requestPasswordResetBody(formMessages({ email: EMAIL_WORDS })),
  submit: async (body, signal): Promise<AccountMailOutput> =>
    unwrap(await api.POST('/auth/password/reset-request', { body, signal })),
});

const resetFields = resetPasswordBody(
  formMessages({
    token: { required: 'This reset link is not complete. Open the link from the email again.' },
    password: NEW_PASSWORD_WORDS,
    password_confirmation: CONFIRM_WORDS,
  }),
);
export const resetLimits = fieldLimits(resetFields);

/** /reset-password/token/{token}: the new password (the token is the page's, a hidden value of the form). */
export const resetPasswordFormMachine = createFormMachine({
  id: 'resetPasswordForm',
  schema: v.pipe(
    resetFields,
    v.forward(v.partialCheck([['password'], ['password_confirmation']], sameAsPassword, PASSWORDS_DIFFER), [
      'password_confirmation',
    ]),
  ),
  submit: async (body, signal): Promise<AccountMailOutput> =>
    unwrap(await api.POST('/auth/reset-password', { body, signal })),
});

const changeFields = changePasswordBody(
  formMessages({
    current_password: { required: 'Enter your current password.', maxLength: 'A password has at most 128 characters.' },
    password: NEW_PASSWORD_WORDS,
    password_confirmation: CONFIRM_WORDS,
  }),
);
export const changeLimits = fieldLimits(changeFields);
export const EMPTY_CHANGE = { current_password: '', password: '', password_confirmation: '' };
export type ChangePasswordOutput = DataOf<'/auth/change-password', 'post'>;

/** Settings › Change password: every other session ends when it succeeds. */
export const changePasswordFormMachine = createFormMachine({
  id: 'changePasswordForm',
  schema: v.pipe(
    changeFields,
    v.forward(v.partialCheck([['password'], ['password_confirmation']], sameAsPassword, PASSWORDS_DIFFER), [
      'password_confirmation',
    ]),
  ),
  submit: async (body, signal): Promise<ChangePasswordOutput> =>
    unwrap(await api.POST('/auth/change-password', { body, signal })),
});
