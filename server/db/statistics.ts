import { sql } from 'kysely';
import type { PruneTask } from '../housekeeping';
import { type Db, engineOf } from './database';

/** How often a server refreshes SQLite's planner statistics; housekeeping also does it once at start. */
export const STATISTICS_EVERY_MS = 6 * 60 * 60_000;

/**
 * Refreshes SQLite's planner statistics: `ANALYZE`, the index averages (`sqlite_stat1`) and the samples of each
 * index's values (`sqlite_stat4`).
 *
 * Without statistics SQLite guessed: Inventory's first page read all of a seller's listings by `listings_seller`
 * and sorted them (10,000 for bench:listings' seller), where with them it walks the matches in date order and
 * stops at the 50th row (migration 0028). The benchmarks ran ANALYZE and so measured the good plan while a
 * server never had it; now both refresh the same way, here. The samples matter: the best plan depends on the
 * seller (a seller with 20 listings is best served by sorting them; one with 10,000 by the walk), and only the
 * samples tell the two apart. An average alone (`analysis_limit`, which skips the samples) picked the sort for
 * every seller once sellers averaged fewer than about 500 listings. Their price: a statement whose parameter they
 * inform is compiled again at each call (4 µs for a small one, more for a join), so they are kept for
 * SAMPLED_TABLES only; and the full ANALYZE reads every index (270 ms at 100,000 orders, blocking, at start and
 * every STATISTICS_EVERY_MS). Postgres keeps its own (autovacuum).
 */
export async function refreshStatistics(db: Db): Promise<void> {
  if (engineOf(db) !== 'sqlite') return;
  await sql`ANALYZE`.execute(db);
  // the samples only where a seller's size changes the plan: elsewhere (the purchase's carts, bookings, orders,
  // ledger and keys) they only compiled statements again at each call (bench:purchase's raw rate 172 -> 125 a
  // second with them everywhere)
  await sql`DELETE FROM sqlite_stat4 WHERE tbl NOT IN (${sql.join(SAMPLED_TABLES)})`.execute(db);
  // reloads the statistics into this connection's schema
  await sql`ANALYZE sqlite_schema`.execute(db);
}

/** The tables whose index samples (`sqlite_stat4`) are kept. */
export const SAMPLED_TABLES = ['listings'] as const;

/** A housekeeping task that refreshes the statistics at start and then every STATISTICS_EVERY_MS. */
export function statisticsTask(): PruneTask {
  let last = Number.NEGATIVE_INFINITY;
  return async (db, now) => {
    if (now.getTime() - last < STATISTICS_EVERY_MS) return 0;
    last = now.getTime();
    await refreshStatistics(db);
    return 0;
  };
}
