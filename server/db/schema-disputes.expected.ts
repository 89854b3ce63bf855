import { table } from './expected-columns';
import type { Database } from './schema';

// The proof vault's and the claims' tables as schema.test.ts expects them (checked against schema-disputes.ts).

type DisputeTable = 'delivery_proofs' | 'order_disputes';

export const DISPUTE_TABLES: { [T in DisputeTable]: { columns: string[]; nullable: string[] } } = {
  delivery_proofs: table<Database['delivery_proofs']>()(
    [
      'id',
      'order_id',
      'kind',
      'ticket_nos',
      'file_id',
      'sha256',
      'pages',
      'reference',
      'user_id',
      'source',
      'recorded_at',
    ],
    ['ticket_nos', 'file_id', 'sha256', 'pages', 'reference', 'user_id'],
  ),
  order_disputes: table<Database['order_disputes']>()(
    [
      'id',
      'order_id',
      'buyer_id',
      'seller_id',
      'reason',
      'description',
      'status',
      'opened_at',
      'resolved_at',
      'resolved_by',
      'resolution_note',
    ],
    ['resolved_at', 'resolved_by', 'resolution_note'],
  ),
};
