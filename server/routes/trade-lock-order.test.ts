import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../domain/ledger';
import { releaseDueHolds } from '../domain/purchase/holds';
import { freshServer } from '../test-support';
import { type Answer, call, inlineBilling, makeBuyers, makeListing, type Server } from './trade-testing';

const BUYERS = 40;
const LOOP_MS = 6_000;

/** The deadlocks PostgreSQL has counted in this test's database (0 on SQLite, which has none). */
async function deadlocks(s: Server): Promise<number> {
  if (s.engine !== 'postgres') return 0;
  const row = await sql<{ deadlocks: string }>`SELECT deadlocks FROM pg_stat_database
    WHERE datname = current_database()`.execute(s.db);
  return Number(row.rows[0]?.deadlocks ?? 0);
}

/**
 * Forty buyers in a closed loop on one listing, while each also leaves a hold on another listing of the same
 * match and seller (one `event_stock` row for both) that ends under it. A take locks the listing, then the kept
 * stock; releasing a hold of another listing in the same transaction locked that listing and the stock first,
 * the reverse: PostgreSQL counted deadlocks, and a buyer got 500 'deadlock detected' once the retries ran out.
 */
describe('add-to-cart beside ended holds of the same match', () => {
  let s: Server;
  let buyers: { id: number; token: string }[];
  let hot: { id: number; event_id: number };
  let other: { id: number; event_id: number };

  beforeAll(async () => {
    s = await freshServer();
    const now = s.clock.now();
    buyers = await makeBuyers(s.db, BUYERS, now);
    hot = await makeListing(s.db, now);
    other = await makeListing(s.db, now, { eventId: hot.event_id });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('sells with no deadlock and no 500 to 40 buyers in a closed loop', async () => {
    const billing = await inlineBilling(s.db);
    const before = await deadlocks(s);
    const statuses: Record<string, number> = {};
    const note = (step: string, a: Answer) => {
      const k = `${step} ${a.status}`;
      statuses[k] = (statuses[k] ?? 0) + 1;
      return a.status === 200;
    };
    const cart = (token: string, listing: { id: number; event_id: number }) =>
      call(
        s,
        'POST',
        `/purchase/lmt-trade/add-to-cart?match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=1`,
        token,
      );
    const deadline = Date.now() + LOOP_MS;
    let ending = true;
    // holds end under the buyers (their clock moved on); the housekeeping frees them now and then
    const ender = (async () => {
      for (let round = 0; ending; round++) {
        const past = new Date(s.clock.now().getTime() - 1_000).toISOString();
        await s.db
          .updateTable('carts')
          .set({ expires_at: past })
          .where('listing_id', '=', other.id)
          .where('hold_state', '=', 'holding')
          .execute();
        if (round % 4 === 3) await releaseDueHolds(s.db, s.clock.now());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    await Promise.all(
      buyers.map(async ({ token }) => {
        while (Date.now() < deadline) {
          note('other cart', await cart(token, other));
          const held = await cart(token, hot);
          if (!note('cart', held)) continue;
          const booking = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${hot.id}`, token, {
            cart_id: (held.body.data as { cart_id: number }).cart_id,
            payment_method: 1,
            ...billing,
          });
          if (!note('booking', booking)) continue;
          const booking_id = (booking.body.data as { booking_id: number }).booking_id;
          note(
            'payment',
            await call(s, 'POST', '/purchase/lmt-trade/confirmation', token, { booking_id, payment_method: 1 }),
          );
        }
      }),
    );
    ending = false;
    await ender;
    // a backend reports its counts to the statistics within a second of going idle
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const counted = (await deadlocks(s)) - before;
    const failed = Object.entries(statuses).filter(([k]) => !/ (200|429)$/.test(k));
    expect({ failed, deadlocks: counted }, JSON.stringify(statuses)).toEqual({ failed: [], deadlocks: 0 });
    expect(statuses['payment 200'] ?? 0).toBeGreaterThan(0);
    expect(await auditLedger(s.db)).toEqual([]);
  }, 120_000);
});
