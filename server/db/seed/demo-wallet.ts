import type { Clock } from '../../clock';
import { decideDeposit, submitDeposit } from '../../domain/wallet';
import type { Db } from '../database';

const HOUR = 60 * 60 * 1000;

/** A demo wallet history, oldest first: each deposit's submission, and its decision hours later (if any). */
export const DEMO_WALLETS = {
  seller: [
    { hoursAgo: 24 * 20, amount: 50_000, currency: 'GBP', method: 'ONLINE', decision: 'approve', after: 5 },
    { hoursAgo: 24 * 9, amount: 25_000, currency: 'EUR', method: 'CHEQUE', decision: 'approve', after: 20 },
    { hoursAgo: 24 * 4, amount: 7_500, currency: 'GBP', method: 'CASH', decision: 'reject', after: 3 },
    { hoursAgo: 24 * 2, amount: 12_000, currency: 'GBP', method: 'ONLINE', decision: 'approve', after: 2 },
    { hoursAgo: 3, amount: 10_000, currency: 'GBP', method: 'ONLINE', decision: null, after: 0 },
  ],
  rival: [
    { hoursAgo: 24 * 6, amount: 30_000, currency: 'GBP', method: 'ONLINE', decision: 'approve', after: 4 },
    { hoursAgo: 24 * 3, amount: 4_000, currency: 'USD', method: 'ONLINE', decision: 'approve', after: 6 },
    { hoursAgo: 5, amount: 8_000, currency: 'GBP', method: 'CASH', decision: null, after: 0 },
  ],
} as const;

/**
 * Writes one account's demo deposits through the wallet's own functions (the ledger posts the approvals), in the
 * caller's transaction: a few approved, one rejected with its reason, one pending admin approval.
 */
export async function seedDemoWallet(
  trx: Db,
  clock: Clock,
  sellerId: number,
  adminId: number,
  deposits: (typeof DEMO_WALLETS)[keyof typeof DEMO_WALLETS],
) {
  const now = clock.now().getTime();
  for (const d of deposits) {
    const at = new Date(now - d.hoursAgo * HOUR);
    const deposit = await submitDeposit(
      trx,
      {
        sellerId,
        submittedBy: sellerId,
        amount: d.amount,
        currency: d.currency,
        method: d.method,
        notes: d.method === 'ONLINE' ? 'Bank transfer with the reference' : null,
        proofFileId: null,
      },
      at,
    );
    if (d.decision === null) continue;
    const decidedAt = new Date(at.getTime() + d.after * HOUR);
    await decideDeposit(
      trx,
      deposit.deposit_id,
      adminId,
      d.decision === 'approve'
        ? { kind: 'approve' }
        : { kind: 'reject', reason: 'The transfer did not arrive. Please send the receipt of the payment.' },
      decidedAt,
    );
  }
}
