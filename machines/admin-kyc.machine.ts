import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../openapi/client';
import { rejectKycBody } from '../openapi/valibot';
import { fieldLimits } from './form.machine';
import { createListMachine, fromPageMeta } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';

export type AdminKycSubmission = DataOf<'/admin/kyc', 'get'>['submission_list'][number];
export type KycDocumentKind = AdminKycSubmission['documents'][number]['kind'];
export type AdminKycDocument = NonNullable<DataOf<'/admin/kyc/{id}/documents/{kind}', 'get'>>;

export const ADMIN_KYC_ERROR = 'Failed to fetch data';
/** The reason's length limits, from the contract. */
export const KYC_REASON_LIMITS = fieldLimits(rejectKycBody()).reason ?? {};

/** The back office's KYC queue: submissions under review, oldest first, 20 a page. */
export const adminKycQueueMachine = createListMachine<AdminKycSubmission, Record<string, never>>({
  id: 'adminKycQueue',
  fetchPage: async ({ page }, signal) => {
    const data = unwrap(
      await api.GET('/admin/kyc', { params: { query: { status: 'submitted', page } }, signal }),
      ADMIN_KYC_ERROR,
    );
    return fromPageMeta(data.submission_list, data.meta);
  },
  keyOf: (d) => d.id,
  errorMessage: () => ADMIN_KYC_ERROR,
  toastsErrors: () => true,
});

export interface AdminKycContext {
  /** The submission being decided, or whose reason is being written. */
  id: number | null;
  reason: string;
}

export type AdminKycEvent =
  | { type: 'kyc.approved'; id: number }
  | { type: 'reject.started'; id: number }
  | { type: 'reason.changed'; reason: string }
  | { type: 'reject.confirmed' }
  | { type: 'reject.cancelled' }
  | { type: 'document.requested'; id: number; kind: KycDocumentKind };

export type AdminKycEmitted = NotifyEvent | { type: 'document.ready'; document: AdminKycDocument };

/**
 * The back office's KYC queue (/admin/kyc): the submissions under review (a list machine, its child), each with
 * its documents to open, approve (releases the seller's hold), or reject with a reason (required). One decision
 * at a time; a decision, or a 409 because another admin decided first, reloads the queue.
 */
export const adminKycMachine = setup({
  types: {
    context: {} as AdminKycContext,
    events: {} as AdminKycEvent,
    emitted: {} as AdminKycEmitted,
  },
  actors: {
    queue: adminKycQueueMachine,
    approve: fromPromise<AdminKycSubmission, { id: number }>(async ({ input }) =>
      unwrap(await api.POST('/admin/kyc/{id}/approve', { params: { path: { id: input.id } } })),
    ),
    reject: fromPromise<AdminKycSubmission, { id: number; reason: string }>(async ({ input }) =>
      unwrap(
        await api.POST('/admin/kyc/{id}/reject', {
          params: { path: { id: input.id } },
          body: { reason: input.reason },
        }),
      ),
    ),
    loadDocument: fromPromise<AdminKycDocument | null, { id: number; kind: KycDocumentKind }>(
      async ({ input, signal }) =>
        unwrap(
          await api.GET('/admin/kyc/{id}/documents/{kind}', {
            params: { path: { id: input.id, kind: input.kind } },
            signal,
          }),
        ),
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
      const queue = system.get('adminKycQueue');
      if (queue) enqueue.sendTo(queue, { type: 'list.refreshed' });
    }),
    announceDecision: emit((_, submission: AdminKycSubmission) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: `KYC of ${submission.seller_name} ${submission.status}`,
    })),
    announceFailure: emit((_, error: unknown) => notifyError(messageOf(error))),
    announceDocument: emit((_, document: AdminKycDocument | null) =>
      document ? { type: 'document.ready' as const, document } : notifyError('Not part of this submission.'),
    ),
    failDocument: emit(notifyError('Failed to load the document')),
  },
}).createMachine({
  id: 'adminKyc',
  context: { id: null, reason: '' },
  invoke: { id: 'queue', systemId: 'adminKycQueue', src: 'queue', input: { filters: {} } },
  type: 'parallel',
  states: {
    decision: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'kyc.approved': { target: 'approving', actions: 'pick' },
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
          description: 'The reject dialog: a reason is required; the seller reads it on the KYC page.',
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
    document: {
      initial: 'idle',
      states: {
        idle: { on: { 'document.requested': 'loading' } },
        loading: {
          tags: ['loadingDocument'],
          invoke: {
            id: 'loadDocument',
            src: 'loadDocument',
            input: ({ event }) =>
              event.type === 'document.requested' ? { id: event.id, kind: event.kind } : { id: 0, kind: 'photo_id' },
            onDone: { target: 'idle', actions: { type: 'announceDocument', params: ({ event }) => event.output } },
            onError: { target: 'idle', actions: 'failDocument' },
          },
        },
      },
    },
  },
});
