import type { Router } from '../contract/router';
import { recordAdminAction } from '../domain/admin/audit';
import { importStatement, lineProof } from '../domain/bank/matching';
import { dismissLine, type LineOutcome, linePage, matchLine } from '../domain/bank/review';
import { StatementFormatError } from '../domain/bank/statement-file';
import { metaOf } from '../domain/paging';
import { HttpError, MESSAGES } from '../http/errors';
import { badFileName } from './wallet';

const fileRefused = (message: string) => new HttpError(422, MESSAGES.validation, [{ path: '/body/file', message }]);

/**
 * Bank-statement matching of top-ups (x-role admin): import a statement (each line that names one pending top-up
 * of its amount credits it), list the lines left for a person, match one by hand or dismiss it. Refusals throw,
 * so that the operation's transaction (and the statement's file) is undone with them.
 */
export function adminBankRoutes({ route }: Router) {
  route('/admin/bank-statements', 'post', async ({ user, files }, { db, clock }) => {
    const file = files.file?.[0];
    if (!file) throw fileRefused('is required');
    const problem = badFileName(file.clientName);
    if (problem) throw fileRefused(problem);
    try {
      const summary = await importStatement(db, user, file, clock.now());
      const message = `${summary.credited} line${summary.credited === 1 ? '' : 's'} credited, ${summary.to_review} to review.`;
      return { status: 200, body: { success: true, message, data: summary } };
    } catch (error) {
      if (error instanceof StatementFormatError) throw fileRefused(error.message);
      throw error;
    }
  });

  route('/admin/bank-statement-lines', 'get', async ({ query }, { db }) => {
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const { lines, total } = await linePage(db, query.status ?? 'review', {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      status: 200,
      body: { success: true, data: { lines, meta: metaOf({ page, perPage, limit: perPage, offset: 0 }, total) } },
    };
  });

  route('/admin/bank-statement-lines/{id}/match', 'post', async ({ user, params, body }, { db, clock }) => {
    const now = clock.now();
    const outcome = answer(await matchLine(db, params.id, body.deposit_id, user.id, now), 'matched');
    if (outcome.fresh) {
      const line = outcome.body.data;
      await recordAdminAction(
        db,
        user,
        'deposit.approved',
        {
          type: 'deposit',
          id: body.deposit_id,
          amount: { minor: line.amount, currency: line.currency },
          detail: lineProof(line.id, { bookedOn: line.booked_on, bankReference: line.bank_reference, text: line.text }),
        },
        now,
      );
    }
    return { status: 200, body: outcome.body };
  });

  route('/admin/bank-statement-lines/{id}/dismiss', 'post', async ({ user, params, body }, { db, clock }) => {
    const reason = body.reason.trim();
    if (!reason)
      throw new HttpError(422, MESSAGES.validation, [{ path: '/body/reason', message: 'must not be blank' }]);
    const now = clock.now();
    const outcome = answer(await dismissLine(db, params.id, user.id, now), 'dismissed');
    if (outcome.fresh) {
      const line = outcome.body.data;
      await recordAdminAction(
        db,
        user,
        'bank_line.dismissed',
        { type: 'bank_line', id: line.id, amount: { minor: line.amount, currency: line.currency }, detail: reason },
        now,
      );
    }
    return { status: 200, body: outcome.body };
  });
}

/** The line as decided (again for a second click); every refusal throws, undoing what the call wrote. */
function answer(outcome: LineOutcome, done: 'matched' | 'dismissed') {
  switch (outcome.kind) {
    case 'not_found':
      throw new HttpError(404, outcome.message);
    case 'conflict':
      throw new HttpError(409, outcome.message);
    case 'invalid':
      throw new HttpError(422, MESSAGES.validation, [{ path: '/body/deposit_id', message: outcome.message }]);
    case 'already':
      return { fresh: false, body: { success: true as const, message: `Line already ${done}.`, data: outcome.line } };
    case 'done':
      return { fresh: true, body: { success: true as const, message: `Line ${done}.`, data: outcome.line } };
  }
}
