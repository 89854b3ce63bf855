import type { Generated } from 'kysely';

// The tables of the back office's record: the erasure requests it decides and the log of every action it takes.

/** An account's request to be erased (migration 0037): only the account's id, never its name or address. */
export interface ErasureRequestTable {
  id: Generated<number>;
  seller_id: number;
  status: 'requested' | 'erased' | 'rejected';
  requested_at: string;
  rejection_reason: string | null;
  decided_by: number | null;
  decided_at: string | null;
}

/** One action of the back office (migration 0043): append-only, written in the action's own transaction. */
export interface AdminAuditLogTable {
  id: Generated<number>;
  created_at: string;
  actor_id: number;
  actor_email: string;
  /** What was done: `deposit.approved`, `payout.sent`, `order.cancelled`... (the contract's AdminAuditAction). */
  action: string;
  /** What it was done to: deposit, payout, kyc, event_request, erasure, order. */
  record_type: string;
  record_id: number;
  /** The money it moved, in minor units of `currency`; null for a decision that moved none. */
  amount: number | null;
  currency: string | null;
  /** The reason given, when one was. */
  detail: string | null;
}

/** A bank statement the back office imported (migration 0048); its file is a `files` row. */
export interface BankStatementTable {
  id: Generated<number>;
  file_id: string;
  format: 'camt053' | 'csv';
  imported_by: number;
  imported_at: string;
  lines_total: number;
  credited: number;
  to_review: number;
}

/** A credit line of an imported statement (migration 0048): once per `line_key`, at most one top-up each. */
export interface BankStatementLineTable {
  id: Generated<number>;
  statement_id: number;
  line_key: string;
  booked_on: string;
  /** What arrived, in minor units of `currency`. */
  amount: number;
  currency: string;
  text: string;
  payer: string | null;
  bank_reference: string | null;
  status: 'credited' | 'review' | 'matched' | 'dismissed';
  reason: string | null;
  seller_id: number | null;
  deposit_id: number | null;
  decided_by: number | null;
  decided_at: string | null;
  created_at: string;
}
