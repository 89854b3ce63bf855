import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../openapi/client';
import { rejectDepositBody } from '../openapi/valibot';
import { fieldLimits } from './form.machine';
import { createListMachine, fromPageMeta } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';

export type AdminDeposit = DataOf<'/admin/deposits', 'get'>['deposit_list'][number];
export type AdminProof = NonNullable<DataOf<'/admin/deposits/{id}/proof', 'get'>>;

export const ADMIN_QUEUE_ERROR = 'Failed to fetch data';
/** The reason's length limits, from the contract. */
export const REASON_LIMITS = fieldLimits(rejectDepositBody()).reason ?? {};

/** The back office's queue: pending deposit requests, oldest first, 20 a page. */
export const adminQueueMachine = createListMachine<AdminDeposit, Record<string, never>>({
  id: 'adminQueue',
  fetchPage: async ({ page }, signal) => {
    const data = unwrap(
      await api.GET('/admin/deposits', { params: { query: { status: 'pending', page } }, signal }),
      ADMIN_QUEUE_ERROR,
    );
    return fromPageMeta(data.deposit_list, data.meta);
  },
  keyOf: (d) => d.id,
  errorMessage: () => ADMIN_QUEUE_ERROR,
  toastsErrors: () => true,
});

export interface AdminDepositsContext {
  /** The request being decided, or whose reason is being written. */
  id: number | null;
  reason: string;
}

export type AdminDepositsEvent =
  | { type: 'deposit.approved'; id: number }
  | { type: 'reject.started'; id: number }
  | { type: 'reason.changed'; reason: string }
  | { type: 'reject.confirmed' }
  | { type: 'reject.cancelled' }
  | { type: 'proof.requested'; id: number };

export type AdminDepositsEmitted = NotifyEvent | { type: 'proof.ready'; proof: AdminProof };

/**
 * The back office's deposit queue (/admin/deposits): the pending requests (a list machine, its child), each
 * with its proof, approve, or reject with a reason (required). One decision at a time: while one is on its
 * way no other can start, so a double click sends one request (the server is idempotent anyway). A decision
 * reloads the queue.
 */
export const adminDepositsMachine = setup({
  types: {
    context: {} as AdminDepositsContext,
    events: {} as AdminDepositsEvent,
    emitted: {} as AdminDepositsEmitted,
  },
  actors: {
    queue: adminQueueMachine,
    approve: fromPromise<AdminDeposit, { id: number }>(async ({ input }) =>
      unwrap(await api.POST('/admin/deposits/{id}/approve', { params: { path: { id: input.id } } })),
    ),
    reject: fromPromise<AdminDeposit, { id: number; reason: string }>(async ({ input }) =>
      unwrap(
        await api.POST('/admin/deposits/{id}/reject', {
          params: { path: { id: input.id } },
          body: { reason: input.reason },
        }),
      ),
    ),
    loadProof: fromPromise<AdminProof | null, { id: number }>(async ({ input, signal }) =>
      unwrap(await api.GET('/admin/deposits/{id}/proof', { params: { path: { id: input.id } }, signal })),
    ),
  },
  guards: {
    hasReason: ({ context }) => context.reason.trim().length > 0,
  },
  actions: {
    pick: assign({
      id: ({ event }) => ('id' in event ? event.id : null),
      reason: '',
    }),
    storeReason: assign({ reason: ({ event }) => (event.type === 'reason.changed' ? event.reason : '') }),
    forget: assign({ id: null, reason: '' }),
    // the queue child as it runs (the test model has none to resolve a name against)
    reloadQueue: enqueueActions(({ enqueue, system }) => {
      const queue = system.get('adminDepositQueue');
      if (queue) enqueue.sendTo(queue, { type: 'list.refreshed' });
    }),
    announceDecision: emit((_, deposit: AdminDeposit) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: `Deposit #${deposit.id} ${deposit.status}`,
    })),
    announceFailure: emit((_, error: unknown) => notifyError(messageOf(error))),
    announceProof: emit((_, proof: AdminProof | null) =>
      proof ? { type: 'proof.ready' as const, proof } : notifyError('This request was sent without a proof.'),
    ),
    failProof: emit(notifyError('Failed to load the proof')),
  },
}).createMachine({
  id: 'adminDeposits',
  context: { id: null, reason: '' },
  invoke: { id: 'queue', systemId: 'adminDepositQueue', src: 'queue', input: { filters: {} } },
  type: 'parallel',
  states: {
    decision: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'deposit.approved': { target: 'approving', actions: 'pick' },
            'reject.started': { target: 'writingReason', actions: 'pick' },
          },
        },
        approving: {
          tags: ['deciding'],
          invoke: {
            id: 'approve',
            src: 'approve',
            input: ({ context }) => ({ id: context.id ?? 0 }),
            onDone: {
              target: 'idle',
              actions: [{ type: 'announceDecision', params: ({ event }) => event.output }, 'forget', 'reloadQueue'],
            },
            onError: {
              target: 'idle',
              actions: [
                { type: 'announceFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
                'forget',
                'reloadQueue',
              ],
            },
          },
        },
        writingReason: {
          description: 'The reject dialog: a reason is required; the seller reads it.',
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
              actions: [{ type: 'announceDecision', params: ({ event }) => event.output }, 'forget', 'reloadQueue'],
            },
            onError: {
              target: 'writingReason',
              actions: { type: 'announceFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
      },
    },
    proof: {
      initial: 'idle',
      states: {
        idle: { on: { 'proof.requested': 'loading' } },
        loading: {
          tags: ['loadingProof'],
          invoke: {
            id: 'loadProof',
            src: 'loadProof',
            input: ({ event }) => ({ id: event.type === 'proof.requested' ? event.id : 0 }),
            onDone: { target: 'idle', actions: { type: 'announceProof', params: ({ event }) => event.output } },
            onError: { target: 'idle', actions: 'failProof' },
          },
        },
      },
    },
  },
});
