import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { ORPHAN_GRACE_MS, sweepOrphanUploads } from '../http/multipart';
import {
  call,
  clock,
  d,
  MB,
  newKey,
  openHooksApp,
  PDF,
  PNG,
  padded,
  proofForm,
  strictApp,
  tokens,
} from './hooks-testing';

/**
 * The router's multipart uploads, and what a real socket sees (oversized bodies, a client gone mid-request), through
 * the hooks' own contract (hooks-testing.ts) and real handlers on a real database.
 */
openHooksApp();

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
