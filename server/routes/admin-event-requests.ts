import type { Router } from '../contract/router';
import { recordAdminAction } from '../domain/admin/audit';
import { adminRequestPage, decideRequest, type RequestOutcome } from '../domain/listings/requests';
import { metaOf } from '../domain/paging';
import { MESSAGES } from '../http/errors';

const NOT_FOUND = { status: 404, body: { success: false, message: 'Event request not found.' } } as const;

/**
 * The back office's queue of sellers' event requests (x-role admin): list, approve (adds the event to the
 * catalogue), reject with a reason. The seller reads the status beside the request (GET /match/requested-events).
 */
export function eventRequestAdminRoutes({ route }: Router) {
  route('/admin/event-requests', 'get', async ({ query }, { db }) => {
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const { requests, total } = await adminRequestPage(db, query.status ?? 'pending', { page, perPage });
    return {
      status: 200,
      body: {
        success: true,
        data: { requests, meta: metaOf({ page, perPage, limit: perPage, offset: 0 }, total) },
      },
    };
  });

  route('/admin/event-requests/{id}/approve', 'post', async ({ user, params, body }, { db, clock }) => {
    const now = clock.now();
    const outcome = await decideRequest(db, params.id, { kind: 'approve', ...(body ?? {}) }, now);
    if (outcome.kind === 'decided') {
      await recordAdminAction(db, user, 'event_request.approved', { type: 'event_request', id: params.id }, now);
    }
    return answer(outcome, 'approved');
  });

  route('/admin/event-requests/{id}/reject', 'post', async ({ user, params, body }, { db, clock }) => {
    const reason = body.reason.trim();
    if (!reason) {
      return {
        status: 422,
        body: {
          success: false,
          message: MESSAGES.validation,
          errors: [{ path: '/body/reason', message: 'must not be blank' }],
        },
      };
    }
    const now = clock.now();
    const outcome = await decideRequest(db, params.id, { kind: 'reject', reason }, now);
    if (outcome.kind === 'decided') {
      const record = { type: 'event_request', id: params.id, detail: reason } as const;
      await recordAdminAction(db, user, 'event_request.rejected', record, now);
    }
    return answer(outcome, 'rejected');
  });
}

function answer(outcome: RequestOutcome, done: 'approved' | 'rejected') {
  const other = done === 'approved' ? 'rejected' : 'approved';
  switch (outcome.kind) {
    case 'not_found':
      return NOT_FOUND;
    case 'conflict':
      return {
        status: 409,
        body: { success: false, message: `This event request was ${other}; it cannot be ${done}.` },
      } as const;
    case 'already':
      return {
        status: 200,
        body: { success: true, message: `Event request already ${done}.`, data: outcome.request },
      } as const;
    case 'decided':
      return {
        status: 200,
        body: {
          success: true,
          message:
            done === 'approved' ? 'Event request approved; the event is in the catalogue.' : 'Event request rejected.',
          data: outcome.request,
        },
      } as const;
  }
}
