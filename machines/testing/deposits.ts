import type { WalletDeposit } from '../wallet.machine';

/** A deposit request as the server answers it: pending admin approval, sent without a proof, unless changed. */
export const depositRow = (changes: Partial<WalletDeposit> = {}): WalletDeposit => ({
  deposit_id: 7,
  amount: 5_000,
  currency: 'GBP',
  payment_transfer_by: 'ONLINE',
  notes: null,
  reference: 'SBP000001-23',
  status: 'pending',
  status_label: 'pending admin approval',
  rejection_reason: null,
  proof: null,
  created_at: '2026-11-23T08:00:00.000Z',
  expected_by: '2026-11-24T08:00:00.000Z',
  decided_at: null,
  ...changes,
});
