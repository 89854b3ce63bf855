import * as v from 'valibot';
import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { checkEmailBody } from '../openapi/valibot';
import { type AccountMailOutput, signupFormMachine } from './account-forms';

export type CheckEmailOutput = DataOf<'/auth/check-email', 'post'>;

const isEmail = (email: string) => v.safeParse(checkEmailBody(), { email }).success;

/** The shape of a referral code (the contract's ReferralCode): a sign-up from /signup?ref=CODE sends it. */
export const REFERRAL_CODE = /^[A-HJ-NP-Z2-9]{8}$/;

export type SignupEvent =
  | { type: 'email.typed'; email: string }
  | { type: 'resend.requested' }
  | { type: 'xstate.done.actor.signupForm'; output: AccountMailOutput };

export interface SignupContext {
  /** The address as last typed; the check runs for it once typing pauses. */
  email: string;
  /** Where the verification link went, once the sign-up is accepted. */
  sentTo: string | null;
}

/** What typing does in every email-check state: a plausible address is checked after a pause, anything else is not. */
const typed = [
  { guard: 'isPlausibleEmail', target: 'waiting', reenter: true, actions: 'rememberEmail' },
  { target: 'idle', actions: 'rememberEmail' },
] as const;

/**
 * Sign-up (/signup). The form is the shared form machine (`signupForm`, the contract's RegisterRequest); while
 * the address is typed, a check asks the server whether it is free (`/auth/check-email`, after a 400 ms
 * pause, and only for what looks like an address), so the page can say at once that an account exists and
 * offer login or a reset. Accepted, the page says where the verification link went and can send it again.
 */
export const signupMachine = setup({
  types: {
    context: {} as SignupContext,
    events: {} as SignupEvent,
  },
  actors: {
    signupForm: signupFormMachine,
    checkEmail: fromPromise<CheckEmailOutput, string>(async ({ input, signal }) =>
      unwrap(await api.POST('/auth/check-email', { body: { email: input }, signal })),
    ),
    resend: fromPromise<AccountMailOutput, string>(async ({ input, signal }) =>
      unwrap(await api.POST('/auth/resend-verify-email', { body: { email: input }, signal }), 'Request failed'),
    ),
  },
  guards: {
    isPlausibleEmail: ({ event }) => event.type === 'email.typed' && isEmail(event.email.trim()),
    isFree: (_, output: CheckEmailOutput) => output.available,
  },
  actions: {
    rememberEmail: assign(({ event }) => (event.type === 'email.typed' ? { email: event.email.trim() } : {})),
    rememberSentTo: assign((_, output: AccountMailOutput) => ({ sentTo: output.email })),
  },
  delays: { typingPause: 400 },
}).createMachine({
  id: 'signup',
  context: { email: '', sentTo: null },
  initial: 'filling',
  states: {
    filling: {
      description: 'The sign-up form, with the address checked as it is typed.',
      invoke: {
        id: 'signupForm',
        src: 'signupForm',
        input: { values: { first_name: '', last_name: '', email: '', password: '', password_confirmation: '' } },
        onDone: {
          target: 'sent',
          actions: {
            type: 'rememberSentTo',
            params: ({ event }: { event: { output: AccountMailOutput } }) => event.output,
          },
        },
      },
      initial: 'idle',
      states: {
        idle: { description: 'Nothing to check yet.', on: { 'email.typed': typed } },
        waiting: { after: { typingPause: 'checking' }, on: { 'email.typed': typed } },
        checking: {
          tags: ['checkingEmail'],
          invoke: {
            id: 'checkEmail',
            src: 'checkEmail',
            input: ({ context }) => context.email,
            onDone: [
              {
                guard: { type: 'isFree', params: ({ event }: { event: { output: CheckEmailOutput } }) => event.output },
                target: 'free',
              },
              { target: 'taken' },
            ],
            onError: 'unchecked',
          },
          on: { 'email.typed': typed },
        },
        free: { description: 'No account has the address.', on: { 'email.typed': typed } },
        taken: {
          description: 'An account has the address: the page offers login or a password reset.',
          on: { 'email.typed': typed },
        },
        unchecked: {
          description: 'The check failed or is limited: sign-up works all the same.',
          on: { 'email.typed': typed },
        },
      },
    },
    sent: {
      description: 'Accepted: the page says where the verification link went.',
      initial: 'idle',
      states: {
        idle: { on: { 'resend.requested': 'resending' } },
        resending: {
          tags: ['resending'],
          invoke: {
            id: 'resend',
            src: 'resend',
            input: ({ context }) => context.sentTo ?? '',
            onDone: 'resent',
            onError: 'resendFailed',
          },
        },
        resent: { description: 'A new link is on its way.', on: { 'resend.requested': 'resending' } },
        resendFailed: { tags: ['error'], on: { 'resend.requested': 'resending' } },
      },
    },
  },
});
