import { assign, emit, fromPromise, setup } from 'xstate';
import { ApiError, api, type DataOf, type FieldError, messageOf, unwrap } from '../openapi/client';
import type { NotifyEvent } from './notify';

export type ApiToken = DataOf<'/settings/api-tokens', 'get'>['api_tokens'][number];
export type ApiScope = ApiToken['scopes'][number];
export interface ApiTokenForm {
  name: string;
  scopes: ApiScope[];
  expires_in_days: number;
}

export interface ApiTokensContext {
  tokens: ApiToken[];
  /** The token a revoke dialog is about. */
  target: number | null;
  /** The new token, shown once until dismissed. */
  shown: string | null;
  problem: string | null;
  fieldErrors: FieldError[];
}

export type ApiTokensEvent =
  | { type: 'list.retried' }
  | { type: 'create.opened' }
  | { type: 'create.submitted'; form: ApiTokenForm }
  | { type: 'revoke.opened'; id: number }
  | { type: 'revoke.confirmed' }
  | { type: 'change.cancelled' }
  | { type: 'token.dismissed' };

/**
 * Settings, API tokens (/settings/api-tokens): the seller's tokens for other systems with their scopes, expiry
 * and last use; create one (shown once, then only its last four characters), revoke one.
 */
export const apiTokensMachine = setup({
  types: { context: {} as ApiTokensContext, events: {} as ApiTokensEvent, emitted: {} as NotifyEvent },
  actors: {
    loadTokens: fromPromise<ApiToken[]>(
      async ({ signal }) => unwrap(await api.GET('/settings/api-tokens', { signal })).api_tokens,
    ),
    createToken: fromPromise<{ token: string; api_token: ApiToken }, ApiTokenForm>(async ({ input }) =>
      unwrap(await api.POST('/settings/api-tokens', { body: input })),
    ),
    revokeToken: fromPromise<ApiToken, number>(async ({ input }) =>
      unwrap(await api.POST('/settings/api-tokens/{id}/revoke', { params: { path: { id: input } } })),
    ),
  },
  actions: {
    storeTokens: assign({ tokens: (_, tokens: ApiToken[]) => tokens }),
    pick: assign({ target: ({ event }) => ('id' in event ? event.id : null), problem: null, fieldErrors: [] }),
    forget: assign({ target: null, problem: null, fieldErrors: [], shown: null }),
    show: assign({ shown: (_, token: string) => token }),
    storeProblem: assign({
      problem: (_, error: unknown) => messageOf(error),
      fieldErrors: (_, error: unknown) => (error instanceof ApiError ? [...error.errors] : []),
    }),
    announceRevoked: emit(() => ({ type: 'notify' as const, level: 'success' as const, message: 'API token revoked' })),
  },
}).createMachine({
  id: 'apiTokens',
  context: { tokens: [], target: null, shown: null, problem: null, fieldErrors: [] },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadTokens',
        src: 'loadTokens',
        onDone: { target: 'ready', actions: { type: 'storeTokens', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: { tags: ['error'], on: { 'list.retried': 'loading' } },
    ready: {
      on: {
        'create.opened': { target: 'creating', actions: 'pick' },
        'revoke.opened': { target: 'confirmingRevoke', actions: 'pick' },
      },
    },
    creating: {
      description: 'The new token form: what it is for, its scopes and how many days it lasts.',
      on: { 'create.submitted': 'saving', 'change.cancelled': { target: 'ready', actions: 'forget' } },
    },
    saving: {
      tags: ['saving'],
      invoke: {
        id: 'createToken',
        src: 'createToken',
        input: ({ event }) =>
          event.type === 'create.submitted' ? event.form : { name: '', scopes: [], expires_in_days: 0 },
        onDone: { target: 'showingToken', actions: { type: 'show', params: ({ event }) => event.output.token } },
        onError: {
          target: 'creating',
          actions: { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    showingToken: {
      description: 'The new token, shown this once: the seller copies it before closing.',
      on: { 'token.dismissed': { target: 'loading', actions: 'forget' } },
    },
    confirmingRevoke: {
      on: { 'revoke.confirmed': 'revoking', 'change.cancelled': { target: 'ready', actions: 'forget' } },
    },
    revoking: {
      tags: ['saving'],
      invoke: {
        id: 'revokeToken',
        src: 'revokeToken',
        input: ({ context }) => context.target ?? 0,
        onDone: { target: 'loading', actions: ['announceRevoked', 'forget'] },
        onError: {
          target: 'ready',
          actions: { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
  },
});
