import { assign, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';

export type SupportInfo = DataOf<'/ui-settings/support-info', 'get'>;

export type SupportEvent = { type: 'support.opened' } | { type: 'support.closed' } | { type: 'retry' };

/** The support popup behind the header's bot icon: a skeleton while its text loads, then 'Got it'. */
export const supportInfoMachine = setup({
  types: {
    context: {} as { info: SupportInfo | null },
    events: {} as SupportEvent,
  },
  actors: {
    loadSupportInfo: fromPromise<SupportInfo>(async () => unwrap(await api.GET('/ui-settings/support-info'))),
  },
  guards: { isLoaded: ({ context }) => context.info !== null },
}).createMachine({
  id: 'supportInfo',
  context: { info: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'support.opened': [{ guard: 'isLoaded', target: 'shown' }, { target: 'loading' }] },
    },
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadSupportInfo',
        src: 'loadSupportInfo',
        onDone: { target: 'shown', actions: assign({ info: ({ event }) => event.output }) },
        onError: 'failed',
      },
      on: { 'support.closed': 'closed' },
    },
    shown: { on: { 'support.closed': 'closed' } },
    failed: {
      tags: ['error'],
      on: { retry: 'loading', 'support.closed': 'closed' },
    },
  },
});
