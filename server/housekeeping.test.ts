import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT_RULES, ACCOUNT_SCOPE, CLIENT_SCOPE, recordFailure, tryReserve } from './auth/throttle';
import { manualClock } from './clock';
import { migrateToLatest } from './db/migrate';
import { PRUNE_EVERY_MS, registeredPrunes, registerPrune, runHousekeeping, startHousekeeping } from './housekeeping';
import { type FreshDatabase, freshDatabase } from './test-support';

describe('housekeeping', () => {
  let fresh: FreshDatabase;
  const clock = manualClock();

  beforeAll(async () => {
    fresh = await freshDatabase();
    await migrateToLatest(fresh.db);
  });
  afterAll(async () => {
    await fresh?.close();
  });

  const emails = async () =>
    (await fresh.db.selectFrom('login_failures').select('email').orderBy('email').execute()).map((r) => r.email);
  const clients = async () =>
    (await fresh.db.selectFrom('login_client_failures').select('client').orderBy('client').execute()).map(
      (r) => r.client,
    );

  it('prunes throttle rows once they say nothing: no lock, no live reservation, no remembered failure', async () => {
    const { db } = fresh;
    const at = clock.now();
    // a failure an hour and a half old (forgotten), one just now, a lock running, a reservation in flight
    await recordFailure(
      db,
      ACCOUNT_SCOPE,
      'old@example.test',
      new Date(at.getTime() - ACCOUNT_RULES.forgetMs - 30 * 60_000),
    );
    await recordFailure(db, ACCOUNT_SCOPE, 'recent@example.test', at);
    for (let i = 0; i < ACCOUNT_RULES.lockAfter; i++) await recordFailure(db, ACCOUNT_SCOPE, 'locked@example.test', at);
    expect(await tryReserve(db, ACCOUNT_SCOPE, 'inflight@example.test', at)).toEqual({ kind: 'reserved' });
    await recordFailure(db, CLIENT_SCOPE, '203.0.113.1', new Date(at.getTime() - ACCOUNT_RULES.forgetMs - 1));
    await recordFailure(db, CLIENT_SCOPE, '203.0.113.2', at);

    expect(await runHousekeeping(db, clock)).toMatchObject({ 'login throttle': 2 });
    expect(await emails()).toEqual(['inflight@example.test', 'locked@example.test', 'recent@example.test']);
    expect(await clients()).toEqual(['203.0.113.2']);

    // an hour and a bit later: the lock (15 minutes) has ended, the reservation expired, the failures forgotten
    clock.advance(ACCOUNT_RULES.forgetMs + 1_000);
    expect(await runHousekeeping(db, clock)).toMatchObject({ 'login throttle': 4 });
    expect(await emails()).toEqual([]);
    expect(await clients()).toEqual([]);
  });

  it('runs the tasks other modules register, and one that fails does not stop the others', async () => {
    const warn = vi.fn();
    const log = { warn, debug: () => {} } as unknown as import('./logger').Logger;
    const seen: Date[] = [];
    const taken = [
      registerPrune('test: broken', async () => {
        throw new Error('broken task');
      }),
      registerPrune('test: counting', async (_db, now) => {
        seen.push(now);
        return 7;
      }),
    ];
    try {
      expect(registeredPrunes()).toEqual(expect.arrayContaining(['login throttle', 'test: broken', 'test: counting']));
      const deleted = await runHousekeeping(fresh.db, clock, log);
      expect(deleted['test: counting']).toBe(7);
      expect(deleted).not.toHaveProperty('test: broken');
      expect(seen).toEqual([clock.now()]);
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ task: 'test: broken' }), 'housekeeping task failed');
    } finally {
      for (const take of taken) take();
    }
    // taken away: the other test files of this worker's shared registry never run them
    expect(registeredPrunes()).not.toEqual(expect.arrayContaining(['test: broken']));
    expect(registeredPrunes()).not.toContain('test: counting');
  });

  it('runs at start and then on an unref’d timer, never two runs at once', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let takeSlow = () => {};
    try {
      let runs = 0;
      let release = () => {};
      takeSlow = registerPrune(
        'test: slow',
        async () => {
          runs += 1;
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return 0;
        },
        { everyMs: 1_000 },
      );
      const unref = vi.spyOn(globalThis, 'setInterval');
      const housekeeping = startHousekeeping(fresh.db, clock, undefined, 1_000);
      const timer = unref.mock.results[0]?.value as { hasRef?: () => boolean } | undefined;
      await vi.waitFor(() => expect(runs).toBe(1), { timeout: 10_000 });
      // the run is still going: the next ticks are skipped
      vi.advanceTimersByTime(3_000);
      expect(runs).toBe(1);
      release();
      await housekeeping.settled();
      clock.advance(1_000);
      vi.advanceTimersByTime(1_000);
      await vi.waitFor(() => expect(runs).toBe(2), { timeout: 10_000 });
      release();
      await housekeeping.stop();
      clock.advance(5_000);
      vi.advanceTimersByTime(5_000);
      expect(runs).toBe(2);
      if (timer?.hasRef) expect(timer.hasRef()).toBe(false);
    } finally {
      vi.useRealTimers();
      takeSlow();
    }
    // a task that never ends, left registered, would hang every later housekeeping run of this worker (it did:
    // main.test's server never closed when this file had run before it in the same worker)
    expect(registeredPrunes()).not.toContain('test: slow');
  });

  it('runs each task at its own pace: looks every minute, runs a task when its period has passed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const runs = { minute: 0, fiveMinutes: 0 };
    const taken = [
      registerPrune('test: every minute', async () => ++runs.minute, { everyMs: 60_000 }),
      registerPrune('test: every five minutes', async () => ++runs.fiveMinutes),
    ];
    try {
      const housekeeping = startHousekeeping(fresh.db, clock);
      await housekeeping.settled();
      expect(runs).toEqual({ minute: 1, fiveMinutes: 1 });
      for (let minute = 1; minute <= 10; minute++) {
        clock.advance(60_000);
        vi.advanceTimersByTime(60_000);
        await housekeeping.settled();
      }
      expect(runs).toEqual({ minute: 11, fiveMinutes: 3 });
      await housekeeping.stop();
    } finally {
      vi.useRealTimers();
      for (const take of taken) take();
    }
  });

  it('runs once an interval across the processes on one database: the others find the run claimed', async () => {
    let runs = 0;
    const take = registerPrune('test: counted', async () => {
      runs += 1;
      return 0;
    });
    try {
      // three schedulers on one database, as three server processes are
      const later = manualClock(new Date(clock.now().getTime() + 3_600_000));
      const all = [0, 1, 2].map(() => startHousekeeping(fresh.db, later));
      await Promise.all(all.map((h) => h.settled()));
      expect(runs).toBe(1);
      for (const h of all) await h.stop();
      // the next interval's run is due again for whichever process claims it first
      later.advance(PRUNE_EVERY_MS);
      const next = [0, 1].map(() => startHousekeeping(fresh.db, later));
      await Promise.all(next.map((h) => h.settled()));
      expect(runs).toBe(2);
      for (const h of next) await h.stop();
    } finally {
      take();
    }
  });
});
