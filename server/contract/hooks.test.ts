import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { manualClock } from '../clock';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { DEMO_PASSWORD, seed } from '../db/seed/index';
import { HttpError } from '../http/errors';
import { ORPHAN_GRACE_MS, sweepOrphanUploads } from '../http/multipart';
import { createLogger } from '../logger';
import { type FreshDatabase, freshDatabase } from '../test-support';
import { loadContract } from './contract';
import type { LooseHandler, Router } from './router';

/**
 * The router's hooks (x-transaction, x-idempotent, multipart uploads, array queries, response checking, x-role)
 * through a small contract of their own (testing/hooks.yaml) and real handlers on a real database.
 */
const HOOKS = loadContract(fileURLToPath(new URL('./testing/hooks.yaml', import.meta.url)));
const MB = 1024 * 1024;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
const padded = (head: Buffer, size: number) =>
  Buffer.concat([head, Buffer.alloc(Math.max(0, size - head.length), 0x20)]);

let d: FreshDatabase;
let clock: ReturnType<typeof manualClock>;
let tokens: Record<'seller' | 'rival' | 'admin', string>;
let logInAll: () => Promise<void>;
let strictApp: ReturnType<typeof createApp>;
let looseApp: ReturnType<typeof createApp>;

const handlers: Record<string, LooseHandler> = {
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
let keptRuns = 0;
const bindAll = (router: Router) => {
  for (const [id, handler] of Object.entries(handlers)) router.bind(id, handler);
};

beforeAll(async () => {
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

const call = (
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
const rowsNamed = async (name: string) =>
  Number(
    (
      await d.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('name', '=', name)
        .executeTakeFirstOrThrow()
    ).n,
  );
const noted = async (note: string) =>
  Number(
    (
      await d.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('description', 'like', `${note} #%`)
        .executeTakeFirstOrThrow()
    ).n,
  );
let keys = 0;
const newKey = () => `key-${Date.now()}-${++keys}`;

describe('x-transaction', () => {
  it('commits every write of a handler that succeeds', async () => {
    const res = await call('POST', '/t/transfer', { json: { note: 'commit' }, key: newKey() });
    expect(res.status).toBe(200);
    expect(await noted('commit')).toBe(2);
  });

  it('rolls back what the handler wrote when it throws, and answers the generic 500', async () => {
    const res = await call('POST', '/t/transfer', { json: { note: 'thrown', fail: 'throw' }, key: newKey() });
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      success: false,
      message: 'An unexpected error occurred. Please try again later.',
    });
    expect(await noted('thrown')).toBe(0);
  });

  it('rolls back what the handler wrote when it answers an error', async () => {
    const res = await call('POST', '/t/transfer', { json: { note: 'refused', fail: 'reply' }, key: newKey() });
    expect(res.status).toBe(409);
    expect(await noted('refused')).toBe(0);
  });

  it('(the control) keeps a write made without x-transaction, though the handler failed after it', async () => {
    const before = await rowsNamed('plain');
    expect((await call('POST', '/t/plain-write')).status).toBe(500);
    expect(await rowsNamed('plain')).toBe(before + 1);
  });
});

describe('x-idempotent', () => {
  it('refuses a call without an Idempotency-Key, or with a malformed one', async () => {
    for (const key of [undefined, 'short', 'with space inside']) {
      const res = await call('POST', '/t/transfer', { json: { note: 'nokey' }, ...(key ? { key } : {}) });
      expect(res.status, String(key)).toBe(422);
      const body = (await res.json()) as { errors: { path: string }[] };
      expect(body.errors.map((e) => e.path)).toContain('/header/idempotency-key');
    }
    expect(await noted('nokey')).toBe(0);
  });

  it('has one effect for 10 sequential replays, each answering the first reply', async () => {
    const key = newKey();
    const answers = [];
    for (let i = 0; i < 10; i++) {
      const res = await call('POST', '/t/transfer', { json: { note: 'sequential' }, key });
      answers.push({ status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() });
    }
    expect(await noted('sequential')).toBe(2);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers[0]?.replayed).toBeNull();
    expect(answers.slice(1).every((a) => a.replayed === 'true')).toBe(true);
  });

  it('has one effect for 10 concurrent calls with the same key', async () => {
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        Promise.resolve(call('POST', '/t/transfer', { json: { note: 'concurrent' }, key })).then(async (r) => ({
          status: r.status,
          body: await r.json(),
        })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(await noted('concurrent')).toBe(2);
  });

  it('refuses the same key with a different body (422) and changes nothing', async () => {
    const key = newKey();
    expect((await call('POST', '/t/transfer', { json: { note: 'first-body' }, key })).status).toBe(200);
    const other = await call('POST', '/t/transfer', { json: { note: 'second-body' }, key });
    expect(other.status).toBe(422);
    expect(((await other.json()) as { message: string }).message).toMatch(/already used with a different request/);
    expect(await noted('first-body')).toBe(2);
    expect(await noted('second-body')).toBe(0);
  });

  it('treats the same JSON with its keys in another order as the same request', async () => {
    const key = newKey();
    const raw = (body: string) =>
      strictApp.request('/api/t/transfer', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tokens.seller}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body,
      });
    expect((await raw('{"note":"reordered","fail":"throw"}')).status).toBe(500);
    expect((await raw('{"note":"reordered"}')).status).toBe(200);
    expect((await raw('{ "note" : "reordered" }')).headers.get('idempotent-replayed')).toBe('true');
  });

  it('keeps keys per user: another seller with the same key gets its own effect', async () => {
    const key = newKey();
    expect((await call('POST', '/t/transfer', { json: { note: 'per-user' }, key })).status).toBe(200);
    const rival = await call('POST', '/t/transfer', { json: { note: 'per-user' }, key, token: tokens.rival });
    expect(rival.status).toBe(200);
    expect(rival.headers.get('idempotent-replayed')).toBeNull();
    expect(await noted('per-user')).toBe(4);
  });

  it('does not use up a key on a refused call: the corrected retry with the same key runs', async () => {
    const key = newKey();
    expect((await call('POST', '/t/transfer', { json: { note: 'retry', fail: 'reply' }, key })).status).toBe(409);
    // a different body under the same key is allowed here: the refused call was never kept
    const retried = await call('POST', '/t/transfer', { json: { note: 'retry' }, key });
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await noted('retry')).toBe(2);
  });

  it('forgets a key after 24 hours', async () => {
    const key = newKey();
    expect((await call('POST', '/t/transfer', { json: { note: 'expiry' }, key })).status).toBe(200);
    clock.advance(24 * 60 * 60 * 1000 - 1000);
    expect(
      (await call('POST', '/t/transfer', { json: { note: 'expiry' }, key })).headers.get('idempotent-replayed'),
    ).toBe('true');
    clock.advance(2000);
    // the tokens lived 24 hours too
    await logInAll();
    const later = await call('POST', '/t/transfer', { json: { note: 'expiry' }, key });
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await noted('expiry')).toBe(4);
  });
});

const uploadsOnDisk = () => {
  const dir = join(d.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const fileRows = async () =>
  Number(
    (
      await d.db
        .selectFrom('files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const proofForm = (file: Buffer, name = 'proof.png', fields: Record<string, string> = { amount: '2500' }) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('proof', new Blob([new Uint8Array(file)]), name);
  return form;
};

describe('uploads', () => {
  it('stores a proof checked by its first bytes, under a random name outside any served folder', async () => {
    const before = await fileRows();
    const res = await call('POST', '/t/upload', {
      form: proofForm(PNG, 'receipt.png', { amount: '2500', notes: 'May rent' }),
      key: newKey(),
      headers: { 'domain-key': 'portal.example' },
    });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { file_id: string; kind: string; size: number; amount: number } };
    expect(data).toMatchObject({ kind: 'png', size: PNG.length, amount: 2500 });
    expect(data.file_id).toMatch(/^[0-9a-f]{32}$/);
    const stored = join(d.dataDir, 'uploads', data.file_id);
    expect(readFileSync(stored).equals(PNG)).toBe(true);
    const row = await d.db.selectFrom('files').selectAll().where('id', '=', data.file_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'png', mime: 'image/png', size: PNG.length, original_name: 'receipt.png' });
    expect(row.sha256).toBe(createHash('sha256').update(PNG).digest('hex'));
    expect(await fileRows()).toBe(before + 1);
  });

  it('refuses 10 MB + 1 byte sent as a network sends it (chunks apart) and goes on serving, keeping nothing', async () => {
    // a refusal while a chunk was on its way to the disk failed that write; its error had no listener and killed
    // the process: every try of one such request over a socket did. Chunks of 64 KB, a macrotask apart, put a
    // write in flight as the last one comes.
    const rows = await fileRows();
    const files = uploadsOnDisk().length;
    for (let i = 0; i < 3; i++) {
      const request = new Request('http://portal.test/api/t/upload', {
        method: 'POST',
        body: proofForm(padded(PDF, 10 * MB + 1), 'big.pdf'),
      });
      const contentType = request.headers.get('content-type') ?? '';
      const body = Buffer.from(await request.arrayBuffer());
      let at = 0;
      const chunked = new ReadableStream<Uint8Array>({
        async pull(controller) {
          await new Promise((next) => setImmediate(next));
          if (at >= body.length) return controller.close();
          controller.enqueue(new Uint8Array(body.subarray(at, at + 64 * 1024)));
          at += 64 * 1024;
        },
      });
      const big = await strictApp.request('/api/t/upload', {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.seller}`, 'idempotency-key': newKey(), 'content-type': contentType },
        body: chunked,
        duplex: 'half',
      } as RequestInit);
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({ success: false, message: 'File size exceeds 10MB limit' });
      // a write's failure would surface after the answer: give it the time to
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await fileRows()).toBe(rows);
    expect(uploadsOnDisk().length).toBe(files);
  });

  it('accepts exactly 10 MB and refuses 10 MB + 1 byte with the spec text, keeping nothing', async () => {
    const ok = await call('POST', '/t/upload', {
      form: proofForm(padded(PDF, 10 * MB), 'statement.pdf'),
      key: newKey(),
    });
    expect(ok.status).toBe(200);
    const rows = await fileRows();
    const files = uploadsOnDisk().length;
    const big = await call('POST', '/t/upload', {
      form: proofForm(padded(PDF, 10 * MB + 1), 'big.pdf'),
      key: newKey(),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ success: false, message: 'File size exceeds 10MB limit' });
    expect(await fileRows()).toBe(rows);
    expect(uploadsOnDisk().length).toBe(files);
  });

  it('refuses a .png that is really HTML, whatever its name and Content-Type say', async () => {
    const files = uploadsOnDisk().length;
    const form = new FormData();
    form.set('amount', '10');
    form.set('proof', new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' }), 'photo.png');
    const res = await call('POST', '/t/upload', { form, key: newKey() });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      success: false,
      message: 'Invalid file type. Allowed types: pdf, jpg, jpeg, png',
    });
    expect(uploadsOnDisk().length).toBe(files);
  });

  it('refuses an empty file, a missing file, an unknown field and bad plain fields (422), keeping nothing', async () => {
    const files = uploadsOnDisk().length;
    const rows = await fileRows();
    const cases: [string, FormData][] = [
      ['empty', proofForm(Buffer.alloc(0))],
      [
        'missing',
        (() => {
          const f = new FormData();
          f.set('amount', '10');
          return f;
        })(),
      ],
      ['unknown field', proofForm(PNG, 'p.png', { amount: '10', admin: 'yes' })],
      ['amount not a number', proofForm(PNG, 'p.png', { amount: 'ten' })],
      ['amount zero', proofForm(PNG, 'p.png', { amount: '0' })],
      ['notes too long', proofForm(PNG, 'p.png', { amount: '1', notes: 'x'.repeat(501) })],
    ];
    for (const [label, form] of cases) {
      const res = await call('POST', '/t/upload', { form, key: newKey() });
      expect(res.status, label).toBe(422);
      expect(((await res.json()) as { errors: unknown[] }).errors.length, label).toBeGreaterThan(0);
    }
    expect(uploadsOnDisk().length).toBe(files);
    expect(await fileRows()).toBe(rows);
  });

  it('never uses the name a client gives on disk: paths are cleaned, the file is stored by id', async () => {
    for (const name of ['../../etc/passwd.png', '..', '\\\\server\\share\\x.png', 'reçu 日本.png']) {
      const res = await call('POST', '/t/upload', { form: proofForm(PNG, name), key: newKey() });
      expect(res.status, name).toBe(200);
      const { data } = (await res.json()) as { data: { file_id: string; name: string } };
      expect(data.name, name).not.toMatch(/[/\\]|^\.\.$/);
      expect(existsSync(join(d.dataDir, 'uploads', data.file_id))).toBe(true);
    }
    expect(existsSync(join(d.dataDir, 'etc'))).toBe(false);
    // control characters (a NUL byte among them) in a part's header make it malformed: 400, and nothing is kept
    const files = uploadsOnDisk().length;
    for (const name of ['a\u0000b.png', 'a\u0007b.png']) {
      const bad = await call('POST', '/t/upload', { form: proofForm(PNG, name), key: newKey() });
      expect(bad.status).toBe(400);
    }
    expect(uploadsOnDisk().length).toBe(files);
  });

  it('removes the stored file when the call is refused after the upload', async () => {
    const files = uploadsOnDisk().length;
    const rows = await fileRows();
    const res = await call('POST', '/t/upload', {
      form: proofForm(PNG, 'p.png', { amount: '5', fail: 'reply' }),
      key: newKey(),
    });
    expect(res.status).toBe(409);
    expect(uploadsOnDisk().length).toBe(files);
    expect(await fileRows()).toBe(rows);
  });

  it('keeps one file for a replayed upload', async () => {
    const key = newKey();
    const rows = await fileRows();
    const files = uploadsOnDisk().length;
    const first = await call('POST', '/t/upload', { form: proofForm(PNG), key });
    const again = await call('POST', '/t/upload', { form: proofForm(PNG), key });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(await first.json());
    expect(await fileRows()).toBe(rows + 1);
    expect(uploadsOnDisk().length).toBe(files + 1);
    const otherFile = await call('POST', '/t/upload', { form: proofForm(padded(PNG, 200)), key });
    expect(otherFile.status).toBe(422);
  });

  it('sweeps the files a crash left without a row, once they are an hour old, and keeps the recorded ones', async () => {
    const dir = join(d.dataDir, 'uploads');
    const recorded = await d.db.selectFrom('files').select('id').executeTakeFirstOrThrow();
    const orphan = 'a'.repeat(32);
    const youngOrphan = 'b'.repeat(32);
    writeFileSync(join(dir, orphan), 'left by a crash');
    writeFileSync(join(dir, youngOrphan), 'still in a transaction');
    const longAgo = new Date(Date.now() - 2 * ORPHAN_GRACE_MS);
    utimesSync(join(dir, orphan), longAgo, longAgo);
    utimesSync(join(dir, recorded.id), longAgo, longAgo);
    expect(await sweepOrphanUploads(d.db, dir, new Date())).toBe(1);
    expect(existsSync(join(dir, orphan))).toBe(false);
    expect(existsSync(join(dir, youngOrphan))).toBe(true);
    expect(existsSync(join(dir, recorded.id))).toBe(true);
    rmSync(join(dir, youngOrphan));
  });

  it('answers 415 to a body that is not multipart, or compressed, and 422 to an overlong Domain-Key', async () => {
    expect((await call('POST', '/t/upload', { json: { amount: 1 }, key: newKey() })).status).toBe(415);
    const gz = await call('POST', '/t/upload', {
      form: proofForm(PNG),
      key: newKey(),
      headers: { 'content-encoding': 'gzip' },
    });
    expect(gz.status).toBe(415);
    const longKey = await call('POST', '/t/upload', {
      form: proofForm(PNG),
      key: newKey(),
      headers: { 'domain-key': 'd'.repeat(201) },
    });
    expect(longKey.status).toBe(422);
  });

  it('takes several files in one field up to its count, CSV by its text, and refuses binary as CSV', async () => {
    const sheets = (...parts: [Buffer | string, string][]) => {
      const form = new FormData();
      for (const [content, name] of parts) {
        form.append('sheets', new Blob([typeof content === 'string' ? content : new Uint8Array(content)]), name);
      }
      return form;
    };
    const two = await call('POST', '/t/sheets', { form: sheets(['a,b\n1,2\n', 'one.csv'], ['c,d\n3,4\n', 'two.csv']) });
    expect(two.status).toBe(200);
    expect(((await two.json()) as { data: string[] }).data).toEqual(['csv', 'csv']);
    const four = await call('POST', '/t/sheets', {
      form: sheets(['a\n', '1.csv'], ['a\n', '2.csv'], ['a\n', '3.csv'], ['a\n', '4.csv']),
    });
    expect(four.status).toBe(422);
    expect((await call('POST', '/t/sheets', { form: sheets([PNG, 'sheet.csv']) })).status).toBe(415);
    const big = await call('POST', '/t/sheets', { form: sheets(['a,'.repeat(600), 'big.csv']) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ success: false, message: 'File size exceeds 0MB limit' });
  });
});

describe('the NUL character', () => {
  it('is refused (422) wherever it comes, before a handler or the database sees it', async () => {
    const before = await noted('nul');
    const cases: [string, Promise<Response> | Response][] = [
      ['body', call('POST', '/t/transfer', { json: { note: 'nul\u0000' }, key: newKey() })],
      ['body key', call('POST', '/t/transfer', { json: { note: 'nul', 'x\u0000': 1 }, key: newKey() })],
      ['query', call('GET', '/t/filter?status=pending%00')],
      [
        'multipart field',
        call('POST', '/t/upload', { form: proofForm(PNG, 'p.png', { amount: '1', notes: 'a\u0000b' }), key: newKey() }),
      ],
    ];
    for (const [where, pending] of cases) {
      const res = await pending;
      expect(res.status, where).toBe(422);
      const body = (await res.json()) as { errors: { message: string }[] };
      expect(
        body.errors.map((e) => e.message),
        where,
      ).toContain('must not contain the character U+0000');
    }
    expect(await noted('nul')).toBe(before);
  });
});

describe('array query parameters', () => {
  it('arrive as arrays when the contract says so, and a repeated scalar is refused', async () => {
    const data = async (res: Response) => ((await res.json()) as { data: unknown }).data;
    expect(await data(await call('GET', '/t/filter?status=pending&status=confirmed&page=2'))).toEqual({
      status: ['pending', 'confirmed'],
      page: 2,
    });
    expect(await data(await call('GET', '/t/filter?status=delivered'))).toEqual({ status: ['delivered'] });
    expect((await call('GET', '/t/filter?page=1&page=2')).status).toBe(422);
    expect((await call('GET', '/t/filter?status=pending&status=shipped')).status).toBe(422);
  });
});

describe('answers checked against the contract (tests and development)', () => {
  it('turns a body off its schema, an undeclared status or an undeclared thrown status into a 500', async () => {
    for (const how of ['body', 'status', 'thrown']) {
      const res = await call('GET', `/t/off-contract?how=${how}`);
      expect(res.status, how).toBe(500);
    }
  });

  it('lets them through when the check is off (production), so that a user is not failed by the check', async () => {
    expect((await call('GET', '/t/off-contract?how=body', {}, looseApp)).status).toBe(200);
  });
});

describe('x-role', () => {
  it('opens the back office to admins only', async () => {
    expect((await call('GET', '/t/admin-only')).status).toBe(403);
    expect((await call('GET', '/t/admin-only', { token: tokens.admin })).status).toBe(200);
  });

  it('matches the bearer scheme case-insensitively (RFC 9110)', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await strictApp.request('/api/t/admin-only', {
        headers: { authorization: `${scheme} ${tokens.admin}` },
      });
      expect(res.status, scheme).toBe(200);
    }
  });
});

describe('x-cache-ms: answers kept a moment while the database is unchanged', () => {
  const sqlite = () => d.engine === 'sqlite';
  const kept = async (query = '', token?: string) => {
    const res = await call('GET', `/t/kept${query}`, { token });
    return { status: res.status, body: (await res.json()) as { data?: { runs: number; rows: number } } };
  };
  const note = () =>
    d.db
      .insertInto('notifications')
      .values({ user_id: 1, name: 'kept', description: 'kept', created_at: clock.now().toISOString() })
      .execute();

  it('answers the same caller the same path and query again without running the handler', async () => {
    const first = await kept('?q=again');
    const second = await kept('?q=again');
    expect(first.status).toBe(200);
    // PostgreSQL keeps nothing: the handler runs again
    if (sqlite()) expect(second.body).toEqual(first.body);
    else expect(second.body.data?.runs).toBe((first.body.data?.runs ?? 0) + 1);
  });

  it('runs again after any write, and the answer has it', async () => {
    const first = await kept('?q=write');
    await note();
    const after = await kept('?q=write');
    expect(after.body.data?.runs).toBe((first.body.data?.runs ?? 0) + 1);
    expect(after.body.data?.rows).toBe((first.body.data?.rows ?? 0) + 1);
  });

  it('runs again after a commit by another connection (another process on the same file)', async () => {
    if (!sqlite()) return;
    const first = await kept('?q=other');
    const other = openDatabase(d.target);
    try {
      await other
        .insertInto('notifications')
        .values({ user_id: 1, name: 'kept', description: 'other', created_at: clock.now().toISOString() })
        .execute();
    } finally {
      await other.destroy();
    }
    const after = await kept('?q=other');
    expect(after.body.data?.rows).toBe((first.body.data?.rows ?? 0) + 1);
  });

  it('runs again once its moment has passed, written or not (kept for half to all of x-cache-ms)', async () => {
    const first = await kept('?q=moment');
    clock.advance(499);
    const within = await kept('?q=moment');
    clock.advance(501);
    const after = await kept('?q=moment');
    expect(within.body.data?.runs).toBe((first.body.data?.runs ?? 0) + (sqlite() ? 0 : 1));
    expect(after.body.data?.runs).toBe((within.body.data?.runs ?? 0) + 1);
  });

  it('keeps answers apart by caller and by query', async () => {
    const first = await kept('?q=apart');
    const rival = await kept('?q=apart', tokens.rival);
    const otherQuery = await kept('?q=apart2');
    const noQuery = await kept();
    expect(rival.body.data?.runs).toBe((first.body.data?.runs ?? 0) + 1);
    expect(otherQuery.body.data?.runs).toBe((rival.body.data?.runs ?? 0) + 1);
    expect(noQuery.body.data?.runs).toBe((otherQuery.body.data?.runs ?? 0) + 1);
  });

  it('keeps no error answer, and checks the caller before a kept answer', async () => {
    const before = keptRuns;
    expect((await kept('?q=missing')).status).toBe(404);
    expect((await kept('?q=missing')).status).toBe(404);
    expect(keptRuns).toBe(before + 2);
    await kept('?q=closed');
    const res = await call('GET', '/t/kept?q=closed', { token: 'x'.repeat(40) });
    expect(res.status).toBe(401);
    const invalid = await call('GET', `/t/kept?q=${'x'.repeat(21)}`);
    expect(invalid.status).toBe(422);
  });

  it('answers a kept answer with the same headers and a request id of its own', async () => {
    const a = await call('GET', '/t/kept?q=headers');
    const b = await call('GET', '/t/kept?q=headers');
    if (sqlite()) expect(await b.text()).toBe(await a.text());
    expect(b.headers.get('content-type')).toBe('application/json');
    expect(b.headers.get('cache-control')).toBe('no-store');
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
  });
});

describe('on a real socket', () => {
  let server: ReturnType<typeof serve>;
  let port: number;
  const logLines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    // the product's log, kept to read what a disconnect leaves in it
    const log = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) });
    const product = createApp({ db: d.db, clock, log });
    const apps = { product, hooks: strictApp };
    server = await new Promise((ready) => {
      const s = serve(
        {
          fetch: (req, env) => {
            const url = new URL(req.url);
            return url.pathname.startsWith('/api/t/') ? apps.hooks.fetch(req, env) : apps.product.fetch(req, env);
          },
          port: 0,
          hostname: '127.0.0.1',
        },
        () => ready(s),
      );
    });
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  /** Writes raw bytes on one connection and collects every byte the server sends until it goes quiet. */
  const exchange = (writes: (Buffer | string)[], quietMs = 700) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      let timer: NodeJS.Timeout | undefined;
      const settle = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          socket.destroy();
          resolve(received);
        }, quietMs);
      };
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        settle();
      });
      socket.on('error', reject);
      socket.on('connect', async () => {
        for (const w of writes) {
          socket.write(w);
          await new Promise((r) => setTimeout(r, 50));
        }
        settle();
      });
    });

  it('answers 413 to an oversized JSON body and still answers the next request on the same connection', async () => {
    const big = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1024 * 1024) });
    const first = `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(big)}\r\n\r\n${big}`;
    const second = 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n';
    const answer = await exchange([first, second], 1500);
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    expect(statuses).toEqual(['413', '200']);
  });

  it('does the same for an oversized chunked body, which announces no length', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    const chunks = Array.from({ length: 8 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join('');
    const first = `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`;
    const second = 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n';
    const answer = await exchange([first, second], 1500);
    const statuses = [...answer.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => m[1]);
    expect(statuses).toEqual(['413', '200']);
  });

  it('logs a client that disconnects in the middle of a JSON body as such: no error, no stack, no 500', async () => {
    logLines.length = 0;
    const partial = `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 20000\r\n\r\n{"email":"a@b.c","password":"`;
    expect(await exchange([partial], 300)).toBe('');
    for (let i = 0; i < 50 && !logLines.some((l) => l.msg === 'the client closed the request'); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(logLines.filter((l) => l.msg === 'the client closed the request')).toHaveLength(1);
    expect(logLines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(logLines.filter((l) => l.status === 500)).toEqual([]);
    expect(JSON.stringify(logLines)).not.toMatch(/"stack"/);
  });

  it('keeps no file when the client disconnects in the middle of an upload', async () => {
    const rows = await fileRows();
    const files = uploadsOnDisk().length;
    const boundary = 'b0undary';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="amount"\r\n\r\n5\r\n--${boundary}\r\nContent-Disposition: form-data; name="proof"; filename="p.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
    const partOfFile = padded(PDF, 256 * 1024);
    const request = `POST /api/t/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.seller}\r\nIdempotency-Key: ${newKey()}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${5 * MB}\r\n\r\n`;
    const answer = await exchange([request, head, partOfFile], 300);
    expect(answer).toBe('');
    // the server notices the disconnect and removes the partial file
    for (let i = 0; i < 50 && uploadsOnDisk().length !== files; i++) await new Promise((r) => setTimeout(r, 100));
    expect(uploadsOnDisk().length).toBe(files);
    expect(await fileRows()).toBe(rows);
  });
});
