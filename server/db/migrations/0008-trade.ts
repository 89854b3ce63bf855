import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * Trade and purchase (issue 9): what a buyer needs to search, hold, book and pay for tickets of other sellers.
 *
 * - `listings.available`: the tickets a buyer can still take. A cart takes its quantity from it at once by one
 *   conditional update (`available >= quantity`), so two buyers never hold the same ticket; an ended hold gives it
 *   back exactly once (the cart's `hold_state` moves from holding by a conditional update too). `split_type` says
 *   which quantities one purchase may take. `events.guest_fields`: the guest details an event requires (a comma
 *   list of field names, empty for none).
 * - `carts`: a hold of `quantity` tickets of a listing until `expires_at` (15 minutes); `bookings`: one per cart
 *   (unique), pending while guests and payment are given, then confirmed, failed, expired or cancelled with a
 *   reason; `payments`: each attempt at a gateway (an intent, a stored-card charge, the SB Pay debit), unique by
 *   (gateway, reference); `sandbox_intents`: the sandbox gateway's own payment intents (a real adapter whose state
 *   lives here); `webhook_events`: gateway events by id, so a repeated event is seen once.
 * - `addresses` (the primary one unique per owner by a partial index), `stored_cards`, `recently_viewed`,
 *   `trade_tracking`.
 *
 * Money: integers of minor units beside their currency; bigint where a total of many could pass 2^31.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  // SQLite adds a column with a constant default and its CHECK in place; Postgres the same
  await db.schema
    .alterTable('listings')
    .addColumn('available', 'integer', (c) => c.notNull().defaultTo(0).check(sql`available >= 0`))
    .execute();
  await db.schema
    .alterTable('listings')
    .addColumn('split_type', 'varchar(16)', (c) => c.notNull().defaultTo('any'))
    .execute();
  await sql`UPDATE listings SET available = quantity`.execute(db);
  // the event page: a match's listings with tickets left, the seller to leave out, the price to sort by
  await db.schema
    .createIndex('listings_event_available')
    .on('listings')
    .columns(['event_id', 'available', 'seller_id', 'price'])
    .execute();
  await db.schema
    .alterTable('events')
    .addColumn('guest_fields', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('carts')
    .addColumn('id', 'integer', id)
    .addColumn('buyer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('unit_price', 'integer', (c) => c.notNull())
    .addColumn('payment_method', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('hold_state', 'varchar(16)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('carts_quantity', sql`quantity > 0`)
    .addCheckConstraint('carts_status', sql`status IN ('held', 'booked', 'expired', 'released')`)
    .addCheckConstraint('carts_hold_state', sql`hold_state IN ('holding', 'released', 'sold')`)
    .addCheckConstraint('carts_payment_method', sql`payment_method IN (1, 2, 3)`)
    .execute();
  // the holds that have ended and still hold tickets (housekeeping, and the lazy release on reads)
  await db.schema.createIndex('carts_holding').on('carts').columns(['hold_state', 'expires_at']).execute();
  await db.schema.createIndex('carts_listing').on('carts').column('listing_id').execute();
  await db.schema.createIndex('carts_buyer').on('carts').column('buyer_id').execute();

  await db.schema
    .createTable('bookings')
    .addColumn('id', 'integer', id)
    .addColumn('booking_no', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('cart_id', 'integer', (c) => c.notNull().unique().references('carts.id'))
    .addColumn('buyer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('unit_price', 'integer', (c) => c.notNull())
    .addColumn('payment_method', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('status_reason', 'varchar(300)')
    .addColumn('billing', 'text', (c) => c.notNull())
    .addColumn('guest_fields', 'varchar(300)', (c) => c.notNull())
    .addColumn('attendees', 'text', (c) => c.notNull())
    .addColumn('guests_complete', 'integer', (c) => c.notNull())
    .addColumn('order_id', 'integer', (c) => c.references('orders.id'))
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('confirmed_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('bookings_status', sql`status IN ('pending', 'confirmed', 'failed', 'expired', 'cancelled')`)
    .addCheckConstraint('bookings_payment_method', sql`payment_method IN (1, 2, 3)`)
    .execute();
  await db.schema
    .createIndex('bookings_buyer_created')
    .on('bookings')
    .columns(['buyer_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('bookings_buyer_status').on('bookings').columns(['buyer_id', 'status']).execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'integer', id)
    .addColumn('booking_id', 'integer', (c) => c.notNull().references('bookings.id'))
    .addColumn('buyer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('payment_method', 'integer', (c) => c.notNull())
    .addColumn('gateway', 'varchar(16)', (c) => c.notNull())
    .addColumn('reference', 'varchar(255)', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('status', 'varchar(24)', (c) => c.notNull())
    .addColumn('failure_reason', 'varchar(300)')
    .addColumn('refunded_amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('payments_reference', ['gateway', 'reference'])
    .addCheckConstraint(
      'payments_status',
      sql`status IN ('requires_payment_method', 'succeeded', 'failed', 'refunded')`,
    )
    .execute();
  await db.schema.createIndex('payments_booking').on('payments').column('booking_id').execute();

  await db.schema
    .createTable('sandbox_intents')
    .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('client_secret', 'varchar(80)', (c) => c.notNull().unique())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('idempotency_key', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_error', 'varchar(64)')
    .addColumn('refunded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_events')
    .addColumn('event_id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('gateway', 'varchar(16)', (c) => c.notNull())
    .addColumn('type', 'varchar(100)', (c) => c.notNull())
    .addColumn('outcome', 'varchar(64)', (c) => c.notNull())
    .addColumn('received_at', 'varchar(32)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('addresses')
    .addColumn('id', 'integer', id)
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('first_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('country_code', 'varchar(10)')
    .addColumn('mobile_number', 'varchar(30)')
    .addColumn('country_id', 'integer', (c) => c.notNull().references('countries.id'))
    .addColumn('city_id', 'integer', (c) => c.references('cities.id'))
    .addColumn('address', 'varchar(300)', (c) => c.notNull())
    .addColumn('zip_code', 'varchar(20)', (c) => c.notNull())
    .addColumn('address_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('primary_address', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('addresses_primary', sql`primary_address IN (0, 1)`)
    .execute();
  await db.schema.createIndex('addresses_owner').on('addresses').column('owner_id').execute();
  // at most one primary address per owner
  await db.schema
    .createIndex('addresses_one_primary')
    .on('addresses')
    .column('owner_id')
    .unique()
    .where(sql.ref('primary_address'), '=', 1)
    .execute();

  await db.schema
    .createTable('stored_cards')
    .addColumn('id', 'integer', id)
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('gateway', 'varchar(16)', (c) => c.notNull())
    .addColumn('brand', 'varchar(20)', (c) => c.notNull())
    .addColumn('variant', 'varchar(20)', (c) => c.notNull())
    .addColumn('last4', 'varchar(4)', (c) => c.notNull())
    .addColumn('exp_month', 'integer', (c) => c.notNull())
    .addColumn('exp_year', 'integer', (c) => c.notNull())
    .addColumn('holder_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('recurring_reference', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('stored_cards_reference', ['owner_id', 'recurring_reference'])
    .execute();

  await db.schema
    .createTable('recently_viewed')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
    .addColumn('viewed_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('recently_viewed_pk', ['user_id', 'event_id'])
    .execute();
  await db.schema
    .createIndex('recently_viewed_latest')
    .on('recently_viewed')
    .columns(['user_id', 'viewed_at'])
    .execute();

  await db.schema
    .createTable('trade_tracking')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('step', 'varchar(32)', (c) => c.notNull())
    .addColumn('event_id', 'integer', (c) => c.references('events.id'))
    .addColumn('booking_id', 'integer', (c) => c.references('bookings.id'))
    .addColumn('detail', 'varchar(200)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('trade_tracking_user_created')
    .on('trade_tracking')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
}
