import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderStatus } from '../server/db/schema';
import { argOf, freshTarget, num, seedSellerOrders, serveReal, startRealServer, stopChild } from './bench-support';

/**
 * npm run bench:reports (issue 14): the real server on a fresh database (SQLite, or Postgres with DATABASE_URL)
 * whose demo seller has --orders (default 100,000) more orders placed over the last 365 days, in its listings'
 * currencies (most GBP, the reports' default), over the six statuses.
 * 1. The report calls at --connections (default 50) clients for --duration seconds each: the overview of this
 *    year and of this quarter, the history (first page of the year, a status, a match), events-search and the
 *    dashboard report (target p99 < 50 ms, as the sales lists).
 * 2. The export of last month (about 8,000 orders) as XLSX, wall time of the call (target < 3 s).
 */
const SELF = import.meta.filename;

/** pending 5%, confirmed 10%, delivered 10%, completed 60%, cancelled 10%, replaced 5%: a year's mix. */
const MIX: [OrderStatus, number][] = [
  ['pending', 0.05],
  ['confirmed', 0.1],
  ['delivered', 0.1],
  ['completed', 0.6],
  ['cancelled', 0.1],
  ['replaced', 0.05],
];
const YEAR_MS = 365 * 86_400_000;

async function prepare(target: string, count: number) {
  const stride = 7919; // a prime: coprime with any count not a multiple of it
  const { db, sellerId, token } = await seedSellerOrders(target, count, {
    mix: MIX,
    prefix: 'BR',
    // the statuses interleaved over the year (a stride through the plan), not one status per stretch of time
    statusOf: (n, plan) => plan[(n * stride) % plan.length] as OrderStatus,
    // spread evenly over the last 365 days, newest first
    placedAt: (n, total, now) => now - Math.floor((n / total) * YEAR_MS) - 1000,
  });
  // the match with the most GBP orders: the history's match filter
  const top = await db
    .selectFrom('orders')
    .select(['event_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('seller_id', '=', sellerId)
    .where('currency', '=', 'GBP')
    .groupBy('event_id')
    .orderBy('n', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  await db.destroy();
  return { token, matchId: top.event_id, matchOrders: Number(top.n) };
}

async function main() {
  const seconds = num('duration', 10);
  const connections = num('connections', 50);
  const orders = num('orders', 100_000);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-reports-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_reports');
  try {
    console.info(`bench:reports on ${engine}: preparing ${orders} orders of the demo seller over a year...`);
    const setup = await prepare(target, orders);
    const { child: server, base } = await startRealServer(SELF, dir, target, 'warn');
    try {
      const autocannon = (await import('autocannon')).default;
      const run = async (path: string, duration: number) =>
        (await autocannon({
          url: `${base}/api${path}`,
          headers: { authorization: `Bearer ${setup.token}` },
          connections,
          duration,
          timeout: 30,
        })) as unknown as {
          requests: { total: number };
          latency: { p50: number; p99: number };
          non2xx: number;
          errors: number;
        };
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const year = `date_from=${day(Date.now() - YEAR_MS + 86_400_000)}&date_to=${day(Date.now())}`;
      const paths = [
        '/reports/overview?period=year_to_date',
        '/reports/overview?period=this_quarter',
        `/reports/history?${year}`,
        `/reports/history?${year}&status=cancelled`,
        `/reports/history?${year}&match_id=${setup.matchId}`,
        '/reports/events-search?q=united',
        '/dashboard/reports',
      ];
      console.info(`  (the match filter: match ${setup.matchId}, ${setup.matchOrders} GBP orders in the year)`);
      // autocannon leaves its last requests with the server when it stops: the next run starts once one more
      // request is answered after them (on SQLite the server answers one request at a time)
      const drain = async () => {
        const started = performance.now();
        await fetch(`${base}/api/reports/events-search`, { headers: { authorization: `Bearer ${setup.token}` } });
        return performance.now() - started;
      };
      await run(paths[0] as string, 2);
      await drain();
      for (const path of paths) {
        const r = await run(path, seconds);
        const drained = await drain();
        console.info(
          `  ${path} (${connections} clients, ${seconds} s): ${(r.requests.total / seconds).toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${r.non2xx + r.errors ? ` (${r.non2xx + r.errors} failed)` : ''}; target p99 < 50 ms: ${r.requests.total > 0 && r.latency.p99 < 50 ? 'met' : 'missed (or no answer within the run)'}; the server caught up ${(drained / 1000).toFixed(1)} s after`,
        );
      }
      for (const query of ['period=last_month', 'period=last_month&status=completed']) {
        const started = performance.now();
        const res = await fetch(`${base}/api/reports/export?${query}&format=xlsx`, {
          headers: { authorization: `Bearer ${setup.token}` },
        });
        const body = (await res.json()) as { data?: { rows: number; size: number } };
        const ms = performance.now() - started;
        console.info(
          `  export xlsx (${query}): ${body.data?.rows ?? 0} rows, ${((body.data?.size ?? 0) / 1024).toFixed(0)} KB in ${ms.toFixed(0)} ms, ${res.status}; target < 3 s: ${res.status === 200 && ms < 3_000 ? 'met' : 'missed'}`,
        );
      }
    } finally {
      await stopChild(server);
    }
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (argOf('serve') === 'real') await serveReal();
else await main();
