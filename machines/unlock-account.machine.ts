import { assign, fromPromise, setup } from 'xstate';
import { ApiError, api, type DataOf, unwrap } from '../openapi/client';

/** The spec's default for a call that fails without the server's word (section 8). */
export const UNLOCK_FAILED = 'Request failed';

export type UnlockOutput = DataOf<'/auth/unlock-account', 'post'>;

export interface UnlockAccountContext {
  token: string;
  email: string | null;
  error: string | null;
}

/**
 * /login/unlock/{token}: the link a locked account's owner is emailed when wrong passwords from browsers the
 * account does not know lock it. The token is sent once as the page opens: the lock is lifted and the server
 * remembers this browser (its device cookie), so the page offers login; an unknown, used or expired link says so
 * and offers login and the password reset; a failed call can be tried again.
 */
export const unlockAccountMachine = setup({
  types: {
    context: {} as UnlockAccountContext,
    input: {} as { token: string },
    events: {} as { type: 'retry.requested' },
  },
  actors: {
    unlock: fromPromise<UnlockOutput, string>(async ({ input, signal }) =>
      unwrap(await api.POST('/auth/unlock-account', { body: { token: input }, signal }), UNLOCK_FAILED),
    ),
  },
  guards: {
    isRefusal: (_, error: unknown) => error instanceof ApiError && error.status === 404,
  },
  actions: {
    storeEmail: assign((_, output: UnlockOutput) => ({ email: output.email, error: null })),
    storeError: assign((_, error: unknown) => ({
      error: error instanceof Error && error.message ? error.message : UNLOCK_FAILED,
    })),
  },
}).createMachine({
  id: 'unlockAccount',
  context: ({ input }) => ({ token: input.token, email: null, error: null }),
  initial: 'unlocking',
  states: {
    unlocking: {
      tags: ['loading'],
      invoke: {
        id: 'unlock',
        src: 'unlock',
        input: ({ context }) => context.token,
        onDone: {
          target: 'unlocked',
          actions: {
            type: 'storeEmail',
            params: ({ event }: { event: { output: UnlockOutput } }) => event.output,
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
    unlocked: { type: 'final', description: 'The lock is lifted and this browser is known to the account: log in.' },
    failed: {
      tags: ['error'],
      description: 'The call failed (network, server): try again.',
      on: { 'retry.requested': 'unlocking' },
    },
    refused: {
      type: 'final',
      tags: ['error'],
      description: 'The link is unknown, used or expired: log in, or reset the password.',
    },
  },
});
