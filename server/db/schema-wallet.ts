import type { ColumnType, Generated } from 'kysely';

// The money's tables (server/domain/ledger.ts, wallet.ts, payouts.ts): the double-entry ledger, top-ups, bank
// accounts and payouts. A part of server/db/schema.ts's Database.

/**
 * An account of the double-entry ledger (server/domain/ledger.ts): a user's SB Pay wallet in one currency
 * (`wallet`), the platform's bank account in one currency (`platform_bank`)... Its balance changes only by
 * the conditional updates of `postEntry`, in the transaction that writes the entry's lines.
 */
export interface LedgerAccountTable {
  id: Generated<number>;
  /** 'wallet:12:GBP', 'platform_bank:GBP': one account per key. */
  account_key: string;
  kind: string;
  owner_id: number | null;
  currency: string;
  /** 1 for the platform's own accounts; 0 (a wallet): the balance never goes below zero. */
  allow_negative: ColumnType<number, number | undefined, number>;
  /** minor units of `currency`, the sum of the account's lines */
  balance: ColumnType<number, number | undefined, number>;
  created_at: string;
}

/** One posting: unique by (kind, reference), so a business event is posted once. */
export interface LedgerEntryTable {
  id: Generated<number>;
  /** 'deposit', 'purchase'... */
  kind: string;
  /** what it posts, e.g. the deposit's id */
  reference: string;
  description: string;
  created_at: string;
}

/** A line of an entry: a signed amount on one account; an entry's lines sum to zero per currency. */
export interface LedgerLineTable {
  id: Generated<number>;
  entry_id: number;
  account_id: number;
  currency: string;
  amount: number;
  /** the account's balance just after this line */
  balance_after: number;
  created_at: string;
}

export type DepositStatus = 'pending' | 'approved' | 'rejected';
export type PaymentTransferBy = 'ONLINE' | 'CASH' | 'CHEQUE';

/** A top-up request: pending until an admin approves it (the ledger credits the wallet) or rejects it. */
export interface DepositTable {
  id: Generated<number>;
  /** the seller whose wallet it tops up (a team member's deposit is its seller's) */
  user_id: number;
  submitted_by: number;
  amount: number;
  currency: string;
  payment_transfer_by: PaymentTransferBy;
  notes: string | null;
  /** the top-up reference of the wallet, as it was when the request was made */
  reference: string;
  proof_file_id: string | null;
  status: DepositStatus;
  rejection_reason: string | null;
  decided_by: number | null;
  decided_at: string | null;
  ledger_entry_id: number | null;
  created_at: string;
  updated_at: string;
}

/** A seller's payout bank account (migration 0018): IBAN and BIC normalised; removed ones keep their row. */
export interface BankAccountTable {
  id: Generated<number>;
  seller_id: number;
  holder_name: string;
  iban: string;
  bic: string;
  /** 1: the account payouts go to (one per seller) */
  is_default: ColumnType<number, number | undefined, number>;
  created_by: number | null;
  created_at: string;
  deleted_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export type PayoutStatus = 'requested' | 'sent' | 'failed';

/** A payout (migration 0018): requested (in flight), then sent or failed by the back office. */
export interface PayoutTable {
  id: Generated<number>;
  seller_id: number;
  requested_by: number | null;
  bank_account_id: number;
  currency: string;
  /** minor units taken from the seller's earnings */
  amount: number;
  /** the payout fee, kept when sent */
  fee: number;
  /** amount - fee: what reaches the bank */
  net: number;
  status: PayoutStatus;
  failure_reason: ColumnType<string | null, string | null | undefined, string | null>;
  decided_by: ColumnType<number | null, number | null | undefined, number | null>;
  decided_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  updated_at: string;
}

/** How much of a completed order's earnings a payout covers (migration 0018). */
export interface PayoutOrderTable {
  payout_id: number;
  order_id: number;
  amount: number;
}
