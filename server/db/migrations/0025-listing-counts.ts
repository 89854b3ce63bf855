import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';

const add = (
  o: 'NEW',
) => `INSERT INTO listing_counts (seller_id, status, listings) VALUES (${o}.seller_id, ${o}.status, 1)
      ON CONFLICT (seller_id, status) DO UPDATE SET listings = listing_counts.listings + 1;`;
const take = `UPDATE listing_counts SET listings = listings - 1 WHERE seller_id = OLD.seller_id AND status = OLD.status;`;

/** The Postgres function that keeps `listing_counts` on an update or delete; `first` runs before it changes anything. */
export const postgresCountFunction = (first = '') => `CREATE OR REPLACE FUNCTION listings_count() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN${first}
      ${take}
      IF TG_OP = 'UPDATE' THEN
        ${add('NEW')}
      END IF;
      RETURN NULL;
    END $$`;

/** The Postgres function that adds a statement's inserted listings to `listing_counts`, in `order` if given. */
export const postgresInsertedCountFunction = (order = '') => `CREATE OR REPLACE FUNCTION listings_count_inserted()
    RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO listing_counts (seller_id, status, listings)
        SELECT seller_id, status, COUNT(*) FROM inserted GROUP BY seller_id, status${order}
        ON CONFLICT (seller_id, status) DO UPDATE SET listings = listing_counts.listings + excluded.listings;
      RETURN NULL;
    END $$`;

/**
 * Inventory's kept count (issue 11): per seller and listing status, how many listings there are, so that the
 * first page of Inventory (and a page filtered by status only) says its total without counting the seller's
 * listings on every read: 10,000 index entries a request for a big seller, as much as the page itself cost
 * (`EXPLAIN QUERY PLAN`: SEARCH listings USING COVERING INDEX listings_seller_status).
 *
 * Triggers on `listings` keep it on both engines, in the writer's own transaction, whatever writes a listing
 * (Add Inventory, a bulk upload, the seed, a deletion, a publish or unpublish): an insert adds one to its
 * (seller, status) row (on Postgres once per statement, from its transition table), a delete takes one away, an
 * update that changes the seller or the status moves one.
 * The purchase changes `available` only, which fires none of them. A deleted listing is counted under
 * `deleted`; the list's total is the sum of the other statuses.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('listing_counts')
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('listings', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('listing_counts_pk', ['seller_id', 'status'])
    .execute();
  await sql`INSERT INTO listing_counts (seller_id, status, listings)
    SELECT seller_id, status, COUNT(*) FROM listings GROUP BY seller_id, status`.execute(db);
  if (engineOf(db) === 'postgres') {
    await sql.raw(postgresCountFunction()).execute(db);
    // inserts once per statement, from its transition table: a bulk upload's 200-row statements add to the
    // seller's row 25 times for 5,000 listings, not 5,000 times (each a new version of that row on Postgres)
    await sql.raw(postgresInsertedCountFunction()).execute(db);
    await sql`CREATE TRIGGER listings_count_insert AFTER INSERT ON listings REFERENCING NEW TABLE AS inserted
      FOR EACH STATEMENT EXECUTE FUNCTION listings_count_inserted()`.execute(db);
    await sql`CREATE TRIGGER listings_count_update AFTER UPDATE OF seller_id, status ON listings
      FOR EACH ROW WHEN (OLD.seller_id IS DISTINCT FROM NEW.seller_id OR OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION listings_count()`.execute(db);
    await sql`CREATE TRIGGER listings_count_delete AFTER DELETE ON listings
      FOR EACH ROW EXECUTE FUNCTION listings_count()`.execute(db);
    return;
  }
  await sql.raw(`CREATE TRIGGER listings_count_insert AFTER INSERT ON listings BEGIN ${add('NEW')} END`).execute(db);
  await sql
    .raw(`CREATE TRIGGER listings_count_update AFTER UPDATE OF seller_id, status ON listings
    WHEN OLD.seller_id <> NEW.seller_id OR OLD.status <> NEW.status BEGIN ${take} ${add('NEW')} END`)
    .execute(db);
  await sql.raw(`CREATE TRIGGER listings_count_delete AFTER DELETE ON listings BEGIN ${take} END`).execute(db);
}
