import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * Settings' last four pages (issue 13, item 3): Referrals, Seller Contacts, Partner Settings, Request a Feature.
 *
 * - `referral_codes`: one code per seller (made on first asking), unique; a sign-up with it records a referral.
 * - `referrals`: who signed up with whose code (a person is referred at most once). What a referral earns is
 *   worked out from the referred person's bookings as they are (server/domain/referrals.ts), never stored.
 * - `seller_contacts`: the people of SB Portal a seller can reach; `seller_id` null is a default shown to every
 *   seller that has none of its own.
 * - `partner_settings`: a seller's partner (API and affiliate) settings, one row once saved.
 * - `feature_requests`: what users asked for, with who and for which seller.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .createTable('referral_codes')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('code', 'varchar(8)', (c) => c.notNull().unique())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('referrals')
    .addColumn('id', 'integer', id)
    .addColumn('referrer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('referred_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('referrals_not_self', sql`referrer_id <> referred_id`)
    .execute();
  await db.schema
    .createIndex('referrals_referrer')
    .on('referrals')
    .columns(['referrer_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('seller_contacts')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('role', 'varchar(100)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('phone', 'varchar(30)')
    .addColumn('hours', 'varchar(100)')
    .execute();
  await db.schema
    .createIndex('seller_contacts_seller')
    .on('seller_contacts')
    .columns(['seller_id', 'position', 'id'])
    .execute();
  await db.schema
    .createTable('partner_settings')
    .addColumn('seller_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('api_access', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('webhook_url', 'varchar(500)')
    .addColumn('notification_email', 'varchar(254)')
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('partner_settings_api_access', sql`api_access IN (0, 1)`)
    .execute();
  await db.schema
    .createTable('feature_requests')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(120)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('feature_requests_seller')
    .on('feature_requests')
    .columns(['seller_id', 'created_at'])
    .execute();
}
