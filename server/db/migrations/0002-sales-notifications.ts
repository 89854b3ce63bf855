import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * Events, listings, orders and notifications: what the dashboard, the sales counts and the notifications panel
 * read. Money is an integer of minor units beside its currency; dates are ISO-8601 text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .createTable('events')
    .addColumn('id', 'integer', id)
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('home_team', 'varchar(100)', (c) => c.notNull())
    .addColumn('away_team', 'varchar(100)', (c) => c.notNull())
    .addColumn('tournament', 'varchar(100)', (c) => c.notNull())
    .addColumn('event_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('event_time', 'varchar(5)', (c) => c.notNull())
    .addColumn('stadium_name', 'varchar(150)', (c) => c.notNull())
    .addColumn('city_id', 'integer', (c) => c.notNull().references('cities.id'))
    .addColumn('country_id', 'integer', (c) => c.notNull().references('countries.id'))
    .execute();
  await db.schema.createIndex('events_date').on('events').columns(['event_date', 'event_time']).execute();
  await db.schema.createIndex('events_city').on('events').column('city_id').execute();
  await db.schema.createIndex('events_country').on('events').column('country_id').execute();

  await db.schema
    .createTable('listings')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
    .addColumn('category', 'varchar(100)', (c) => c.notNull())
    .addColumn('ticket_block', 'varchar(50)', (c) => c.notNull())
    .addColumn('row', 'varchar(20)', (c) => c.notNull())
    .addColumn('ticket_type_id', 'integer', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('listings_ticket_type', sql`ticket_type_id BETWEEN 1 AND 6`)
    .addCheckConstraint('listings_quantity', sql`quantity >= 0`)
    .addCheckConstraint('listings_price', sql`price >= 0`)
    .execute();
  await db.schema.createIndex('listings_seller').on('listings').column('seller_id').execute();
  await db.schema.createIndex('listings_event').on('listings').column('event_id').execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'integer', id)
    .addColumn('booking_no', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id'))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint(
      'orders_status',
      sql`status IN ('pending', 'confirmed', 'delivered', 'completed', 'cancelled', 'replaced')`,
    )
    .addCheckConstraint('orders_quantity', sql`quantity > 0`)
    .addCheckConstraint('orders_amount', sql`amount >= 0`)
    .execute();
  // the sales counts (seller, status) and every dashboard figure (seller, currency, status) read this index
  await db.schema
    .createIndex('orders_seller_currency_status')
    .on('orders')
    .columns(['seller_id', 'currency', 'status'])
    .execute();
  await db.schema.createIndex('orders_seller_status').on('orders').columns(['seller_id', 'status']).execute();
  await db.schema.createIndex('orders_listing').on('orders').column('listing_id').execute();
  await db.schema.createIndex('orders_event').on('orders').column('event_id').execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull())
    .addColumn('viewed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('notifications_viewed', sql`viewed IN (0, 1)`)
    .execute();
  // newest first, a page at a time
  await db.schema
    .createIndex('notifications_user_created')
    .on('notifications')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('notifications_user_viewed').on('notifications').columns(['user_id', 'viewed']).execute();

  // the demo data sets the seed has applied, each once (see server/db/seed)
  await db.schema
    .createTable('seed_fixtures')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('applied_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}
