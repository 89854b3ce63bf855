import type { Kysely } from 'kysely';
import { autoId } from './columns';

/**
 * The seller API (server/domain/seller-api/):
 *
 * - `api_tokens`: a seller's tokens for other systems, each with its scopes (a comma list of listings, sales,
 *   delivery), its expiry, revocation and last use; only the SHA-256 of a token is stored.
 * - `listing_holds`: seats of a listing reserved by another sales channel for a few minutes. A hold takes them
 *   from the listing's `available` as a cart does; it ends released (given back, once), expired (given back by
 *   the housekeeping, once) or sold (kept off sale for good).
 * - `webhook_endpoints`, `webhook_deliveries`, `webhook_attempts`: the seller's receivers and the events they
 *   chose, the outbox of deliveries and each attempt of one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_hint', 'varchar(8)', (c) => c.notNull())
    .addColumn('scopes', 'varchar(40)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .addColumn('last_used_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('api_tokens_seller').on('api_tokens').columns(['seller_id', 'id']).execute();

  await db.schema
    .createTable('listing_holds')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('reference', 'varchar(100)')
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('listing_holds_state').on('listing_holds').columns(['state', 'expires_at']).execute();
  await db.schema.createIndex('listing_holds_seller').on('listing_holds').columns(['seller_id', 'id']).execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    .addColumn('secret', 'varchar(80)', (c) => c.notNull())
    .addColumn('events', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('removed_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('webhook_endpoints_seller').on('webhook_endpoints').columns(['seller_id']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('seller_id', 'integer', (c) => c.notNull())
    .addColumn('event_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'varchar(32)')
    .addColumn('claimed_until', 'varchar(32)')
    .addColumn('delivered_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_seller')
    .on('webhook_deliveries')
    .columns(['seller_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('delivery_id', 'integer', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('attempted_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'varchar(300)')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id']).execute();
}
