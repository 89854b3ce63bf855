import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadContract } from '../contract/contract';
import type { LooseHandler } from '../contract/router';
import { createLogger } from '../logger';
import { freshServer } from '../test-support';
import { readContract } from './contract-model';
import { createHarness, describeViolation, type Harness, type Sizes } from './harness';

/**
 * The harness over the router's own test contract (server/contract/testing/hooks.yaml): uploads, idempotency
 * keys, transactions and array queries through the real router, before the product has operations that use
 * them. The handlers are plain and correct; a violation is the router's (or the harness's). Two operations of
 * that contract are broken on purpose (plainWrite, offContract) and are left out.
 */
const HOOKS_YAML = fileURLToPath(new URL('../contract/testing/hooks.yaml', import.meta.url));
const BROKEN_ON_PURPOSE = new Set(['plainWrite', 'offContract']);
const model = readContract(HOOKS_YAML);
// the naughty strings are the product suite's business; here one in five is enough to cross every hook
const sizes: Sizes = { valid: 4, randomInvalid: 8, blnsSlots: 1, blnsStride: 5 };

const handlers: Record<string, LooseHandler> = {
  transfer: async ({ body, user }, { db, clock }) => {
    const { note } = body as unknown as { note: string };
    // Postgres cannot store U+0000 in text (SQLite can): until the router refuses it for every string, a handler
    // that stores text must (the product suite attacks every built operation with it, on both engines)
    if (note.includes('\u0000')) {
      return {
        status: 422,
        body: {
          success: false,
          message: 'Invalid.',
          errors: [{ path: '/body/note', message: 'must not contain U+0000' }],
        },
      };
    }
    const ids: number[] = [];
    for (const n of [1, 2]) {
      const row = await db
        .insertInto('notifications')
        .values({
          user_id: user.id,
          name: 'transfer',
          description: `${note.slice(0, 400)} #${n}`,
          created_at: clock.now().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(row.id);
    }
    return { status: 200, body: { success: true, data: { ids, written_at: clock.now().toISOString() } } };
  },
  upload: ({ body, files }) => {
    const proof = files.proof?.[0];
    if (!proof) throw new Error('the router promised a proof');
    const { amount } = body as unknown as { amount: number };
    return {
      status: 200,
      body: {
        success: true,
        data: { file_id: proof.id, kind: proof.kind, size: proof.size, name: proof.originalName, amount },
      },
    };
  },
  sheets: ({ files }) => ({ status: 200, body: { success: true, data: (files.sheets ?? []).map((f) => f.kind) } }),
  filter: ({ query }) => ({ status: 200, body: { success: true, data: query } }),
  adminOnly: () => ({ status: 200, body: { success: true } }),
  // an x-cache-ms read: hostile queries become the keys of kept answers
  kept: ({ query }) => ({ status: 200, body: { success: true, data: query } }),
};

describe('the harness over the router hooks test contract', () => {
  let s: Awaited<ReturnType<typeof freshServer>>;
  let h: Harness;

  beforeAll(async () => {
    s = await freshServer();
    const hooks = createApp({
      db: s.db,
      clock: s.clock,
      log: createLogger('silent'),
      contract: loadContract(HOOKS_YAML),
      dataDir: s.dataDir,
      validateResponses: true,
      routes: (router) => {
        for (const [id, handler] of Object.entries(handlers)) router.bind(id, handler);
      },
    });
    // logins and logouts are the product's; the test contract's operations are the hooks app's
    h = await createHarness(
      {
        request: (url, init) => (url.startsWith('/api/auth/') ? s.app : hooks).request(url, init),
        db: s.db,
        clock: s.clock,
      },
      { model },
    );
  });
  afterAll(async () => {
    h?.dispose();
    await s?.close();
  });

  for (const op of model.built.filter((o) => !BROKEN_ON_PURPOSE.has(o.operationId))) {
    it(`${op.operationId}: every case answered within the contract`, async () => {
      await h.attackOperation(op, sizes, 11);
      expect(
        h.violations
          .filter((v) => v.operationId === op.operationId)
          .map(describeViolation)
          .join('\n\n'),
      ).toBe('');
    }, 120_000);
  }

  it('sent uploads of every kind of lie, and reached the handlers', () => {
    expect(h.stats.byCategory.get('multipart')).toBeGreaterThan(20);
    for (const id of ['transfer', 'upload', 'sheets', 'filter', 'kept']) {
      expect(h.stats.byOperation.get(id)?.get(200), id).toBeGreaterThan(0);
    }
  });
});
