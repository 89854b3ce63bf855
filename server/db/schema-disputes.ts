import type { ColumnType, Generated } from 'kysely';

/** The proof vault and the buyers' claims (migration 0051; docs/decisions/disputes.md): see server/db/schema.ts. */

/**
 * What a delivery leaves behind, written in the delivery's own transaction and never changed: a PDF's sha256 and
 * pages, a wallet pass, a transfer link and the buyer's acceptance of it, a courier's reference, each download of
 * the tickets by the buyer. `source` is 'backfill' for what migration 0051 derived for orders delivered before it.
 */
export interface DeliveryProofTable {
  id: Generated<number>;
  order_id: number;
  /** pdf, pdf_page, wallet_pass, transfer_link, courier, collection, transfer_accepted, download, order_log */
  kind: string;
  /** The tickets it concerns ('1,2'); null when it is about the whole order (a download, an acceptance). */
  ticket_nos: string | null;
  file_id: string | null;
  sha256: string | null;
  pages: number | null;
  /** The transfer link, or the courier and its tracking number, or what the log said. */
  reference: string | null;
  user_id: number | null;
  source: ColumnType<string, string | undefined, string>;
  recorded_at: string;
}

/** A buyer's claim on an order: one an order; open until the back office resolves it. */
export interface OrderDisputeTable {
  id: Generated<number>;
  order_id: number;
  buyer_id: number;
  seller_id: number;
  /** not_received, wrong_tickets, denied_entry */
  reason: string;
  description: string;
  /** open, refunded, replaced, rejected */
  status: string;
  opened_at: string;
  resolved_at: string | null;
  resolved_by: number | null;
  resolution_note: string | null;
}
