import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { createApp } from '../app';
import { manualClock } from '../clock';
import { migrateToLatest } from '../db/migrate';
import { DEMO_PASSWORD, seed } from '../db/seed/index';
import { HttpError } from '../http/errors';
import { createLogger } from '../logger';
import { type FreshDatabase, freshDatabase } from '../test-support';
import { loadContract } from './contract';
import type { LooseHandler, Router } from './router';

// The setup the router's hook tests share (hooks*.test.ts): a small contract of its own (testing/hooks.yaml), real
// handlers on a real database, the demo users logged in, and the calls the tests make. Each test file calls
// openHooksApp() once, for a database of its own.

export const HOOKS = loadContract(fileURLToPath(new URL('./testing/hooks.yaml', import.meta.url)));
export const MB = 1024 * 1024;
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
export const padded = (head: Buffer, size: number) =>
  Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x20)]);

export let d: FreshDatabase;
export let clock: ReturnType<typeof manualClock>;
export let tokens: Record<'seller' | 'rival' | 'admin', string>;
export let logInAll: () => Promise<void>;
export let strictApp: ReturnType<typeof createApp>;
export let looseApp: ReturnType<typeof createApp>;

export const handlers: Record<string, LooseHandler> = {
  transfer: async ({ body, user }, { db, clock: now }) => {
    const { note, fail } = body as unknown as { note: string; fail?: 'throw' | 'reply' };
    const write = async (n: number) =>
      (
        await db
          .insertInto('notifications')
          .values({
            user_id: user.id,
            name: 'transfer',
            description: `${note} #${n}`,
            created_at: now.now().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const first = await write(1);
    if (fail === 'throw') throw new Error('the second write failed');
    if (fail === 'reply') return { status: 409, body: { success: false, message: 'Refused after a write.' } };
    const second = await write(2);
    return {
      status: 200,
      body: { success: true, data: { ids: [first, second], written_at: now.now().toISOString() } },
    };
  },
  plainWrite: async ({ user }, { db, clock: now }) => {
    await db
      .insertInto('notifications')
      .values({ user_id: user.id, name: 'plain', description: 'plain write', created_at: now.now().toISOString() })
      .execute();
    throw new Error('failed after a write outside a transaction');
  },
  upload: ({ body, files }) => {
    const fields = body as unknown as { amount: number; fail?: string };
    if (fields.fail === 'reply') return { status: 409, body: { success: false, message: 'Refused.' } };
    const proof = files.proof?.[0];
    if (!proof) throw new Error('the router promised a proof');
    return {
      status: 200,
      body: {
        success: true,
        data: {
          file_id: proof.id,
          kind: proof.kind,
          size: proof.size,
          name: proof.originalName,
          amount: fields.amount,
        },
      },
    };
  },
  sheets: ({ files }) => ({ status: 200, body: { success: true, data: (files.sheets ?? []).map((f) => f.kind) } }),
  filter: ({ query }) => ({ status: 200, body: { success: true, data: query } }),
  offContract: ({ query }) => {
    const how = (query as unknown as { how: string }).how;
    if (how === 'body') return { status: 200, body: { success: true, data: { count: 'many' } } };
    if (how === 'status') return { status: 404, body: { success: false, message: 'Not declared.' } };
    throw new HttpError(404, 'Not declared either.');
  },
  adminOnly: () => ({ status: 200, body: { success: true } }),
  kept: async ({ query }) => {
    keptRuns += 1;
    if ((query as { q?: string }).q === 'missing') throw new HttpError(404, 'Not here.');
    return { status: 200, body: { success: true, data: { runs: keptRuns, rows: await rowsNamed('kept') } } };
  },
};
export let keptRuns = 0;
export const bindAll = (router: Router) => {
  for (const [id, handler] of Object.entries(handlers)) router.bind(id, handler);
};

/** A fresh database, seeded, with the demo users logged in and the hooks' apps (strict and loose) over it. */
export function openHooksApp() {
  beforeAll(async () => {
    keptRuns = 0;
    d = await freshDatabase();
    await migrateToLatest(d.db);
    clock = manualClock();
    await seed(d.db, clock);
    const log = createLogger('silent');
    const product = createApp({ db: d.db, clock, log });
    const loginAs = async (email: string) => {
      const res = await product.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: DEMO_PASSWORD }),
      });
      return ((await res.json()) as { data: { token: string } }).data.token;
    };
    logInAll = async () => {
      tokens = {
        seller: await loginAs('seller@demo.test'),
        rival: await loginAs('rival@demo.test'),
        admin: await loginAs('admin@demo.test'),
      };
    };
    await logInAll();
    const common = { db: d.db, clock, log, contract: HOOKS, dataDir: d.dataDir, routes: bindAll };
    strictApp = createApp({ ...common, validateResponses: true });
    looseApp = createApp({ ...common, validateResponses: false });
  });
  afterAll(async () => {
    await d?.close();
  });
}

export const call = (
  method: string,
  path: string,
  init: { json?: unknown; form?: FormData; key?: string; token?: string; headers?: Record<string, string> } = {},
  app = strictApp,
) =>
  app.request(`/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${init.token ?? tokens.seller}`,
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.key ? { 'idempotency-key': init.key } : {}),
      ...init.headers,
    },
    body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)),
  });
export const rowsNamed = async (name: string) =>
  Number(
    (
      await d.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).n,
  );
export const noted = async (note: string) =>
  Number(
    (
      await d.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('description', 'like', `${note} #%`)
        .executeTakeFirstOrThrow()
    ).n,
  );
export let keys = 0;
export const newKey = () => `key-${Date.now()}-${++keys}`;

/** A form of the upload operation: a proof file and its fields. */
export const proofForm = (file: Buffer, name = 'proof.png', fields: Record<string, string> = { amount: '2500' }) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('proof', new Blob([new Uint8Array(file)]), name);
  return form;
};
