import type { Kysely } from 'kysely';
import { autoId } from './columns';

/**
 * Seat and price alerts (server/domain/alerts/). A buyer's alert names an event, a quantity that sits together,
 * optionally a category and blocks, and an all-in price ceiling a ticket. Each time a listing fits one, a row of
 * `seat_alert_matches` records it: `held` with the cart that holds the seats for the buyer (a cart of 5 minutes,
 * released by the carts' own exactly-once machinery), or `waiting` with its place in the queue when an earlier
 * alert holds them. One row an alert and a listing (unique), so a buyer is told of a listing once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('seat_alerts')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('buyer_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('category', 'varchar(100)')
    .addColumn('blocks', 'varchar(500)')
    .addColumn('max_price', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('by_mail', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('seat_alerts_live').on('seat_alerts').columns(['state', 'event_id', 'id']).execute();
  await db.schema.createIndex('seat_alerts_buyer').on('seat_alerts').columns(['buyer_id', 'state', 'id']).execute();
  await db.schema
    .createTable('seat_alert_matches')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('alert_id', 'integer', (c) => c.notNull().references('seat_alerts.id'))
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('state', 'varchar(12)', (c) => c.notNull())
    .addColumn('unit_all_in', 'bigint', (c) => c.notNull())
    .addColumn('cart_id', 'integer', (c) => c.references('carts.id'))
    .addColumn('matched_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('held_at', 'varchar(32)')
    .execute();
  await db.schema
    .createIndex('seat_alert_matches_pair')
    .on('seat_alert_matches')
    .columns(['alert_id', 'listing_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('seat_alert_matches_listing')
    .on('seat_alert_matches')
    .columns(['listing_id', 'state', 'id'])
    .execute();
}
