import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';

/**
 * The trade search's kept stock (issue 9): per event, listing currency and seller, the tickets on offer, the
 * listings that offer them and the lowest price, so that a page of search results reads a few rows an event (one
 * per seller listing there) instead of summing every listing of every event on it (about 1,700 listings an event
 * at 100,000 listings). Kept per seller because a buyer never sees its own listings: the search sums the other
 * sellers' rows, exactly, however many listings the buyer itself has (a big seller searching).
 *
 * A listing counts while `available > 0`. Triggers on `listings` keep `event_stock` in step on both engines, in
 * the writer's own transaction, whatever code writes the listing (the purchase, the inventory pages, a bulk
 * upload, the seed): an insert adds its share, a delete takes it away, an update takes the old share and adds the
 * new one. The lowest price is lowered by an insert or update at once; when the listing that held the lowest
 * price leaves (sold out, repriced up, deleted), it is read again through `listings_stock_price`, a partial index
 * on (event, currency, seller, price) of the listings with tickets, so that read is one index seek.
 *
 * On Postgres the trigger's first statement updates the event's stock row, which waits for any other transaction
 * holding that row and locks it; the lowest price is read by a later statement, and under READ COMMITTED each
 * statement of the function takes a new snapshot, so that read sees every transaction that changed this stock
 * before it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_stock')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('tickets', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('listings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('min_price', 'integer')
    .addPrimaryKeyConstraint('event_stock_pk', ['event_id', 'currency', 'seller_id'])
    .execute();
  await sql`CREATE INDEX listings_stock_price ON listings (event_id, currency, seller_id, price)
    WHERE available > 0`.execute(db);
  await sql`INSERT INTO event_stock (event_id, currency, seller_id, tickets, listings, min_price)
    SELECT event_id, currency, seller_id, SUM(available), COUNT(*), MIN(price) FROM listings WHERE available > 0
    GROUP BY event_id, currency, seller_id`.execute(db);
  if (engineOf(db) === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
}

const group = (o: 'OLD' | 'NEW') =>
  `event_id = ${o}.event_id AND currency = ${o}.currency AND seller_id = ${o}.seller_id`;
const lowest = (o: 'OLD' | 'NEW') => `(SELECT MIN(price) FROM listings WHERE ${group(o)} AND available > 0)`;
/** The listing stays in its group (event, currency, seller) at its price with tickets left. */
const stays = `NEW.available > 0 AND NEW.event_id = OLD.event_id AND NEW.currency = OLD.currency
      AND NEW.seller_id = OLD.seller_id AND NEW.price = OLD.price`;

/** The share a listing adds: a new (event, currency, seller) row, or its tickets and price merged into the row. */
const addShare = (
  prefix: string,
) => `INSERT INTO event_stock (event_id, currency, seller_id, tickets, listings, min_price)
    ${prefix}
    ON CONFLICT (event_id, currency, seller_id) DO UPDATE SET
      tickets = event_stock.tickets + excluded.tickets,
      listings = event_stock.listings + 1,
      min_price = CASE WHEN event_stock.min_price IS NULL OR excluded.min_price < event_stock.min_price
        THEN excluded.min_price ELSE event_stock.min_price END;`;

async function sqliteTriggers(db: Kysely<unknown>) {
  const takeOld = `UPDATE event_stock SET tickets = tickets - OLD.available, listings = listings - 1
      WHERE OLD.available > 0 AND ${group('OLD')};`;
  // the old listing held the lowest price and no longer offers it at that price in that group: read it again
  const refreshOld = (kept: string) => `UPDATE event_stock SET min_price = ${lowest('OLD')}
      WHERE OLD.available > 0 AND ${group('OLD')} AND min_price = OLD.price AND NOT (${kept});`;
  await sql
    .raw(`CREATE TRIGGER listings_stock_insert AFTER INSERT ON listings WHEN NEW.available > 0 BEGIN
    ${addShare('VALUES (NEW.event_id, NEW.currency, NEW.seller_id, NEW.available, 1, NEW.price)')}
  END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER listings_stock_update AFTER UPDATE OF available, price, currency, event_id, seller_id ON listings BEGIN
    ${takeOld}
    ${addShare('SELECT NEW.event_id, NEW.currency, NEW.seller_id, NEW.available, 1, NEW.price WHERE NEW.available > 0')}
    ${refreshOld(stays)}
  END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER listings_stock_delete AFTER DELETE ON listings WHEN OLD.available > 0 BEGIN
    ${takeOld}
    ${refreshOld('0')}
  END`)
    .execute(db);
}

/**
 * The Postgres function that keeps `event_stock`; `first` runs before it changes anything (0029 locks the old and
 * the new group there, in key order, when a listing moves).
 */
export function postgresStockFunction(first = '') {
  const takeOld = `UPDATE event_stock SET tickets = tickets - OLD.available, listings = listings - 1
        WHERE ${group('OLD')};`;
  const refreshOld = `UPDATE event_stock SET min_price = ${lowest('OLD')} WHERE ${group('OLD')} AND min_price = OLD.price;`;
  return `CREATE OR REPLACE FUNCTION listings_stock() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN${first}
      IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.available > 0 THEN
        ${takeOld}
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.available > 0 THEN
        ${addShare('VALUES (NEW.event_id, NEW.currency, NEW.seller_id, NEW.available, 1, NEW.price)')}
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.available > 0 AND NOT (TG_OP = 'UPDATE' AND ${stays}) THEN
        ${refreshOld}
      END IF;
      RETURN NULL;
    END $$`;
}

async function postgresTriggers(db: Kysely<unknown>) {
  await sql.raw(postgresStockFunction()).execute(db);
  await sql`CREATE TRIGGER listings_stock_insert AFTER INSERT ON listings
    FOR EACH ROW EXECUTE FUNCTION listings_stock()`.execute(db);
  await sql`CREATE TRIGGER listings_stock_update AFTER UPDATE OF available, price, currency, event_id, seller_id ON listings
    FOR EACH ROW EXECUTE FUNCTION listings_stock()`.execute(db);
  await sql`CREATE TRIGGER listings_stock_delete AFTER DELETE ON listings
    FOR EACH ROW EXECUTE FUNCTION listings_stock()`.execute(db);
}
