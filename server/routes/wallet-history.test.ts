import { describe, expect, it } from 'vitest';
import { inTransaction } from '../db/transaction';
import { InsufficientFunds, payFromWallet } from '../domain/ledger';
import { topUpReference } from '../domain/wallet';
import { decidePending } from '../quotas/testing';
import {
  admin,
  balanceOf,
  counts,
  deposit,
  type FilePart,
  get,
  ids,
  member,
  multipart,
  nextKeySeq,
  openWalletServer,
  PDF,
  PNG,
  post,
  rival,
  s,
  seller,
} from './wallet-testing';

describe('the SB Pay wallet: history, purchases, seller levels and a proof sent later', () => {
  openWalletServer();

  describe('history paging and filters', () => {
    type Meta = { current_page: number; last_page: number; total: number; next_cursor: string | null };
    type Row = { deposit_id: number; status: string; currency: string; created_at: string };

    it('pages the deposit history by number and by cursor, newest first, the same rows either way', async () => {
      const all = await get<{ deposit_list: Row[]; meta: Meta }>('/lmt-pay/deposit-history?per_page=50', seller);
      const total = all.body.data.meta.total;
      expect(total).toBeGreaterThan(6);
      const rows = all.body.data.deposit_list;
      const sorted = [...rows].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.deposit_id - a.deposit_id);
      expect(rows).toEqual(sorted);
      const byNumber: Row[] = [];
      const byCursor: Row[] = [];
      let cursor: string | null = null;
      for (let page = 1; page <= Math.ceil(total / 3); page++) {
        const n = await get<{ deposit_list: Row[]; meta: Meta }>(
          `/lmt-pay/deposit-history?per_page=3&page=${page}`,
          seller,
        );
        byNumber.push(...n.body.data.deposit_list);
        const c: { body: { data: { deposit_list: Row[]; meta: Meta } } } = await get<{
          deposit_list: Row[];
          meta: Meta;
        }>(`/lmt-pay/deposit-history?per_page=3${cursor ? `&cursor=${cursor}` : ''}`, seller);
        byCursor.push(...c.body.data.deposit_list);
        cursor = c.body.data.meta.next_cursor;
      }
      expect(cursor).toBeNull();
      expect(byNumber).toEqual(rows);
      expect(byCursor).toEqual(rows);
      // only the seller's own
      const theirs = await get<{ deposit_list: Row[] }>('/lmt-pay/deposit-history?per_page=50', rival);
      const mine = new Set(rows.map((r) => r.deposit_id));
      expect(theirs.body.data.deposit_list.some((r) => mine.has(r.deposit_id))).toBe(false);
    });

    it('filters by status, currency and date range; a reversed range or a foreign cursor is a 422', async () => {
      const rejected = await get<{ deposit_list: Row[] }>(
        '/lmt-pay/deposit-history?status=rejected&per_page=50',
        seller,
      );
      expect(rejected.body.data.deposit_list.length).toBeGreaterThan(0);
      expect(rejected.body.data.deposit_list.every((r) => r.status === 'rejected')).toBe(true);
      const eur = await get<{ deposit_list: Row[] }>('/lmt-pay/deposit-history?currency=EUR&per_page=50', seller);
      expect(eur.body.data.deposit_list.every((r) => r.currency === 'EUR')).toBe(true);
      const today = s.clock.now().toISOString().slice(0, 10);
      const recent = await get<{ deposit_list: Row[]; meta: Meta }>(
        `/lmt-pay/deposit-history?from=${today}&to=${today}&per_page=50`,
        seller,
      );
      expect(recent.body.data.deposit_list.every((r) => r.created_at.startsWith(today))).toBe(true);
      const old = await get<{ deposit_list: Row[] }>('/lmt-pay/deposit-history?to=2000-01-01', seller);
      expect(old.body.data.deposit_list).toEqual([]);
      expect((await get('/lmt-pay/deposit-history?from=2026-02-01&to=2026-01-01', seller)).status).toBe(422);
      expect((await get('/lmt-pay/deposit-history?cursor=bm9wZQ', seller)).status).toBe(422);
      expect((await get('/lmt-pay/deposit-history?from=yesterday', seller)).status).toBe(422);
    });

    it('lists the ledger lines of the wallet with the balance each left, filtered by type and currency', async () => {
      type Line = { amount: number; balance_after: number; currency: string; type: string; deposit_id: number | null };
      const all = await get<{ transaction_list: Line[]; meta: Meta }>(
        '/lmt-pay/transaction-history?per_page=50&currency=GBP',
        seller,
      );
      expect(all.status).toBe(200);
      const lines = all.body.data.transaction_list;
      expect(lines.length).toBeGreaterThan(2);
      expect(lines[0]?.balance_after).toBe((await balanceOf(seller, 'GBP')).balance);
      // newest first: each line's balance is the one before it plus its amount
      for (let i = 0; i < lines.length - 1; i++) {
        expect((lines[i + 1] as Line).balance_after + (lines[i] as Line).amount).toBe((lines[i] as Line).balance_after);
      }
      expect(lines.every((l) => l.currency === 'GBP')).toBe(true);
      const deposits = await get<{ transaction_list: Line[] }>('/lmt-pay/transaction-history?type=deposit', seller);
      expect(deposits.body.data.transaction_list.length).toBeGreaterThan(0);
      expect(deposits.body.data.transaction_list.every((l) => l.type === 'deposit' && l.deposit_id !== null)).toBe(
        true,
      );
      const purchases = await get<{ transaction_list: Line[] }>('/lmt-pay/transaction-history?type=purchase', seller);
      expect(purchases.body.data.transaction_list.every((l) => l.type === 'purchase' && l.amount < 0)).toBe(true);
      const paged = await get<{ transaction_list: Line[]; meta: Meta }>(
        '/lmt-pay/transaction-history?per_page=1',
        seller,
      );
      expect(paged.body.data.meta.next_cursor).not.toBeNull();
    });
  });

  it('shows a purchase paid from SB Pay (the ledger issue 9 reuses) as a debit in the history, filtered by type', async () => {
    type Line = { amount: number; balance_after: number; type: string; deposit_id: number | null; description: string };
    const before = (await balanceOf(seller, 'GBP')).balance;
    await inTransaction(s.db, (trx) =>
      payFromWallet(
        trx,
        {
          userId: ids.seller as number,
          currency: 'GBP',
          amount: 1500,
          reference: 'booking-test-1',
          description: 'Purchase SB-1',
        },
        s.clock.now(),
      ),
    );
    const purchases = await get<{ transaction_list: Line[] }>('/lmt-pay/transaction-history?type=purchase', seller);
    expect(purchases.body.data.transaction_list[0]).toEqual(
      expect.objectContaining({ type: 'purchase', amount: -1500, balance_after: before - 1500, deposit_id: null }),
    );
    expect((await balanceOf(seller, 'GBP')).balance).toBe(before - 1500);
    const deposits = await get<{ transaction_list: Line[] }>(
      '/lmt-pay/transaction-history?type=deposit&per_page=50',
      seller,
    );
    expect(deposits.body.data.transaction_list.every((l) => l.type === 'deposit')).toBe(true);
    // more than the balance: refused, nothing taken
    await expect(
      inTransaction(s.db, (trx) =>
        payFromWallet(
          trx,
          {
            userId: ids.seller as number,
            currency: 'GBP',
            amount: before,
            reference: 'booking-test-2',
            description: 'x',
          },
          s.clock.now(),
        ),
      ),
    ).rejects.toThrow(InsufficientFunds);
    expect((await balanceOf(seller, 'GBP')).balance).toBe(before - 1500);
  });

  describe('seller levels', () => {
    it('answers the three levels with their thresholds and benefits, the current one active', async () => {
      const { status, body } = await get<{
        seller_levels: { level: number; is_active: number; quarterly_gtv: number; benefits: { available: number }[] }[];
      }>('/settings/seller-level-list', seller);
      expect(status).toBe(200);
      expect(body.data.seller_levels.map((l) => [l.level, l.quarterly_gtv])).toEqual([
        [1, 0],
        [2, 2_500_000],
        [3, 10_000_000],
      ]);
      expect(body.data.seller_levels.filter((l) => l.is_active === 1)).toHaveLength(1);
      const available = body.data.seller_levels.map((l) => l.benefits.filter((b) => b.available).length);
      expect(available).toEqual([2, 4, 6]);
    });

    it("sums the quarter's completed GBP sales into the summary, with days left and a forecast", async () => {
      const { status, body } = await get<{
        seller_level: {
          level: string;
          level_number: number;
          quarter: string;
          days_left: number;
          gtv: number;
          required_to_maintain: number;
          forecast: { projected_gtv: number };
        };
      }>('/settings/seller-level?currency=GBP', seller);
      expect(status).toBe(200);
      const now = s.clock.now();
      const q = Math.floor(now.getUTCMonth() / 3);
      const start = new Date(Date.UTC(now.getUTCFullYear(), q * 3, 1)).toISOString();
      const end = new Date(Date.UTC(now.getUTCFullYear(), q * 3 + 3, 1)).toISOString();
      const expected = await s.db
        .selectFrom('orders')
        .select('amount')
        .where('seller_id', '=', ids.seller as number)
        .where('status', '=', 'completed')
        .where('currency', '=', 'GBP')
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .execute();
      const gtv = expected.reduce((n, o) => n + Number(o.amount), 0);
      const summary = body.data.seller_level;
      expect(summary.gtv).toBe(gtv);
      expect(summary.quarter).toBe(`Q${q + 1} ${now.getUTCFullYear()}`);
      expect(summary.level).toBe(`Level ${summary.level_number}`);
      expect(summary.days_left).toBeGreaterThanOrEqual(0);
      expect(summary.days_left).toBeLessThan(92);
      expect(summary.forecast.projected_gtv).toBeGreaterThanOrEqual(gtv);
      expect((await get('/settings/seller-level?currency=EUR', seller)).status).toBe(422);
    });
  });

  describe('the proof sent after the request (/api/upload-pop) and the account reference', () => {
    const uploadPop = async (
      token: string,
      fields: Record<string, string>,
      proof?: FilePart,
      key = `pop-key-${nextKeySeq()}-${Date.now()}`,
    ) => {
      const { body, type } = multipart(fields, proof);
      const res = await s.app.request('/api/api/upload-pop', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': key },
        body,
      });
      return {
        status: res.status,
        replayed: res.headers.get('idempotent-replayed'),
        body: (await res.json()) as {
          success: boolean;
          message?: string;
          data: { deposit_id: number; status: string; proof: { name: string; kind: string } | null };
          errors?: { path: string; message: string }[];
        },
      };
    };
    const pdf = (name = 'receipt.pdf'): FilePart => ({ name, type: 'application/pdf', bytes: PDF });

    it('adds the proof to a pending request sent without one, once; a replay has one effect', async () => {
      await decidePending(s.db);
      const sent = await deposit(seller);
      expect(sent.status).toBe(200);
      expect(sent.body.data.proof).toBeNull();
      const id = String(sent.body.data.deposit_id);
      const before = await counts();
      const key = `pop-once-${Date.now()}`;
      const added = await uploadPop(seller, { deposit_id: id }, pdf(), key);
      expect(added.status).toBe(200);
      expect(added.body.data.proof).toMatchObject({ name: 'receipt.pdf', kind: 'pdf' });
      expect(added.body.data.status).toBe('pending');
      // the owner reads the same proof back
      const read = await get<{ name: string; content_base64: string }>(`/lmt-pay/deposits/${id}/proof`, seller);
      expect(Buffer.from(read.body.data.content_base64, 'base64').equals(PDF)).toBe(true);
      const replay = await uploadPop(seller, { deposit_id: id }, pdf(), key);
      expect(replay.status).toBe(200);
      expect(replay.replayed).toBe('true');
      expect(await counts()).toEqual({ ...before, files: before.files + 1, uploads: before.uploads + 1 });
      // a second proof never replaces the first
      const second = await uploadPop(seller, { deposit_id: id }, { name: 'other.png', type: 'image/png', bytes: PNG });
      expect(second.status).toBe(409);
      expect(second.body.message).toBe('This deposit request already has a proof.');
      expect(await counts()).toEqual({ ...before, files: before.files + 1, uploads: before.uploads + 1 });
    });

    it("refuses a decided request, another seller's or an unknown id, a wrong type or a path in the name, storing nothing", async () => {
      await decidePending(s.db);
      const sent = await deposit(seller);
      const id = sent.body.data.deposit_id;
      expect((await post(`/admin/deposits/${id}/reject`, admin, { reason: 'No transfer arrived' })).status).toBe(200);
      const before = await counts();
      const decided = await uploadPop(seller, { deposit_id: String(id) }, pdf());
      expect(decided.status).toBe(409);
      expect(decided.body.message).toBe('This deposit request is already decided.');
      const open = (await deposit(seller)).body.data.deposit_id;
      const mid = await counts();
      for (const [token, depositId] of [
        [rival, open],
        [seller, 2_147_483_000],
      ] as const) {
        const res = await uploadPop(token, { deposit_id: String(depositId) }, pdf());
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('Deposit request not found.');
      }
      const exe = await uploadPop(
        seller,
        { deposit_id: String(open) },
        {
          name: 'receipt.pdf',
          type: 'application/pdf',
          bytes: Buffer.from('MZ\x90\x00 this is not a pdf'),
        },
      );
      expect(exe.status).toBe(415);
      const pathName = await uploadPop(seller, { deposit_id: String(open) }, pdf('../../etc/receipt.pdf'));
      expect(pathName.status).toBe(422);
      expect(pathName.body.errors?.[0]?.path).toBe('/body/proof');
      for (const fields of [{ deposit_id: 'abc' }, { deposit_id: '0' }, {}] as Record<string, string>[]) {
        expect((await uploadPop(seller, fields, pdf())).status).toBe(422);
      }
      expect((await uploadPop(seller, { deposit_id: String(open) })).status).toBe(422);
      expect(await counts()).toEqual(mid);
      expect(mid).toEqual({ ...before, deposits: before.deposits + 1 });
    });

    it('answers the account reference of the seller the caller works for, the one the top-up details show', async () => {
      const mine = await get<{ account_reference: string }>('/settings/lmt-pay/account-reference', seller);
      expect(mine.status).toBe(200);
      expect(mine.body.data.account_reference).toBe(topUpReference(ids.seller as number));
      const details = await get<{ bank_account_details: { reference: string } }>(
        '/lmt-pay/bank-account-details?currency=GBP',
        seller,
      );
      expect(details.body.data.bank_account_details.reference).toBe(mine.body.data.account_reference);
      // a team member without lmt-pay is refused; with it, it gets its seller's reference
      expect((await get('/settings/lmt-pay/account-reference', member)).status).toBe(403);
      const grant = (on: 0 | 1) =>
        s.db
          .updateTable('user_permissions')
          .set({ is_can_access: on })
          .where('user_id', '=', ids.member as number)
          .where('permission_name', '=', 'lmt-pay')
          .execute();
      await grant(1);
      try {
        const team = await get<{ account_reference: string }>('/settings/lmt-pay/account-reference', member);
        expect(team.body.data.account_reference).toBe(mine.body.data.account_reference);
      } finally {
        await grant(0);
      }
      const other = await get<{ account_reference: string }>('/settings/lmt-pay/account-reference', rival);
      expect(other.body.data.account_reference).toBe(topUpReference(ids.rival as number));
      expect(other.body.data.account_reference).not.toBe(mine.body.data.account_reference);
    });
  });
});
