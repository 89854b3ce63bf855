import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { type FreshDatabase, freshSeededDatabase, userIdOf } from '../test-support';
import { gtvBetween, levelFor, quarterOf, SELLER_LEVELS, sellerLevelList, sellerLevelSummary } from './levels';
import { recordOrder } from './sales/totals';

describe('seller levels', () => {
  it('reaches a level exactly at its threshold', () => {
    expect(SELLER_LEVELS.map((l) => l.quarterly_gtv)).toEqual([0, 2_500_000, 10_000_000]);
    expect([0, 2_499_999, 2_500_000, 9_999_999, 10_000_000, 10 ** 12].map(levelFor)).toEqual([1, 1, 2, 2, 3, 3]);
  });

  it('takes calendar quarters in UTC', () => {
    expect(quarterOf(new Date('2026-11-22T09:00:00Z'))).toMatchObject({
      label: 'Q4 2026',
      start: new Date('2026-10-01T00:00:00Z'),
      end: new Date('2027-01-01T00:00:00Z'),
      previousStart: new Date('2026-07-01T00:00:00Z'),
    });
    expect(quarterOf(new Date('2026-01-01T00:00:00Z'))).toMatchObject({
      label: 'Q1 2026',
      previousStart: new Date('2025-10-01T00:00:00Z'),
    });
    expect(quarterOf(new Date('2026-03-31T23:59:59.999Z')).label).toBe('Q1 2026');
  });

  it('marks exactly the current level active, with more benefits at each level', () => {
    for (const current of [1, 2, 3]) {
      const list = sellerLevelList(current);
      expect(list.map((l) => l.is_active)).toEqual([1, 2, 3].map((n) => (n === current ? 1 : 0)));
      expect(list.map((l) => l.name)).toEqual(['Level 1', 'Level 2', 'Level 3']);
    }
  });

  describe('on a database', () => {
    let d: FreshDatabase;
    let db: Db;
    let seller: number;
    let listing: { id: number; event_id: number };
    let n = 0;

    beforeAll(async () => {
      d = await freshSeededDatabase();
      db = d.db;
      // a seller with no sales of its own: newseller's KYC does not matter to the domain
      seller = await userIdOf(db, 'newseller@demo.test');
      listing = await db.selectFrom('listings').select(['id', 'event_id']).executeTakeFirstOrThrow();
    }, 60_000);
    afterAll(async () => {
      await d?.close();
    });

    const order = (amount: number, created_at: string, status = 'completed', currency = 'GBP') =>
      recordOrder(db, {
        booking_no: `LV-${++n}`,
        listing_id: listing.id,
        seller_id: seller,
        event_id: listing.event_id,
        quantity: 1,
        amount,
        currency: currency as 'GBP',
        status: status as 'completed',
        created_at,
      });

    it("counts only completed GBP sales dated in the quarter, keeps last quarter's level, and forecasts at the pace", async () => {
      const now = new Date('2026-11-15T12:00:00Z'); // day 46 of Q4 2026 (92 days)
      expect(await sellerLevelSummary(db, seller, now)).toMatchObject({ level: 'Level 1', gtv: 0, days_left: 46 });
      await order(1_000_000, '2026-10-05T10:00:00.000Z');
      await order(500_000, '2026-11-15T08:00:00.000Z');
      // not counted: another status, another currency, another quarter
      await order(9_000_000, '2026-10-06T10:00:00.000Z', 'pending');
      await order(9_000_000, '2026-10-06T10:00:00.000Z', 'completed', 'EUR');
      await order(9_000_000, '2027-01-01T00:00:00.000Z');
      expect(await gtvBetween(db, seller, new Date('2026-10-01T00:00:00Z'), new Date('2027-01-01T00:00:00Z'))).toBe(
        1_500_000,
      );
      const summary = await sellerLevelSummary(db, seller, now);
      expect(summary).toEqual({
        level: 'Level 1',
        level_number: 1,
        quarter: 'Q4 2026',
        days_left: 46,
        currency: 'GBP',
        gtv: 1_500_000,
        required_to_maintain: 0,
        forecast: {
          projected_gtv: Math.round((1_500_000 / 46) * 92),
          projected_level: 2,
          next_level: 2,
          required_for_next_level: 1_000_000,
        },
      });
      // Level 3 earned last quarter holds this quarter, and says what is still needed to keep it
      await order(12_000_000, '2026-08-01T00:00:00.000Z');
      const held = await sellerLevelSummary(db, seller, now);
      expect(held).toMatchObject({ level: 'Level 3', required_to_maintain: 10_000_000 - 1_500_000 });
      expect(held.forecast).toMatchObject({ next_level: null, required_for_next_level: null });
    });
  });
});
