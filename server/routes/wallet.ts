import { currencyCodeValues } from '../../openapi/schema';
import type { AuthUser } from '../auth/session';
import type { Router } from '../contract/router';
import { sellerLevelList, sellerLevelSummary } from '../domain/levels';
import { BadCursor, metaOf, type Page, pageOf } from '../domain/paging';
import { sellerIdOf } from '../domain/sales/totals';
import {
  attachDepositProof,
  type CurrencyCode,
  depositPage,
  depositProof,
  findDeposit,
  submitDeposit,
  TOP_UP_BANK_ACCOUNTS,
  topUpReference,
  transactionPage,
  walletDetails,
} from '../domain/wallet';
import { MESSAGES } from '../http/errors';
import { holdOpen } from '../quotas/quota';

const invalid = (path: string, message: string) => ({
  status: 422 as const,
  body: { success: false as const, message: MESSAGES.validation, errors: [{ path, message }] },
});

/** The page asked for and the date range checked, or the 422 of a cursor that does not read or a range reversed. */
function listArgs(query: { page?: number; per_page?: number; cursor?: string; from?: string; to?: string }) {
  if (query.from && query.to && query.from > query.to) {
    return { refusal: invalid('/query/from', 'must not be after /query/to') };
  }
  try {
    return { page: pageOf(query) as Page };
  } catch (error) {
    if (!(error instanceof BadCursor)) throw error;
    return { refusal: invalid('/query/cursor', error.message) };
  }
}

/**
 * A file name with a path (`../x.pdf`, `a/b.png`, `C:\x.jpg`) or a control character (NUL...) is refused: the
 * name is only ever shown back, but a client that sends one is not a browser's file picker.
 */
export function badFileName(name: string): string | null {
  if (/[/\\]/.test(name)) return 'The file name must not contain a path.';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'The file name must not contain control characters.';
  if (name === '.' || name === '..') return 'The file name is not valid.';
  return null;
}

const DEPOSIT_NOT_FOUND = { status: 404, body: { success: false, message: 'Deposit request not found.' } } as const;

const currencyOf = (asked: CurrencyCode | undefined, user: AuthUser): CurrencyCode =>
  asked ??
  ((currencyCodeValues as readonly string[]).includes(user.currency) ? (user.currency as CurrencyCode) : 'GBP');

/**
 * The SB Pay wallet: balances, history, top-up details and deposit requests. The wallet is that of the seller the
 * caller works for (a team member with lmt-pay sees and tops up its seller's); another seller's deposit is 404.
 */
export function walletRoutes({ route }: Router) {
  route('/currencies', 'get', async (_input, { db }) => {
    const rows = await db
      .selectFrom('currencies')
      .select(['code', 'name', 'symbol', 'minor_unit'])
      .orderBy('code')
      .execute();
    return {
      status: 200,
      body: { success: true, data: rows.map((r) => ({ ...r, code: r.code as CurrencyCode })) },
    };
  });

  route('/lmt-pay/details', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: await walletDetails(db, sellerIdOf(user)) },
  }));

  route('/lmt-pay/bank-account-details', 'get', ({ user, query }) => {
    const currency = currencyOf(query.currency, user);
    return {
      status: 200,
      body: {
        success: true,
        data: {
          bank_account_details: {
            ...TOP_UP_BANK_ACCOUNTS[currency],
            reference: topUpReference(sellerIdOf(user)),
            currency,
          },
        },
      },
    };
  });

  route('/lmt-pay/transaction-history', 'get', async ({ user, query }, { db }) => {
    const args = listArgs(query);
    if (!args.page) return args.refusal;
    const { rows, total, next } = await transactionPage(db, sellerIdOf(user), query, args.page);
    return {
      status: 200,
      body: { success: true, data: { transaction_list: rows, meta: metaOf(args.page, total, next) } },
    };
  });

  route('/lmt-pay/deposit-history', 'get', async ({ user, query }, { db }) => {
    const args = listArgs(query);
    if (!args.page) return args.refusal;
    const { rows, total, next } = await depositPage(db, sellerIdOf(user), query, args.page);
    return {
      status: 200,
      body: { success: true, data: { deposit_list: rows, meta: metaOf(args.page, total, next) } },
    };
  });

  route('/lmt-pay/deposits/{deposit_id}', 'get', async ({ user, params }, { db }) => {
    const deposit = await findDeposit(db, sellerIdOf(user), params.deposit_id);
    return deposit ? { status: 200, body: { success: true, data: deposit } } : DEPOSIT_NOT_FOUND;
  });

  route('/lmt-pay/deposits/{deposit_id}/proof', 'get', async ({ user, params }, { db, dataDir }) => {
    const proof = await depositProof(db, dataDir, params.deposit_id, sellerIdOf(user));
    return proof === undefined
      ? DEPOSIT_NOT_FOUND
      : {
          status: 200,
          body: { success: true, ...(proof ? {} : { message: 'This deposit request has no proof.' }), data: proof },
        };
  });

  route('/api/send-deposit-request', 'post', async ({ user, body, files }, deps) => {
    const { db, clock } = deps;
    await holdOpen(deps, 'pending-deposits', sellerIdOf(user));
    const proof = files.proof?.[0] ?? null;
    if (proof) {
      const problem = badFileName(proof.clientName);
      if (problem) return invalid('/body/proof', problem);
    }
    const notes = body.notes?.trim() ? body.notes.trim() : null;
    const deposit = await submitDeposit(
      db,
      {
        sellerId: sellerIdOf(user),
        submittedBy: user.id,
        amount: body.deposit_amount,
        currency: body.currency,
        method: body.payment_transfer_by,
        notes,
        proofFileId: proof?.id ?? null,
      },
      clock.now(),
    );
    return {
      status: 200,
      body: { success: true, message: 'Deposit request submitted. It is pending admin approval.', data: deposit },
    };
  });

  route('/api/upload-pop', 'post', async ({ user, body, files }, { db, clock }) => {
    const proof = files.proof?.[0];
    if (!proof) return invalid('/body/proof', 'is required');
    const problem = badFileName(proof.clientName);
    if (problem) return invalid('/body/proof', problem);
    const outcome = await attachDepositProof(db, sellerIdOf(user), body.deposit_id, proof.id, clock.now());
    switch (outcome.kind) {
      case 'attached':
        return {
          status: 200,
          body: {
            success: true,
            message: 'The proof of payment is added to your deposit request.',
            data: outcome.deposit,
          },
        };
      case 'not_found':
        return DEPOSIT_NOT_FOUND;
      case 'has_proof':
        return { status: 409, body: { success: false, message: 'This deposit request already has a proof.' } };
      case 'decided':
        return { status: 409, body: { success: false, message: 'This deposit request is already decided.' } };
    }
  });

  route('/settings/lmt-pay/account-reference', 'get', ({ user }) => ({
    status: 200,
    body: { success: true, data: { account_reference: topUpReference(sellerIdOf(user)) } },
  }));

  route('/settings/seller-level', 'get', async ({ user }, { db, clock }) => ({
    status: 200,
    body: { success: true, data: { seller_level: await sellerLevelSummary(db, sellerIdOf(user), clock.now()) } },
  }));

  route('/settings/seller-level-list', 'get', async ({ user }, { db, clock }) => {
    const summary = await sellerLevelSummary(db, sellerIdOf(user), clock.now());
    return { status: 200, body: { success: true, data: { seller_levels: sellerLevelList(summary.level_number) } } };
  });
}
