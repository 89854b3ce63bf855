import type { Context } from 'hono';
import { clientKey } from '../auth/client';
import { BUSY_MESSAGE, lockMessage } from '../auth/session';
import type { Router } from '../contract/router';
import { inTransaction } from '../db/transaction';
import {
  adminErasurePage,
  adminErasureView,
  approveErasure,
  ERASURE_PAGE,
  erasureStatus,
  rejectErasure,
  requestErasure,
  unlinkFiles,
} from '../domain/account-data/erasure';
import { exportAccountData } from '../domain/account-data/export';
import { recordAdminAction } from '../domain/admin/audit';
import { confirmPassword } from '../domain/bank-accounts';
import { metaOf } from '../domain/paging';
import { MESSAGES } from '../http/errors';

const NOT_FOUND = { status: 404, body: { success: false, message: 'Erasure request not found.' } } as const;
const conflict = (message: string) => ({ status: 409, body: { success: false, message } }) as const;
const invalid = (path: string, message: string) => ({
  status: 422 as const,
  body: { success: false as const, message: MESSAGES.validation, errors: [{ path, message }] },
});

const clientOf = (c: Context, trustedProxies?: number) => clientKey(c, trustedProxies ?? 0);

/**
 * The account's own data (x-role seller: the account owner, not its team): the export as a streamed zip, and the
 * request to be erased, which the back office approves (erasing the account) or rejects with a reason.
 */
export function accountDataRoutes({ route }: Router) {
  route('/settings/account-data/export', 'get', async ({ user }, { db, clock }) => {
    const made = await exportAccountData(db, user.id, clock.now());
    return {
      status: 200,
      body: { contentType: 'application/zip', stream: made.stream },
      headers: {
        'Content-Disposition': `attachment; filename="${made.fileName}"`,
        'X-Export-Rows': String(made.rows),
      },
    };
  });

  route('/settings/account-data/erasure', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: await erasureStatus(db, user.id) },
  }));

  route('/settings/account-data/erasure', 'post', async ({ user, body, c }, deps) => {
    const { db, clock } = deps;
    // the password outside any transaction: a wrong one stays counted though the call is refused
    const check = await confirmPassword(
      db,
      clock,
      { ...user, client: clientOf(c, deps.trustedProxies) },
      body.password,
    );
    if (check.kind === 'busy')
      return {
        status: 503,
        body: { success: false, message: BUSY_MESSAGE },
        headers: { 'Retry-After': String(check.retryAfterSeconds) },
      };
    if (check.kind === 'locked')
      return {
        status: 429,
        body: { success: false, message: lockMessage(check.retryAfterSeconds) },
        headers: { 'Retry-After': String(check.retryAfterSeconds) },
      };
    if (check.kind === 'wrong-password') return invalid('/body/password', 'The password is incorrect.');
    const outcome = await inTransaction(db, (trx) => requestErasure(trx, clock, user.id));
    if (outcome.kind === 'blocked') return conflict(outcome.message);
    return {
      status: 200,
      body: {
        success: true,
        message: 'Your request was sent. The back office will erase your account and tell you.',
        data: await erasureStatus(db, user.id),
      },
    };
  });

  route('/admin/erasure-requests', 'get', async ({ query }, { db }) => {
    const page = query.page ?? 1;
    const { rows, total } = await adminErasurePage(db, query.status ?? 'requested', page);
    return {
      status: 200,
      body: {
        success: true,
        data: {
          requests: rows,
          meta: metaOf({ page, perPage: ERASURE_PAGE, limit: ERASURE_PAGE, offset: 0 }, total),
        },
      },
    };
  });

  route('/admin/erasure-requests/{id}/approve', 'post', async ({ params, user }, { db, clock, dataDir }) => {
    const outcome = await inTransaction(db, async (trx) => {
      const done = await approveErasure(trx, clock, params.id, user.id);
      // files come back only when this call erased the account
      if (done.kind === 'done' && done.files) {
        await recordAdminAction(trx, user, 'erasure.approved', { type: 'erasure', id: params.id }, clock.now());
      }
      return done;
    });
    if (outcome.kind === 'missing') return NOT_FOUND;
    if (outcome.kind === 'conflict') return conflict(outcome.message);
    if (outcome.files) await unlinkFiles(dataDir, outcome.files);
    return {
      status: 200,
      body: { success: true, message: 'The account was erased.', data: await adminErasureView(db, outcome.row) },
    };
  });

  route('/admin/erasure-requests/{id}/reject', 'post', async ({ params, body, user }, { db, clock }) => {
    const reason = body.reason.trim();
    if (!reason) return invalid('/body/reason', 'must not be blank');
    const outcome = await rejectErasure(db, clock, params.id, user.id, reason);
    if (outcome.kind === 'done' && outcome.changed) {
      const record = { type: 'erasure', id: params.id, detail: reason } as const;
      await recordAdminAction(db, user, 'erasure.rejected', record, clock.now());
    }
    if (outcome.kind === 'missing') return NOT_FOUND;
    if (outcome.kind === 'conflict') return conflict(outcome.message);
    return { status: 200, body: { success: true, data: await adminErasureView(db, outcome.row) } };
  });
}
