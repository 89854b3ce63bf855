import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
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
  startWrites,
  stopChild,
} from './bench-support';

const SELF = import.meta.filename;

type Setup = Awaited<ReturnType<typeof seedSearchListings>>;
const p99Line = (name: string, f: { rps: number; p50: number; p99: number; bad: number }, extra = '') =>
  `  ${name.padEnd(34)} ${f.rps.toFixed(0).padStart(6)} req/s  p50 ${f.p50.toFixed(1).padStart(6)} ms  p99 ${f.p99.toFixed(1).padStart(6)} ms${f.bad ? `  (${f.bad} failed or not 2xx)` : ''}${extra}`;

/**
 * bench:search. First the figures that count: the mixed lines (many searches, many event pages), each request
 * the next of `--callers` distinct buyers (50), with `--writes` price changes a second beside them (0 by
 * default; the target is met at 30); with `--compare`, the same lines again on a server keeping answers per caller
 * only (ANSWER_CACHE=caller, the behaviour before shared answers). Then one caller's single-path lines, which the
 * per-caller kept answers serve (fast, and not what many buyers see).
 */
async function main() {
  const seconds = num('duration', 10);
  const connections = num('connections', 50);
  const callers = num('callers', 50);
  const writes = num('writes', 0);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-search-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_search');
  try {
    console.info(`bench:search on ${engine}: preparing ${num('listings', 100_000)} listings...`);
    const setup = await seedSearchListings(target, num('listings', 100_000), callers);
    console.info(await answerCacheLine());
    console.info(
      `${engine}, ${setup.listings} listings (busiest match ${setup.listings ? setup.busiest.listings : 0}), ${connections} connections, ${seconds} s each, node ${process.version}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    // --only=<text>: the lines whose name has it
    const only = argOf('only');
    const modes: [string, Record<string, string>][] = [['shared answers', {}]];
    if (process.argv.includes('--compare')) modes.push(['kept per caller (before)', { ANSWER_CACHE: 'caller' }]);
    let worstMixed = 0;
    for (const [mode, env] of modes) {
      const { child: server, base } = await startRealServer(SELF, dir, target, 'info', env);
      try {
        console.info(`${mode}: ${callers} distinct callers, ${writes} writes/s (price changes) beside`);
        for (const [name, paths] of setup.mixes.filter(([n]) => !only || n.includes(only))) {
          await drained(base);
          const stop = startWrites(base, setup.token, setup.sellerListings, writes);
          const f = await measurePaths(base, paths, setup.buyerTokens, seconds, connections);
          const w = await stop();
          if (mode === 'shared answers') worstMixed = Math.max(worstMixed, f.p99);
          console.info(
            p99Line(
              name,
              f,
              writes ? `  writes ${w.perSecond.toFixed(1)}/s${w.failed ? ` (${w.failed} failed)` : ''}` : '',
            ),
          );
        }
      } finally {
        await stopChild(server);
      }
    }
    const worst = await oneCaller(setup, dir, target, seconds, connections, only);
    console.info(
      `  target  p99 < 20 ms at ${connections} clients, ${callers} callers, ${writes} writes/s, many paths a line: ${worstMixed < 20 ? 'met' : `missed (worst p99 ${worstMixed} ms)`}` +
        `; one caller, one path a line: ${worst < 20 ? 'met' : `missed (worst p99 ${worst} ms)`}; load average now ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One caller asking one path over and over (served mostly by its own kept answers): the lines of before. */
async function oneCaller(
  setup: Setup,
  dir: string,
  target: string,
  seconds: number,
  connections: number,
  only?: string,
) {
  const { child: server, base } = await startRealServer(SELF, dir, target);
  let worst = 0;
  try {
    console.info('one caller, no writes (its kept answers serve most requests):');
    for (const [name, path] of setup.urls.filter(([n]) => !only || n.includes(only))) {
      await drained(base);
      const f = await measurePaths(base, path, setup.token, seconds, connections);
      worst = Math.max(worst, f.p99);
      console.info(p99Line(name, f));
    }
  } finally {
    await stopChild(server);
  }
  return worst;
}

if (argOf('serve') === 'real') await serveReal();
else await main();
