import { table } from './expected-columns';
import type { Database } from './schema';

// The back office's tables as schema.test.ts expects them (checked by the compiler against schema-admin.ts).

type AdminTable = 'erasure_requests' | 'admin_audit_log' | 'bank_statements' | 'bank_statement_lines';

export const ADMIN_TABLES: { [T in AdminTable]: { columns: string[]; nullable: string[] } } = {
  erasure_requests: table<Database['erasure_requests']>()(
    ['id', 'seller_id', 'status', 'requested_at', 'rejection_reason', 'decided_by', 'decided_at'],
    ['rejection_reason', 'decided_by', 'decided_at'],
  ),
  admin_audit_log: table<Database['admin_audit_log']>()(
    [
      'id',
      'created_at',
      'actor_id',
      'actor_email',
      'action',
      'record_type',
      'record_id',
      'amount',
      'currency',
      'detail',
    ],
    ['amount', 'currency', 'detail'],
  ),
  bank_statements: table<Database['bank_statements']>()(
    ['id', 'file_id', 'format', 'imported_by', 'imported_at', 'lines_total', 'credited', 'to_review'],
    [],
  ),
  bank_statement_lines: table<Database['bank_statement_lines']>()(
    [
      'id',
      'statement_id',
      'line_key',
      'booked_on',
      'amount',
      'currency',
      'text',
      'payer',
      'bank_reference',
      'status',
      'reason',
      'seller_id',
      'deposit_id',
      'decided_by',
      'decided_at',
      'created_at',
    ],
    ['payer', 'bank_reference', 'reason', 'seller_id', 'deposit_id', 'decided_by', 'decided_at'],
  ),
};
