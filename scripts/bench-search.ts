import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf, freshTarget, num, seedSearchListings, serveReal, startRealServer, stopChild } from './bench-support';

const SELF = import.meta.filename;

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
    const setup = await seedSearchListings(target, num('listings', 100_000));
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
