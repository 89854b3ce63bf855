import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  argOf,
  freshTarget,
  num,
  SALES_BENCH_LAYOUT,
  seedSellerOrders,
  serveReal,
  startRealServer,
  stopChild,
} from './bench-support';

/**
 * npm run bench:sales (issue 12): the real server on a fresh database (SQLite, or Postgres with DATABASE_URL)
 * whose demo seller has --orders (default 100,000) more orders over the six statuses.
 * 1. The sales overview and the lists (first page of Pending, Awaiting Delivery by deadline, a match search,
 *    Completed by amount) at --connections (default 50) clients for --duration seconds each (target p99 < 50 ms).
 * 2. An export of 10,000 orders (the Cancelled list) as XLSX and as CSV, wall time of the call (target < 3 s).
 */
const SELF = import.meta.filename;

async function prepare(target: string, count: number) {
  const { db, sellerId, token } = await seedSellerOrders(target, count, SALES_BENCH_LAYOUT);
  const exportRows = Number(
    (
      await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('seller_id', '=', sellerId)
        .where('status', '=', 'cancelled')
        .executeTakeFirstOrThrow()
    ).n,
  );
  await db.destroy();
  return { token, exportRows };
}

async function main() {
  const seconds = num('duration', 10);
  const connections = num('connections', 50);
  const orders = num('orders', 100_000);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-sales-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_sales');
  try {
    console.info(`bench:sales on ${engine}: preparing ${orders} orders of the demo seller...`);
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
      const paths = [
        '/sales/overview-all-currency',
        '/sales/history-all-currency?status=pending',
        '/sales/history-all-currency?status=confirmed&sort=deadline',
        '/sales/history-all-currency?status=delivered&q=united',
        '/sales/history-all-currency?status=completed&sort=amount_desc',
        '/sales/sales-count',
      ];
      await run(paths[1] as string, 2);
      for (const path of paths) {
        const r = await run(path, seconds);
        console.info(
          `  ${path} (${connections} clients, ${seconds} s): ${(r.requests.total / seconds).toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${r.non2xx + r.errors ? ` (${r.non2xx + r.errors} failed)` : ''}; target p99 < 50 ms: ${r.requests.total > 0 && r.latency.p99 < 50 ? 'met' : 'missed (or no answer within the run)'}`,
        );
      }
      for (const format of ['xlsx', 'csv']) {
        const started = performance.now();
        const res = await fetch(`${base}/api/sales/export-reports?status=cancelled&format=${format}`, {
          headers: { authorization: `Bearer ${setup.token}` },
        });
        const body = (await res.json()) as { data?: { rows: number; size: number } };
        const ms = performance.now() - started;
        console.info(
          `  export ${format}: ${body.data?.rows ?? 0} rows (of ${setup.exportRows}), ${((body.data?.size ?? 0) / 1024).toFixed(0)} KB in ${ms.toFixed(0)} ms, ${res.status}; target < 3 s: ${res.status === 200 && ms < 3_000 ? 'met' : 'missed'}`,
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
