import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../../openapi/client';

export type AdminQueue = DataOf<'/admin/queues', 'get'>['queues'][number];

export const HOME_ERROR = 'Failed to fetch data';

export interface AdminHomeContext {
  queues: readonly AdminQueue[];
}

export type AdminHomeEvent = { type: 'home.retried' } | { type: 'home.refreshed' };

/**
 * The back office's home (/admin): what waits in each queue and since when, the queue waiting longest first.
 * It reads the counts when it opens and again when asked (Refresh); a failure shows with Retry, and a refresh
 * that fails keeps the counts it had.
 */
export const adminHomeMachine = setup({
  types: { context: {} as AdminHomeContext, events: {} as AdminHomeEvent },
  actors: {
    loadQueues: fromPromise<readonly AdminQueue[]>(
      async ({ signal }) => unwrap(await api.GET('/admin/queues', { signal }), HOME_ERROR).queues,
    ),
  },
  actions: {
    storeQueues: assign({ queues: (_, queues: readonly AdminQueue[]) => queues }),
  },
}).createMachine({
  id: 'adminHome',
  context: { queues: [] },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadQueues',
        src: 'loadQueues',
        onDone: { target: 'shown', actions: { type: 'storeQueues', params: ({ event }) => event.output } },
        onError: 'failed',
      },
    },
    failed: {
      tags: ['error'],
      description: 'The counts could not be read: Failed to fetch data, with Retry.',
      on: { 'home.retried': 'loading' },
    },
    shown: {
      description: 'Each queue with its count and its oldest item, the one waiting longest first.',
      on: { 'home.refreshed': 'refreshing' },
    },
    refreshing: {
      tags: ['refreshing'],
      invoke: {
        id: 'loadQueues',
        src: 'loadQueues',
        onDone: { target: 'shown', actions: { type: 'storeQueues', params: ({ event }) => event.output } },
        onError: 'shown',
      },
    },
  },
});
