/**
 * What the benchmark scripts share: their options, the real server in a child process of their own, a free port,
 * a fresh database, and the demo seller's extra orders (bench:sales, bench:reports).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { OrderStatus } from '../server/db/schema';

export const ROOT = resolve(import.meta.dirname, '..');

/** `--name=value` on the command line. */
export const argOf = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
export const num = (name: string, fallback: number) => Number(argOf(name) ?? fallback);

/**
 * In the child: the real server, started the way `npm start` starts it (the environment carries its
 * configuration); tells the parent when it listens and closes on SIGTERM. `beside` runs first (bench-api
 * answers its CPU-time questions).
 */
export async function serveReal(beside?: () => void) {
  const { startServer } = await import('../server/main');
  const started = await startServer();
  beside?.();
  process.send?.('ready');
  process.once('SIGTERM', () => {
    void started.close().then(() => process.exit(0));
  });
}

/**
 * The planner's statistics as a running server has them: SQLite's as its housekeeping refreshes them at start
 * (server/db/statistics.ts), Postgres's as autovacuum would have gathered them by now.
 */
export async function plannerStatistics(db: import('../server/db/database').Db) {
  const { engineOf } = await import('../server/db/database');
  const { refreshStatistics } = await import('../server/db/statistics');
  if (engineOf(db) === 'postgres') {
    const { sql } = await import('kysely');
    await sql`ANALYZE`.execute(db);
  } else await refreshStatistics(db);
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Forks `script` (the benchmark itself, serving) with `args`; resolves once it says it is ready. */
export function startChild(
  script: string,
  args: string[],
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<ChildProcess> {
  const child = fork(script, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // BENCH_CPU_PROF=<dir> writes the server's CPU profile there when it stops (open it in Chrome's DevTools)
    execArgv: [
      '--import',
      'tsx',
      ...execArgv,
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((ready, fail) => {
    child.once('message', () => ready(child));
    child.once('exit', (code) => fail(new Error(`a bench server exited (${code}) before it was ready`)));
  });
}

/**
 * The real server in a child (`script` serving with `--serve=real`) on a free port, over `target` (a SQLite
 * file in `dir`, or the Postgres database of freshTarget), with production logging and no response checks.
 */
export async function startRealServer(
  script: string,
  dir: string,
  target: string,
  logLevel = 'info',
  env: Record<string, string> = {},
) {
  const port = await freePort();
  const child = await startChild(script, ['--serve=real'], {
    ...env,
    PORT: String(port),
    DATA_DIR: dir,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: target } : {}),
    LOG_LEVEL: logLevel,
    LOG_FORMAT: 'json',
    VALIDATE_RESPONSES: '0',
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/**
 * A fresh database for the real server: a file in `dir`, or a new database (named `<prefix>_<time>`) on the
 * DATABASE_URL server, dropped by `drop`.
 */
export async function freshTarget(dir: string, prefix: string) {
  const adminUrl = process.env.DATABASE_URL?.trim();
  if (!adminUrl) return { target: join(dir, 'portal.sqlite'), drop: async () => {} };
  const { openDatabase } = await import('../server/db/database');
  const { sql } = await import('kysely');
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = openDatabase(adminUrl, { poolSize: 1 });
  await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: url.toString(),
    drop: async () => {
      const again = openDatabase(adminUrl, { poolSize: 1 });
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(again);
      await again.destroy();
    },
  };
}

/** How a bench lays out the demo seller's extra orders: its status mix, each order's status and placing time. */
export interface OrderLayout {
  /** [status, share of the orders] */
  mix: readonly (readonly [OrderStatus, number])[];
  /** The booking number's prefix (a bench's own, so that two benches' orders never collide). */
  prefix: string;
  /** The status of order `n` of the plan (the plan lists each status's share in a row); default: plan[n]. */
  statusOf?: (n: number, plan: readonly OrderStatus[]) => OrderStatus;
  /** When order `n` of `total` was placed, in ms, given the bench's start. */
  placedAt: (n: number, total: number, now: number) => number;
}

/** 100,000 orders: pending 10%, confirmed 30%, delivered 20%, completed 25%, cancelled 10%, replaced 5%. */
const SALES_MIX: [OrderStatus, number][] = [
  ['pending', 0.1],
  ['confirmed', 0.3],
  ['delivered', 0.2],
  ['completed', 0.25],
  ['cancelled', 0.1],
  ['replaced', 0.05],
];

/** bench:sales's orders: the mix above, placed a few hundred hours back, a second apart. */
export const SALES_BENCH_LAYOUT: OrderLayout = {
  mix: SALES_MIX,
  prefix: 'BN',
  placedAt: (n, _total, now) => now - (n % 400) * 3_600_000 - n * 1000,
};

/**
 * Migrates and seeds `target`, then gives the demo seller `count` more orders over its listings as `layout` says
 * (quantities 1 to 4, deadlines by the sales rules, a pending order's 48 hours starting now so that the
 * housekeeping does not cancel them mid-run), recounts its kept totals, refreshes the planner statistics, and logs it in. The caller
 * reads what else it needs from the open `db` and destroys it. Used by bench:sales and bench:reports.
 */
export async function seedSellerOrders(target: string, count: number, layout: OrderLayout) {
  const { openDatabase } = await import('../server/db/database');
  const { migrateToLatest } = await import('../server/db/migrate');
  const { seed } = await import('../server/db/seed/index');
  const { systemClock } = await import('../server/clock');
  const { newToken, hashToken, TOKEN_LIFETIME_MS } = await import('../server/auth/tokens');
  const { recountOrderTotals } = await import('../server/domain/sales/totals');
  const { deadlinesFor } = await import('../server/domain/sales/deadlines');
  const db = openDatabase(target);
  await migrateToLatest(db);
  await seed(db, systemClock);
  const now = new Date();
  const seller = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'seller@demo.test')
    .executeTakeFirstOrThrow();
  const listings = await db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .select([
      'listings.id',
      'listings.event_id',
      'listings.ticket_type_id',
      'listings.price',
      'listings.currency',
      'listings.category',
      'listings.ticket_block',
      'listings.row',
      'listings.seats',
      'events.event_date',
      'events.event_time',
    ])
    .where('listings.seller_id', '=', seller.id)
    .orderBy('listings.id')
    .execute();
  const plan = layout.mix.flatMap(([status, share]) => Array.from({ length: Math.round(count * share) }, () => status));
  const statusOf = layout.statusOf ?? ((n: number, p: readonly OrderStatus[]) => p[n] as OrderStatus);
  const batch = 500;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < plan.length; i += batch) {
      const rows = plan.slice(i, i + batch).map((_, j) => {
        const n = i + j;
        const status = statusOf(n, plan);
        const l = listings[n % listings.length] as (typeof listings)[number];
        const created = new Date(layout.placedAt(n, plan.length, now.getTime())).toISOString();
        const quantity = 1 + (n % 4);
        return {
          booking_no: `${layout.prefix}${String(n).padStart(8, '0')}`,
          listing_id: l.id,
          seller_id: seller.id,
          event_id: l.event_id,
          quantity,
          amount: l.price * quantity,
          currency: l.currency,
          status,
          created_at: created,
          updated_at: created,
          event_date: l.event_date,
          event_time: l.event_time,
          ticket_type_id: l.ticket_type_id,
          category: l.category,
          ticket_block: l.ticket_block,
          row: l.row,
          seats: l.seats,
          delivered: status === 'delivered' || status === 'completed' ? quantity : 0,
          ...deadlinesFor(status, { created_at: created, event_date: l.event_date, event_time: l.event_time }),
          ...(status === 'pending' ? { accept_by: new Date(now.getTime() + 24 * 3_600_000).toISOString() } : {}),
        };
      });
      await trx.insertInto('orders').values(rows).execute();
    }
  });
  await recountOrderTotals(db, seller.id);
  await plannerStatistics(db);
  const token = newToken();
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: seller.id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
      revoked_at: null,
    })
    .execute();
  return { db, sellerId: seller.id, token };
}

/**
 * bench:search's database: migrates and seeds `target`, adds `count` listings in bulk over the upcoming matches
 * from the four demo sellers, logs the seller in and makes `callers` buyers (each with every permission and a
 * session, selling nothing); answers their tokens, the seller's listings (for a write stream) and the URLs.
 */
export async function seedSearchListings(target: string, count: number, callers = 50) {
  const { openDatabase, engineOf } = await import('../server/db/database');
  const { migrateToLatest } = await import('../server/db/migrate');
  const { seed } = await import('../server/db/seed/index');
  const { systemClock } = await import('../server/clock');
  const { newToken, hashToken, TOKEN_LIFETIME_MS } = await import('../server/auth/tokens');
  const db = openDatabase(target);
  await migrateToLatest(db);
  await seed(db, systemClock);
  const now = new Date();
  const ids = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'in', ['tickets4u@demo.test', 'fanzone@demo.test', 'rival@demo.test', 'seller@demo.test'])
    .execute();
  const idOf = (email: string) => (ids.find((u) => u.email === email) as { id: number }).id;
  const sellers = [
    idOf('tickets4u@demo.test'),
    idOf('fanzone@demo.test'),
    idOf('rival@demo.test'),
    idOf('seller@demo.test'),
  ];
  const events = await db
    .selectFrom('events')
    .select('id')
    .where('event_date', '>=', now.toISOString().slice(0, 10))
    .orderBy('id')
    .execute();
  const currencies = ['GBP', 'GBP', 'GBP', 'GBP', 'EUR', 'USD', 'AED'];
  const splits = ['any', 'any', 'any', 'pairs', 'avoid_single', 'all_together'];
  let x = 12345;
  const rnd = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const batch = engineOf(db) === 'postgres' ? 2000 : 500;
  for (let done = 0; done < count; done += batch) {
    const rows = Array.from({ length: Math.min(batch, count - done) }, (_, i) => {
      const quantity = 1 + rnd(12);
      return {
        seller_id: sellers[rnd(sellers.length)] as number,
        event_id: (events[(done + i) % events.length] as { id: number }).id,
        category: `Category ${rnd(6)}`,
        ticket_block: `Block ${rnd(130)}`,
        row: String(1 + rnd(30)),
        ticket_type_id: 1 + rnd(6),
        quantity,
        available: quantity,
        split_type: splits[rnd(splits.length)] as string,
        price: (8 + rnd(80)) * 500,
        currency: currencies[rnd(currencies.length)] as string,
        created_at: now.toISOString(),
      };
    });
    await db.insertInto('listings').values(rows).execute();
  }
  await plannerStatistics(db);
  const token = newToken();
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: idOf('seller@demo.test'),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
      revoked_at: null,
    })
    .execute();
  const busiest = await db
    .selectFrom('listings')
    .select(['event_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('event_id')
    .orderBy('n', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const listing = await db
    .selectFrom('listings')
    .select('id')
    .where('event_id', '=', busiest.event_id)
    .where('seller_id', '<>', idOf('seller@demo.test'))
    .where('available', '>', 0)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const total = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const { PERMISSIONS } = await import('../server/db/seed/index');
  const { newUserToken } = await import('../server/auth/tokens');
  const buyerTokens: string[] = [];
  for (let i = 0; i < callers; i++) {
    const { id } = await db
      .insertInto('users')
      .values({
        email: `bench-caller-${i}@bench.test`,
        password_hash: 'none',
        first_name: 'Bench',
        last_name: `Caller ${i}`,
        user_type: 'sellers',
        kyc_status: 1,
        kyc_rejection_reason: null,
        team_owner_id: null,
        currency: 'GBP',
        user_token: newUserToken(),
        created_at: now.toISOString(),
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('user_permissions')
      .values(PERMISSIONS.map((p) => ({ user_id: id, permission_name: p.name, is_can_access: 1 })))
      .execute();
    const callerToken = newToken();
    await db
      .insertInto('auth_tokens')
      .values({
        token_hash: hashToken(callerToken),
        user_id: id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
        revoked_at: null,
      })
      .execute();
    buyerTokens.push(callerToken);
  }
  const sellerListings = (
    await db
      .selectFrom('listings')
      .select('id')
      .where('seller_id', '=', idOf('seller@demo.test'))
      .orderBy('id')
      .limit(5000)
      .execute()
  ).map((l) => l.id);
  const offered = (
    await db.selectFrom('listings').select('event_id').distinct().orderBy('event_id').limit(100).execute()
  ).map((e) => e.event_id);
  await db.destroy();
  const from = now.toISOString().slice(0, 10);
  const to = new Date(now.getTime() + 90 * 86_400_000).toISOString().slice(0, 10);
  return {
    token,
    buyerTokens,
    sellerListings,
    listings: Number(total.n),
    busiest: { id: busiest.event_id, listings: Number(busiest.n) },
    /**
     * Many buyers asking different things: each request takes the next of these paths, so that a kept answer
     * (x-cache-ms) serves only the requests of the same path within its second.
     */
    mixes: [
      [
        `${26 * 3 * 3 * 5} searches`,
        [...'abcdefghijklmnopqrstuvwxyz'].flatMap((team) =>
          [1, 2, 3].flatMap((page) =>
            ['GBP', 'EUR', 'USD'].flatMap((currency) =>
              [10, 20, 30, 40, 50].map(
                (perPage) =>
                  `/api/purchase/lmt-trade/events-search?team=${team}&page=${page}&per_page=${perPage}&currency=${currency}`,
              ),
            ),
          ),
        ),
      ],
      [
        `${offered.length * 3 * 2 * 2} event pages`,
        offered.flatMap((id) =>
          ['GBP', 'EUR', 'USD'].flatMap((currency) =>
            ['price_asc', 'price_desc'].flatMap((sort) =>
              [1, 2].map(
                (page) => `/api/purchase/lmt-trade/events/${id}?currency=${currency}&sort=${sort}&page=${page}`,
              ),
            ),
          ),
        ),
      ],
    ] as const,
    urls: [
      ['search', '/api/purchase/lmt-trade/events-search?per_page=20'],
      [
        'search filtered',
        `/api/purchase/lmt-trade/events-search?team=a&competition=league&date_from=${from}&date_to=${to}`,
      ],
      ['search deep page', '/api/purchase/lmt-trade/events-search?page=3&per_page=20'],
      ['event page', `/api/purchase/lmt-trade/events/${busiest.event_id}?per_page=20`],
      ['event quantity', `/api/purchase/lmt-trade/events/${busiest.event_id}?quantity=2&sort=price_desc&currency=EUR`],
      ['listing', `/api/purchase/lmt-trade/tickets/${listing.id}?quantity=1`],
    ] as const,
  };
}

/** Waits (up to two minutes) until the server answers /api/health at once: the last URL's backlog is drained. */
export async function drained(base: string) {
  const until = performance.now() + 120_000;
  while (performance.now() < until) {
    const started = performance.now();
    await fetch(`${base}/api/health`);
    if (performance.now() - started < 50) return;
    await new Promise((done) => setTimeout(done, 500));
  }
}

/** `paths`: one path for every request, or a list that each request takes the next of (many buyers' questions). */
export async function measurePaths(
  base: string,
  paths: string | readonly string[],
  token: string | readonly string[],
  seconds: number,
  connections: number,
) {
  const autocannon = (await import('autocannon')).default;
  const list = typeof paths === 'string' ? [paths] : paths;
  // several tokens: each request is the next caller's (distinct buyers, each with answers of its own)
  const tokens = typeof token === 'string' ? [token] : token;
  let next = 0;
  let caller = 0;
  const run = (duration: number) =>
    autocannon({
      url: `${base}${list[0]}`,
      headers: { authorization: `Bearer ${tokens[0]}` },
      connections,
      duration,
      timeout: 30,
      ...(list.length > 1 || tokens.length > 1
        ? {
            requests: [
              {
                setupRequest: (request: { path?: string; headers?: Record<string, unknown> }) => ({
                  ...request,
                  path: list[next++ % list.length],
                  headers: { ...request.headers, authorization: `Bearer ${tokens[caller++ % tokens.length]}` },
                }),
              },
            ],
          }
        : {}),
    }) as unknown as Promise<{
      requests: { total: number };
      latency: { p50: number; p99: number };
      non2xx: number;
      errors: number;
      timeouts: number;
    }>;
  await run(2);
  const r = await run(seconds);
  return {
    rps: r.requests.total / seconds,
    p50: r.latency.p50,
    p99: r.latency.p99,
    bad: r.non2xx + r.errors + r.timeouts,
  };
}

/** Whether the bench's server keeps the answers of the x-cache-ms reads (ANSWER_CACHE, passed on to it). */
export async function answerCacheLine() {
  const { readConfig } = await import('../server/config');
  return readConfig(process.env).answerCache
    ? '  kept answers (x-cache-ms) on; ANSWER_CACHE=0 measures every request running its queries'
    : '  kept answers off (ANSWER_CACHE=0): every request runs its queries';
}

/**
 * A stream of `perSecond` writes while a line is measured: the seller's price changes through the API, each on
 * one listing (of `listings`, in turn, over many matches), as a seller repricing does. Answers `stop`, which
 * waits for the writes under way and answers how many were made and how many failed.
 */
export function startWrites(base: string, token: string, listings: readonly number[], perSecond: number) {
  if (perSecond <= 0 || listings.length === 0) return async () => ({ done: 0, failed: 0, perSecond: 0 });
  const started = performance.now();
  let done = 0;
  let failed = 0;
  let next = 0;
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    // the writes due by now (a timer late under load catches up)
    const due = Math.floor(((performance.now() - started) / 1000) * perSecond) - done - failed - pending.size;
    for (let i = 0; i < due; i++) {
      const id = listings[next++ % listings.length] as number;
      const write = fetch(`${base}/api/my-listings/update-ticket-price`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ticket_ids: [id], price: 4000 + 100 * (next % 40) }),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.ok) done++;
          else failed++;
        })
        .catch(() => {
          failed++;
        })
        .finally(() => pending.delete(write));
      pending.add(write);
    }
  }, 10);
  return async () => {
    clearInterval(timer);
    await Promise.all(pending);
    return { done, failed, perSecond: done / ((performance.now() - started) / 1000) };
  };
}
