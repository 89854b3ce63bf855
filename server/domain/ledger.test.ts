import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../db/database';
import { inTransaction } from '../db/transaction';
import { type FreshDatabase, freshSeededDatabase } from '../test-support';
import {
  accountOf,
  auditLedger,
  InsufficientFunds,
  payFromWallet,
  platformBankAccount,
  postEntry,
  UnbalancedEntry,
  walletAccount,
  walletBalances,
} from './ledger';
import { decideDeposit, submitDeposit } from './wallet';

const NOW = new Date('2026-05-10T12:00:00.000Z');

describe('the double-entry ledger', () => {
  let d: FreshDatabase;
  let db: Db;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    d = await freshSeededDatabase();
    db = d.db;
    for (const u of await db.selectFrom('users').select(['id', 'email']).execute()) {
      ids[u.email.split('@')[0] as string] = u.id;
    }
  }, 60_000);
  afterAll(async () => {
    await d?.close();
  });

  const seller = () => ids.seller as number;
  const rival = () => ids.rival as number;
  const admin = () => ids.admin as number;

  it('holds its invariants on the seeded demo wallets', async () => {
    expect(await auditLedger(db)).toEqual([]);
  });

  it('refuses an entry that does not balance, has one line, or a zero or unsafe amount, and writes nothing', async () => {
    const wallet = await walletAccount(db, seller(), 'GBP', NOW);
    const bank = await platformBankAccount(db, 'GBP', NOW);
    const before = await db.selectFrom('ledger_entries').select('id').execute();
    const cases = [
      [
        { accountId: wallet, currency: 'GBP', amount: 100 },
        { accountId: bank, currency: 'GBP', amount: -99 },
      ],
      [{ accountId: wallet, currency: 'GBP', amount: 100 }],
      [
        { accountId: wallet, currency: 'GBP', amount: 0 },
        { accountId: bank, currency: 'GBP', amount: 0 },
      ],
      [
        { accountId: wallet, currency: 'GBP', amount: 0.5 },
        { accountId: bank, currency: 'GBP', amount: -0.5 },
      ],
      [
        { accountId: wallet, currency: 'GBP', amount: 2 ** 60 },
        { accountId: bank, currency: 'GBP', amount: -(2 ** 60) },
      ],
      // balanced in sum, not per currency
      [
        { accountId: wallet, currency: 'GBP', amount: 100 },
        { accountId: bank, currency: 'EUR', amount: -100 },
      ],
    ];
    for (const lines of cases) {
      await expect(postEntry(db, { kind: 'test', reference: 'bad', description: 'x', lines }, NOW)).rejects.toThrow(
        UnbalancedEntry,
      );
    }
    expect(await db.selectFrom('ledger_entries').select('id').execute()).toEqual(before);
  });

  it('posts an entry once per (kind, reference): the same event again moves nothing', async () => {
    const wallet = await walletAccount(db, rival(), 'AED', NOW);
    const bank = await platformBankAccount(db, 'AED', NOW);
    const entry = {
      kind: 'test',
      reference: 'once-1',
      description: 'once',
      lines: [
        { accountId: wallet, currency: 'AED', amount: 500 },
        { accountId: bank, currency: 'AED', amount: -500 },
      ],
    };
    const start = (await walletBalances(db, rival())).get('AED') ?? 0;
    const first = await inTransaction(db, (trx) => postEntry(trx, entry, NOW));
    const again = await inTransaction(db, (trx) => postEntry(trx, entry, NOW));
    expect(first.posted).toBe(true);
    expect(again).toEqual({ ...first, posted: false });
    expect((await walletBalances(db, rival())).get('AED')).toBe(start + 500);
    expect(await auditLedger(db)).toEqual([]);
  });

  it('refuses a debit that would take a wallet below zero by the conditional update, and the transaction undoes it all', async () => {
    const wallet = await walletAccount(db, rival(), 'AED', NOW);
    const escrow = await accountOf(
      db,
      { key: 'escrow:test:AED', kind: 'escrow', ownerId: null, currency: 'AED', allowNegative: true },
      NOW,
    );
    const before = (await walletBalances(db, rival())).get('AED') ?? 0;
    const entries = await db.selectFrom('ledger_entries').select('id').execute();
    const pay = (amount: number, reference: string) =>
      inTransaction(db, (trx) =>
        postEntry(
          trx,
          {
            kind: 'purchase',
            reference,
            description: 'a purchase paid from SB Pay',
            lines: [
              { accountId: wallet, currency: 'AED', amount: -amount },
              { accountId: escrow, currency: 'AED', amount },
            ],
          },
          NOW,
        ),
      );
    await expect(pay(before + 1, 'too-much')).rejects.toThrow(InsufficientFunds);
    expect((await walletBalances(db, rival())).get('AED')).toBe(before);
    expect(await db.selectFrom('ledger_entries').select('id').execute()).toEqual(entries);
    // exactly the balance is fine, and leaves zero
    const paid = await pay(before, 'all-of-it');
    expect(paid.lines.find((l) => l.accountId === wallet)?.balanceAfter).toBe(0);
    await expect(pay(1, 'one-more')).rejects.toThrow(InsufficientFunds);
    expect(await auditLedger(db)).toEqual([]);
  });

  it('keeps every invariant after any mix of deposits, approvals, rejections, purchases and replays (fast-check)', async () => {
    const step = fc.oneof(
      fc.record({
        op: fc.constant('submit' as const),
        who: fc.constantFrom('seller', 'rival'),
        amount: fc.integer({ min: 1, max: 100_000_000 }),
        currency: fc.constantFrom('GBP', 'EUR', 'USD', 'AED'),
      }),
      fc.record({ op: fc.constantFrom('approve' as const, 'reject' as const), pick: fc.nat() }),
      fc.record({
        op: fc.constant('purchase' as const),
        who: fc.constantFrom('seller', 'rival'),
        amount: fc.integer({ min: 1, max: 200_000_000 }),
        currency: fc.constantFrom('GBP', 'EUR', 'USD', 'AED'),
        // a booking paid again (a double click) reuses its reference
        again: fc.boolean(),
      }),
    );
    let booking = 0;
    const seen = { paid: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        const made: number[] = [];
        for (const s of steps) {
          if (s.op === 'purchase') {
            const who = ids[s.who] as number;
            const held = (await walletBalances(db, who)).get(s.currency) ?? 0;
            const reference = `booking-${s.again && booking > 0 ? booking : ++booking}`;
            const paid = await inTransaction(db, (trx) =>
              payFromWallet(
                trx,
                { userId: who, currency: s.currency, amount: s.amount, reference, description: 'x' },
                NOW,
              ),
            ).catch((e: unknown) => e as Error);
            const after = (await walletBalances(db, who)).get(s.currency) ?? 0;
            if (paid instanceof InsufficientFunds) {
              seen.refused += 1;
              expect(after).toBe(held);
            } else if (paid instanceof Error) throw paid;
            else {
              if (paid.posted) seen.paid += 1;
              expect(after).toBe(paid.posted ? held - s.amount : held);
            }
            expect(after).toBeGreaterThanOrEqual(0);
          } else if (s.op === 'submit') {
            const deposit = await inTransaction(db, (trx) =>
              submitDeposit(
                trx,
                {
                  sellerId: ids[s.who] as number,
                  submittedBy: ids[s.who] as number,
                  amount: s.amount,
                  currency: s.currency,
                  method: 'ONLINE',
                  notes: null,
                  proofFileId: null,
                },
                NOW,
              ),
            );
            made.push(deposit.deposit_id);
          } else if (made.length > 0) {
            const id = made[s.pick % made.length] as number;
            await inTransaction(db, (trx) =>
              decideDeposit(
                trx,
                id,
                admin(),
                s.op === 'approve' ? { kind: 'approve' } : { kind: 'reject', reason: 'test' },
                NOW,
              ),
            );
          }
        }
        expect(await auditLedger(db)).toEqual([]);
        // each wallet's deposit lines are exactly its approved deposits; its balance, deposits less purchases
        for (const who of [seller(), rival()]) {
          const lines = await db
            .selectFrom('ledger_lines')
            .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
            .select(['ledger_lines.currency', (eb) => eb.fn.sum<number>('ledger_lines.amount').as('total')])
            .where('ledger_accounts.owner_id', '=', who)
            // the wallet's accounts only: a seller also owns its earnings and payouts in flight (issue 14)
            .where('ledger_accounts.kind', '=', 'wallet')
            .groupBy('ledger_lines.currency')
            .execute();
          const balances = await walletBalances(db, who);
          for (const l of lines) expect(balances.get(l.currency)).toBe(Number(l.total));
          const approved = await db
            .selectFrom('deposits')
            .select(['currency', (eb) => eb.fn.sum<number>('amount').as('total')])
            .where('user_id', '=', who)
            .where('status', '=', 'approved')
            .groupBy('currency')
            .execute();
          const credited = await db
            .selectFrom('ledger_lines')
            .innerJoin('ledger_entries', 'ledger_entries.id', 'ledger_lines.entry_id')
            .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
            .select(['ledger_lines.currency', (eb) => eb.fn.sum<number>('ledger_lines.amount').as('total')])
            .where('ledger_accounts.owner_id', '=', who)
            .where('ledger_entries.kind', '=', 'deposit')
            .groupBy('ledger_lines.currency')
            .execute();
          const asMap = (rows: { currency: string; total: number }[]) =>
            Object.fromEntries(rows.map((r) => [r.currency, Number(r.total)]));
          expect(asMap(credited)).toEqual(asMap(approved));
        }
      }),
      { numRuns: 30, seed: 10 },
    );
    // the mix did pay from wallets, and did find some too short
    expect(seen.paid).toBeGreaterThan(0);
    expect(seen.refused).toBeGreaterThan(0);
  }, 120_000);

  it('approves once when two connections approve the same deposit at the same moment', async () => {
    // on Postgres a second pool, so the approvals really overlap; better-sqlite3 is synchronous, so a second
    // connection in this process would block the event loop while the first holds the lock: on SQLite the
    // transactions of the one connection queue (two processes: server/routes/wallet-two-processes.test.ts)
    const other = d.engine === 'postgres' ? openDatabase(d.target, { poolSize: 2 }) : db;
    try {
      for (let round = 0; round < 5; round++) {
        const deposit = await inTransaction(db, (trx) =>
          submitDeposit(
            trx,
            {
              sellerId: seller(),
              submittedBy: seller(),
              amount: 1000 + round,
              currency: 'USD',
              method: 'CASH',
              notes: null,
              proofFileId: null,
            },
            NOW,
          ),
        );
        const before = (await walletBalances(db, seller())).get('USD') ?? 0;
        const outcomes = await Promise.all(
          [db, other, db, other].map((conn) =>
            inTransaction(conn, (trx) => decideDeposit(trx, deposit.deposit_id, admin(), { kind: 'approve' }, NOW)),
          ),
        );
        expect(outcomes.map((o) => o.kind).sort()).toEqual(['already', 'already', 'already', 'decided']);
        expect((await walletBalances(db, seller())).get('USD')).toBe(before + 1000 + round);
      }
      expect(await auditLedger(db)).toEqual([]);
    } finally {
      if (other !== db) await other.destroy();
    }
  }, 60_000);
});
