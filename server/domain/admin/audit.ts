import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';

export type AdminAuditAction = components['schemas']['AdminAuditAction'];
export type AdminAuditEntry = components['schemas']['AdminAuditEntry'];

/** The operator who acted: the caller of a back-office operation. */
export interface Operator {
  id: number;
  email: string;
}

/** What an action was done to, and the money it was about (credited, sent, refunded or refused; none for KYC). */
export interface AuditedRecord {
  type:
    | 'deposit'
    | 'payout'
    | 'kyc'
    | 'event_request'
    | 'erasure'
    | 'order'
    | 'price_cap'
    | 'bank_statement'
    | 'bank_line'
    | 'event'
    | 'dispute';
  id: number;
  amount?: { minor: number; currency: string } | null;
  /** The reason given, when one was. */
  detail?: string | null;
}

/**
 * Writes one row of the back office's audit log. Called with the action's own transaction (the operations are
 * `x-transaction`), so that the row and the change it tells of commit together or not at all. The table refuses
 * updates and deletes (migration 0043).
 */
export async function recordAdminAction(
  db: Db,
  operator: Operator,
  action: AdminAuditAction,
  record: AuditedRecord,
  now: Date,
): Promise<void> {
  await db
    .insertInto('admin_audit_log')
    .values({
      created_at: now.toISOString(),
      actor_id: operator.id,
      actor_email: operator.email,
      action,
      record_type: record.type,
      record_id: record.id,
      amount: record.amount?.minor ?? null,
      currency: record.amount?.currency ?? null,
      detail: record.detail ?? null,
    })
    .execute();
}

export interface AuditFilter {
  action?: AdminAuditAction;
  operator?: string;
  /** 'YYYY-MM-DD', inclusive (UTC). */
  dateFrom?: string;
  dateTo?: string;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

/** A page of the log, newest first, with the filter's total. */
export async function auditLogPage(
  db: Db,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ entries: AdminAuditEntry[]; total: number }> {
  let q = db.selectFrom('admin_audit_log');
  if (filter.action) q = q.where('action', '=', filter.action);
  if (filter.operator) q = q.where((eb) => eb(eb.fn('lower', ['actor_email']), '=', filter.operator?.toLowerCase()));
  if (filter.dateFrom) q = q.where('created_at', '>=', `${filter.dateFrom}T00:00:00.000Z`);
  if (filter.dateTo) q = q.where('created_at', '<', nextDay(filter.dateTo));
  const rows = await q
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return {
    entries: rows.map((r) => ({
      id: r.id,
      created_at: r.created_at,
      operator_id: r.actor_id,
      operator_email: r.actor_email,
      action: r.action as AdminAuditAction,
      record_type: r.record_type,
      record_id: r.record_id,
      amount: r.amount === null ? null : Number(r.amount),
      currency: r.currency,
      detail: r.detail,
    })),
    total: Number(total.n),
  };
}
