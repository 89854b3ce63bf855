import type { Router } from '../contract/router';
import { recordAdminAction } from '../domain/admin/audit';
import { listCaps, setCap } from '../domain/listings/price-caps';
import { metaOf } from '../domain/paging';
import { listAdminEvents, setTransferWindow } from '../domain/sales/transfers';
import { adminDepositPage, type DecisionOutcome, decideDeposit, depositProof } from '../domain/wallet';
import { MESSAGES } from '../http/errors';
import { noteMoney } from '../ops/request-facts';

const NOT_FOUND = { status: 404, body: { success: false, message: 'Deposit request not found.' } } as const;

/**
 * The back office's deposit queue (x-role admin): list, read a proof, approve, reject with a reason. A decision is
 * exactly once by nature (see decideDeposit): a replay, a second click or a second admin answers the decided
 * request again and changes nothing; the opposite decision answers 409.
 */
export function adminRoutes({ route }: Router) {
  route('/admin/deposits', 'get', async ({ query }, { db }) => {
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const { rows, total } = await adminDepositPage(db, query.status ?? 'pending', {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      status: 200,
      body: {
        success: true,
        data: { deposit_list: rows, meta: metaOf({ page, perPage, limit: perPage, offset: 0 }, total) },
      },
    };
  });

  route('/admin/deposits/{id}/proof', 'get', async ({ params }, { db, dataDir }) => {
    const proof = await depositProof(db, dataDir, params.id, null);
    return proof === undefined
      ? NOT_FOUND
      : {
          status: 200,
          body: { success: true, ...(proof ? {} : { message: 'This deposit request has no proof.' }), data: proof },
        };
  });

  route('/admin/deposits/{id}/approve', 'post', async ({ user, params, c }, { db, clock }) => {
    const now = clock.now();
    const outcome = await decideDeposit(db, params.id, user.id, { kind: 'approve' }, now);
    if (outcome.kind === 'decided') {
      const d = outcome.deposit;
      await recordAdminAction(db, user, 'deposit.approved', depositRecord(d), now);
      noteMoney(c.get('facts'), {
        action: 'deposit_approved',
        amount: d.amount,
        currency: d.currency,
        deposit_id: d.deposit_id,
        seller_id: d.seller_id,
      });
    }
    return answerDecision(outcome, 'approved');
  });

  route('/admin/deposits/{id}/reject', 'post', async ({ user, params, body }, { db, clock }) => {
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
    const outcome = await decideDeposit(db, params.id, user.id, { kind: 'reject', reason }, now);
    if (outcome.kind === 'decided') {
      await recordAdminAction(db, user, 'deposit.rejected', { ...depositRecord(outcome.deposit), detail: reason }, now);
    }
    return answerDecision(outcome, 'rejected');
  });
}

const depositRecord = (d: { deposit_id: number; amount: number; currency: string }) => ({
  type: 'deposit' as const,
  id: d.deposit_id,
  amount: { minor: d.amount, currency: d.currency },
});

/** The answer to an approval or a rejection: the request as decided, again for a replay, 409 for the other way. */
function answerDecision(outcome: DecisionOutcome, done: 'approved' | 'rejected') {
  const other = done === 'approved' ? 'rejected' : 'approved';
  switch (outcome.kind) {
    case 'not_found':
      return NOT_FOUND;
    case 'conflict':
      return {
        status: 409,
        body: { success: false, message: `This deposit request was ${other}; it cannot be ${done}.` },
      } as const;
    case 'already':
      return {
        status: 200,
        body: { success: true, message: `Deposit already ${done}.`, data: outcome.deposit },
      } as const;
    case 'decided':
      return { status: 200, body: { success: true, message: `Deposit ${done}.`, data: outcome.deposit } } as const;
  }
}

/** The operator's resale price caps, per country or per event (docs/decisions/resale-price-caps.md). */
export function adminPriceCapRoutes({ route }: Router) {
  route('/admin/price-caps', 'get', async (_, { db }) => ({
    status: 200,
    body: { success: true, data: { caps: await listCaps(db) } },
  }));

  route('/admin/price-caps', 'put', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const cap = await setCap(db, body, now);
    // in the route's transaction: the cap and its audit row land together
    const detail = `${cap.market} (${cap.scope}): ${cap.rule}, ${cap.active ? 'active' : 'inactive'}`;
    await recordAdminAction(db, user, 'price_cap.saved', { type: 'price_cap', id: cap.id, detail }, now);
    return { status: 200, body: { success: true, message: 'Price cap saved.', data: cap } };
  });
}

/** The events to come and their clubs' transfer windows (docs/decisions/mobile-transfers.md). */
export function adminEventRoutes({ route }: Router) {
  route('/admin/events', 'get', async ({ query }, { db, clock }) => ({
    status: 200,
    body: { success: true, data: { events: await listAdminEvents(db, query.q, clock.now()) } },
  }));

  route('/admin/events/{id}/transfer-window', 'put', async ({ user, params, body }, { db, clock }) => {
    const now = clock.now();
    const { event, moved } = await setTransferWindow(db, params.id, body.hours ?? null, now);
    const window =
      event.transfer_window_hours === null ? 'no window' : `${event.transfer_window_hours} h before kick-off`;
    const detail = `${event.match_name}: ${window}; ${moved} open order deadline(s) moved`;
    await recordAdminAction(db, user, 'event.transfer_window_saved', { type: 'event', id: event.id, detail }, now);
    return { status: 200, body: { success: true, message: 'Transfer window saved.', data: event } };
  });
}
