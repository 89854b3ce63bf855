import type { Clock } from '../../clock';
import { addBankAccount } from '../../domain/bank-accounts';
import { accountOf, postEntry } from '../../domain/ledger';
import { decidePayout, PAYOUT_MINIMUM, requestPayout } from '../../domain/payouts';
import { platformSalesKey, sellerEarningsKey } from '../../domain/sales/money';
import type { Db } from '../database';

export const DEMO_PAYOUTS_FIXTURE = 'demo-payouts-v1';

/**
 * Issue 14's payouts need earnings: the demo's completed orders were recorded by earlier fixtures, before
 * completion credited anything. This posts the `sale_earnings` entry completion posts (sales/money.ts:
 * the order's amount from `platform_sales:<currency>` to `seller_earnings:<seller>:<currency>`, reference
 * `order:<id>`, once) for every completed order of the given sellers that has none, so the demo seller has an
 * available balance to pay out. Then one payout the back office sent for the demo seller, to an account it
 * has since removed (so its history has a paid payout, and adding a payout account is still the first step of
 * the flow), and a payout account for the rival (another seller's account and payout for the isolation tests
 * and the IDOR matrix). All through the flow's own functions.
 */
export async function seedDemoPayouts(
  db: Db,
  clock: Clock,
  people: { seller: number; rival: number; admin: number },
): Promise<void> {
  await creditCompleted(db, clock, [people.seller, people.rival]);
  const now = clock.now();
  // dated before the seed's clock: demo rows are history, never "now"
  const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
  const rivalAccount = { id: people.rival, by: people.rival };
  await addBankAccount(
    db,
    rivalAccount,
    { account_holder: 'Rita Rival', iban: 'DE89 3704 0044 0532 0130 00', swift: 'COBADEFFXXX', makeDefault: true },
    daysAgo(20),
  );
  await addBankAccount(
    db,
    rivalAccount,
    {
      account_holder: 'Rita Rival',
      iban: 'FR14 2004 1010 0505 0001 3M02 606',
      swift: 'PSSTFRPPXXX',
      makeDefault: false,
    },
    daysAgo(19),
  );
  const old = await addBankAccount(
    db,
    { id: people.seller, by: people.seller },
    { account_holder: 'Sam Seller', iban: 'GB29 NWBK 6016 1331 9268 19', swift: 'NWBKGB2L', makeDefault: true },
    daysAgo(30),
  );
  const richest = await db
    .selectFrom('ledger_accounts')
    .select(['currency', 'balance'])
    .where('owner_id', '=', people.seller)
    .where('kind', '=', 'seller_earnings')
    .orderBy('balance', 'desc')
    .executeTakeFirst();
  if (richest && Number(richest.balance) >= PAYOUT_MINIMUM) {
    const pay = async (requested: number, decided: number, decision: 'sent' | 'failed') => {
      const asked = await requestPayout(
        db,
        { sellerId: people.seller, by: people.seller },
        { currency: richest.currency as 'GBP', amount: PAYOUT_MINIMUM },
        daysAgo(requested),
      );
      if (asked.kind !== 'requested') return;
      await decidePayout(
        db,
        asked.payout.payout_id,
        people.admin,
        decision === 'sent' ? { kind: 'sent' } : { kind: 'failed', reason: 'The bank returned the transfer' },
        daysAgo(decided),
      );
    };
    await pay(25, 24, 'failed');
    await pay(23, 22, 'sent');
  }
  if (old.kind === 'added') {
    await db
      .updateTable('bank_accounts')
      .set({ is_default: 0, deleted_at: daysAgo(10).toISOString() })
      .where('id', '=', old.account.id)
      .execute();
  }
}

async function creditCompleted(db: Db, clock: Clock, sellers: readonly number[]): Promise<void> {
  const now = clock.now();
  const orders = await db
    .selectFrom('orders')
    .select(['id', 'seller_id', 'booking_no', 'amount', 'currency'])
    .where('status', '=', 'completed')
    .where('seller_id', 'in', [...sellers])
    .orderBy('id')
    .execute();
  const credited = new Set(
    (await db.selectFrom('ledger_entries').select('reference').where('kind', '=', 'sale_earnings').execute()).map(
      (e) => e.reference,
    ),
  );
  for (const o of orders) {
    if (credited.has(`order:${o.id}`)) continue;
    const amount = Number(o.amount);
    if (amount <= 0) continue;
    const clearing = await accountOf(
      db,
      {
        key: platformSalesKey(o.currency),
        kind: 'platform_sales',
        ownerId: null,
        currency: o.currency,
        allowNegative: true,
      },
      now,
    );
    const earnings = await accountOf(
      db,
      {
        key: sellerEarningsKey(o.seller_id, o.currency),
        kind: 'seller_earnings',
        ownerId: o.seller_id,
        currency: o.currency,
      },
      now,
    );
    await postEntry(
      db,
      {
        kind: 'sale_earnings',
        reference: `order:${o.id}`,
        description: `Sale ${o.booking_no} completed`,
        lines: [
          { accountId: clearing, currency: o.currency, amount: -amount },
          { accountId: earnings, currency: o.currency, amount },
        ],
      },
      now,
    );
  }
}
