/**
 * `npm run fuzz`: the hostile-input harness (server/harness) at full size against a fresh in-process server.
 * Every built operation of openapi/portal.yaml gets every naughty string in every string slot, FUZZ_RUNS
 * schema-derived requests and twice as many random breakages, the fixed invalid/raw/upload/token cases and the
 * policy checks; the IDOR matrix runs first (before the attacks change the demo data); planned operations are
 * probed to be closed. Prints the counts per operation and status, and every violation with a curl line to
 * reproduce it; exits 1 when there is any.
 *
 *   FUZZ_RUNS=500 FUZZ_SEED=123 npm run fuzz
 *   TEST_ENGINE=postgres DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres npm run fuzz
 *
 * Several seeds (`npm run fuzz:seeds`, the nightly size: FUZZ_SEEDS=1-10 FUZZ_RUNS=20): each seed, on a fresh
 * server, runs what a seed changes (the IDOR matrix and the seeded requests with the fixed cases built on them),
 * not the naughty strings, which are the same at every seed and which one full run (or `npm test`'s
 * contract-attack suites) covers. FUZZ_PARTS=idor runs the IDOR matrix alone (seconds a seed).
 */
import { createHarness, describeViolation, statsTable } from '../server/harness/harness';
import { idorMatrix } from '../server/harness/idor';
import { freshServer, TEST_ENGINE } from '../server/test-support';

const runs = Number(process.env.FUZZ_RUNS ?? 200);
const idorOnly = process.env.FUZZ_PARTS === 'idor';
if (!Number.isInteger(runs) || runs < 0)
  throw new Error(`FUZZ_RUNS must be a whole number, not "${process.env.FUZZ_RUNS}"`);

/** FUZZ_SEEDS as `1-10` or `1,4,9`; else FUZZ_SEED; else one seed from the clock. */
function seedsOf(env: NodeJS.ProcessEnv): number[] {
  const list = env.FUZZ_SEEDS?.trim();
  if (list) {
    const range = /^(\d+)-(\d+)$/.exec(list);
    const seeds = range
      ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i)
      : list.split(',').map((s) => Number(s.trim()));
    if (seeds.length === 0 || !seeds.every(Number.isInteger))
      throw new Error(`FUZZ_SEEDS must be a range (1-10) or a list (1,4,9), not "${list}"`);
    return seeds;
  }
  const seed = Number(env.FUZZ_SEED ?? Date.now() % 1_000_000);
  if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be a whole number, not "${env.FUZZ_SEED}"`);
  return [seed];
}

/** One seed on a fresh server; `full` adds the naughty strings, fixed cases and planned probes. Answers its failures. */
async function fuzzOnce(seed: number, full: boolean): Promise<number> {
  const started = performance.now();
  console.info(
    `fuzz: engine ${TEST_ENGINE}, FUZZ_RUNS=${runs}, FUZZ_SEED=${seed}${full ? '' : ' (seeded cases only)'}`,
  );
  const s = await freshServer();
  try {
    const h = await createHarness({ request: (url, init) => s.app.request(url, init), db: s.db, clock: s.clock });
    const built = h.model.built;
    const planned = h.model.operations.filter((o) => o.planned);

    const idor = await idorMatrix(h, { perPair: Math.max(10, Math.min(runs, 100)), seed });
    console.info(
      `IDOR matrix: ${idor.operations.map((r) => `${r.operationId} ${r.field}: ${r.foreignTried} foreign ids, ${r.ownReached}/${r.ownTried} own reached`).join('; ') || 'no operation takes an id'}`,
    );
    if (idor.gaps.length > 0) console.info(`IDOR gaps (no listing shows ids for): ${idor.gaps.join(', ')}`);

    for (const [i, op] of (idorOnly ? [] : built).entries()) {
      const before = h.stats.requests;
      const t = performance.now();
      await h.attackOperation(
        op,
        { valid: runs, randomInvalid: runs * 2, blnsSlots: full ? Number.POSITIVE_INFINITY : 0 },
        seed + i * 101,
      );
      console.info(
        `  ${op.operationId.padEnd(32)} ${String(h.stats.requests - before).padStart(6)} requests  ${((performance.now() - t) / 1000).toFixed(1)} s`,
      );
    }
    if (full && !idorOnly) for (const op of planned) await h.probePlanned(op);

    console.info(`\n${statsTable(h.stats)}\n`);
    const fivexx = [...h.stats.byOperation.entries()].reduce(
      (n, [id, m]) =>
        n +
        [...m.entries()]
          .filter(([st]) => st >= 500 && !(st === 501 && planned.some((p) => p.operationId === id)))
          .reduce((a, [, c]) => a + c, 0),
      0,
    );
    console.info(
      `FUZZ_SEED=${seed}: ${built.length} built operations attacked, ${full ? planned.length : 0} planned probed; ` +
        `${h.stats.requests} requests; ${fivexx} 5xx; ${h.stats.violationCount} violations; ` +
        `${idor.gaps.length} IDOR gaps; ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
    if (h.violations.length > 0) {
      console.info(
        `\nViolations (at most 5 examples of each kind):\n\n${h.violations.map(describeViolation).join('\n\n')}`,
      );
    }
    h.dispose();
    return h.stats.violationCount + idor.gaps.length;
  } finally {
    await s.close();
  }
}

const seeds = seedsOf(process.env);
const failures: string[] = [];
for (const seed of seeds) {
  const failed = await fuzzOnce(seed, seeds.length === 1 && !process.env.FUZZ_SEEDS);
  if (failed > 0) failures.push(`FUZZ_SEED=${seed}: ${failed}`);
}
if (seeds.length > 1)
  console.info(`\nseeds ${seeds.join(', ')}: ${failures.length ? failures.join('; ') : 'all green'}`);
process.exit(failures.length > 0 ? 1 : 0);
