import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { inTransaction } from '../db/transaction';
import { type FreshDatabase, freshSeededDatabase } from '../test-support';
import {
  auditLedger,
  ESCROW_SHARDS,
  escrowBalance,
  payFromWallet,
  platformBankAccount,
  postEntry,
  purchaseEscrowAccount,
  walletAccount,
} from './ledger';
import { figuresByStatus } from './sales/figures';
import { recordOrder, TOTAL_SHARDS } from './sales/totals';

const NOW = new Date('2026-05-10T12:00:00.000Z');

/**
 * The purchase escrow is not one row that every purchase locks: a booking's payment goes to the escrow shard of
 * its id, the shards together hold what was paid, and the ledger's audit holds (each balance the sum of its
 * lines, every entry summing to zero). On both engines.
 */
describe('the purchase escrow in shards', () => {
  let d: FreshDatabase;
  let db: Db;
  let buyer: number;

  beforeAll(async () => {
    d = await freshSeededDatabase();
    db = d.db;
    buyer = (
      await db.selectFrom('users').select('id').where('email', '=', 'seller@demo.test').executeTakeFirstOrThrow()
    ).id;
    await inTransaction(db, async (trx) => {
      const wallet = await walletAccount(trx, buyer, 'GBP', NOW);
      const bank = await platformBankAccount(trx, 'GBP', NOW);
      await postEntry(
        trx,
        {
          kind: 'deposit',
          reference: 'escrow-shards-test',
          description: 'Top-up',
          lines: [
            { accountId: wallet, currency: 'GBP', amount: 1_000_000 },
            { accountId: bank, currency: 'GBP', amount: -1_000_000 },
          ],
        },
        NOW,
      );
    });
  }, 60_000);
  afterAll(async () => {
    await d?.close();
  });

  it('puts the payments of consecutive bookings in different escrow accounts, and the audit holds', async () => {
    const before = await escrowBalance(db, 'GBP');
    const bookings = Array.from({ length: ESCROW_SHARDS * 2 }, (_, i) => 900_000 + i);
    // concurrently, as purchases come: each its own transaction
    await Promise.all(
      bookings.map((bookingId) =>
        inTransaction(db, (trx) =>
          payFromWallet(
            trx,
            {
              userId: buyer,
              currency: 'GBP',
              amount: 1_000,
              reference: `booking:${bookingId}`,
              description: 'Purchase',
              bookingId,
            },
            NOW,
          ),
        ),
      ),
    );
    const escrows = new Set(
      await Promise.all(bookings.map((bookingId) => purchaseEscrowAccount(db, 'GBP', bookingId, NOW))),
    );
    expect(escrows.size).toBe(ESCROW_SHARDS);
    const touched = await db
      .selectFrom('ledger_lines')
      .innerJoin('ledger_entries', 'ledger_entries.id', 'ledger_lines.entry_id')
      .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
      .select('ledger_lines.account_id')
      .distinct()
      .where(
        'ledger_entries.reference',
        'in',
        bookings.map((b) => `booking:${b}`),
      )
      .where('ledger_accounts.kind', '=', 'purchase_escrow')
      .execute();
    expect(touched.length).toBe(ESCROW_SHARDS);
    expect(await escrowBalance(db, 'GBP')).toBe(before + bookings.length * 1_000);
    expect(await auditLedger(db)).toEqual([]);
  });

  it("takes a booking's refund from the shard its payment went to", async () => {
    const bookingId = 900_100 + 3;
    await inTransaction(db, (trx) =>
      payFromWallet(
        trx,
        { userId: buyer, currency: 'GBP', amount: 700, reference: `booking:${bookingId}`, description: 'P', bookingId },
        NOW,
      ),
    );
    const escrow = await purchaseEscrowAccount(db, 'GBP', bookingId, NOW);
    const held = Number(
      (await db.selectFrom('ledger_accounts').select('balance').where('id', '=', escrow).executeTakeFirstOrThrow())
        .balance,
    );
    await inTransaction(db, async (trx) =>
      postEntry(
        trx,
        {
          kind: 'sale_refund',
          reference: `test-refund:${bookingId}`,
          description: 'Refund',
          lines: [
            { accountId: await purchaseEscrowAccount(trx, 'GBP', bookingId, NOW), currency: 'GBP', amount: -700 },
            { accountId: await walletAccount(trx, buyer, 'GBP', NOW), currency: 'GBP', amount: 700 },
          ],
        },
        NOW,
      ),
    );
    const after = await db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('id', '=', escrow)
      .executeTakeFirstOrThrow();
    expect(Number(after.balance)).toBe(held - 700);
    expect(await auditLedger(db)).toEqual([]);
  });

  it('adds consecutive orders of one seller to different rows of its status total, which sum to the orders', async () => {
    const listing = await db
      .selectFrom('listings')
      .select(['id', 'seller_id', 'event_id'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = (await figuresByStatus(db, listing.seller_id, 'GBP')).find((f) => f.status === 'pending');
    const n = TOTAL_SHARDS * 2;
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        recordOrder(db, {
          booking_no: `SHARD-${i}`,
          listing_id: listing.id,
          seller_id: listing.seller_id,
          event_id: listing.event_id,
          quantity: 1,
          amount: 500,
          currency: 'GBP',
          status: 'pending',
          created_at: NOW.toISOString(),
        }),
      ),
    );
    const rows = await db
      .selectFrom('seller_order_totals')
      .select('shard')
      .where('seller_id', '=', listing.seller_id)
      .where('currency', '=', 'GBP')
      .where('status', '=', 'pending')
      .execute();
    expect(rows.length).toBe(TOTAL_SHARDS);
    const after = (await figuresByStatus(db, listing.seller_id, 'GBP')).find((f) => f.status === 'pending');
    expect(after?.orders).toBe((before?.orders ?? 0) + n);
    expect(after?.amount).toBe((before?.amount ?? 0) + n * 500);
  });
});
