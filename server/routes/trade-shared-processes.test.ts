import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshSeededDatabase } from '../test-support';
import { startChildServer } from '../testing/spawn-server';
import { book, call, makeBuyers, makeListing, type Server } from './trade-testing';

/**
 * Two server processes on one database (behind a load balancer), each keeping its own shared answers of the
 * event page and the search: a sale confirmed through one ends what the other kept of that match, because both
 * read the match's version from the database before they serve what they kept.
 */
describe('shared trade answers across two server processes', () => {
  let d: FreshDatabase;
  const servers: { child: ChildProcess; port: number }[] = [];

  beforeAll(async () => {
    d = await freshSeededDatabase();
    servers.push(...(await Promise.all([startChildServer(d.target), startChildServer(d.target)])));
  }, 120_000);
  afterAll(async () => {
    for (const { child } of servers) child.kill('SIGTERM');
    await Promise.all(servers.map(({ child }) => new Promise((done) => child.once('exit', done))));
    await d?.close();
  });

  /** The calls of trade-testing.ts, sent to the server process on `port`. */
  const through = (port: number) =>
    ({
      db: d.db,
      json: (method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) =>
        fetch(`http://127.0.0.1:${port}/api${path}`, {
          method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
    }) as unknown as Server;

  it('never shows, through one process, tickets whose sale the other confirmed', async () => {
    const [a, b] = servers.map((s) => through(s.port)) as [Server, Server];
    const now = new Date();
    const [viewer, buyer] = await makeBuyers(d.db, 2, now);
    if (!viewer || !buyer) throw new Error('no buyers');
    const listing = await makeListing(d.db, now, { tickets: 2, price: 500 });
    const page = `/purchase/lmt-trade/events/${listing.event_id}?per_page=10`;
    const offered = async () => {
      const answer = await call(a, 'GET', page, viewer.token);
      expect(answer.status).toBe(200);
      const tickets = (answer.body.data as unknown as { tickets: { sNo: number; quantity: number }[] }).tickets;
      return tickets.find((t) => t.sNo === listing.id)?.quantity;
    };
    // kept by process a, read twice
    expect(await offered()).toBe(2);
    expect(await offered()).toBe(2);
    const booking = await book(b, buyer.token, listing, 2);
    const paid = await call(b, 'POST', '/purchase/lmt-trade/confirmation', buyer.token, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(paid.status).toBe(200);
    expect(await offered()).toBeUndefined();
  }, 60_000);
});
