import { ApiError, api, type DataOf, unwrap } from '../../openapi/client';
import { rejectDepositBody } from '../../openapi/valibot';
import { fieldLimits } from '../form.machine';
import { fromPageMeta } from '../list.machine';
import { requestKeys } from '../listings-api';
import { createAdminQueueMachine } from './queue.machine';

// The six review queues of the back office: one chart (queue.machine.ts), six sets of calls.

export type AdminDeposit = DataOf<'/admin/deposits', 'get'>['deposit_list'][number];
export type AdminKycSubmission = DataOf<'/admin/kyc', 'get'>['submission_list'][number];
export type KycDocumentKind = AdminKycSubmission['documents'][number]['kind'];
export type AdminPayout = DataOf<'/admin/payouts', 'get'>['payout_list'][number];
export type AdminEventRequest = DataOf<'/admin/event-requests', 'get'>['requests'][number];
export type AdminErasure = DataOf<'/admin/erasure-requests', 'get'>['requests'][number];
export type AdminOrder = DataOf<'/admin/orders', 'get'>['orders'][number];
type DecidedRequest = DataOf<'/admin/event-requests/{id}/approve', 'post'>;
type DecidedOrder = DataOf<'/admin/sales/order-action', 'post'>;

/** A reason's length limits, from the contract (every queue's reason has the same). */
export const REASON_LIMITS = fieldLimits(rejectDepositBody()).reason ?? {};

const FETCH_ERROR = 'Failed to fetch data';

export const depositQueueMachine = createAdminQueueMachine<AdminDeposit, AdminDeposit>({
  id: 'adminDeposits',
  fetchPage: async (page, signal) => {
    const data = unwrap(
      await api.GET('/admin/deposits', { params: { query: { status: 'pending', page } }, signal }),
      FETCH_ERROR,
    );
    return fromPageMeta(data.deposit_list, data.meta);
  },
  keyOf: (d) => d.id,
  approve: async (d) => unwrap(await api.POST('/admin/deposits/{id}/approve', { params: { path: { id: d.id } } })),
  reject: async (d, reason) =>
    unwrap(await api.POST('/admin/deposits/{id}/reject', { params: { path: { id: d.id } }, body: { reason } })),
  announce: (d) => `Deposit #${d.id} ${d.status}`,
  loadFile: async (d) =>
    unwrap(await api.GET('/admin/deposits/{id}/proof', { params: { path: { id: d.id } } })) ?? null,
});

export const kycQueueMachine = createAdminQueueMachine<AdminKycSubmission, AdminKycSubmission>({
  id: 'adminKyc',
  fetchPage: async (page, signal) => {
    const data = unwrap(
      await api.GET('/admin/kyc', { params: { query: { status: 'submitted', page } }, signal }),
      FETCH_ERROR,
    );
    return fromPageMeta(data.submission_list, data.meta);
  },
  keyOf: (s) => s.id,
  approve: async (s) => unwrap(await api.POST('/admin/kyc/{id}/approve', { params: { path: { id: s.id } } })),
  reject: async (s, reason) =>
    unwrap(await api.POST('/admin/kyc/{id}/reject', { params: { path: { id: s.id } }, body: { reason } })),
  announce: (s) => `KYC of ${s.seller_name} ${s.status}`,
  loadFile: async (s, kind) =>
    unwrap(
      await api.GET('/admin/kyc/{id}/documents/{kind}', {
        params: { path: { id: s.id, kind: kind as KycDocumentKind } },
      }),
    ) ?? null,
});

export const payoutQueueMachine = createAdminQueueMachine<AdminPayout, AdminPayout>({
  id: 'adminPayouts',
  fetchPage: async (page, signal) => {
    const data = unwrap(
      await api.GET('/admin/payouts', { params: { query: { status: 'requested', page } }, signal }),
      FETCH_ERROR,
    );
    return fromPageMeta(data.payout_list, data.meta);
  },
  keyOf: (p) => p.id,
  approve: async (p) => unwrap(await api.POST('/admin/payouts/{id}/sent', { params: { path: { id: p.id } } })),
  reject: async (p, reason) =>
    unwrap(await api.POST('/admin/payouts/{id}/failed', { params: { path: { id: p.id } }, body: { reason } })),
  announce: (p) => `Payout ${p.reference} marked ${p.status}`,
});

const KICK_OFF = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * A 422 about what the dialog has no field for (the city, a date gone) as one sentence; one about the kick-off
 * time as the field's own message.
 */
export function approvalRefusal(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 422 || error.errors.length === 0) return error;
  const text = error.errors
    .map((e) =>
      e.path === '/body/city_id'
        ? `City ${e.message}.`
        : e.path === '/body/match_time'
          ? 'Enter the kick-off time as HH:MM.'
          : e.message,
    )
    .join(' ');
  return new ApiError(422, text, [], error.body);
}

export const eventRequestQueueMachine = createAdminQueueMachine<AdminEventRequest, DecidedRequest>({
  id: 'adminEventRequests',
  fetchPage: async (page, signal) => {
    const data = unwrap(
      await api.GET('/admin/event-requests', { params: { query: { status: 'pending', page } }, signal }),
      FETCH_ERROR,
    );
    return fromPageMeta(data.requests, data.meta);
  },
  keyOf: (r) => r.request_id,
  // the kick-off time: the seller's, confirmed or given here
  initialValues: (r) => ({ match_time: r.match_time ?? '' }),
  refuseValues: (values) => (KICK_OFF.test(values.match_time ?? '') ? null : 'Enter the kick-off time as HH:MM.'),
  approve: async (r, values) => {
    try {
      return unwrap(
        await api.POST('/admin/event-requests/{id}/approve', {
          params: { path: { id: r.request_id } },
          body: values.match_time ? { match_time: values.match_time } : {},
        }),
      );
    } catch (error) {
      throw approvalRefusal(error);
    }
  },
  reject: async (r, reason) =>
    unwrap(
      await api.POST('/admin/event-requests/{id}/reject', { params: { path: { id: r.request_id } }, body: { reason } }),
    ),
  announce: (r) =>
    r.status === 'approved' ? `${r.match_name} approved: it is in the catalogue` : `${r.match_name} rejected`,
});

export const erasureQueueMachine = createAdminQueueMachine<AdminErasure, AdminErasure>({
  id: 'adminErasures',
  fetchPage: async (page, signal) => {
    const data = unwrap(
      await api.GET('/admin/erasure-requests', { params: { query: { status: 'requested', page } }, signal }),
      FETCH_ERROR,
    );
    return fromPageMeta(data.requests, data.meta);
  },
  keyOf: (r) => r.id,
  approve: async (r) =>
    unwrap(await api.POST('/admin/erasure-requests/{id}/approve', { params: { path: { id: r.id } } })),
  reject: async (r, reason) =>
    unwrap(await api.POST('/admin/erasure-requests/{id}/reject', { params: { path: { id: r.id } }, body: { reason } })),
  announce: (r) => (r.status === 'erased' ? 'The account was erased.' : 'The request was rejected.'),
});

const orderKeys = requestKeys();

async function orderAction(o: AdminOrder, action: 'cancel' | 'replace', reason: string): Promise<DecidedOrder> {
  const body = { booking_id: o.id, action, reason };
  const done = unwrap(
    await api.POST('/admin/sales/order-action', {
      params: { header: { 'Idempotency-Key': orderKeys.keyFor(body) } },
      body,
    }),
  );
  orderKeys.succeeded();
  return done;
}

/** Orders past their delivery deadline: Approve cancels and refunds the buyer (a reason is required), Reject replaces. */
export const orderQueueMachine = createAdminQueueMachine<AdminOrder, DecidedOrder>({
  id: 'adminOrders',
  fetchPage: async (page, signal) => {
    const data = unwrap(await api.GET('/admin/orders', { params: { query: { page } }, signal }), FETCH_ERROR);
    return fromPageMeta(data.orders, data.meta);
  },
  keyOf: (o) => o.id,
  refuseValues: (values) => (values.reason?.trim() ? null : 'Give the reason the seller and the buyer read.'),
  approve: (o, values) => orderAction(o, 'cancel', values.reason?.trim() ?? ''),
  reject: (o, reason) => orderAction(o, 'replace', reason),
  announce: (o) => `Order ${o.order.booking_no} ${o.order.status}`,
});

export type BankLine = DataOf<'/admin/bank-statement-lines', 'get'>['lines'][number];
type DecidedLine = DataOf<'/admin/bank-statement-lines/{id}/match', 'post'>;

/**
 * Bank statement lines no import could credit on its own: Approve matches the line to the chosen pending top-up
 * (crediting what arrived), Reject dismisses it with a reason.
 */
export const bankLineQueueMachine = createAdminQueueMachine<BankLine, DecidedLine>({
  id: 'adminBankLines',
  fetchPage: async (page, signal) => {
    const data = unwrap(
      await api.GET('/admin/bank-statement-lines', { params: { query: { status: 'review', page } }, signal }),
      FETCH_ERROR,
    );
    return fromPageMeta(data.lines, data.meta);
  },
  keyOf: (l) => l.id,
  initialValues: (l) => ({ deposit_id: l.candidates[0] ? String(l.candidates[0].id) : '' }),
  refuseValues: (values) =>
    /^\d+$/.test(values.deposit_id ?? '') ? null : 'No pending top-up to match: dismiss the line with a reason.',
  approve: async (l, values) =>
    unwrap(
      await api.POST('/admin/bank-statement-lines/{id}/match', {
        params: { path: { id: l.id } },
        body: { deposit_id: Number(values.deposit_id) },
      }),
    ),
  reject: async (l, reason) =>
    unwrap(
      await api.POST('/admin/bank-statement-lines/{id}/dismiss', { params: { path: { id: l.id } }, body: { reason } }),
    ),
  announce: (l) =>
    l.status === 'matched' ? `Line #${l.id} matched: the top-up is credited` : `Line #${l.id} dismissed`,
});

export type AdminDispute = DataOf<'/admin/disputes', 'get'>['disputes'][number];
type DecidedDispute = DataOf<'/admin/disputes/{id}/resolve', 'post'>;

/**
 * Buyers' claims (docs/decisions/disputes.md): the row opens the claim's dispute pack; Approve upholds the claim with
 * a refund or a replacement (a note is required), Reject rejects it with a reason the buyer reads.
 */
export const disputeQueueMachine = createAdminQueueMachine<AdminDispute, DecidedDispute>({
  id: 'adminDisputes',
  fetchPage: async (page, signal) => {
    const data = unwrap(
      await api.GET('/admin/disputes', { params: { query: { status: 'open', page } }, signal }),
      FETCH_ERROR,
    );
    return fromPageMeta(data.disputes, data.meta);
  },
  keyOf: (d) => d.id,
  initialValues: () => ({ outcome: 'refund' }),
  refuseValues: (values) => (values.reason?.trim() ? null : 'Give the note the seller and the buyer read.'),
  approve: async (d, values) =>
    unwrap(
      await api.POST('/admin/disputes/{id}/resolve', {
        params: { path: { id: d.id } },
        body: {
          outcome: values.outcome === 'replacement' ? 'replacement' : 'refund',
          note: values.reason?.trim() ?? '',
        },
      }),
    ),
  reject: async (d, reason) =>
    unwrap(await api.POST('/admin/disputes/{id}/reject', { params: { path: { id: d.id } }, body: { reason } })),
  announce: (d) => `Claim on ${d.booking_no} ${d.status}`,
  loadFile: async (d) => unwrap(await api.GET('/admin/disputes/{id}/pack', { params: { path: { id: d.id } } })),
});
