import { describe, expect, it } from 'vitest';
import { defaultHashConcurrency, HashPool, hashPool, PoolFullError } from './hash-pool';
import { OWASP_SCRYPT, SCRYPT, scryptParameters } from './passwords';

/** A task the test finishes by hand. */
function deferred() {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { done, finish };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the password hashing pool', () => {
  it('runs no more than its concurrency at once, and the rest in arrival order', async () => {
    const pool = new HashPool({ concurrency: 2, queueLimit: 10 });
    const tasks = Array.from({ length: 5 }, () => deferred());
    const started: number[] = [];
    const runs = tasks.map((t, i) =>
      pool.run(async () => {
        started.push(i);
        await t.done;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect([pool.running, pool.queued]).toEqual([2, 3]);
    tasks[1]?.finish();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const t of tasks) t.finish();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect([pool.running, pool.queued]).toEqual([0, 0]);
  });

  it('keeps a lane for browsers the account knows: open while the flood fills the other, and served first', async () => {
    const pool = new HashPool({ concurrency: 1, queueLimit: 2, knownQueueLimit: 1 });
    const gate = deferred();
    const order: string[] = [];
    const flood = ['a', 'b', 'c'].map((name) =>
      pool.run(async () => {
        order.push(name);
        await gate.done;
      }),
    );
    await tick();
    expect(pool.isFull()).toBe(true);
    expect(pool.isFull('known')).toBe(false);
    await expect(pool.tryRun(async () => 'late')).rejects.toBeInstanceOf(PoolFullError);
    const owner = pool.tryRun(async () => {
      order.push('owner');
    }, 'known');
    await tick();
    expect(pool.isFull('known')).toBe(true);
    gate.finish();
    await Promise.all([...flood, owner]);
    // the flood's first was running; the owner's came next, ahead of the two queued before it
    expect(order).toEqual(['a', 'owner', 'b', 'c']);
  });

  it('refuses a login at once when the queue is full, with a Retry-After hint, and takes it again later', async () => {
    const pool = new HashPool({ concurrency: 1, queueLimit: 2 });
    const gate = deferred();
    const held = [pool.run(() => gate.done), pool.tryRun(() => gate.done), pool.tryRun(() => gate.done)];
    expect(pool.isFull()).toBe(true);
    let ran = false;
    const refused = pool.tryRun(async () => {
      ran = true;
    });
    await expect(refused).rejects.toBeInstanceOf(PoolFullError);
    await refused.catch((error: PoolFullError) => expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1));
    expect(ran).toBe(false);
    // seeding and rehashing wait instead of being refused
    const waiting = pool.run(async () => 'waited');
    gate.finish();
    await Promise.all(held);
    expect(await waiting).toBe('waited');
    expect(await pool.tryRun(async () => 'room again')).toBe('room again');
  });

  it('frees its slot when a task fails', async () => {
    const pool = new HashPool({ concurrency: 1, queueLimit: 0 });
    await expect(pool.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await pool.tryRun(async () => 'next')).toBe('next');
  });

  it('hashes at OWASP cost everywhere but inside the test runner when its configuration asks', () => {
    expect(OWASP_SCRYPT).toEqual({ N: 65536, r: 8, p: 2 });
    expect(scryptParameters({})).toEqual(OWASP_SCRYPT);
    expect(scryptParameters({ SB_TEST_FAST_HASH: '1' })).toEqual(OWASP_SCRYPT);
    expect(scryptParameters({ VITEST: 'true' })).toEqual(OWASP_SCRYPT);
    expect(scryptParameters({ VITEST: 'true', SB_TEST_FAST_HASH: '1' }).N).toBeLessThan(OWASP_SCRYPT.N);
    // this run asked for it (vite.config.ts)
    expect(SCRYPT.N).toBeLessThan(OWASP_SCRYPT.N);
  });

  it('keeps a core and a libuv thread free, and the memory of a flood under 400 MiB', () => {
    expect([1, 2, 3, 4, 8, 64].map((cores) => defaultHashConcurrency(cores))).toEqual([1, 1, 2, 3, 3, 3]);
    // scrypt holds 128 * N * r bytes while it runs
    const perHash = 128 * OWASP_SCRYPT.N * OWASP_SCRYPT.r;
    expect(perHash).toBe(64 * 1024 * 1024);
    expect(hashPool.options.concurrency * perHash).toBeLessThanOrEqual(3 * 64 * 1024 * 1024);
  });
});
