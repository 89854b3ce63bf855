import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { readContract } from './contract-model';
import { createHarness, describeViolation, type Harness } from './harness';
import { IDOR_PRINCIPALS, type IdorResult, idFields, idorMatrix } from './idor';
import { refusalFor } from './principals';

/**
 * The IDOR matrix over every built operation that takes an id: another seller's ids (and a team member's,
 * and the member on both sellers') answer 404 and change nothing, and each caller still reaches its own.
 * Ids come from what the listing calls show each caller (see idor.ts).
 */
const model = readContract();

describe('the IDOR matrix', () => {
  let s: Awaited<ReturnType<typeof freshServer>>;
  let h: Harness;
  let result: IdorResult;

  beforeAll(async () => {
    s = await freshServer();
    h = await createHarness({ request: (url, init) => s.app.request(url, init), db: s.db, clock: s.clock }, { model });
    result = await idorMatrix(h, { perPair: 6, seed: 7 });
  }, 120_000);
  afterAll(async () => {
    h?.dispose();
    await s?.close();
  });

  it('answers 404 to every id of another owner and writes nothing', () => {
    expect(h.violations.map(describeViolation).join('\n\n')).toBe('');
  });

  it('tries every built operation that takes an id, with foreign ids and with its own', () => {
    // an operation none of the three may call at all (the back office's) is the policy checks' business: 403 each
    const callable = (op: (typeof model.built)[number]) =>
      IDOR_PRINCIPALS.some((n) => h.principals[n] && !refusalFor(h.principals[n], op));
    const expected = model.built
      .filter((op) => op.secured && idFields(op).length > 0 && callable(op))
      .map((op) => op.operationId);
    expect(expected.length).toBeGreaterThan(0);
    expect(result.gaps).toEqual([]);
    for (const operationId of expected) {
      const rows = result.operations.filter((r) => r.operationId === operationId);
      expect(rows.length, operationId).toBeGreaterThan(0);
      for (const row of rows) {
        // up to 6 per pair of callers; a thing each owns only one of (a billing address) gives fewer: at least
        // one foreign id of each other owner, for two callers
        expect(row.foreignTried, `${operationId} ${row.field}`).toBeGreaterThanOrEqual(4);
        expect(row.ownReached, `${operationId} ${row.field}`).toBeGreaterThan(0);
      }
    }
  });
});
