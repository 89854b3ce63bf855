import type { Generated } from 'kysely';

// The seller API's tables (migration 0050; server/domain/seller-api/).

/** A seller's API token: only its SHA-256 is kept; `scopes` is a comma list of listings, sales, delivery. */
export interface ApiTokenTable {
  id: Generated<number>;
  seller_id: number;
  name: string;
  token_hash: string;
  /** the token's last four characters, to tell tokens apart in the list */
  token_hint: string;
  scopes: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** written at most once a minute */
  last_used_at: string | null;
}

/** Seats of a listing reserved by another sales channel: holding, then released, expired or sold. */
export interface ListingHoldTable {
  id: Generated<number>;
  seller_id: number;
  listing_id: number;
  quantity: number;
  /** the other channel's own reference for the hold, if it gave one */
  reference: string | null;
  state: 'holding' | 'released' | 'expired' | 'sold';
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** A seller's webhook receiver: its URL, its signing secret and the events it chose (a comma list). */
export interface WebhookEndpointTable {
  id: Generated<number>;
  seller_id: number;
  url: string;
  secret: string;
  events: string;
  created_at: string;
  removed_at: string | null;
}

/** One event for one receiver (the outbox): pending until delivered, or failed after its last attempt. */
export interface WebhookDeliveryTable {
  id: Generated<number>;
  endpoint_id: number;
  seller_id: number;
  event_type: string;
  /** the JSON body sent, byte for byte what is signed */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: string | null;
  /** a sender working on it until then (another process leaves it alone) */
  claimed_until: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** One try of a delivery: the receiver's status code, or why there was none. */
export interface WebhookAttemptTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}
