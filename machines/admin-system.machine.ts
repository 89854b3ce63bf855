import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';

export type SystemStatus = DataOf<'/admin/system', 'get'>;
export type SystemSample = SystemStatus['history'][number];

/** How often the System page reads the figures again while it is open. */
export const SYSTEM_REFRESH_MS = 10_000;

export interface AdminSystemContext {
  status: SystemStatus | null;
}

export type AdminSystemEvent = { type: 'system.refreshed' } | { type: 'system.retried' };

/**
 * The back office's System page: the shop's health and figures (readiness per worker, queues, sizes, the last
 * backup, the last hour a minute at a time), read when the page opens and again every ten seconds while it is
 * open, so an operator without Prometheus watches the shop live. A failed refresh keeps the last figures on
 * screen, marked stale, and tries again at the next tick; a failed first read offers Retry.
 */
export const adminSystemMachine = setup({
  types: {
    context: {} as AdminSystemContext,
    events: {} as AdminSystemEvent,
  },
  actors: {
    loadSystem: fromPromise<SystemStatus>(async () => unwrap(await api.GET('/admin/system'))),
  },
  delays: { refresh: SYSTEM_REFRESH_MS },
  actions: {
    keepStatus: assign({ status: (_, status: SystemStatus) => status }),
  },
}).createMachine({
  id: 'adminSystem',
  context: { status: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      description: 'The first read of the figures.',
      invoke: {
        id: 'loadSystem',
        src: 'loadSystem',
        onDone: { target: 'live', actions: { type: 'keepStatus', params: ({ event }) => event.output } },
        onError: 'unavailable',
      },
    },
    unavailable: {
      tags: ['error'],
      description: 'The first read failed: nothing to show; Retry reads again.',
      on: { 'system.retried': 'loading' },
    },
    live: {
      description: 'The figures shown are the last read; read again every ten seconds or on Refresh.',
      after: { refresh: 'refreshing' },
      on: { 'system.refreshed': 'refreshing' },
    },
    refreshing: {
      tags: ['refreshing'],
      invoke: {
        id: 'refreshSystem',
        src: 'loadSystem',
        onDone: { target: 'live', actions: { type: 'keepStatus', params: ({ event }) => event.output } },
        onError: 'stale',
      },
    },
    stale: {
      tags: ['stale'],
      description: 'A refresh failed: the last figures stay on screen, marked stale, until a read succeeds.',
      after: { refresh: 'refreshing' },
      on: { 'system.refreshed': 'refreshing' },
    },
  },
});
