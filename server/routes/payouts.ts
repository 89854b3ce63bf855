import type { Context } from 'hono';
import { clientKey } from '../auth/client';
import { BUSY_MESSAGE, lockMessage } from '../auth/session';
import type { AppEnv, Router } from '../contract/router';
import type { Db } from '../db/database';
import { inTransaction } from '../db/transaction';
import { recordAdminAction } from '../domain/admin/audit';
import {
  type AccountChange,
  addBankAccount,
  BANK_MESSAGES,
  type BankAccountView,
  checkAccountInput,
  confirmPassword,
  type FieldProblem,
  listBankAccounts,
  makeDefaultAccount,
  ownsAccount,
  payoutAccount,
  removeBankAccount,
  removedPayoutAccounts,
  tellAccountChange,
} from '../domain/bank-accounts';
import { metaOf } from '../domain/paging';
import { nextPayout } from '../domain/payout-schedule';
import {
  adminPayoutPage,
  type DecisionOutcome,
  decidePayout,
  earnedOrderPage,
  exportPayouts,
  findPayout,
  PAYOUT_EXPORT_COLUMNS,
  PAYOUT_EXPORT_LIMIT,
  PAYOUT_FEE,
  PAYOUT_MINIMUM,
  payoutBalances,
  payoutOrderPage,
  payoutPage,
  requestPayout,
} from '../domain/payouts';
import { sellerIdOf } from '../domain/sales/totals';
import { MESSAGES } from '../http/errors';
import type { Mailer } from '../mail/port';
import { noteMoney } from '../ops/request-facts';
import { holdOpen } from '../quotas/quota';

const invalid = (errors: FieldProblem[]) => ({
  status: 422 as const,
  body: { success: false as const, message: MESSAGES.validation, errors },
});
const NOT_FOUND = { status: 404, body: { success: false, message: 'Payout not found.' } } as const;
const BANK_NOT_FOUND = { status: 404, body: { success: false, message: BANK_MESSAGES.notFound } } as const;

const pageArgs = (query: { page?: number; per_page?: number }, perPage = 10) => {
  const page = query.page ?? 1;
  const size = query.per_page ?? perPage;
  return { page, perPage: size, limit: size, offset: (page - 1) * size };
};

const reversed = (query: { from?: string; to?: string }) =>
  query.from && query.to && query.from > query.to
    ? invalid([{ path: '/query/from', message: 'must not be after /query/to' }])
    : null;

const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency}`;

/**
 * A bank account change: the fields (when new) and the password are checked outside any transaction (a wrong
 * password must stay counted though the call is refused), then the change, the notification and the outbox's mail
 * commit together. Answers the refusal of the password check, or the change's outcome.
 */
async function changeAccount<T extends AccountChange>(
  db: Db,
  deps: { clock: { now(): Date }; mailer: Mailer },
  user: { id: number; email: string; first_name: string; client?: string },
  password: string,
  change: (trx: Db) => Promise<T>,
) {
  const check = await confirmPassword(db, deps.clock, user, password);
  if (check.kind === 'busy') {
    return {
      refusal: {
        status: 503 as const,
        body: { success: false as const, message: BUSY_MESSAGE },
        headers: { 'Retry-After': String(check.retryAfterSeconds) },
      },
    };
  }
  if (check.kind === 'locked') {
    return {
      refusal: {
        status: 429 as const,
        body: { success: false as const, message: lockMessage(check.retryAfterSeconds) },
        headers: { 'Retry-After': String(check.retryAfterSeconds) },
      },
    };
  }
  if (check.kind === 'wrong-password') {
    return { refusal: invalid([{ path: '/body/password', message: BANK_MESSAGES.wrongPassword }]) };
  }
  const outcome = await inTransaction(db, async (trx) => {
    const now = deps.clock.now();
    const done = await change(trx);
    if ('account' in done) await tellAccountChange(trx, deps.mailer, user, done, now);
    return done;
  });
  return { outcome };
}

/** The caller with the client it calls from: a wrong password counts against the account from that client. */
const asked = <U extends object>(user: U, c: Context, deps: { trustedProxies?: number }) => ({
  ...user,
  client: clientKey(c, deps.trustedProxies ?? 0),
});

const saved = (message: string, account: BankAccountView) =>
  ({ status: 200, body: { success: true, message, data: account } }) as const;
const LIMIT = { status: 409, body: { success: false, message: BANK_MESSAGES.limit } } as const;
const IS_DEFAULT = { status: 409, body: { success: false, message: BANK_MESSAGES.defaultDelete } } as const;

/**
 * Payouts (issue 14, item 3) and the bank accounts they pay to. Every payout call needs `lmt-pay`: a payout moves
 * the same money as the SB Pay wallet (it is the wallet page's other half), and `reports` only reads figures.
 * Bank accounts change only by the seller itself (x-role seller), confirmed by its password.
 */
export function payoutRoutes({ route }: Router, mail: { mailer: Mailer }) {
  route('/payouts/summary', 'get', async ({ user }, deps) => {
    const { db, clock } = deps;
    const sellerId = sellerIdOf(user);
    const balances = await payoutBalances(db, sellerId);
    const account = await payoutAccount(db, sellerId);
    const best = [...balances].sort((a, b) => b.available - a.available)[0] ?? null;
    const open = await db
      .selectFrom('payouts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('seller_id', '=', sellerId)
      .where('status', '=', 'requested')
      .executeTakeFirstOrThrow();
    const next = nextPayout({
      now: clock.now(),
      hasAccount: account !== null,
      best,
      minimum: PAYOUT_MINIMUM,
      open: Number(open.n),
      maxOpen: deps.quotas['open-payouts'].max,
    });
    return {
      status: 200,
      body: {
        success: true,
        data: { balances, bank_account: account, minimum: PAYOUT_MINIMUM, fee: PAYOUT_FEE, next_payout: next },
      },
    };
  });

  route('/payouts/history', 'get', async ({ user, query }, { db }) => {
    const refused = reversed(query);
    if (refused) return refused;
    const page = pageArgs(query);
    const { rows, total } = await payoutPage(db, sellerIdOf(user), query, page);
    return { status: 200, body: { success: true, data: { payout_list: rows, meta: metaOf(page, total) } } };
  });

  route('/payouts/myorder-history', 'get', async ({ user, query }, { db }) => {
    const page = pageArgs(query);
    const { rows, total } = await earnedOrderPage(db, sellerIdOf(user), query, page);
    return { status: 200, body: { success: true, data: { order_list: rows, meta: metaOf(page, total) } } };
  });

  route('/payouts/payout-details', 'get', async ({ user, query }, { db }) => {
    const payout = await findPayout(db, sellerIdOf(user), query.payout_id);
    return payout ? { status: 200, body: { success: true, data: payout } } : NOT_FOUND;
  });

  route('/payouts/payout-orders', 'get', async ({ user, query }, { db }) => {
    const payout = await findPayout(db, sellerIdOf(user), query.payout_id);
    if (!payout) return NOT_FOUND;
    const page = pageArgs(query);
    const { rows, total } = await payoutOrderPage(db, payout.payout_id, page);
    return { status: 200, body: { success: true, data: { order_list: rows, meta: metaOf(page, total) } } };
  });

  route('/payouts/exports', 'get', async ({ user, query }, { db, clock }) => {
    const refused = reversed(query);
    if (refused) return refused;
    const file = await exportPayouts(db, sellerIdOf(user), query, query.format ?? 'xlsx', clock.now());
    if (!file) {
      return invalid([
        { path: '/query', message: `An export holds at most ${PAYOUT_EXPORT_LIMIT} payouts: narrow it.` },
      ]);
    }
    return {
      status: 200,
      body: {
        success: true,
        data: {
          name: file.name,
          mime: file.mime,
          size: file.content.length,
          rows: file.rows,
          columns: [...PAYOUT_EXPORT_COLUMNS],
          content_base64: file.content.toString('base64'),
        },
      },
    };
  });

  route('/payouts/request', 'post', async ({ user, body, c }, deps) => {
    const { db, clock } = deps;
    await holdOpen(deps, 'open-payouts', sellerIdOf(user));
    const outcome = await requestPayout(
      db,
      { sellerId: sellerIdOf(user), by: user.id },
      { currency: body.currency, amount: body.amount },
      clock.now(),
    );
    switch (outcome.kind) {
      case 'below_minimum':
        return invalid([
          { path: '/body/amount', message: `The smallest payout is ${money(PAYOUT_MINIMUM, body.currency)}.` },
        ]);
      case 'no_bank_account':
        return {
          status: 409,
          body: { success: false, message: 'Add a payout bank account before requesting a payout.' },
        };
      case 'too_large':
        return {
          status: 409,
          body: {
            success: false,
            message: `The payout is larger than your available balance (${money(outcome.available, body.currency)}).`,
          },
        };
      case 'requested':
        noteMoney(c.get('facts'), {
          action: 'payout_requested',
          amount: outcome.payout.amount,
          currency: outcome.payout.currency,
          fee: outcome.payout.fee,
          net: outcome.payout.net,
          payout_id: outcome.payout.payout_id,
          seller_id: sellerIdOf(user),
        });
        return {
          status: 200,
          body: {
            success: true,
            message: `Payout ${outcome.payout.reference} requested: ${money(outcome.payout.net, body.currency)} will reach your bank account after the ${money(PAYOUT_FEE, body.currency)} fee.`,
            data: outcome.payout,
          },
        };
    }
  });

  // ---- bank accounts

  route('/payouts/bank-account', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: { bank_account: await payoutAccount(db, sellerIdOf(user)) } },
  }));

  route('/settings/bank-accounts', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: {
      success: true,
      data: {
        bank_accounts: await listBankAccounts(db, user.id),
        removed_accounts: await removedPayoutAccounts(db, user.id),
      },
    },
  }));

  const add =
    (forceDefault: boolean) =>
    async (
      { user, body, c }: { user: { id: number; email: string; first_name: string }; body: AddBody; c: Context },
      deps: { db: Db; clock: { now(): Date }; trustedProxies?: number },
    ) => {
      const problems = checkAccountInput(body);
      if (problems.length > 0) return invalid(problems);
      const done = await changeAccount(
        deps.db,
        { ...deps, mailer: mail.mailer },
        asked(user, c, deps),
        body.password,
        (trx) =>
          addBankAccount(
            trx,
            { id: user.id, by: user.id },
            {
              account_holder: body.account_holder,
              iban: body.iban,
              swift: body.swift,
              makeDefault: forceDefault || body.make_default === true,
            },
            deps.clock.now(),
          ),
      );
      if (!done.outcome) return done.refusal;
      if (done.outcome.kind === 'limit') return LIMIT;
      const account = done.outcome.account;
      return saved(account.is_default ? 'Bank account saved: payouts go to it.' : 'Bank account saved.', account);
    };
  route('/payouts/update-bank-account', 'post', add(true));
  route('/settings/bank-accounts/add', 'post', add(false));

  route('/settings/bank-accounts/default/{bank_account_id}', 'post', async ({ user, body, params, c }, deps) => {
    if (!(await ownsAccount(deps.db, user.id, params.bank_account_id))) return BANK_NOT_FOUND;
    const done = await changeAccount(
      deps.db,
      { ...deps, mailer: mail.mailer },
      asked(user, c, deps),
      body.password,
      (trx) => makeDefaultAccount(trx, user.id, params.bank_account_id),
    );
    if (!done.outcome) return done.refusal;
    if (done.outcome.kind === 'not_found') return BANK_NOT_FOUND;
    return saved('Payouts now go to this bank account.', done.outcome.account);
  });

  route('/settings/bank-accounts/delete/{bank_account_id}', 'post', async ({ user, body, params, c }, deps) => {
    if (!(await ownsAccount(deps.db, user.id, params.bank_account_id))) return BANK_NOT_FOUND;
    const done = await changeAccount(
      deps.db,
      { ...deps, mailer: mail.mailer },
      asked(user, c, deps),
      body.password,
      (trx) => removeBankAccount(trx, user.id, params.bank_account_id, deps.clock.now()),
    );
    if (!done.outcome) return done.refusal;
    if (done.outcome.kind === 'not_found') return BANK_NOT_FOUND;
    if (done.outcome.kind === 'is_default') return IS_DEFAULT;
    return saved('Bank account removed.', done.outcome.account);
  });

  // ---- the back office

  route('/admin/payouts', 'get', async ({ query }, { db }) => {
    const page = pageArgs(query, 20);
    const { rows, total } = await adminPayoutPage(db, query.status ?? 'requested', page);
    return { status: 200, body: { success: true, data: { payout_list: rows, meta: metaOf(page, total) } } };
  });

  route('/admin/payouts/{id}/sent', 'post', async ({ user, params, c }, { db, clock }) => {
    const now = clock.now();
    const outcome = await decidePayout(db, params.id, user.id, { kind: 'sent' }, now);
    if (outcome.kind === 'decided') {
      // what left for the seller's bank: the payout less its fee
      const p = outcome.payout;
      const record = { type: 'payout', id: p.payout_id, amount: { minor: p.net, currency: p.currency } } as const;
      await recordAdminAction(db, user, 'payout.sent', record, now);
    }
    return decisionReply(noted(c, outcome, 'sent'), 'sent');
  });

  route('/admin/payouts/{id}/failed', 'post', async ({ user, params, body, c }, { db, clock }) => {
    const reason = body.reason.trim();
    if (!reason) return invalid([{ path: '/body/reason', message: 'must not be blank' }]);
    const now = clock.now();
    const outcome = await decidePayout(db, params.id, user.id, { kind: 'failed', reason }, now);
    if (outcome.kind === 'decided') {
      // the whole amount goes back to the seller's balance
      const p = outcome.payout;
      const amount = { minor: p.amount, currency: p.currency };
      await recordAdminAction(
        db,
        user,
        'payout.failed',
        { type: 'payout', id: p.payout_id, amount, detail: reason },
        now,
      );
    }
    return decisionReply(noted(c, outcome, 'failed'), 'failed');
  });
}

/** A payout the back office decided is money moved: logged with its amounts once committed. */
function noted(c: Context<AppEnv>, outcome: DecisionOutcome, done: 'sent' | 'failed'): DecisionOutcome {
  if (outcome.kind === 'decided') {
    const p = outcome.payout;
    noteMoney(c.get('facts'), {
      action: `payout_${done}`,
      amount: p.amount,
      currency: p.currency,
      fee: p.fee,
      net: p.net,
      payout_id: p.payout_id,
    });
  }
  return outcome;
}

interface AddBody {
  account_holder: string;
  iban: string;
  swift: string;
  make_default?: boolean;
  password: string;
}

const DONE_WORDS = { sent: 'sent', failed: 'failed', requested: 'requested' } as const;

function decisionReply(outcome: DecisionOutcome, done: 'sent' | 'failed') {
  switch (outcome.kind) {
    case 'not_found':
      return NOT_FOUND;
    case 'conflict':
      return {
        status: 409,
        body: {
          success: false,
          message: `This payout was already marked ${DONE_WORDS[outcome.status]}; it cannot be marked ${done}. Reload the list.`,
        },
      } as const;
    case 'decided':
      return {
        status: 200,
        body: {
          success: true,
          message:
            done === 'sent'
              ? `Payout ${outcome.payout.reference} marked sent.`
              : `Payout ${outcome.payout.reference} marked failed: the money is back in the seller's balance.`,
          data: outcome.payout,
        },
      } as const;
  }
}
