import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { type Db, openDatabase } from '../db/database';
import { DEMO_PASSWORD } from '../db/seed/index';
import { createLogger } from '../logger';
import { readOutbox } from '../mail/outbox';
import { freshServer } from '../test-support';
import { DEVICE_COOKIE } from './devices';
import { hashPool } from './hash-pool';
import { ACCOUNT_RULES, PAIR_RULES } from './throttle';
import { hashToken } from './tokens';

type Server = Awaited<ReturnType<typeof freshServer>>;

/**
 * The owner cannot be kept out: an attacker's guesses lock the attacker's place out of the account, not the
 * owner elsewhere; guesses from everywhere lock the account for browsers it does not know, while a browser that
 * logged in before (its device cookie) still gets in, and the owner is mailed a link that lifts the lock; during
 * a flood of logins a known browser's password check jumps the queue.
 */
describe('login locks per account and client, known browsers, the unlock link', () => {
  let s: Server;
  let clients = 0;
  const fresh = () => `203.0.113.${++clients}`;

  beforeAll(async () => {
    s = await freshServer({ trustProxy: 1, appUrl: 'http://portal.test' });
  });
  afterAll(async () => {
    await s?.close();
  });

  const attempt = async (
    email: string,
    password: string,
    from: string,
    cookie?: string,
    app: { request: typeof s.app.request } = s.app,
  ) => {
    const res = await app.request('/api/auth/login', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': from,
        ...(cookie ? { cookie: `${DEVICE_COOKIE}=${cookie}` } : {}),
      },
      body: JSON.stringify({ email, password }),
    });
    const setCookie = res.headers.get('set-cookie');
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      setCookie,
      device: /sb_device=([^;]+)/.exec(setCookie ?? '')?.[1],
      body: (await res.json()) as { success: boolean; message: string },
    };
  };
  /** Wrong guesses, one per client, from `n` places: a botnet. */
  const spread = async (email: string, n: number) => {
    const answers = [];
    for (let i = 0; i < n; i++) answers.push(await attempt(email, `botnet-${i}`, `198.18.${clients}.${i + 1}`));
    clients++;
    return answers;
  };

  it('keeps an attacker guessing from one place out of that place only: the owner elsewhere logs in', async () => {
    const attacker = fresh();
    const owner = fresh();
    for (let i = 1; i <= PAIR_RULES.lockAfter; i++) {
      await attempt('rival@demo.test', `guess-${i}`, attacker);
      if (i >= PAIR_RULES.throttleAfter) s.clock.advance(PAIR_RULES.throttleMs);
    }
    const refused = await attempt('rival@demo.test', DEMO_PASSWORD, attacker);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('870');
    const ok = await attempt('rival@demo.test', DEMO_PASSWORD, owner);
    expect(ok.status).toBe(200);
  });

  it('sets a device cookie that scripts and other sites never see, and keeps only its hash', async () => {
    const ok = await attempt('fanzone@demo.test', DEMO_PASSWORD, fresh());
    expect(ok.status).toBe(200);
    expect(ok.setCookie).toMatch(
      /^sb_device=[A-Za-z0-9_-]{43}; Path=\/api\/auth; Max-Age=15552000; HttpOnly; SameSite=Strict$/,
    );
    const rows = await s.db.selectFrom('login_devices').select('device_hash').execute();
    expect(rows.map((r) => r.device_hash)).toContain(hashToken(ok.device ?? ''));
    expect(rows.map((r) => r.device_hash)).not.toContain(ok.device);
    // Secure over https (behind the trusted proxy that says so)
    const secure = await s.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': fresh(), 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ email: 'fanzone@demo.test', password: DEMO_PASSWORD }),
    });
    expect(secure.headers.get('set-cookie')).toMatch(/; Secure$/);
    // a refused login sets none
    expect((await attempt('fanzone@demo.test', 'wrong-one', fresh())).setCookie).toBeNull();
  });

  it('locks an account guessed at from everywhere for unknown browsers, lets the known one in, and mails the owner', async () => {
    const email = 'tickets4u@demo.test';
    // the owner logged in from this browser last week
    const home = await attempt(email, DEMO_PASSWORD, fresh());
    expect(home.status).toBe(200);
    const cookie = home.device;
    // a botnet: one wrong guess from each of 30 places
    const guesses = await spread(email, ACCOUNT_RULES.lockAfter);
    expect(guesses.at(-1)?.status).toBe(429);
    expect(guesses.at(-1)?.retryAfter).toBe('900');
    // the right password from a browser the account does not know: locked, and told where the way in is
    const stranger = await attempt(email, DEMO_PASSWORD, fresh());
    expect(stranger.status).toBe(429);
    expect(stranger.body.message).toMatch(/log in from a browser you used before, or open the link we emailed/);
    // the owner's browser, from anywhere, gets in; a second process on the same database agrees
    expect((await attempt(email, DEMO_PASSWORD, fresh(), cookie)).status).toBe(200);
    const second: Db = openDatabase(s.target);
    try {
      const other = createApp({ db: second, clock: s.clock, log: createLogger('silent'), trustProxy: 1 });
      expect((await attempt(email, DEMO_PASSWORD, fresh(), cookie, other)).status).toBe(200);
      expect((await attempt(email, DEMO_PASSWORD, fresh(), undefined, other)).status).toBe(429);
    } finally {
      await second.destroy();
    }
    // the owner was mailed once, with a link; nothing a person typed is in it
    const [mail, ...more] = await readOutbox(s.db, { to: email });
    expect(more.filter((m) => m.subject === mail?.subject)).toEqual([]);
    expect(mail?.subject).toBe('Your SB Portal account was locked after wrong passwords');
    expect(mail?.body).toMatch(/http:\/\/portal\.test\/login\/unlock\/[A-Za-z0-9_-]{43}/);
  });

  it('mails nobody when the address has no account, and answers it the same', async () => {
    const ghost = 'nobody-at-all@example.test';
    const guesses = await spread(ghost, ACCOUNT_RULES.lockAfter);
    expect(guesses.at(-1)?.status).toBe(429);
    expect((await attempt(ghost, DEMO_PASSWORD, fresh())).body.message).toMatch(/open the link we emailed/);
    expect(await readOutbox(s.db, { to: ghost })).toEqual([]);
  });

  it('opens the lock with the mailed link, once, and lets the browser that opened it in', async () => {
    const email = 'tickets4u@demo.test';
    const [mail] = await readOutbox(s.db, { to: email });
    const token = /\/login\/unlock\/([A-Za-z0-9_-]{43})/.exec(mail?.body ?? '')?.[1] ?? '';
    const phone = fresh();
    const unlock = (t: string) =>
      s.app.request('/api/auth/unlock-account', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': phone },
        body: JSON.stringify({ token: t }),
      });
    const opened = await unlock(token);
    expect(opened.status).toBe(200);
    const cookie = /sb_device=([^;]+)/.exec(opened.headers.get('set-cookie') ?? '')?.[1];
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await opened.json()).data).toEqual({ email });
    // single use
    expect((await unlock(token)).status).toBe(404);
    // the lock is lifted: a browser the account does not know logs in again
    expect((await attempt(email, DEMO_PASSWORD, fresh())).status).toBe(200);
    // and the phone is a known browser: a new botnet's lock does not keep it out
    await spread(email, ACCOUNT_RULES.lockAfter);
    expect((await attempt(email, DEMO_PASSWORD, phone)).status).toBe(429);
    expect((await attempt(email, DEMO_PASSWORD, phone, cookie)).status).toBe(200);
  });

  it('an unlock link expires after 24 hours', async () => {
    const email = 'tickets4u@demo.test';
    s.clock.advance(ACCOUNT_RULES.lockMs);
    await spread(email, ACCOUNT_RULES.lockAfter);
    const [mail] = await readOutbox(s.db, { to: email });
    const token = /\/login\/unlock\/([A-Za-z0-9_-]{43})/.exec(mail?.body ?? '')?.[1] ?? '';
    s.clock.advance(24 * 60 * 60_000 + 1000);
    const late = await s.app.request('/api/auth/unlock-account', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(late.status).toBe(404);
  });

  it('binds the cookie to its account, and throttles a known browser on its own', async () => {
    const mine = await attempt('kyc@demo.test', DEMO_PASSWORD, fresh());
    expect(mine.status).toBe(200);
    // another account's lock is not passed with this account's cookie
    const target = 'rejected@demo.test';
    await spread(target, ACCOUNT_RULES.lockAfter);
    expect((await attempt(target, DEMO_PASSWORD, fresh(), mine.device)).status).toBe(429);
    // a stolen cookie guesses no faster than a place: throttled at 5, locked at 10, and the account's count stands
    const before = await s.db
      .selectFrom('login_failures')
      .select('failed_logins')
      .where('email', '=', 'kyc@demo.test')
      .executeTakeFirst();
    const from = fresh();
    const waits = [];
    for (let i = 1; i <= PAIR_RULES.lockAfter; i++) {
      waits.push((await attempt('kyc@demo.test', `cookie-guess-${i}`, from, mine.device)).retryAfter);
      if (i >= PAIR_RULES.throttleAfter) s.clock.advance(PAIR_RULES.throttleMs);
    }
    expect(waits).toEqual([null, null, null, null, '30', '30', '30', '30', '30', '900']);
    const locked = await attempt('kyc@demo.test', DEMO_PASSWORD, from, mine.device);
    expect(locked.body.message).toMatch(/from this browser/);
    expect(
      await s.db
        .selectFrom('login_failures')
        .select('failed_logins')
        .where('email', '=', 'kyc@demo.test')
        .executeTakeFirst(),
    ).toEqual(before);
    // the owner on another browser is not held by the stolen one's lock
    expect((await attempt('kyc@demo.test', DEMO_PASSWORD, fresh())).status).toBe(200);
  });

  it('lets a known browser log in during a flood that fills the hashing queue (the others get 503)', async () => {
    const email = 'seller@demo.test';
    s.clock.advance(ACCOUNT_RULES.forgetMs + 1000);
    const home = await attempt(email, DEMO_PASSWORD, fresh());
    expect(home.status).toBe(200);
    const { concurrency, queueLimit } = hashPool.options;
    const gates: Array<() => void> = [];
    const blockers = Array.from({ length: concurrency + queueLimit }, () =>
      hashPool.run(() => new Promise<void>((resolve) => gates.push(resolve))),
    );
    try {
      expect(hashPool.isFull()).toBe(true);
      expect((await attempt(email, DEMO_PASSWORD, fresh())).status).toBe(503);
      const known = attempt(email, DEMO_PASSWORD, fresh(), home.device);
      // it waits for the hash in progress only: the first slot that frees is its, ahead of the queued flood
      await new Promise((resolve) => setTimeout(resolve, 200));
      gates.shift()?.();
      const answer = await known;
      expect(answer.status).toBe(200);
      // while the flood still waits
      expect(hashPool.queued).toBeGreaterThanOrEqual(queueLimit - 1);
    } finally {
      for (;;) {
        const open = gates.shift();
        if (open) open();
        if (gates.length === 0 && hashPool.queued === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await Promise.all(blockers);
    }
  });

  it('a flood of logins from many addresses fills the queue: the known browser still gets in, the flood gets 503', async () => {
    const email = 'seller@demo.test';
    const home = await attempt(email, DEMO_PASSWORD, fresh());
    expect(home.status).toBe(200);
    // the decoy hash an unknown address is checked against is made once, before
    expect((await attempt('flood-warm-up@example.test', 'nothing', fresh())).status).toBe(401);
    const { concurrency, queueLimit } = hashPool.options;
    // the hashes in progress: the flood's first ones, held until the test lets them finish
    const gates: Array<() => void> = [];
    const running = Array.from({ length: concurrency }, () =>
      hashPool.run(() => new Promise<void>((resolve) => gates.push(resolve))),
    );
    // the flood: twice the queue's room of logins from as many addresses, for addresses nobody has
    const answered: number[] = [];
    const flood = Array.from({ length: 2 * queueLimit }, (_, i) =>
      attempt(`flood-${i}@example.test`, `flood-${i}`, `198.19.${clients}.${i + 1}`).then((a) => {
        answered.push(a.status);
        return a;
      }),
    );
    clients++;
    try {
      // the queue's room taken by the flood, and the rest of the flood answered at once: 503
      for (let i = 0; i < 500 && (hashPool.queued < queueLimit || answered.length < queueLimit); i++)
        await new Promise((r) => setTimeout(r, 10));
      expect(hashPool.queued).toBe(queueLimit);
      expect(answered).toEqual(Array(queueLimit).fill(503));
      expect((await attempt(email, DEMO_PASSWORD, fresh())).status).toBe(503);
      // the owner's browser is queued in its own lane, and the first slot that frees is its
      const known = attempt(email, DEMO_PASSWORD, fresh(), home.device);
      for (let i = 0; i < 200 && hashPool.queued <= queueLimit; i++) await new Promise((r) => setTimeout(r, 10));
      gates.shift()?.();
      expect((await known).status).toBe(200);
      // the flood's queued logins still wait for the held hashes; those beyond the queue got 503 at once
      expect(hashPool.queued).toBeGreaterThan(0);
    } finally {
      for (const open of gates.splice(0)) open();
      await Promise.all(running);
    }
    // the queued ones were checked in the end (wrong passwords for nobody's address)
    const answers = (await Promise.all(flood)).map((a) => a.status);
    expect(answers.filter((status) => status === 401)).toHaveLength(queueLimit);
  });
});
