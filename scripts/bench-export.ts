import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
 * npm run bench:export: the real server on a fresh database (SQLite, or Postgres with DATABASE_URL) whose demo
 * seller has --orders (default 100,000) more orders, seeded in bulk; then the account data export (the streamed
 * zip of GET /settings/account-data/export) read to its end, wall time from the request to the last byte, with the
 * machine's load average beside it (target < 10 s).
 */
const SELF = import.meta.filename;

async function main() {
  const orders = num('orders', 100_000);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-export-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_export');
  try {
    console.info(`bench:export on ${engine}: seeding ${orders} orders of the demo seller...`);
    const seeded = await seedSellerOrders(target, orders, SALES_BENCH_LAYOUT);
    const token = seeded.token;
    await seeded.db.destroy();
    const { child: server, base } = await startRealServer(SELF, dir, target, 'warn');
    try {
      for (const run of [1, 2]) {
        const started = performance.now();
        const res = await fetch(`${base}/api/settings/account-data/export`, {
          headers: { authorization: `Bearer ${token}` },
        });
        let bytes = 0;
        let firstByte = 0;
        const reader = (res.body as ReadableStream<Uint8Array>).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (bytes === 0) firstByte = performance.now() - started;
          bytes += value.byteLength;
        }
        const ms = performance.now() - started;
        console.info(
          `  run ${run}: ${res.status}, ${res.headers.get('x-export-rows')} rows, ${(bytes / 1_048_576).toFixed(1)} MB zip, first byte ${firstByte.toFixed(0)} ms, all ${ms.toFixed(0)} ms; load average ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}; target < 10 s: ${res.status === 200 && ms < 10_000 ? 'met' : 'missed'}`,
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
