import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type QuotaName, quotasWith } from '../quotas/limits';
import { freshServer, TEST_ENGINE } from '../test-support';
import { BLNS, stringSlots } from './cases';
import { readContract } from './contract-model';
import { createHarness, describeViolation, type Harness, TEST_SIZES } from './harness';

/**
 * The hostile-input harness over every built operation of openapi/portal.yaml (an operation built later is
 * attacked as soon as its `x-status: planned` goes): naughty strings, schema-derived valid and broken requests,
 * raw bodies, uploads, tokens and callers of every kind. The fixed seed makes every run send the same requests.
 *
 * The operations are dealt into SHARDS files (contract-attack-<k>.test.ts, operation i to shard i % SHARDS),
 * each on its own fresh server, so that the test runner's workers share the attack instead of one worker
 * running it alone after everything else (it took 10 minutes of a loaded CI run as one file).
 */
export const SHARDS = 4;
const SEED = 20261122;
const model = readContract();
/**
 * Each operation gets every 4th naughty string (8th on Postgres, where a request costs about ten times as much),
 * the operations taking turns at which share, so that every string still reaches many operations in each run while the suite stays within CI's time (it sent 40,000 requests a run with all of
 * them on every operation); `npm run fuzz` sends the whole list to every operation.
 */
const BLNS_STRIDE = TEST_ENGINE === 'postgres' ? 8 : 4;

/** The attack on shard `shard` (0 to SHARDS - 1) of the built operations; shard 0 also probes the planned ones. */
export function attackShard(shard: number) {
  const built = model.built.filter((_, i) => i % SHARDS === shard);
  describe(`the hostile-input harness (operations ${shard + 1} of every ${SHARDS})`, () => {
    let s: Awaited<ReturnType<typeof freshServer>>;
    let h: Harness;

    beforeAll(async () => {
      // the caps lifted for the attack itself, so that a naughty string still reaches the handler's work after the
      // first few deposit requests; attackQuotas meets each cap on an app of its own where it is 0
      s = await freshServer({ quotas: quotasWith(1_000_000_000) });
      const capped = new Map<string, ReturnType<typeof s.appWith>>();
      h = await createHarness(
        {
          request: (url, init) => s.app.request(url, init),
          db: s.db,
          clock: s.clock,
          // the same server with one cap at 0, made once per cap
          capped: (quota) => {
            let app = capped.get(quota);
            if (!app) {
              app = s.appWith({ quotas: quotasWith(0, quota as QuotaName) });
              capped.set(quota, app);
            }
            const reached = app;
            return (url, init) => reached.request(url, init);
          },
        },
        { model },
      );
    });
    afterAll(async () => {
      h?.dispose();
      await s?.close();
    });

    const violationsOf = (operationId: string) =>
      h.violations
        .filter((v) => v.operationId === operationId)
        .map(describeViolation)
        .join('\n\n');

    // within a shard the operations take turns at the naughty strings' shares, so each shard sends all of them
    built.forEach((op, index) => {
      it(`${op.operationId}: no 5xx, no leak, the envelope, the contract, nothing written when refused`, async () => {
        const before = h.stats.requests;
        await h.attackOperation(op, { ...TEST_SIZES, blnsStride: BLNS_STRIDE, blnsOffset: index }, SEED);
        await h.attackQuotas(op, SEED);
        expect(violationsOf(op.operationId)).toBe('');
        // a call with no input at all (the health answers, the metrics) has only its callers and headers to vary
        expect(h.stats.requests - before).toBeGreaterThan(op.params.length === 0 && !op.body ? 10 : 20);
      }, 120_000);
    });

    // the planned operations are probed once, by the first shard, which also checks that a file runs each shard
    if (shard === 0) {
      it(`is run by ${SHARDS} files, one per shard, so that every built operation is attacked`, () => {
        const files = readdirSync(import.meta.dirname).filter((f) => /^contract-attack-\d+\.test\.ts$/.test(f));
        expect(files.sort()).toEqual(Array.from({ length: SHARDS }, (_, k) => `contract-attack-${k + 1}.test.ts`));
      });

      it('keeps every planned operation closed: 401 without a token, 403 or 501 with one', async () => {
        for (const op of model.operations.filter((o) => o.planned)) await h.probePlanned(op);
        expect(
          h.violations
            .filter((v) => v.category === 'planned')
            .map(describeViolation)
            .join('\n\n'),
        ).toBe('');
      }, 120_000);
    }

    it('sent every naughty string, and attacked every built operation', () => {
      expect(BLNS.length).toBeGreaterThan(480);
      const withStrings = built.filter((op) => stringSlots(op).length > 0);
      expect(withStrings.length).toBeGreaterThan(0);
      expect(h.stats.byCategory.get('blns')).toBeGreaterThanOrEqual(
        withStrings.length * Math.floor((BLNS.length - 10) / BLNS_STRIDE),
      );
      // every share of the list went to at least one operation with string slots
      const quarters = new Set(built.flatMap((op, i) => (stringSlots(op).length > 0 ? [i % BLNS_STRIDE] : [])));
      expect(quarters.size).toBe(BLNS_STRIDE);
      expect([...h.stats.byOperation.keys()]).toEqual(expect.arrayContaining(built.map((o) => o.operationId)));
    });
  });
}
