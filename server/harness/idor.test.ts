import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { readContract } from './contract-model';
import { createHarness, describeViolation, type Harness } from './harness';
import { IDOR_PRINCIPALS, type IdorResult, idFields, idorMatrix, unknownIdCase } from './idor';
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

  // the whole matrix runs here: every id-taking operation of the contract by each principal; on
  // PostgreSQL beside other work it has taken over two minutes
  beforeAll(async () => {
    s = await freshServer();
    h = await createHarness({ request: (url, init) => s.app.request(url, init), db: s.db, clock: s.clock }, { model });
    result = await idorMatrix(h, { perPair: 6, seed: 7 });
  }, 300_000);
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

/** The seeds `npm test` runs the matrix's bodies with (the full matrix runs at one; `npm run fuzz:seeds` at many). */
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

describe("the IDOR matrix's bodies", () => {
  let s: Awaited<ReturnType<typeof freshServer>>;
  let h: Harness;
  beforeAll(async () => {
    s = await freshServer();
    h = await createHarness({ request: (url, init) => s.app.request(url, init), db: s.db, clock: s.clock }, { model });
  }, 120_000);
  afterAll(async () => {
    h?.dispose();
    await s?.close();
  });

  it(`are valid at seeds ${SEEDS.join(', ')}: an id nobody owns answers 404, never the 422 of a bad body`, async () => {
    const seller = h.principals.seller;
    if (!seller) throw new Error('the harness has no seller');
    let tried = 0;
    for (const seed of SEEDS) {
      for (const op of model.built.filter((o) => o.secured && idFields(o).length > 0 && !refusalFor(seller, o))) {
        for (const field of idFields(op)) {
          await h.send({ ...unknownIdCase(op, field, seller, seed, h), label: `seed ${seed}: nobody's ${field.name}` });
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(SEEDS.length * 40);
    expect(h.violations.map(describeViolation).join('\n\n')).toBe('');
  }, 120_000);
});
