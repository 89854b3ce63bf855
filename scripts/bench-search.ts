import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  answerCacheLine,
  argOf,
  drained,
  freshTarget,
  measurePaths,
  num,
  seedSearchListings,
  serveReal,
  startRealServer,
  stopChild,
} from './bench-support';

const SELF = import.meta.filename;

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
    console.info(await answerCacheLine());
    console.info(
      `${engine}, ${setup.listings} listings (busiest match ${setup.listings ? setup.busiest.listings : 0}), ${connections} connections, ${seconds} s each, node ${process.version}`,
    );
    let worst = 0;
    let worstMixed = 0;
    try {
      // --only=<text>: the lines whose name has it
      const only = argOf('only');
      for (const [name, path] of [...setup.urls, ...setup.mixes].filter(([n]) => !only || n.includes(only))) {
        await drained(base);
        const f = await measurePaths(base, path, setup.token, seconds, connections);
        if (typeof path === 'string') worst = Math.max(worst, f.p99);
        else worstMixed = Math.max(worstMixed, f.p99);
        console.info(
          `  ${name.padEnd(20)} ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p99 ${f.p99.toFixed(1).padStart(6)} ms${f.bad ? `  (${f.bad} failed or not 2xx)` : ''}`,
        );
      }
    } finally {
      await stopChild(server);
    }
    console.info(
      `  target  p99 < 20 ms at ${connections} clients, one path a line: ${worst < 20 ? 'met' : `missed (worst p99 ${worst} ms)`}` +
        `; many paths a line: ${worstMixed < 20 ? 'met' : `missed (worst p99 ${worstMixed} ms)`}`,
    );
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (argOf('serve') === 'real') await serveReal();
else await main();
