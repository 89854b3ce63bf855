import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../db/seed/index';
import { freshServer } from '../test-support';
import { THROTTLE_AFTER } from './session';

type Server = Awaited<ReturnType<typeof freshServer>>;

const EMAIL = 'seller@demo.test';

describe('throttling and locking repeated login failures', () => {
  let s: Server;

  beforeAll(async () => {
    s = await freshServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const attempt = async (password: string, email = EMAIL) => {
    const res = await s.json('POST', '/auth/login', { email, password });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as { success: boolean; message: string },
    };
  };
  const failedLogins = async (email = EMAIL) =>
    (await s.db.selectFrom('login_failures').select('failed_logins').where('email', '=', email).executeTakeFirst())
      ?.failed_logins ?? 0;

  it('answers 401 to the first four wrong passwords', async () => {
    for (let i = 1; i <= 4; i++) {
      const r = await attempt(`wrong-${i}`);
      expect(r.status, `try ${i}`).toBe(401);
      expect(r.retryAfter).toBeNull();
    }
    expect(await failedLogins()).toBe(4);
  });

  it('throttles the fifth for 30 seconds, and then refuses even the right password', async () => {
    const fifth = await attempt('wrong-5');
    expect(fifth.status).toBe(429);
    expect(fifth.retryAfter).toBe('30');
    expect(fifth.body).toEqual({ success: false, message: 'Too many failed attempts. Try again in 30 seconds.' });

    const right = await attempt(DEMO_PASSWORD);
    expect(right.status).toBe(429);
    expect(right.body.success).toBe(false);
    s.clock.advance(20_000);
    expect((await attempt(DEMO_PASSWORD)).retryAfter).toBe('10');
    expect(await failedLogins()).toBe(5);
  });

  it('keeps throttling each further failure, and locks for 15 minutes at the tenth', async () => {
    for (let i = 6; i <= 9; i++) {
      s.clock.advance(30_000);
      const r = await attempt(`wrong-${i}`);
      expect(r.status, `try ${i}`).toBe(429);
      expect(r.retryAfter).toBe('30');
    }
    s.clock.advance(30_000);
    const tenth = await attempt('wrong-10');
    expect(tenth.status).toBe(429);
    expect(tenth.retryAfter).toBe('900');
    expect(tenth.body.message).toMatch(/locked.*15 minutes/);
    expect(await failedLogins()).toBe(10);
  });

  it('answers 190 more wrong passwords with 429 quickly, without verifying them', async () => {
    const started = performance.now();
    for (let i = 0; i < 190; i++) {
      const r = await attempt(`wrong-again-${i}`);
      expect(r.status).toBe(429);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
      expect(r.body.success).toBe(false);
    }
    // each real scrypt verification costs ~0.5 s: 190 of them would take minutes
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await failedLogins()).toBe(10);
  });

  it('leaves another account unaffected while this one is locked', async () => {
    expect((await attempt(DEMO_PASSWORD, 'newseller@demo.test')).status).toBe(200);
    expect((await attempt(DEMO_PASSWORD)).status).toBe(429);
  });

  it('lets the real user in once the lock ends, and resets the counter', async () => {
    s.clock.advance(15 * 60_000 - 2_000);
    expect((await attempt(DEMO_PASSWORD)).status).toBe(429);
    s.clock.advance(2_000 + 1_000);
    const ok = await attempt(DEMO_PASSWORD);
    expect(ok.status).toBe(200);
    expect(await failedLogins()).toBe(0);
    const row = await s.db
      .selectFrom('login_failures')
      .select('locked_until')
      .where('email', '=', EMAIL)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    // and a later single mistake is an ordinary 401 again
    expect((await attempt('one-more-typo')).status).toBe(401);
  });

  it('does not let a burst of parallel tries slip past the throttle', async () => {
    const email = 'rejected@demo.test';
    const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(`parallel-${i}`, email)));
    const statuses = burst.map((r) => r.status).sort();
    // only the first five tries are verified (and counted); the seventh to twelfth find the account throttled
    expect(await failedLogins(email)).toBe(THROTTLE_AFTER);
    expect(statuses).toEqual([...Array(THROTTLE_AFTER - 1).fill(401), ...Array(12 - THROTTLE_AFTER + 1).fill(429)]);
    s.clock.advance(30_000);
    expect((await attempt(DEMO_PASSWORD, email)).status).toBe(200);
    expect(await failedLogins(email)).toBe(0);
  });

  it('throttles an address with no account exactly like one with an account (no enumeration)', async () => {
    const known = 'member@demo.test';
    const unknown = 'nobody-here@demo.test';
    const run = async (email: string) => {
      const out: Array<[number, string | null, string]> = [];
      for (let i = 1; i <= 6; i++) {
        const r = await attempt(`guess-${i}`, email);
        out.push([r.status, r.retryAfter, r.body.message]);
      }
      return out;
    };
    const forKnown = await run(known);
    const forUnknown = await run(unknown);
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown.map(([status]) => status)).toEqual([401, 401, 401, 401, 429, 429]);
  });
});
