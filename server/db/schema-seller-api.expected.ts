import { table } from './expected-columns';
import type { Database } from './schema';

// The seller API's tables as schema.test.ts expects them (checked by the compiler against schema-seller-api.ts).

type SellerApiTable = 'api_tokens' | 'listing_holds' | 'webhook_endpoints' | 'webhook_deliveries' | 'webhook_attempts';

export const SELLER_API_TABLES: { [T in SellerApiTable]: { columns: string[]; nullable: string[] } } = {
  api_tokens: table<Database['api_tokens']>()(
    [
      'id',
      'seller_id',
      'name',
      'token_hash',
      'token_hint',
      'scopes',
      'created_at',
      'expires_at',
      'revoked_at',
      'last_used_at',
    ],
    ['revoked_at', 'last_used_at'],
  ),
  listing_holds: table<Database['listing_holds']>()(
    ['id', 'seller_id', 'listing_id', 'quantity', 'reference', 'state', 'expires_at', 'created_at', 'updated_at'],
    ['reference'],
  ),
  webhook_endpoints: table<Database['webhook_endpoints']>()(
    ['id', 'seller_id', 'url', 'secret', 'events', 'created_at', 'removed_at'],
    ['removed_at'],
  ),
  webhook_deliveries: table<Database['webhook_deliveries']>()(
    [
      'id',
      'endpoint_id',
      'seller_id',
      'event_type',
      'payload',
      'status',
      'attempts',
      'next_attempt_at',
      'claimed_until',
      'delivered_at',
      'created_at',
    ],
    ['next_attempt_at', 'claimed_until', 'delivered_at'],
  ),
  webhook_attempts: table<Database['webhook_attempts']>()(
    ['id', 'delivery_id', 'attempted_at', 'status_code', 'error', 'duration_ms'],
    ['status_code', 'error'],
  ),
};
