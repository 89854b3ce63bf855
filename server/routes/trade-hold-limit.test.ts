import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import type { Db } from '../db/database';
import { MAX_OPEN_HOLDS } from '../domain/purchase/holds';
import { type FreshDatabase, freshSeededDatabase, freshServer } from '../test-support';
import { startChildServer } from '../testing/spawn-server';
import { call, makeBuyers, makeListing, newKey, type Server } from './trade-testing';

const ATTEMPTS = 20;

const addToCart = (listing: { id: number; event_id: number }) =>
  `/purchase/lmt-trade/add-to-cart?match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=1`;

const holding = async (db: Db, buyerId: number) =>
  (
    await db
      .selectFrom('carts')
      .select('id')
      .where('buyer_id', '=', buyerId)
      .where('hold_state', '=', 'holding')
      .execute()
  ).length;

const tally = (statuses: number[]) => {
  const counts: Record<number, number> = {};
  for (const s of statuses) counts[s] = (counts[s] ?? 0) + 1;
  return counts;
};

/**
 * One buyer account holds at most MAX_OPEN_HOLDS carts at once. Twenty add-to-cart calls at the same moment
 * counted the buyer's holds side by side and all saw room: PostgreSQL left 13 carts held with one process and 20
 * with three. The count and the insert are one decision per buyer, whichever process runs it.
 */
describe('the hold limit under simultaneous add-to-cart calls', () => {
  describe('one process', () => {
    let s: Server;
    beforeAll(async () => {
      s = await freshServer();
    }, 60_000);
    afterAll(async () => {
      await s?.close();
    });

    it(`leaves ${MAX_OPEN_HOLDS} carts of ${ATTEMPTS} simultaneous calls, the others 429`, async () => {
      const [buyer] = await makeBuyers(s.db, 1, s.clock.now());
      const listing = await makeListing(s.db, s.clock.now());
      const { id, token } = buyer as { id: number; token: string };
      const answers = await Promise.all(
        Array.from({ length: ATTEMPTS }, () => call(s, 'POST', addToCart(listing), token)),
      );
      expect(tally(answers.map((a) => a.status))).toEqual({ 200: MAX_OPEN_HOLDS, 429: ATTEMPTS - MAX_OPEN_HOLDS });
      expect(await holding(s.db, id)).toBe(MAX_OPEN_HOLDS);
    });
  });

  describe('three processes on one database', () => {
    let d: FreshDatabase;
    const servers: { child: ChildProcess; port: number }[] = [];
    beforeAll(async () => {
      d = await freshSeededDatabase();
      servers.push(...(await Promise.all([1, 2, 3].map(() => startChildServer(d.target)))));
    }, 120_000);
    afterAll(async () => {
      for (const { child } of servers) child.kill('SIGTERM');
      await Promise.all(servers.map(({ child }) => new Promise((done) => child.once('exit', done))));
      await d?.close();
    });

    it(`leaves ${MAX_OPEN_HOLDS} carts of ${ATTEMPTS} simultaneous calls spread over the processes`, async () => {
      const now = systemClock.now();
      const [buyer] = await makeBuyers(d.db, 1, now);
      const listing = await makeListing(d.db, now);
      const { id, token } = buyer as { id: number; token: string };
      const statuses = await Promise.all(
        Array.from({ length: ATTEMPTS }, async (_, i) => {
          const { port } = servers[i % servers.length] as { port: number };
          const res = await fetch(`http://127.0.0.1:${port}/api${addToCart(listing)}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'idempotency-key': newKey() },
          });
          return res.status;
        }),
      );
      expect(tally(statuses)).toEqual({ 200: MAX_OPEN_HOLDS, 429: ATTEMPTS - MAX_OPEN_HOLDS });
      expect(await holding(d.db, id)).toBe(MAX_OPEN_HOLDS);
    }, 60_000);
  });
});
