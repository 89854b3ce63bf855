import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../openapi/client';
import { createListMachine, fromPageMeta } from './list.machine';
import type { NotifyEvent } from './notify';

export type AdminErasure = DataOf<'/admin/erasure-requests', 'get'>['requests'][number];

/** The back office's erasure requests waiting for a decision, oldest first, 20 a page. */
export const adminErasureQueueMachine = createListMachine<AdminErasure, Record<string, never>>({
  id: 'adminErasureQueue',
  fetchPage: async ({ page }, signal) => {
    const data = unwrap(
      await api.GET('/admin/erasure-requests', { params: { query: { status: 'requested', page } }, signal }),
    );
    return fromPageMeta(data.requests, data.meta);
  },
  keyOf: (r) => r.id,
  errorMessage: () => 'Failed to fetch data',
});

export interface AdminErasuresContext {
  id: number | null;
  reason: string;
  /** What the last decision's refusal said (money now held, another admin first), shown in place. */
  problem: string | null;
}

export type AdminErasuresEvent =
  | { type: 'erase.started'; id: number }
  | { type: 'erase.confirmed' }
  | { type: 'erase.cancelled' }
  | { type: 'reject.started'; id: number }
  | { type: 'reason.changed'; reason: string }
  | { type: 'reject.confirmed' }
  | { type: 'reject.cancelled' };

/**
 * The back office's erasure requests (/admin/erasures): each account that asked to be erased is erased after a
 * confirmation that says it cannot be undone, or its request rejected with a reason the owner reads. One decision
 * at a time; a refusal (money now held or owed) is shown in place, and the queue reloads.
 */
export const adminErasuresMachine = setup({
  types: {
    context: {} as AdminErasuresContext,
    events: {} as AdminErasuresEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    queue: adminErasureQueueMachine,
    erase: fromPromise<AdminErasure, { id: number }>(async ({ input }) =>
      unwrap(await api.POST('/admin/erasure-requests/{id}/approve', { params: { path: { id: input.id } } })),
    ),
    reject: fromPromise<AdminErasure, { id: number; reason: string }>(async ({ input }) =>
      unwrap(
        await api.POST('/admin/erasure-requests/{id}/reject', {
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
    reloadQueue: enqueueActions(({ system, enqueue }) => {
      const queue = system.get('adminErasureQueue');
      if (queue) enqueue.sendTo(queue, { type: 'list.refreshed' });
    }),
    announce: emit((_, request: AdminErasure) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: request.status === 'erased' ? 'The account was erased.' : 'The request was rejected.',
    })),
  },
}).createMachine({
  id: 'adminErasures',
  context: { id: null, reason: '', problem: null },
  invoke: { id: 'queue', systemId: 'adminErasureQueue', src: 'queue', input: { filters: {} } },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'erase.started': { target: 'confirming', actions: 'pick' },
        'reject.started': { target: 'writingReason', actions: 'pick' },
      },
    },
    confirming: {
      description: 'The confirmation: erasing cannot be undone; the ledger and the orders stay, anonymous.',
      on: {
        'erase.confirmed': { target: 'erasing' },
        'erase.cancelled': { target: 'idle', actions: 'forget' },
      },
    },
    erasing: {
      tags: ['deciding'],
      invoke: {
        id: 'erase',
        src: 'erase',
        input: ({ context }) => ({ id: context.id ?? 0 }),
        onDone: {
          target: 'idle',
          actions: [{ type: 'announce', params: ({ event }) => event.output }, 'forget', 'reloadQueue'],
        },
        onError: {
          target: 'idle',
          actions: [
            { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forget',
            'reloadQueue',
          ],
        },
      },
    },
    writingReason: {
      description: 'The reject dialog: a reason is required; the account owner reads it.',
      on: {
        'reason.changed': { actions: 'storeReason' },
        'reject.confirmed': { guard: 'hasReason', target: 'rejecting' },
        'reject.cancelled': { target: 'idle', actions: 'forget' },
      },
    },
    rejecting: {
      tags: ['deciding'],
      invoke: {
        id: 'reject',
        src: 'reject',
        input: ({ context }) => ({ id: context.id ?? 0, reason: context.reason.trim() }),
        onDone: {
          target: 'idle',
          actions: [{ type: 'announce', params: ({ event }) => event.output }, 'forget', 'reloadQueue'],
        },
        onError: {
          target: 'idle',
          actions: [
            { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forget',
            'reloadQueue',
          ],
        },
      },
    },
  },
});
