import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshSeededDatabase, TEST_ENGINE, userIdOf } from '../test-support';
import { refreshStatistics, SAMPLED_TABLES, STATISTICS_EVERY_MS, statisticsTask } from './statistics';

/** Inventory's first page, as listMyListings prepares it (server/domain/listings/queries.ts). */
const INVENTORY_PAGE = `SELECT listings.id FROM listings
  INNER JOIN events ON events.id = listings.event_id
  WHERE listings.seller_id = ? AND listings.status <> 'deleted'
  ORDER BY events.event_date, events.event_time, events.id, listings.id LIMIT 50`;

describe.skipIf(TEST_ENGINE !== 'sqlite')('planner statistics (SQLite)', () => {
  let d: FreshDatabase;
  let seller = 0;

  beforeAll(async () => {
    d = await freshSeededDatabase();
    seller = await userIdOf(d.db, 'seller@demo.test');
    // a big seller: 3,000 more listings over the seeded matches
    const events = await d.db.selectFrom('events').select('id').execute();
    const rows = Array.from({ length: 3_000 }, (_, i) => ({
      seller_id: seller,
      event_id: (events[i % events.length] as { id: number }).id,
      category: 'Statistics',
      ticket_block: `B${i}`,
      row: '1',
      ticket_type_id: 1,
      quantity: 2,
      available: 2,
      price: 1000 + i,
      currency: 'GBP',
      created_at: '2026-01-01T00:00:00.000Z',
    }));
    for (let i = 0; i < rows.length; i += 200)
      await d.db
        .insertInto('listings')
        .values(rows.slice(i, i + 200))
        .execute();
  });
  afterAll(async () => {
    await d?.close();
  });

  const plan = async (sellerId: number) =>
    (
      await sql
        .raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${INVENTORY_PAGE.replace('?', String(sellerId))}`)
        .execute(d.db)
    ).rows
      .map((r) => r.detail)
      .join(' | ');
  const count = async (table: string) =>
    Number((await sql.raw<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).execute(d.db)).rows[0]?.n);

  it('walks the matches in date order for a big seller once refreshed (sorting a small one’s), where it sorted all', async () => {
    const small = await userIdOf(d.db, 'rival@demo.test');
    expect(await plan(seller)).toMatch(/TEMP B-TREE FOR ORDER BY/);
    await refreshStatistics(d.db);
    expect(await count('sqlite_stat1')).toBeGreaterThan(10);
    const sampled = await sql<{ tbl: string }>`SELECT DISTINCT tbl FROM sqlite_stat4 ORDER BY tbl`.execute(d.db);
    expect(sampled.rows.map((r) => r.tbl)).toEqual([...SAMPLED_TABLES]);
    const refreshed = await plan(seller);
    expect(refreshed).toMatch(/SCAN events USING (COVERING )?INDEX events_date_time/);
    expect(refreshed).toMatch(/listings_event_seller/);
    expect(refreshed).not.toMatch(/TEMP B-TREE/);
    // the samples (sqlite_stat4) tell the sellers apart: the rival's 103 listings are read by seller and sorted
    expect(await plan(small)).toMatch(/listings_seller.*TEMP B-TREE FOR ORDER BY/);
  });

  it('refreshes at a task’s first run and then only after STATISTICS_EVERY_MS', async () => {
    const task = statisticsTask();
    const t0 = new Date('2026-11-01T00:00:00.000Z');
    await task(d.db, t0);
    await sql`UPDATE sqlite_stat1 SET stat = '1 1' WHERE tbl = 'listings'`.execute(d.db);
    await task(d.db, new Date(t0.getTime() + STATISTICS_EVERY_MS - 1));
    expect(
      await sql<{ stat: string }>`SELECT stat FROM sqlite_stat1 WHERE tbl = 'listings' LIMIT 1`.execute(d.db),
    ).toMatchObject({
      rows: [{ stat: '1 1' }],
    });
    await task(d.db, new Date(t0.getTime() + STATISTICS_EVERY_MS));
    const again = await sql<{ stat: string }>`SELECT stat FROM sqlite_stat1 WHERE tbl = 'listings' LIMIT 1`.execute(
      d.db,
    );
    expect(again.rows[0]?.stat).not.toBe('1 1');
  });
});
