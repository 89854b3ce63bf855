import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CompiledQuery } from 'kysely';
import {
  argOf,
  num,
  plannerStatistics,
  SALES_BENCH_LAYOUT,
  seedSearchListings,
  seedSellerOrders,
} from './bench-support';

/**
 * CPU time per call of bench:search's and bench:sales's URLs through the app in this process (no HTTP, no
 * other clients): what a call's own work costs, the figure a query plan change moves. The shared machine's load
 * hardly changes CPU time, unlike wall time.
 *
 *   node --import tsx scripts/profile-reads.ts --bench=search|sales [--db=/tmp/sb-profile-search.sqlite] [--calls=300]
 *
 * The database is made (as the bench makes it) on the first run and kept in the file for the next ones; with
 * DATABASE_URL, --db is a Postgres URL (an empty database, or one made by an earlier run).
 */
const bench = argOf('bench') === 'sales' ? 'sales' : 'search';
const target = argOf('db') ?? process.env.PROFILE_DB ?? `/tmp/sb-profile-${bench}.sqlite`;
const calls = num('calls', 300);
const memo = `${target.startsWith('postgres') ? `/tmp/sb-profile-${bench}-pg` : target}.json`;

async function urlsAndToken(): Promise<{ token: string; urls: (readonly [string, string])[] }> {
  if (existsSync(memo)) return JSON.parse((await import('node:fs')).readFileSync(memo, 'utf8'));
  if (!target.startsWith('postgres')) mkdirSync(dirname(target), { recursive: true });
  let made: { token: string; urls: (readonly [string, string])[] };
  if (bench === 'search') {
    const s = await seedSearchListings(target, num('listings', 100_000));
    made = { token: s.token, urls: s.urls.map(([name, path]) => [name, path] as const) };
  } else {
    const s = await seedSellerOrders(target, num('orders', 100_000), SALES_BENCH_LAYOUT);
    await s.db.destroy();
    made = {
      token: s.token,
      urls: [
        ['overview', '/api/sales/overview-all-currency'],
        ['pending', '/api/sales/history-all-currency?status=pending'],
        ['confirmed by deadline', '/api/sales/history-all-currency?status=confirmed&sort=deadline'],
        ['delivered q=united', '/api/sales/history-all-currency?status=delivered&q=united'],
        ['completed by amount', '/api/sales/history-all-currency?status=completed&sort=amount_desc'],
        ['sales-count', '/api/sales/sales-count'],
      ],
    };
  }
  writeFileSync(memo, JSON.stringify(made));
  return made;
}

const { token, urls } = await urlsAndToken();
const { openDatabase } = await import('../server/db/database');
const { createApp } = await import('../server/app');
const { systemClock } = await import('../server/clock');
const { createLogger } = await import('../server/logger');
const { migrateToLatest } = await import('../server/db/migrate');
const db = openDatabase(target);
// a database kept from an earlier run takes the migrations added since (and their statistics)
if ((await migrateToLatest(db)).length > 0) await plannerStatistics(db);
// --queries: the CPU time of each statement (by its text) the calls ran, most expensive first
const perQuery = new Map<string, { n: number; us: number }>();
if (argOf('queries')) {
  // the executor runs every statement, built (query builders) or prepared (db.executeQuery)
  const executor = db.getExecutor();
  const run = executor.executeQuery.bind(executor);
  executor.executeQuery = (async (query: CompiledQuery) => {
    const before = process.cpuUsage();
    try {
      return await run(query);
    } finally {
      const used = process.cpuUsage(before);
      const text = query.sql.replace(/\s+/g, ' ').slice(0, 160);
      const q = perQuery.get(text) ?? { n: 0, us: 0 };
      q.n += 1;
      q.us += used.user + used.system;
      perQuery.set(text, q);
    }
  }) as typeof executor.executeQuery;
}
const app = createApp({ db, clock: systemClock, log: createLogger('warn', 'json') });
const only = argOf('only');
const { loadavg } = await import('node:os');
console.info(
  `${bench}, ${calls} calls a URL, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
for (const [name, path] of urls) {
  if (only && !name.includes(only)) continue;
  const call = async () => {
    const res = await app.request(path, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.text();
  };
  for (let i = 0; i < 20; i += 1) await call();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < calls; i += 1) await call();
  const used = process.cpuUsage(cpu);
  const wall = (performance.now() - started) / calls;
  console.info(
    `  ${name.padEnd(22)} ${(((used.user + used.system) / calls) | 0).toString().padStart(6)} µs CPU a call, ${(wall * 1000).toFixed(0).padStart(6)} µs wall`,
  );
}
for (const [text, q] of [...perQuery].sort((a, b) => b[1].us - a[1].us).slice(0, 12)) {
  console.info(`  ${((q.us / q.n) | 0).toString().padStart(6)} µs x ${q.n}  ${text}`);
}
await db.destroy();
