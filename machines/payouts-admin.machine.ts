import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../openapi/client';
import { createListMachine, fromPageMeta } from './list.machine';
import type { NotifyEvent } from './notify';
import { logPayoutFailure } from './payouts.machine';

export type AdminPayout = DataOf<'/admin/payouts', 'get'>['payout_list'][number];

/** The back office's payouts to send: requested ones, oldest first, 20 a page. */
export const adminPayoutQueueMachine = createListMachine<AdminPayout, Record<string, never>>({
  id: 'adminPayoutQueue',
  fetchPage: async ({ page }, signal) => {
    const data = unwrap(await api.GET('/admin/payouts', { params: { query: { status: 'requested', page } }, signal }));
    return fromPageMeta(data.payout_list, data.meta);
  },
  keyOf: (p) => p.id,
  errorMessage: () => 'Failed to fetch data',
});

export interface AdminPayoutsContext {
  id: number | null;
  reason: string;
  /** What the last decision's refusal said (another admin was first: 409), shown in place. */
  problem: string | null;
}

export type AdminPayoutsEvent =
  | { type: 'payout.sent'; id: number }
  | { type: 'fail.started'; id: number }
  | { type: 'reason.changed'; reason: string }
  | { type: 'fail.confirmed' }
  | { type: 'fail.cancelled' };

/**
 * The back office's payouts (/admin/payouts): requested payouts, each marked sent (after the transfer left) or
 * failed with a reason (the money goes back to the seller). One decision at a time; a refusal (another admin was
 * first) is logged and shown in place, and the queue reloads.
 */
export const adminPayoutsMachine = setup({
  types: {
    context: {} as AdminPayoutsContext,
    events: {} as AdminPayoutsEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    queue: adminPayoutQueueMachine,
    markSent: fromPromise<AdminPayout, { id: number }>(async ({ input }) =>
      unwrap(await api.POST('/admin/payouts/{id}/sent', { params: { path: { id: input.id } } })),
    ),
    markFailed: fromPromise<AdminPayout, { id: number; reason: string }>(async ({ input }) =>
      unwrap(
        await api.POST('/admin/payouts/{id}/failed', {
          params: { path: { id: input.id } },
          body: { reason: input.reason },
        }),
      ),
    ),
  },
  guards: {
    hasReason: ({ context }) => context.reason.trim().length > 0,
  },
  actions: {
    pick: assign({ id: ({ event }) => ('id' in event ? event.id : null), reason: '', problem: null }),
    storeReason: assign({ reason: ({ event }) => (event.type === 'reason.changed' ? event.reason : '') }),
    forget: assign({ id: null, reason: '' }),
    storeProblem: assign({ problem: (_, error: unknown) => messageOf(error) }),
    logFailure: (_, error: unknown) => logPayoutFailure('decision', error),
    reloadQueue: enqueueActions(({ system, enqueue }) => {
      const queue = system.get('adminPayoutQueue');
      if (queue) enqueue.sendTo(queue, { type: 'list.refreshed' });
    }),
    announce: emit((_, payout: AdminPayout) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: `Payout ${payout.reference} marked ${payout.status}`,
    })),
  },
}).createMachine({
  id: 'adminPayouts',
  context: { id: null, reason: '', problem: null },
  invoke: { id: 'queue', systemId: 'adminPayoutQueue', src: 'queue', input: { filters: {} } },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'payout.sent': { target: 'sending', actions: 'pick' },
        'fail.started': { target: 'writingReason', actions: 'pick' },
      },
    },
    sending: {
      tags: ['deciding'],
      invoke: {
        id: 'markSent',
        src: 'markSent',
        input: ({ context }) => ({ id: context.id ?? 0 }),
        onDone: {
          target: 'idle',
          actions: [{ type: 'announce', params: ({ event }) => event.output }, 'forget', 'reloadQueue'],
        },
        onError: {
          target: 'idle',
          actions: [
            { type: 'logFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forget',
            'reloadQueue',
          ],
        },
      },
    },
    writingReason: {
      description: 'The failure dialog: a reason is required; the seller reads it.',
      on: {
        'reason.changed': { actions: 'storeReason' },
        'fail.confirmed': { guard: 'hasReason', target: 'failing' },
        'fail.cancelled': { target: 'idle', actions: 'forget' },
      },
    },
    failing: {
      tags: ['deciding'],
      invoke: {
        id: 'markFailed',
        src: 'markFailed',
        input: ({ context }) => ({ id: context.id ?? 0, reason: context.reason.trim() }),
        onDone: {
          target: 'idle',
          actions: [{ type: 'announce', params: ({ event }) => event.output }, 'forget', 'reloadQueue'],
        },
        onError: {
          target: 'idle',
          actions: [
            { type: 'logFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forget',
            'reloadQueue',
          ],
        },
      },
    },
  },
});
