import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';
import { autoId } from './columns';

/**
 * Inventory (issue 11): what a seller needs to list, watch and change tickets.
 *
 * - `listings` gains its status (published: its unsold tickets are on sale; unpublished: kept off sale; deleted:
 *   gone from Inventory, rows kept for the sales and the log), `withheld` (the unsold tickets kept off sale while
 *   not published), the optional seats, face value, restrictions (a comma list) and notes, and `updated_at`.
 *   The trade search and the purchase read only `available`: a listing that is not published keeps `available`
 *   at 0. A trigger keeps it so whatever writes the row: when a buyer's hold on an unpublished listing ends and
 *   the purchase gives the tickets back to `available`, they move on to `withheld` in the same statement (SQLite:
 *   an AFTER trigger; Postgres: a BEFORE trigger on the row). So quantity = available + withheld + held + sold.
 * - `listing_logs`: one row per change (who, what, field, old and new value as text, when).
 * - `listing_files`: the ticket files of a listing (rows of `files`, stored by the upload pipeline).
 * - `event_requests`: a seller's request for a match not in the catalogue, with its status.
 * - `field_settings`: a user's column choices per page (JSON), e.g. Inventory's table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .alterTable('listings')
    .addColumn('status', 'varchar(16)', (c) =>
      c.notNull().defaultTo('published').check(sql`status IN ('published', 'unpublished', 'deleted')`),
    )
    .execute();
  await db.schema
    .alterTable('listings')
    .addColumn('withheld', 'integer', (c) => c.notNull().defaultTo(0).check(sql`withheld >= 0`))
    .execute();
  await db.schema.alterTable('listings').addColumn('seats', 'varchar(100)').execute();
  await db.schema.alterTable('listings').addColumn('face_value', 'integer').execute();
  await db.schema
    .alterTable('listings')
    .addColumn('restrictions', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('listings').addColumn('notes', 'text').execute();
  await db.schema.alterTable('listings').addColumn('updated_at', 'varchar(32)').execute();
  await sql`UPDATE listings SET updated_at = created_at`.execute(db);
  // Inventory: a seller's listings by status (the list read, its filters and counts)
  await db.schema
    .createIndex('listings_seller_status')
    .on('listings')
    .columns(['seller_id', 'status', 'event_id'])
    .execute();

  if (engineOf(db) === 'postgres') {
    await sql
      .raw(`CREATE FUNCTION listings_off_sale() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status <> 'published' AND NEW.available > 0 THEN
          NEW.withheld := NEW.withheld + NEW.available;
          NEW.available := 0;
        END IF;
        RETURN NEW;
      END $$`)
      .execute(db);
    await sql`CREATE TRIGGER listings_off_sale BEFORE INSERT OR UPDATE ON listings
      FOR EACH ROW EXECUTE FUNCTION listings_off_sale()`.execute(db);
  } else {
    for (const event of ['INSERT', 'UPDATE OF available, status']) {
      const name = event === 'INSERT' ? 'listings_off_sale_insert' : 'listings_off_sale_update';
      await sql
        .raw(`CREATE TRIGGER ${name} AFTER ${event} ON listings
        WHEN NEW.status <> 'published' AND NEW.available > 0 BEGIN
          UPDATE listings SET withheld = withheld + NEW.available, available = 0 WHERE id = NEW.id;
        END`)
        .execute(db);
    }
  }

  await db.schema
    .createTable('listing_logs')
    .addColumn('id', 'integer', id)
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('action', 'varchar(24)', (c) => c.notNull())
    .addColumn('field', 'varchar(32)')
    .addColumn('old_value', 'text')
    .addColumn('new_value', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint(
      'listing_logs_action',
      sql`action IN ('created', 'updated', 'price_changed', 'published', 'unpublished', 'deleted', 'files_uploaded')`,
    )
    .execute();
  await db.schema
    .createIndex('listing_logs_listing')
    .on('listing_logs')
    .columns(['listing_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('listing_logs_seller')
    .on('listing_logs')
    .columns(['seller_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('listing_files')
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull().references('files.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('listing_files_pk', ['listing_id', 'file_id'])
    .execute();

  await db.schema
    .createTable('event_requests')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('match_name', 'varchar(150)', (c) => c.notNull())
    .addColumn('home_team', 'varchar(100)')
    .addColumn('away_team', 'varchar(100)')
    .addColumn('tournament', 'varchar(100)')
    .addColumn('match_date', 'varchar(10)', (c) => c.notNull())
    .addColumn('match_time', 'varchar(5)')
    .addColumn('stadium_name', 'varchar(150)', (c) => c.notNull())
    .addColumn('city_name', 'varchar(100)')
    .addColumn('notes', 'varchar(500)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('status_reason', 'varchar(300)')
    .addColumn('event_id', 'integer', (c) => c.references('events.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('event_requests_status', sql`status IN ('pending', 'approved', 'rejected')`)
    .execute();
  await db.schema
    .createIndex('event_requests_seller')
    .on('event_requests')
    .columns(['seller_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('field_settings')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('page', 'varchar(50)', (c) => c.notNull())
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('field_settings_pk', ['user_id', 'page'])
    .execute();
}
