import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf, freshTarget, num, serveReal, startRealServer, stopChild } from './bench-support';

const SELF = import.meta.filename;

/** Migrates, seeds, adds the listings in bulk; answers a token of the seller and the URLs to measure. */
async function prepare(target: string, count: number) {
  const { openDatabase, engineOf } = await import('../server/db/database');
  const { migrateToLatest } = await import('../server/db/migrate');
  const { seed } = await import('../server/db/seed/index');
  const { systemClock } = await import('../server/clock');
  const { newToken, hashToken, TOKEN_LIFETIME_MS } = await import('../server/auth/tokens');
  const { sql } = await import('kysely');
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
  if (engineOf(db) === 'postgres') await sql`ANALYZE`.execute(db);
  else await sql`ANALYZE`.execute(db);
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
  await db.destroy();
  const from = now.toISOString().slice(0, 10);
  const to = new Date(now.getTime() + 90 * 86_400_000).toISOString().slice(0, 10);
  return {
    token,
    listings: Number(total.n),
    busiest: { id: busiest.event_id, listings: Number(busiest.n) },
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
async function drained(base: string) {
  const until = performance.now() + 120_000;
  while (performance.now() < until) {
    const started = performance.now();
    await fetch(`${base}/api/health`);
    if (performance.now() - started < 50) return;
    await new Promise((done) => setTimeout(done, 500));
  }
}

async function measure(url: string, token: string, seconds: number, connections: number) {
  const autocannon = (await import('autocannon')).default;
  const run = (duration: number) =>
    autocannon({
      url,
      headers: { authorization: `Bearer ${token}` },
      connections,
      duration,
      timeout: 30,
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

async function main() {
  const seconds = num('duration', 10);
  const connections = num('connections', 50);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-search-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_search');
  try {
    console.info(`bench:search on ${engine}: preparing ${num('listings', 100_000)} listings...`);
    const setup = await prepare(target, num('listings', 100_000));
    const { child: server, base } = await startRealServer(SELF, dir, target);
    console.info(
      `${engine}, ${setup.listings} listings (busiest match ${setup.listings ? setup.busiest.listings : 0}), ${connections} connections, ${seconds} s each, node ${process.version}`,
    );
    let worst = 0;
    try {
      for (const [name, path] of setup.urls) {
        await drained(base);
        const f = await measure(`${base}${path}`, setup.token, seconds, connections);
        worst = Math.max(worst, f.p99);
        console.info(
          `  ${name.padEnd(17)} ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p99 ${f.p99.toFixed(1).padStart(6)} ms${f.bad ? `  (${f.bad} failed or not 2xx)` : ''}`,
        );
      }
    } finally {
      await stopChild(server);
    }
    console.info(
      `  target  p99 < 20 ms at ${connections} clients: ${worst < 20 ? 'met' : `missed (worst p99 ${worst} ms)`}`,
    );
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (argOf('serve') === 'real') await serveReal();
else await main();
