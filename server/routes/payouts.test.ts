import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SOCKET_CLIENT } from '../auth/client';
import { pairKey } from '../auth/throttle';
import { isValidBic, isValidIban } from '../domain/bank-accounts';
import { auditLedger } from '../domain/ledger';
import { PAYOUT_FEE, PAYOUT_MINIMUM } from '../domain/payouts';
import { settleFinished } from '../domain/sales/clock';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
type Body<T = Record<string, unknown>> = {
  success: boolean;
  message?: string;
  data: T;
  errors?: { path: string; message: string }[];
};
interface Balance {
  currency: string;
  available: number;
  pending: number;
  in_flight: number;
  paid_out: number;
}
interface Payout {
  payout_id: number;
  reference: string;
  currency: string;
  amount: number;
  fee: number;
  net: number;
  status: string;
  status_label: string;
  orders_count: number;
  bank_account: { iban_last4: string; iban_masked: string };
}

const GOOD = { account_holder: 'Sam Seller', iban: 'GB82 WEST 1234 5698 7654 32', swift: 'NWBKGB2L' };
const PASSWORD = 'Demo1234!';

describe('the IBAN and SWIFT/BIC checks', () => {
  it('accepts real IBANs and refuses a wrong check digit, length or country', () => {
    expect(isValidIban('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(isValidIban('DE89370400440532013000')).toBe(true);
    expect(isValidIban('fr14 2004 1010 0505 0001 3m02 606')).toBe(true);
    expect(isValidIban('GB83 WEST 1234 5698 7654 32')).toBe(false); // check digits
    expect(isValidIban('GB82 WEST 1234 5698 7654 3')).toBe(false); // length
    expect(isValidIban('QQ82 WEST 1234 5698 7654 32')).toBe(false); // country
    expect(isValidIban('GB82 WEST 1234 5698 7654 3!')).toBe(false);
    // right length and check digits, but a letter where a British account number has digits (the BBAN format)
    expect(isValidIban('GB55 WEST 1234 5698 7654 3A')).toBe(false);
  });
  it('accepts 8 and 11 character BICs of a real country only', () => {
    expect(isValidBic('NWBKGB2L')).toBe(true);
    expect(isValidBic('deut de ff 500')).toBe(true);
    expect(isValidBic('NWBKQQ2L')).toBe(false);
    expect(isValidBic('NWBKGB2L1')).toBe(false);
    expect(isValidBic('NW1KGB2L')).toBe(false);
  });
});

describe('payouts and their bank accounts', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;
  let admin: string;
  let admin2: string;
  const ids: Record<string, number> = {};
  let keySeq = 0;
  let currency = 'GBP';

  beforeAll(async () => {
    s = await freshServer();
    const first = await s.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'admin@demo.test')
      .executeTakeFirstOrThrow();
    const { id: _id, ...rest } = first;
    await s.db
      .insertInto('users')
      .values({ ...rest, email: 'admin2@demo.test', first_name: 'Otto', user_token: `${first.user_token}-2` })
      .execute();
    [seller, rival, member, admin, admin2] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
      s.loginAs('admin@demo.test'),
      s.loginAs('admin2@demo.test'),
    ]);
    for (const u of await s.db.selectFrom('users').select(['id', 'email']).execute()) {
      ids[u.email.split('@')[0] as string] = u.id;
    }
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const call = async <T = Record<string, unknown>>(method: string, path: string, token: string, body?: unknown) => {
    const headers: Record<string, string> =
      path === '/payouts/request' ? { 'idempotency-key': `payout-test-${++keySeq}-${Date.now()}` } : {};
    const res = await s.json(method, path, body, token, headers);
    return { status: res.status, body: (await res.json()) as Body<T> };
  };
  const balances = async (token = seller) =>
    (await call<{ balances: Balance[] }>('GET', '/payouts/summary', token)).body.data.balances;
  const balanceOf = async (cur: string, token = seller) =>
    (await balances(token)).find((b) => b.currency === cur) as Balance;
  const requestPayout = (amount: number, token = seller, cur = currency) =>
    call<Payout>('POST', '/payouts/request', token, { currency: cur, amount });
  const clean = async () => expect(await auditLedger(s.db)).toEqual([]);

  it('shows the available balance from the ledger: the demo seller earned its completed sales', async () => {
    const all = await balances();
    const best = [...all].sort((a, b) => b.available - a.available)[0] as Balance;
    currency = best.currency;
    expect(best.available).toBeGreaterThan(PAYOUT_MINIMUM * 3);
    const completed = await s.db
      .selectFrom('orders')
      .select((eb) => eb.fn.sum<number>('amount').as('n'))
      .where('seller_id', '=', ids.seller as number)
      .where('status', '=', 'completed')
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow();
    const paid = await s.db
      .selectFrom('payouts')
      .select((eb) => eb.fn.sum<number>('amount').as('n'))
      .where('seller_id', '=', ids.seller as number)
      .where('currency', '=', currency)
      .where('status', '!=', 'failed')
      .executeTakeFirstOrThrow();
    expect(Number(paid.n)).toBe(PAYOUT_MINIMUM); // the demo's one sent payout
    expect(best.available).toBe(Number(completed.n) - Number(paid.n));
    expect(best.paid_out).toBe(PAYOUT_MINIMUM);
    const open = await s.db
      .selectFrom('orders')
      .select((eb) => eb.fn.sum<number>('amount').as('n'))
      .where('seller_id', '=', ids.seller as number)
      .where('status', 'in', ['pending', 'confirmed', 'delivered'])
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow();
    expect(best.pending).toBe(Number(open.n ?? 0));
    expect(best.in_flight).toBe(0);
    await clean();
  });

  it('refuses a payout without a payout bank account (409)', async () => {
    const res = await requestPayout(PAYOUT_MINIMUM);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Add a payout bank account before requesting a payout.');
  });

  it('checks IBAN, SWIFT and holder (422 on each field) and stores nothing', async () => {
    const res = await call('POST', '/payouts/update-bank-account', seller, {
      account_holder: '12',
      iban: 'GB83 WEST 1234 5698 7654 32',
      swift: 'NWBKQQ2L',
      password: PASSWORD,
    });
    expect(res.status).toBe(422);
    expect(res.body.errors?.map((e) => e.path).sort()).toEqual(['/body/account_holder', '/body/iban', '/body/swift']);
    const short = await call('POST', '/payouts/update-bank-account', seller, {
      ...GOOD,
      swift: 'NWBK',
      password: PASSWORD,
    });
    expect(short.status).toBe(422);
    const rows = await s.db
      .selectFrom('bank_accounts')
      .selectAll()
      .where('seller_id', '=', ids.seller as number)
      .where('deleted_at', 'is', null)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('refuses a change with the wrong password (422 on /body/password), counting it as a failed login of the account from this client', async () => {
    const res = await call('POST', '/payouts/update-bank-account', seller, { ...GOOD, password: 'not-it-1234' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([{ path: '/body/password', message: 'Your password is not correct.' }]);
    expect(
      await s.db
        .selectFrom('bank_accounts')
        .selectAll()
        .where('seller_id', '=', ids.seller as number)
        .where('deleted_at', 'is', null)
        .execute(),
    ).toHaveLength(0);
    const failures = await s.db
      .selectFrom('login_pair_failures')
      .select('failed_logins')
      .where('pair', '=', pairKey('seller@demo.test', NO_SOCKET_CLIENT))
      .executeTakeFirst();
    expect(failures?.failed_logins).toBe(1);
  });

  it('lets only the seller change it: a team member gets 403', async () => {
    const res = await call('POST', '/payouts/update-bank-account', member, { ...GOOD, password: PASSWORD });
    expect(res.status).toBe(403);
  });

  it('saves the payout account, shows it masked, and tells the seller by notification and email', async () => {
    const res = await call<{ iban_masked: string; iban_last4: string; is_default: boolean }>(
      'POST',
      '/payouts/update-bank-account',
      seller,
      { ...GOOD, password: PASSWORD },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ iban_masked: 'GB•• •••• 5432', iban_last4: '5432', is_default: true });
    expect(JSON.stringify(res.body)).not.toContain('WEST12345698');
    const shown = await call<{ bank_account: { iban_last4: string } | null }>('GET', '/payouts/bank-account', seller);
    expect(shown.body.data.bank_account?.iban_last4).toBe('5432');
    expect(JSON.stringify(shown.body)).not.toContain('WEST');
    const stored = await s.db
      .selectFrom('bank_accounts')
      .select(['iban', 'bic'])
      .where('seller_id', '=', ids.seller as number)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ iban: 'GB82WEST12345698765432', bic: 'NWBKGB2L' });
    const note = await s.db
      .selectFrom('notifications')
      .select('description')
      .where('user_id', '=', ids.seller as number)
      .where('name', '=', 'bank_account_changed')
      .executeTakeFirstOrThrow();
    expect(note.description).toContain('5432');
    const mail = await s.db
      .selectFrom('mail_outbox')
      .select(['subject', 'body'])
      .where('to_address', '=', 'seller@demo.test')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Your SB Portal payout bank account changed');
    expect(mail.body).toContain('5432');
    expect(mail.body).not.toContain('WEST1234');
  });

  it('keeps bank accounts per seller: another seller’s account id answers 404 and changes nothing', async () => {
    const list = await call<{ bank_accounts: { id: number }[] }>('GET', '/settings/bank-accounts', seller);
    const id = list.body.data.bank_accounts[0]?.id as number;
    const theirs = await call<{ bank_accounts: { id: number }[] }>('GET', '/settings/bank-accounts', rival);
    expect(theirs.body.data.bank_accounts.map((a) => a.id)).not.toContain(id);
    const rivalAccount = theirs.body.data.bank_accounts[0]?.id as number;
    expect(
      (await call('POST', `/settings/bank-accounts/default/${rivalAccount}`, seller, { password: PASSWORD })).status,
    ).toBe(404);
    const other = await call('POST', `/settings/bank-accounts/default/${id}`, rival, { password: PASSWORD });
    expect(other.status).toBe(404);
    const gone = await call('POST', `/settings/bank-accounts/delete/${id}`, rival, { password: PASSWORD });
    expect(gone.status).toBe(404);
    const mine = await call('POST', `/settings/bank-accounts/delete/${id}`, seller, { password: PASSWORD });
    expect(mine.status).toBe(409); // the payout account
  });

  it('refuses a payout larger than the available balance (409) and one below the minimum (422)', async () => {
    const before = await balanceOf(currency);
    const big = await requestPayout(before.available + 1);
    expect(big.status).toBe(409);
    expect(big.body.message).toContain('larger than your available balance');
    const small = await requestPayout(PAYOUT_MINIMUM - 1);
    expect(small.status).toBe(422);
    expect(small.body.errors?.[0]?.path).toBe('/body/amount');
    expect(await balanceOf(currency)).toEqual(before);
    expect(await s.db.selectFrom('payouts').selectAll().execute()).toHaveLength(2); // the demo's
  });

  it('refuses payouts to a team member without lmt-pay (403)', async () => {
    expect((await call('GET', '/payouts/summary', member)).status).toBe(403);
    expect((await requestPayout(PAYOUT_MINIMUM, member)).status).toBe(403);
  });

  let first: Payout;
  it('requests a payout as one ledger entry and records the orders it covers', async () => {
    const before = await balanceOf(currency);
    const amount = PAYOUT_MINIMUM + 1234;
    const res = await requestPayout(amount);
    expect(res.status).toBe(200);
    first = res.body.data;
    expect(first).toMatchObject({ amount, fee: PAYOUT_FEE, net: amount - PAYOUT_FEE, status: 'requested' });
    expect(first.reference).toMatch(/^PO-\d{6}$/);
    expect(first.bank_account.iban_last4).toBe('5432');
    const after = await balanceOf(currency);
    expect(after.available).toBe(before.available - amount);
    expect(after.in_flight).toBe(amount);
    const entries = await s.db
      .selectFrom('ledger_entries')
      .select(['kind'])
      .where('reference', '=', `payout:${first.payout_id}`)
      .execute();
    expect(entries).toEqual([{ kind: 'payout_requested' }]);
    const orders = await call<{ order_list: { amount: number }[]; meta: { total: number } }>(
      'GET',
      `/payouts/payout-orders?payout_id=${first.payout_id}&per_page=50`,
      seller,
    );
    expect(orders.status).toBe(200);
    expect(orders.body.data.order_list.reduce((t, o) => t + o.amount, 0)).toBe(amount);
    expect(orders.body.data.meta.total).toBe(first.orders_count);
    const report = await call<{ order_list: { in_flight: number; paid: number }[] }>(
      'GET',
      `/payouts/myorder-history?currency=${currency}&per_page=50`,
      seller,
    );
    expect(report.body.data.order_list.reduce((t, o) => t + o.in_flight, 0)).toBe(amount);
    expect(report.body.data.order_list.reduce((t, o) => t + o.paid, 0)).toBe(PAYOUT_MINIMUM);
    await clean();
  });

  it('answers 404 for another seller’s payout (details and orders)', async () => {
    expect((await call('GET', `/payouts/payout-details?payout_id=${first.payout_id}`, rival)).status).toBe(404);
    expect((await call('GET', `/payouts/payout-orders?payout_id=${first.payout_id}`, rival)).status).toBe(404);
    expect((await call('GET', `/payouts/payout-details?payout_id=${first.payout_id}`, seller)).status).toBe(200);
    expect((await call<{ payout_list: Payout[] }>('GET', '/payouts/history', rival)).body.data.payout_list).toEqual([]);
  });

  it('lets one of two admins mark a payout sent; the other gets 409', async () => {
    const [a, b] = await Promise.all([
      call('POST', `/admin/payouts/${first.payout_id}/sent`, admin),
      call('POST', `/admin/payouts/${first.payout_id}/sent`, admin2),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const lost = a.status === 409 ? a : b;
    expect(lost.body.message).toBe('This payout was already marked sent; it cannot be marked sent. Reload the list.');
    const failLate = await call('POST', `/admin/payouts/${first.payout_id}/failed`, admin, { reason: 'Bounced' });
    expect(failLate.status).toBe(409);
    expect((await call('POST', `/admin/payouts/${first.payout_id}/sent`, seller)).status).toBe(403);
    const after = await balanceOf(currency);
    expect(after.in_flight).toBe(0);
    expect(after.paid_out).toBe(PAYOUT_MINIMUM + first.amount);
    const kinds = await s.db
      .selectFrom('ledger_entries')
      .select('kind')
      .where('reference', '=', `payout:${first.payout_id}`)
      .orderBy('id')
      .execute();
    expect(kinds.map((k) => k.kind)).toEqual(['payout_requested', 'payout_sent']);
    const history = await call<{ payout_list: Payout[] }>('GET', '/payouts/history', seller);
    expect(history.body.data.payout_list[0]).toMatchObject({ payout_id: first.payout_id, status_label: 'Paid' });
    await clean();
  });

  it('gives a failed payout’s money back to the available balance', async () => {
    const before = await balanceOf(currency);
    const res = await requestPayout(PAYOUT_MINIMUM);
    expect(res.status).toBe(200);
    expect((await balanceOf(currency)).available).toBe(before.available - PAYOUT_MINIMUM);
    const failed = await call('POST', `/admin/payouts/${res.body.data.payout_id}/failed`, admin, {
      reason: 'The bank returned it',
    });
    expect(failed.status).toBe(200);
    const after = await balanceOf(currency);
    expect(after.available).toBe(before.available);
    expect(after.in_flight).toBe(0);
    const note = await s.db
      .selectFrom('notifications')
      .select('description')
      .where('user_id', '=', ids.seller as number)
      .where('name', '=', 'payout_failed')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(note.description).toContain('The bank returned it');
    // its orders are available again: a new payout can cover them
    const again = await requestPayout(PAYOUT_MINIMUM);
    expect(again.status).toBe(200);
    await call('POST', `/admin/payouts/${again.body.data.payout_id}/failed`, admin, { reason: 'Test' });
    await clean();
  });

  it('lets only one of two concurrent payouts of most of the balance through', async () => {
    const { available } = await balanceOf(currency);
    const amount = Math.floor(available * 0.6);
    const results = await Promise.all([requestPayout(amount), requestPayout(amount)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const after = await balanceOf(currency);
    expect(after.available).toBe(available - amount);
    expect(after.available).toBeGreaterThanOrEqual(0);
    const won = results.find((r) => r.status === 200) as { body: Body<Payout> };
    await call('POST', `/admin/payouts/${won.body.data.payout_id}/failed`, admin, { reason: 'Test' });
    await clean();
  });

  it('keeps the ledger whole when payouts race sales completing', async () => {
    const before = await balanceOf(currency);
    const delivered = await s.db
      .selectFrom('orders')
      .select((eb) => eb.fn.sum<number>('amount').as('n'))
      .where('seller_id', '=', ids.seller as number)
      .where('status', '=', 'delivered')
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow();
    const completing = Number(delivered.n ?? 0);
    const later = new Date(s.clock.now().getTime() + 400 * 86_400_000);
    // six payouts that together ask for more than there is, while every delivered sale completes
    const slice = Math.max(PAYOUT_MINIMUM, Math.floor((before.available + completing) / 4));
    const [settled, ...payouts] = await Promise.all([
      settleFinished(s.db, later, 1000),
      ...Array.from({ length: 6 }, () => requestPayout(slice)),
    ]);
    expect(settled).toBeGreaterThanOrEqual(0);
    for (const p of payouts) expect([200, 409]).toContain(p.status);
    const granted = payouts.filter((p) => p.status === 200).length;
    expect(granted).toBeGreaterThan(0);
    const after = await balanceOf(currency);
    const earnedNow = await s.db
      .selectFrom('orders')
      .select((eb) => eb.fn.sum<number>('amount').as('n'))
      .where('seller_id', '=', ids.seller as number)
      .where('status', '=', 'delivered')
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow();
    const credited = completing - Number(earnedNow.n ?? 0);
    expect(after.available).toBe(before.available + credited - granted * slice);
    expect(after.available).toBeGreaterThanOrEqual(0);
    expect(after.in_flight).toBe(granted * slice);
    await clean();
  });

  it('exports the filtered history as CSV and XLSX, a formula-like holder neutralised', async () => {
    await call('POST', '/settings/bank-accounts/add', seller, {
      account_holder: '=HYPERLINK("http://x")',
      iban: 'DE89 3704 0044 0532 0130 00',
      swift: 'COBADEFFXXX',
      make_default: true,
      password: PASSWORD,
    });
    const p = await requestPayout(PAYOUT_MINIMUM);
    expect(p.status).toBe(200);
    const history = await call<{ meta: { total: number } }>('GET', `/payouts/history?currency=${currency}`, seller);
    const csv = await call<{ content_base64: string; rows: number; name: string }>(
      'GET',
      `/payouts/exports?format=csv&currency=${currency}`,
      seller,
    );
    expect(csv.status).toBe(200);
    expect(csv.body.data.rows).toBe(history.body.data.meta.total);
    const text = Buffer.from(csv.body.data.content_base64, 'base64').toString('utf8');
    expect(text.startsWith('\uFEFFReference,Requested,Status')).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(text.trim().split('\r\n')).toHaveLength(history.body.data.meta.total + 1);
    const xlsx = await call<{ content_base64: string }>('GET', `/payouts/exports?currency=${currency}`, seller);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(xlsx.body.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const sheet = book.getWorksheet('Payouts');
    expect(sheet?.rowCount).toBe(history.body.data.meta.total + 1);
    expect(sheet?.getRow(2).getCell(8).value).toBe(`'=HYPERLINK("http://x")`);
    expect(typeof sheet?.getRow(2).getCell(5).value).toBe('number');
    const reversed = await call('GET', '/payouts/exports?from=2026-02-02&to=2026-02-01', seller);
    expect(reversed.status).toBe(422);
  });

  it('lists requested payouts for the back office with the whole IBAN', async () => {
    const list = await call<{ payout_list: { iban: string; seller_email: string }[] }>('GET', '/admin/payouts', admin);
    expect(list.status).toBe(200);
    expect(list.body.data.payout_list.some((p) => p.iban === 'DE89370400440532013000')).toBe(true);
    expect((await call('GET', '/admin/payouts', seller)).status).toBe(403);
  });
});
