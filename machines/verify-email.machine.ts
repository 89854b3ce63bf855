import { assign, fromPromise, setup } from 'xstate';
import { ApiError, api, unwrap } from '../openapi/client';
import { type AccountMailOutput, resendFormMachine } from './account-forms';

/** The spec's default for a verification call that fails without the server's word (section 8). */
export const REQUEST_FAILED = 'Request failed';

export interface VerifyEmailContext {
  token: string;
  email: string | null;
  error: string | null;
}

/**
 * /verify-email/token/{token}: the link from the sign-up email. The token is sent once as the page opens;
 * verified, the page offers login; refused (unknown, used or expired) or failed, it says why and offers a new
 * link by email (`resendForm`, the shared form machine).
 */
export const verifyEmailMachine = setup({
  types: {
    context: {} as VerifyEmailContext,
    input: {} as { token: string },
    events: {} as { type: 'retry.requested' } | { type: 'xstate.done.actor.resendForm'; output: AccountMailOutput },
  },
  actors: {
    verify: fromPromise<AccountMailOutput, string>(async ({ input, signal }) =>
      unwrap(await api.POST('/auth/verify-email', { body: { token: input }, signal }), REQUEST_FAILED),
    ),
    resendForm: resendFormMachine,
  },
  guards: {
    isRefusal: (_, error: unknown) => error instanceof ApiError && error.status === 404,
  },
  actions: {
    storeEmail: assign((_, output: AccountMailOutput) => ({ email: output.email, error: null })),
    storeError: assign((_, error: unknown) => ({
      error: error instanceof Error && error.message ? error.message : REQUEST_FAILED,
    })),
  },
}).createMachine({
  id: 'verifyEmail',
  context: ({ input }) => ({ token: input.token, email: null, error: null }),
  initial: 'verifying',
  states: {
    verifying: {
      tags: ['loading'],
      invoke: {
        id: 'verify',
        src: 'verify',
        input: ({ context }) => context.token,
        onDone: {
          target: 'verified',
          actions: {
            type: 'storeEmail',
            params: ({ event }: { event: { output: AccountMailOutput } }) => event.output,
          },
        },
        onError: [
          {
            guard: { type: 'isRefusal', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'refused',
            actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error },
          },
          {
            target: 'failed',
            actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error },
          },
        ],
      },
    },
    verified: { type: 'final', description: 'The address is verified: log in.' },
    failed: {
      tags: ['error'],
      description: 'The call failed (network, server): try again.',
      on: { 'retry.requested': 'verifying' },
    },
    refused: {
      tags: ['error'],
      description: 'The link is unknown, used or expired: a new one can be sent by email.',
      initial: 'asking',
      states: {
        asking: {
          invoke: { id: 'resendForm', src: 'resendForm', input: { values: { email: '' } }, onDone: 'resent' },
        },
        resent: { description: 'A new link is on its way (if an account waits for one).' },
      },
    },
  },
});
