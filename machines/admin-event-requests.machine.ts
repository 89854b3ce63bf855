import * as v from 'valibot';
import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { ApiError, api, type DataOf, messageOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import { approveEventRequestBody, rejectEventRequestBody } from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';
import { createListMachine, fromPageMeta } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';

export type AdminEventRequest = DataOf<'/admin/event-requests', 'get'>['requests'][number];
type DecidedRequest = DataOf<'/admin/event-requests/{id}/approve', 'post'>;

export const EVENT_REQUESTS_ERROR = 'Failed to fetch data';
/** The reason's length limits, from the contract. */
export const EVENT_REASON_LIMITS = fieldLimits(rejectEventRequestBody()).reason ?? {};

/** The back office's queue: sellers' pending event requests, oldest first, 20 a page. */
export const eventRequestQueueMachine = createListMachine<AdminEventRequest, Record<string, never>>({
  id: 'eventRequestQueue',
  fetchPage: async ({ page }, signal) => {
    const data = unwrap(
      await api.GET('/admin/event-requests', { params: { query: { status: 'pending', page } }, signal }),
      EVENT_REQUESTS_ERROR,
    );
    return fromPageMeta(data.requests, data.meta);
  },
  keyOf: (r) => r.request_id,
  errorMessage: () => EVENT_REQUESTS_ERROR,
  toastsErrors: () => true,
});

const approveBody = approveEventRequestBody(
  formMessages({ match_time: { pattern: 'Enter the kick-off time as HH:MM.' } }),
);

/**
 * The approval's checks: the request, and its kick-off time (the contract's pattern), which the back office
 * confirms or gives when the seller left it out. The city is the request's, found in the catalogue by name.
 */
export const approveSchema = v.strictObject({
  request_id: v.number(),
  match_time: approveBody.entries.match_time,
});
export type ApproveValues = v.InferInput<typeof approveSchema>;

export const approveValuesOf = (r: AdminEventRequest): ApproveValues => ({
  request_id: r.request_id,
  match_time: r.match_time ?? undefined,
});

/** Approving one request on the shared form machine: a 422 (no city, no time, a date gone) shows in the dialog. */
export const approveFormMachine = createFormMachine({
  id: 'approveForm',
  schema: approveSchema,
  submit: async ({ request_id, match_time }, signal): Promise<DecidedRequest> => {
    try {
      return unwrap(
        await api.POST('/admin/event-requests/{id}/approve', {
          params: { path: { id: request_id } },
          body: match_time ? { match_time } : {},
          signal,
        }),
      );
    } catch (error) {
      throw approvalRefusal(error);
    }
  },
});

/**
 * A 422 about what the dialog has no field for (the city, a date gone) as one sentence above the form; one
 * about the kick-off time stays under its field.
 */
export function approvalRefusal(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 422) return error;
  if (error.errors.length === 0 || error.errors.some((e) => e.path === '/body/match_time')) return error;
  const text = error.errors.map((e) => (e.path === '/body/city_id' ? `City ${e.message}.` : e.message)).join(' ');
  return new ApiError(422, text, [], error.body);
}

export interface AdminEventRequestsContext {
  /** The request being decided. */
  request: AdminEventRequest | null;
  reason: string;
}

export type AdminEventRequestsEvent =
  | { type: 'approve.started'; request: AdminEventRequest }
  | { type: 'approve.cancelled' }
  | { type: 'reject.started'; request: AdminEventRequest }
  | { type: 'reason.changed'; reason: string }
  | { type: 'reject.confirmed' }
  | { type: 'reject.cancelled' };

/**
 * The back office's queue of event requests (/admin/event-requests): sellers ask for a match that is not in the
 * catalogue; the queue (a list machine, its child) shows the pending ones, oldest first. Approve (a dialog that
 * confirms the kick-off time: the match joins the catalogue and the seller can list for it) or reject with a
 * reason (required, the seller reads it). The seller is notified either way. One decision at a time; a decision
 * reloads the queue.
 */
export const adminEventRequestsMachine = setup({
  types: {
    context: {} as AdminEventRequestsContext,
    events: {} as AdminEventRequestsEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    queue: eventRequestQueueMachine,
    approveForm: approveFormMachine,
    reject: fromPromise<DecidedRequest, { id: number; reason: string }>(async ({ input }) =>
      unwrap(
        await api.POST('/admin/event-requests/{id}/reject', {
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
    pick: assign({
      request: ({ event }) => ('request' in event ? event.request : null),
      reason: '',
    }),
    storeReason: assign({ reason: ({ event }) => (event.type === 'reason.changed' ? event.reason : '') }),
    forget: assign({ request: null, reason: '' }),
    // the queue child as it runs (the test model has none to resolve a name against)
    reloadQueue: enqueueActions(({ enqueue, system }) => {
      const queue = system.get('eventRequestQueue');
      if (queue) enqueue.sendTo(queue, { type: 'list.refreshed' });
    }),
    announceDecision: emit((_, request: DecidedRequest) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message:
        request.status === 'approved'
          ? `${request.match_name} approved: it is in the catalogue`
          : `${request.match_name} rejected`,
    })),
    announceFailure: emit((_, error: unknown) => notifyError(messageOf(error))),
  },
}).createMachine({
  id: 'adminEventRequests',
  context: { request: null, reason: '' },
  invoke: { id: 'queue', systemId: 'eventRequestQueue', src: 'queue', input: { filters: {} } },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'approve.started': { target: 'approving', actions: 'pick' },
        'reject.started': { target: 'writingReason', actions: 'pick' },
      },
    },
    approving: {
      description: 'The approve dialog: the kick-off time confirmed, then the match joins the catalogue.',
      tags: ['deciding'],
      invoke: {
        id: 'approveForm',
        src: 'approveForm',
        input: ({ context }) => ({
          values: context.request ? approveValuesOf(context.request) : { request_id: 0, match_time: undefined },
        }),
        onDone: {
          target: 'idle',
          actions: [{ type: 'announceDecision', params: ({ event }) => event.output }, 'forget', 'reloadQueue'],
        },
      },
      on: { 'approve.cancelled': { target: 'idle', actions: 'forget' } },
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
        input: ({ context }) => ({ id: context.request?.request_id ?? 0, reason: context.reason.trim() }),
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
});
