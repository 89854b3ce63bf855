import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';
import { postgresStockFunction } from './0009-event-stock';
import { postgresCountFunction, postgresInsertedCountFunction } from './0025-listing-counts';

/**
 * One lock order for the kept totals that writes to `listings` update (Postgres; SQLite has one writer at a
 * time). A listing's insert, update or delete locks rows of `event_stock` (0009) and `listing_counts` (0025) in
 * its own transaction. Before this migration two orders existed, and CI's 2-core machine found both deadlocks
 * (0009-event-stock.test.ts, 12 transactions at once; 71 `deadlock detected` in the server log over six local
 * runs, each one a transaction aborted and run again, three in a row once):
 *
 * - across the two tables: an insert fires the row trigger on `event_stock` first and the statement trigger on
 *   `listing_counts` after it, while an update or delete fired `listings_count_*` before `listings_stock_*`
 *   (row triggers fire in name order). The count triggers are renamed `listings_then_count_*`, after `stock`:
 *   every write now locks its stock rows, then its count rows.
 * - within a table: a listing moved from A to B locks A then B, and one moved from B to A at the same time
 *   locks B then A. Each function now locks both rows first, in key order (`ORDER BY ... FOR UPDATE` sorts
 *   before it locks), and the bulk insert adds its sellers' counts in key order.
 *
 * A transaction that writes several listings still locks in the order it writes them (a bulk edit of matches A
 * and B beside one of B and A, both by the same seller); Postgres aborts one and `inTransaction` runs it again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  // upgrade-safe: a trigger's name, which no code reads
  await sql`ALTER TRIGGER listings_count_update ON listings RENAME TO listings_then_count_update`.execute(db);
  // upgrade-safe: as above
  await sql`ALTER TRIGGER listings_count_delete ON listings RENAME TO listings_then_count_delete`.execute(db);
  await sql
    .raw(
      postgresCountFunction(`
      IF TG_OP = 'UPDATE' THEN
        PERFORM 1 FROM listing_counts
          WHERE (seller_id, status) IN ((OLD.seller_id, OLD.status), (NEW.seller_id, NEW.status))
          ORDER BY seller_id, status FOR UPDATE;
      END IF;`),
    )
    .execute(db);
  await sql.raw(postgresInsertedCountFunction(' ORDER BY seller_id, status')).execute(db);
  await sql
    .raw(
      postgresStockFunction(`
      IF TG_OP = 'UPDATE' AND OLD.available > 0 AND NEW.available > 0
        AND (OLD.event_id, OLD.currency, OLD.seller_id) IS DISTINCT FROM (NEW.event_id, NEW.currency, NEW.seller_id) THEN
        PERFORM 1 FROM event_stock WHERE (event_id, currency, seller_id) IN
          ((OLD.event_id, OLD.currency, OLD.seller_id), (NEW.event_id, NEW.currency, NEW.seller_id))
          ORDER BY event_id, currency, seller_id FOR UPDATE;
      END IF;`),
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) !== 'postgres') return;
  await sql`ALTER TRIGGER listings_then_count_update ON listings RENAME TO listings_count_update`.execute(db);
  await sql`ALTER TRIGGER listings_then_count_delete ON listings RENAME TO listings_count_delete`.execute(db);
  await sql.raw(postgresCountFunction()).execute(db);
  await sql.raw(postgresInsertedCountFunction()).execute(db);
  await sql.raw(postgresStockFunction()).execute(db);
}
