import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import type { Server } from './trade-testing';
import { twoChannelRace } from './two-channel-testing';

/**
 * A seat is never sold twice across channels: buyers checking out here and another channel holding and
 * confirming through the seller API, all at once, on one listing with fewer seats than asked for. (The issue's
 * 1,000 at once: scripts/bench-two-channels.ts.)
 */
describe('two channels, one listing', () => {
  let s: Server;
  beforeAll(async () => {
    s = await freshServer();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('200 concurrent buys across checkout and the hold API sell no seat twice', async () => {
    const r = await twoChannelRace(s, { tickets: 60, buys: 100, holds: 100 });
    expect(r.oversold).toBe(0);
    expect(r.conserved).toBe(true);
    expect(r.soldHere + r.soldElsewhere).toBe(r.succeeded);
    // the seats all went, to one channel or the other, and both channels sold some
    expect(r.succeeded).toBe(60);
    expect(r.left).toBe(0);
    expect(r.soldHere).toBeGreaterThan(0);
    expect(r.soldElsewhere).toBeGreaterThan(0);
  }, 240_000);
});
