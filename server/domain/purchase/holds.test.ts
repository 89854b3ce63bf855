import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOUSEKEEPING_TICK_MS, pruneEveryMs, startHousekeeping } from '../../housekeeping';
import { call, makeBuyers, makeListing, type Server } from '../../routes/trade-testing';
import { freshServer, TEST_ENGINE } from '../../test-support';
import { HOLD_MS } from './pricing';

/**
 * The contract promises that an ended hold's tickets go back by the housekeeping every minute. The housekeeping
 * ran every five minutes, so tickets of an abandoned cart stayed held up to five minutes after the hold ended.
 */
describe('ended holds and the housekeeping', () => {
  let s: Server;
  beforeAll(async () => {
    s = await freshServer();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('frees an ended hold within a minute of its end, with no read meeting it', async () => {
    expect(pruneEveryMs('ended ticket holds')).toBe(60_000);
    const [buyer] = await makeBuyers(s.db, 1, s.clock.now());
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 4 });
    const path = `/purchase/lmt-trade/add-to-cart?match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=3`;
    expect((await call(s, 'POST', path, (buyer as { token: string }).token)).status).toBe(200);
    const available = async () =>
      (await s.db.selectFrom('listings').select('available').where('id', '=', listing.id).executeTakeFirstOrThrow())
        .available;
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const housekeeping = startHousekeeping(s.db, s.clock);
      await housekeeping.settled();
      expect(await available()).toBe(1);
      s.clock.advance(HOLD_MS + 1_000);
      vi.advanceTimersByTime(HOUSEKEEPING_TICK_MS);
      await housekeeping.settled();
      expect(await available()).toBe(4);
      await housekeeping.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it.runIf(TEST_ENGINE === 'sqlite')('finds the ended holds from an index, not by reading every cart', async () => {
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN SELECT id, listing_id, quantity FROM carts
      WHERE hold_state = 'holding' AND expires_at <= ${new Date().toISOString()} ORDER BY expires_at LIMIT 5000`.execute(
      s.db,
    );
    expect(plan.rows.map((r) => r.detail).join('; ')).toMatch(/USING (COVERING )?INDEX carts_holding/);
  });
});
