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
 */
import { createHarness, describeViolation, statsTable } from '../server/harness/harness';
import { idorMatrix } from '../server/harness/idor';
import { freshServer, TEST_ENGINE } from '../server/test-support';

const runs = Number(process.env.FUZZ_RUNS ?? 200);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
if (!Number.isInteger(runs) || runs < 0)
  throw new Error(`FUZZ_RUNS must be a whole number, not "${process.env.FUZZ_RUNS}"`);
if (!Number.isInteger(seed)) throw new Error(`FUZZ_SEED must be a whole number, not "${process.env.FUZZ_SEED}"`);

const started = performance.now();
console.info(`fuzz: engine ${TEST_ENGINE}, FUZZ_RUNS=${runs}, FUZZ_SEED=${seed}`);
const s = await freshServer();
let failed = true;
try {
  const h = await createHarness({ request: (url, init) => s.app.request(url, init), db: s.db, clock: s.clock });
  const built = h.model.built;
  const planned = h.model.operations.filter((o) => o.planned);

  const idor = await idorMatrix(h, { perPair: Math.max(10, Math.min(runs, 100)), seed });
  console.info(
    `IDOR matrix: ${idor.operations.map((r) => `${r.operationId} ${r.field}: ${r.foreignTried} foreign ids, ${r.ownReached}/${r.ownTried} own reached`).join('; ') || 'no operation takes an id'}`,
  );
  if (idor.gaps.length > 0) console.info(`IDOR gaps (no listing shows ids for): ${idor.gaps.join(', ')}`);

  for (const [i, op] of built.entries()) {
    const before = h.stats.requests;
    const t = performance.now();
    await h.attackOperation(
      op,
      { valid: runs, randomInvalid: runs * 2, blnsSlots: Number.POSITIVE_INFINITY },
      seed + i * 101,
    );
    console.info(
      `  ${op.operationId.padEnd(32)} ${String(h.stats.requests - before).padStart(6)} requests  ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  for (const op of planned) await h.probePlanned(op);

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
    `${built.length} built operations attacked, ${planned.length} planned probed; ${h.stats.requests} requests; ` +
      `${fivexx} 5xx; ${h.stats.violationCount} violations; ${idor.gaps.length} IDOR gaps; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  if (h.violations.length > 0) {
    console.info(
      `\nViolations (at most 5 examples of each kind):\n\n${h.violations.map(describeViolation).join('\n\n')}`,
    );
  }
  failed = h.stats.violationCount > 0 || idor.gaps.length > 0;
  h.dispose();
} finally {
  await s.close();
}
process.exit(failed ? 1 : 0);
