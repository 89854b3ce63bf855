import { randomBytes, scryptSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app';
import { type Db, openDatabase } from '../db/database';
import { DEMO_PASSWORD } from '../db/seed/index';
import { createLogger } from '../logger';
import { freshServer } from '../test-support';
import { NO_SOCKET_CLIENT } from './client';
import { hashPool } from './hash-pool';
import { SCRYPT, verifyPassword } from './passwords';
import { BUSY_MESSAGE } from './session';
import { CLIENT_RULES, CLIENT_SCOPE, PAIR_RULES, pairKey, RESERVATION_MS, recordFailure, tryReserve } from './throttle';

type Server = Awaited<ReturnType<typeof freshServer>>;

const EMAIL = 'seller@demo.test';
/** For tests that check many passwords: each takes half a second of a core, more on a busy machine. */
const SLOW = 120_000;
const { throttleAfter: THROTTLE_AFTER, lockAfter: LOCK_AFTER } = PAIR_RULES;

describe('throttling and locking repeated login failures', () => {
  let s: Server;
  // every test speaks from an address of its own (through a trusted proxy), so that the per-client limit is
  // only met where a test means to meet it
  let nextClient = 1;
  let client = '';

  beforeAll(async () => {
    s = await freshServer({ trustProxy: 1 });
  });
  afterAll(async () => {
    await s?.close();
  });
  const newClient = () => {
    client = `198.51.100.${nextClient++}`;
    return client;
  };
  newClient();

  const attempt = async (password: string, email = EMAIL, from = client, app = s.app) => {
    const res = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.9.9.9, ${from}` },
      body: JSON.stringify({ email, password }),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as { success: boolean; message: string },
    };
  };
  /** The count of this account address from the current client (the pair's: what one place's guesses lock). */
  const row = (email = EMAIL, from = client) =>
    s.db.selectFrom('login_pair_failures').selectAll().where('pair', '=', pairKey(email, from)).executeTakeFirst();
  const failedLogins = async (email = EMAIL) => (await row(email))?.failed_logins ?? 0;
  const lockAccount = async (email: string) => {
    for (let i = 1; i <= LOCK_AFTER; i++) {
      const r = await attempt(`lock-${i}`, email);
      expect(r.status, `try ${i}`).toBe(i < THROTTLE_AFTER ? 401 : 429);
      if (i >= THROTTLE_AFTER) s.clock.advance(PAIR_RULES.throttleMs);
    }
  };

  describe('one account, one guess at a time', () => {
    it(
      'answers 401 to the first four wrong passwords',
      async () => {
        for (let i = 1; i <= 4; i++) {
          const r = await attempt(`wrong-${i}`);
          expect(r.status, `try ${i}`).toBe(401);
          expect(r.retryAfter).toBeNull();
        }
        expect(await failedLogins()).toBe(4);
      },
      SLOW,
    );

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

    it(
      'keeps throttling each further failure, and locks for 15 minutes at the tenth',
      async () => {
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
        // the lock restarts the count at the throttle threshold, for when it ends
        expect(await failedLogins()).toBe(THROTTLE_AFTER);
      },
      SLOW,
    );

    it('answers 190 more wrong passwords with 429 quickly, without verifying them', async () => {
      const hashing = vi.spyOn(hashPool, 'tryRun');
      try {
        for (let i = 0; i < 190; i++) {
          const r = await attempt(`wrong-again-${i}`);
          expect(r.status).toBe(429);
          expect(Number(r.retryAfter)).toBeGreaterThan(0);
          expect(r.body.success).toBe(false);
        }
        // not one password was checked (each scrypt costs half a second of a core and 64 MiB)
        expect(hashing).not.toHaveBeenCalled();
      } finally {
        hashing.mockRestore();
      }
      expect(await failedLogins()).toBe(THROTTLE_AFTER);
      // refused tries count against the client neither (its ten verified failures stand)
      const byClient = await s.db
        .selectFrom('login_client_failures')
        .selectAll()
        .where('client', '=', client)
        .executeTakeFirst();
      expect(byClient?.failed_logins ?? 0).toBe(LOCK_AFTER);
    });

    it('locks this place out of the account, not the owner elsewhere', async () => {
      const attacker = client;
      newClient();
      expect((await attempt(DEMO_PASSWORD)).status).toBe(200);
      client = attacker;
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
      expect(await row()).toBeUndefined();
      // and a later single mistake is an ordinary 401 again
      expect((await attempt('one-more-typo')).status).toBe(401);
    });
  });

  describe('lockout abuse: the owner always has a way in, and guessing stays slow', () => {
    const email = 'rival@demo.test';

    it(
      'after a lock, one wrong guess throttles for 30 seconds instead of locking again',
      async () => {
        newClient();
        await lockAccount(email);
        expect((await row(email))?.locked_until).toBe(
          new Date(s.clock.now().getTime() + 15 * 60_000 - 30_000).toISOString(),
        );
        // an attacker guesses as each lock ends, then every 15 minutes, for two hours: each guess still counts
        // (every fifth locks again), but none keeps the account locked until the next one
        const waits: Array<string | null> = [];
        for (let cycle = 1; cycle <= 8; cycle++) {
          s.clock.advance(15 * 60_000);
          const guess = await attempt(`every-15-minutes-${cycle}`, email);
          expect(guess.status, `cycle ${cycle}`).toBe(429);
          waits.push(guess.retryAfter);
        }
        expect(waits).toEqual(['30', '30', '30', '30', '900', '30', '30', '30']);
        // and the owner, a minute after the last guess, gets in
        s.clock.advance(60_000);
        expect((await attempt(DEMO_PASSWORD, email)).status).toBe(200);
      },
      SLOW,
    );

    it(
      'locks again for 15 minutes after five more wrong guesses once a lock ends',
      async () => {
        newClient();
        await lockAccount(email);
        s.clock.advance(15 * 60_000);
        const waits: Array<string | null> = [];
        for (let i = 1; i <= LOCK_AFTER - THROTTLE_AFTER; i++) {
          waits.push((await attempt(`after-lock-${i}`, email)).retryAfter);
          s.clock.advance(30_000);
        }
        expect(waits).toEqual(['30', '30', '30', '30', '900']);
        expect((await attempt(DEMO_PASSWORD, email)).status).toBe(429);
        s.clock.advance(15 * 60_000);
        expect((await attempt(DEMO_PASSWORD, email)).status).toBe(200);
      },
      SLOW,
    );

    it(
      'forgets failures after an hour without one',
      async () => {
        newClient();
        for (let i = 1; i < THROTTLE_AFTER; i++) expect((await attempt(`quiet-${i}`, email)).status).toBe(401);
        s.clock.advance(PAIR_RULES.forgetMs + 1_000);
        // without forgetting, this would be the fifth failure in a row and answer 429
        expect((await attempt('after-a-quiet-hour', email)).status).toBe(401);
        expect(await failedLogins(email)).toBe(1);
        expect((await attempt(DEMO_PASSWORD, email)).status).toBe(200);
      },
      SLOW,
    );
  });

  describe('parallel tries', () => {
    it(
      'does not let a burst of parallel tries slip past the throttle',
      async () => {
        newClient();
        const email = 'rejected@demo.test';
        const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(`parallel-${i}`, email)));
        const statuses = burst.map((r) => r.status).sort();
        // only the first five tries are verified (and counted); the others find the account throttled
        expect(await failedLogins(email)).toBe(THROTTLE_AFTER);
        expect(statuses).toEqual([...Array(THROTTLE_AFTER - 1).fill(401), ...Array(12 - THROTTLE_AFTER + 1).fill(429)]);
        s.clock.advance(30_000);
        expect((await attempt(DEMO_PASSWORD, email)).status).toBe(200);
        expect(await failedLogins(email)).toBe(0);
      },
      SLOW,
    );

    it(
      'never counts a correct password as a failure: 6 simultaneous correct logins all succeed',
      async () => {
        newClient();
        const burst = await Promise.all(Array.from({ length: 6 }, () => attempt(DEMO_PASSWORD, 'member@demo.test')));
        expect(burst.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
        expect(await row('member@demo.test')).toBeUndefined();
      },
      SLOW,
    );

    it(
      'lets correct logins through one at a time when the account is one failure from the throttle',
      async () => {
        newClient();
        const email = 'member@demo.test';
        for (let i = 1; i < THROTTLE_AFTER; i++) expect((await attempt(`near-${i}`, email)).status).toBe(401);
        const burst = await Promise.all(Array.from({ length: 3 }, () => attempt(DEMO_PASSWORD, email)));
        expect(burst.map((r) => r.status)).toEqual([200, 200, 200]);
        expect(await row(email)).toBeUndefined();
      },
      SLOW,
    );

    it(
      'keeps the count in the database: two servers on one database share the throttle',
      async () => {
        newClient();
        const email = 'newseller@demo.test';
        const second: Db = openDatabase(s.target);
        try {
          const other = createApp({ db: second, clock: s.clock, log: createLogger('silent'), trustProxy: 1 });
          const burst = await Promise.all(
            Array.from({ length: 12 }, (_, i) => attempt(`two-servers-${i}`, email, client, i % 2 ? other : s.app)),
          );
          expect(await failedLogins(email)).toBe(THROTTLE_AFTER);
          expect(burst.filter((r) => r.status === 401)).toHaveLength(THROTTLE_AFTER - 1);
          const both = await Promise.all(
            Array.from({ length: 4 }, (_, i) =>
              attempt(DEMO_PASSWORD, 'admin@demo.test', client, i % 2 ? other : s.app),
            ),
          );
          expect(both.map((r) => r.status)).toEqual([200, 200, 200, 200]);
        } finally {
          await second.destroy();
        }
      },
      SLOW,
    );
  });

  it(
    'throttles an address with no account exactly like one with an account (no enumeration)',
    async () => {
      const known = 'member@demo.test';
      const unknown = 'nobody-here@demo.test';
      const run = async (email: string) => {
        newClient();
        const out: Array<[number, string | null, string]> = [];
        for (let i = 1; i <= 6; i++) {
          const r = await attempt(`guess-${i}`, email);
          out.push([r.status, r.retryAfter, r.body.message]);
        }
        return out;
      };
      s.clock.advance(PAIR_RULES.forgetMs + 1_000);
      const forKnown = await run(known);
      const forUnknown = await run(unknown);
      expect(forUnknown).toEqual(forKnown);
      expect(forKnown.map(([status]) => status)).toEqual([401, 401, 401, 401, 429, 429]);
    },
    SLOW,
  );

  describe('per client', () => {
    const clientRow = (key = client) =>
      s.db.selectFrom('login_client_failures').selectAll().where('client', '=', key).executeTakeFirst();

    it(`throttles a client after ${CLIENT_RULES.throttleAfter} failures, whatever the addresses it tries`, async () => {
      newClient();
      for (let i = 1; i <= 3; i++) {
        expect((await attempt('guess', `made-up-${i}@example.test`)).status, `try ${i}`).toBe(401);
      }
      expect((await clientRow())?.failed_logins).toBe(3);
      // as if it had gone on with 16 more made-up addresses (each verification costs half a second)
      await s.db
        .updateTable('login_client_failures')
        .set({ failed_logins: CLIENT_RULES.throttleAfter - 1 })
        .where('client', '=', client)
        .execute();
      const last = await attempt('guess', 'made-up-last@example.test');
      expect(last.status).toBe(429);
      expect(last.retryAfter).toBe('30');
      expect(last.body).toEqual({
        success: false,
        message: 'Too many failed attempts from your network. Try again in 30 seconds.',
      });
      // the next try from this client is refused before any password check, right or wrong, and counts nothing
      const before = await row('newseller@demo.test');
      const refused = await attempt(DEMO_PASSWORD, 'newseller@demo.test');
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/from your network/);
      expect(await row('newseller@demo.test')).toEqual(before);
      expect((await clientRow())?.failed_logins).toBe(CLIENT_RULES.throttleAfter);
      // another client is not affected
      const elsewhere = client;
      newClient();
      expect((await attempt(DEMO_PASSWORD, 'newseller@demo.test')).status).toBe(200);
      expect((await attempt('typo', 'newseller@demo.test')).status).toBe(401);
      // and the throttled client gets its turn back when the wait is over; its success does not wipe its count
      s.clock.advance(30_000);
      expect((await attempt(DEMO_PASSWORD, 'newseller@demo.test', elsewhere)).status).toBe(200);
      expect((await clientRow(elsewhere))?.failed_logins).toBe(CLIENT_RULES.throttleAfter);
    });

    it('verifies at most three tries of one client at once, so that one client cannot fill the hashing pool', async () => {
      const key = newClient();
      const now = s.clock.now();
      const tries = [];
      for (let i = 0; i < CLIENT_RULES.maxInFlight + 2; i++) tries.push(await tryReserve(s.db, CLIENT_SCOPE, key, now));
      expect(tries.map((t) => t.kind)).toEqual(['reserved', 'reserved', 'reserved', 'full', 'full']);
      expect(CLIENT_RULES.maxInFlight).toBeLessThan(hashPool.options.concurrency + hashPool.options.queueLimit);
      // one ends (a failure): a slot is free again
      await recordFailure(s.db, CLIENT_SCOPE, key, now);
      expect((await tryReserve(s.db, CLIENT_SCOPE, key, now)).kind).toBe('reserved');
      // reservations of a process that died stop counting after a minute
      s.clock.advance(RESERVATION_MS + 1);
      expect((await tryReserve(s.db, CLIENT_SCOPE, key, s.clock.now())).kind).toBe('reserved');
    });

    it('trusts X-Forwarded-For only as far as TRUST_PROXY says: without it, every request is its socket', async () => {
      const untrusting = createApp({ db: s.db, clock: s.clock, log: createLogger('silent') });
      // app.request has no socket: these count as one client, whatever they claim to be
      for (const spoofed of ['192.0.2.1', '192.0.2.2']) {
        expect((await attempt('guess', `spoofed-${spoofed}@example.test`, spoofed, untrusting)).status).toBe(401);
      }
      expect((await clientRow(NO_SOCKET_CLIENT))?.failed_logins).toBe(2);
      expect(await clientRow('192.0.2.1')).toBeUndefined();
      expect(await clientRow('192.0.2.2')).toBeUndefined();
    });
  });

  describe('the bounded hashing pool', () => {
    it('answers 503 with Retry-After and the envelope when the queue is full, and counts nothing', async () => {
      newClient();
      s.clock.advance(PAIR_RULES.forgetMs + 1_000);
      const { concurrency, queueLimit } = hashPool.options;
      const before = await row('seller@demo.test');
      let unblock = () => {};
      const gate = new Promise<void>((resolve) => {
        unblock = resolve;
      });
      const blockers = Array.from({ length: concurrency + queueLimit }, () => hashPool.run(() => gate));
      try {
        expect(hashPool.isFull()).toBe(true);
        const res = await attempt(DEMO_PASSWORD, 'seller@demo.test');
        expect(res.status).toBe(503);
        expect(Number(res.retryAfter)).toBeGreaterThan(0);
        expect(res.body).toEqual({ success: false, message: BUSY_MESSAGE });
      } finally {
        unblock();
        await Promise.all(blockers);
      }
      expect(await row('seller@demo.test')).toEqual(before);
      expect((await attempt(DEMO_PASSWORD, 'seller@demo.test')).status).toBe(200);
    });
  });

  describe('password hashes', () => {
    it('rehashes a password stored with older scrypt parameters at the next successful login', async () => {
      newClient();
      const email = 'rejected@demo.test';
      const salt = randomBytes(16);
      const old = scryptSync(DEMO_PASSWORD, salt, 64, { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 });
      const oldHash = ['scrypt', 2 ** 17, 8, 1, salt.toString('base64url'), old.toString('base64url')].join('$');
      await s.db.updateTable('users').set({ password_hash: oldHash }).where('email', '=', email).execute();

      expect((await attempt(DEMO_PASSWORD, email)).status).toBe(200);
      const { password_hash } = await s.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(password_hash).not.toBe(oldHash);
      expect(password_hash.split('$').slice(0, 4)).toEqual([
        'scrypt',
        String(SCRYPT.N),
        String(SCRYPT.r),
        String(SCRYPT.p),
      ]);
      expect(await verifyPassword(DEMO_PASSWORD, password_hash)).toBe(true);
      expect((await attempt(DEMO_PASSWORD, email)).status).toBe(200);
    });
  });
});
