import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { call, type Server } from './trade-testing';

type Account = { id: number; iban_masked: string; removed_at?: string };
type Payout = {
  payout_id: number;
  status: string;
  bank_account: Account;
  arrives_by: string | null;
  decided_at: string;
};
type Next = { can_request: boolean; message: string; run_at: string; arrives_by: string };

const GOOD = { account_holder: 'Sam Seller', iban: 'GB82 WEST 1234 5698 7654 32', swift: 'NWBKGB2L' };

describe('payouts say when, and agree with the bank accounts (server)', () => {
  let s: Server;
  let seller: string;

  beforeAll(async () => {
    s = await freshServer();
    seller = await s.loginAs('seller@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const history = async () =>
    ((await call(s, 'GET', '/payouts/history?per_page=50', seller)).body.data as unknown as { payout_list: Payout[] })
      .payout_list;
  const accounts = async () =>
    (await call(s, 'GET', '/settings/bank-accounts', seller)).body.data as unknown as {
      bank_accounts: Account[];
      removed_accounts: Account[];
    };
  const next = async () =>
    ((await call(s, 'GET', '/payouts/summary', seller)).body.data as unknown as { next_payout: Next }).next_payout;

  it('names every account of the payout history in Bank accounts, a removed one as removed', async () => {
    const payouts = await history();
    expect(payouts.length).toBeGreaterThan(0);
    const { bank_accounts, removed_accounts } = await accounts();
    for (const p of payouts) {
      const listed = bank_accounts.find((a) => a.id === p.bank_account.id);
      const removed = removed_accounts.find((a) => a.id === p.bank_account.id);
      // the demo seller was paid to an account it has since removed: both pages say so
      expect(listed ?? removed, `payout ${p.payout_id}`).toBeDefined();
      expect(p.bank_account.removed_at).toBe(removed?.removed_at);
    }
    expect(removed_accounts.length).toBeGreaterThan(0);
    expect(removed_accounts.every((a) => typeof a.removed_at === 'string')).toBe(true);
    expect(bank_accounts.every((a) => a.removed_at === undefined)).toBe(true);
  });

  it('says when a payout arrives: the working day after it was sent; a failed one never', async () => {
    for (const p of await history()) {
      if (p.status === 'failed') expect(p.arrives_by).toBeNull();
      else expect(p.arrives_by).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (p.status === 'sent') expect(p.arrives_by && p.arrives_by > p.decided_at.slice(0, 10)).toBe(true);
    }
  });

  it('says when the next payout can be requested: after adding an account, then now with its run and arrival', async () => {
    const before = await next();
    expect(before.can_request).toBe(false);
    expect(before.message).toMatch(
      /^Add a payout account first\. A payout requested then: it goes in the payout run of /,
    );
    const added = await call(s, 'POST', '/payouts/update-bank-account', seller, { ...GOOD, password: 'Demo1234!' });
    expect(added.status).toBe(200);
    const now = await next();
    expect(now.can_request).toBe(true);
    expect(now.message).toMatch(
      /^You can request a payout now: it goes in the payout run of \w{3} \d{1,2} \w{3} at 12:00 UK time and arrives by \w{3} \d{1,2} \w{3}\.$/,
    );
    expect(Date.parse(now.run_at)).toBeGreaterThan(s.clock.now().getTime());
    expect(now.arrives_by > now.run_at.slice(0, 10)).toBe(true);
    // a payout requested now is expected on the day the summary promised
    const summary = (await call(s, 'GET', '/payouts/summary', seller)).body.data as unknown as {
      balances: { currency: string; available: number }[];
    };
    const richest = [...summary.balances].sort((a, b) => b.available - a.available)[0] as { currency: string };
    const asked = await call(s, 'POST', '/payouts/request', seller, { currency: richest.currency, amount: 2_000 });
    expect(asked.status).toBe(200);
    expect((asked.body.data as unknown as Payout).arrives_by).toBe(now.arrives_by);
  });
});
