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
