import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { manualClock } from '../clock';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { createLogger } from '../logger';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
interface ErrorBody {
  success: boolean;
  message: string;
  errors?: { path: string; message: string }[];
}

/** Every error answer: JSON, the envelope with success false and a message, and nothing of the server's insides. */
async function expectError(res: Response, status: number | ((s: number) => boolean)): Promise<ErrorBody> {
  if (typeof status === 'number') expect(res.status).toBe(status);
  else expect(status(res.status), `status ${res.status}`).toBe(true);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const text = await res.text();
  expect(text).not.toMatch(/\bat .*\.[cm]?[jt]s:\d+/);
  expect(text).not.toContain('Error:');
  expect(text).not.toContain('node_modules');
  const body = JSON.parse(text) as ErrorBody;
  expect(body.success).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(5);
  return body;
}
const is4xx = (s: number) => s >= 400 && s < 500;

describe('bad input', () => {
  let s: Server;
  let token: string;

  beforeAll(async () => {
    s = await freshServer();
    token = await s.loginAs('seller@demo.test');
  });
  afterAll(async () => {
    await s?.close();
  });

  const post = (body: BodyInit | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
    s.app.request('/api/auth/login', { method: 'POST', headers, body });

  describe('malformed login bodies', () => {
    it('answers no body at all with a 4xx', async () => {
      await expectError(await s.app.request('/api/auth/login', { method: 'POST' }), is4xx);
      await expectError(await post(undefined), is4xx);
    });

    it("answers an empty body '' with a 4xx", async () => {
      await expectError(await post(''), is4xx);
    });

    it('answers broken JSON with 400', async () => {
      for (const text of ['{bad', '{"email": "seller@demo.test",', '\u0000', '{"email": undefined}']) {
        const body = await expectError(await post(text), 400);
        expect(body.message).toMatch(/JSON/);
      }
    });

    it('answers JSON that is not an object with 422', async () => {
      for (const text of ['null', '[]', '"str"', '42', 'true']) {
        const body = await expectError(await post(text), 422);
        expect(body.errors, text).toEqual([{ path: '/body', message: expect.any(String) }]);
      }
    });

    it('answers missing fields with 422 and the path of each', async () => {
      const both = await expectError(await post('{}'), 422);
      expect(both.errors?.map((e) => e.path).sort()).toEqual(['/body/email', '/body/password']);
      const noPassword = await expectError(await post(JSON.stringify({ email: 'seller@demo.test' })), 422);
      expect(noPassword.errors).toEqual([{ path: '/body/password', message: 'is required' }]);
      const noEmail = await expectError(await post(JSON.stringify({ password: 'x' })), 422);
      expect(noEmail.errors).toEqual([{ path: '/body/email', message: 'is required' }]);
    });

    it('answers wrong types with 422', async () => {
      const body = await expectError(await post(JSON.stringify({ email: 123, password: true })), 422);
      expect(body.errors?.map((e) => e.path).sort()).toEqual(['/body/email', '/body/password']);
      await expectError(await post(JSON.stringify({ email: ['seller@demo.test'], password: { a: 1 } })), 422);
      await expectError(await post(JSON.stringify({ email: null, password: null })), 422);
    });

    it('answers an unknown extra field with 422', async () => {
      const body = await expectError(
        await post(JSON.stringify({ email: 'seller@demo.test', password: 'x', admin: true })),
        422,
      );
      expect(body.errors).toEqual([{ path: '/body/admin', message: 'is not an accepted field' }]);
      await expectError(await post('{"email":"seller@demo.test","password":"x","__proto__":{"admin":true}}'), 422);
    });

    it('answers a badly formed email and an empty password with 422', async () => {
      const body = await expectError(await post(JSON.stringify({ email: 'not-an-email', password: '' })), 422);
      expect(body.errors?.map((e) => e.path).sort()).toEqual(['/body/email', '/body/password']);
    });

    it('answers a 1 MB email with 413 and a clear message', async () => {
      const text = JSON.stringify({ email: `${'a'.repeat(1024 * 1024)}@demo.test`, password: 'x' });
      const body = await expectError(
        await post(text, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }),
        413,
      );
      expect(body.message).toBe('The request body is too large (the limit is 32 KB).');
      await expectError(await post(text), 413);
    });

    it('answers a chunked body over 32 KB without Content-Length with 413', async () => {
      const bytes = new TextEncoder().encode(
        JSON.stringify({ email: `${'a'.repeat(40_000)}@demo.test`, password: 'x' }),
      );
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(sent, sent + 4096));
          sent += 4096;
        },
      });
      const res = await s.app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      const body = await expectError(res, 413);
      expect(body.message).toMatch(/too large/);
    });

    it('still reads a small chunked body', async () => {
      const bytes = new TextEncoder().encode(JSON.stringify({ email: 'nobody@demo.test', password: 'x' }));
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
      const res = await s.app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      await expectError(res, 401);
    });

    it('answers a deeply nested body with a 4xx, not a crash', async () => {
      await expectError(await post(`${'['.repeat(16_000)}${']'.repeat(16_000)}`), 422);
      await expectError(await post(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`), 422);
    });

    it('answers a body that is not JSON with 415', async () => {
      const json = JSON.stringify({ email: 'seller@demo.test', password: 'x' });
      const body = await expectError(await post(json, { 'content-type': 'text/plain' }), 415);
      expect(body.message).toMatch(/JSON/);
      await expectError(
        await post('email=a@b.c&password=x', { 'content-type': 'application/x-www-form-urlencoded' }),
        415,
      );
      const form = new FormData();
      form.set('email', 'seller@demo.test');
      form.set('password', 'x');
      await expectError(await s.app.request('/api/auth/login', { method: 'POST', body: form }), 415);
    });
  });

  describe('hostile values', () => {
    const fragments = ["' OR 1=1 --", '"; DROP TABLE users; --', '<script>alert(1)</script>', "admin@demo.test' --"];

    it('answers SQL and script fragments in the email with 401 or 422', async () => {
      for (const email of [...fragments, "x' OR '1'='1@demo.test", '<script>@demo.test']) {
        await expectError(await post(JSON.stringify({ email, password: 'x' })), (st) => st === 401 || st === 422);
      }
    });

    it('answers SQL and script fragments in the password with 401', async () => {
      for (const password of fragments) {
        await expectError(await post(JSON.stringify({ email: 'admin@demo.test', password })), 401);
      }
    });

    it('answers a unicode and emoji password with 401, not 500', async () => {
      for (const password of ['pässwörd 🔑🎟️⚽', '\u202e\ud800', 'ﷺ'.repeat(128)]) {
        await expectError(await post(JSON.stringify({ email: 'newseller@demo.test', password })), 401);
      }
      // the NUL character is refused in every field, before any password is checked
      const nul = await expectError(
        await post(JSON.stringify({ email: 'newseller@demo.test', password: 'a\u0000b' })),
        422,
      );
      expect(nul.errors).toEqual([{ path: '/body/password', message: 'must not contain the character U+0000' }]);
    });

    it('still has its twelve users (seven demo accounts, two trade sellers, three invited team members) and can log them in', async () => {
      const n = await s.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(12);
      expect(await s.loginAs('admin@demo.test')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });
  });

  describe('routes', () => {
    it('answers an unknown route with 404 JSON', async () => {
      const body = await expectError(await s.json('GET', '/nope'), 404);
      expect(body.message).toContain('/api/nope');
      await expectError(await s.json('POST', '/nope', {}, token), 404);
      await expectError(await s.json('GET', '/auth/login/extra'), 404);
    });

    it('answers a wrong method on a known path with 405 and Allow', async () => {
      const res = await s.json('GET', '/auth/login');
      expect(res.headers.get('allow')).toBe('POST');
      await expectError(res, 405);
      const del = await s.json('DELETE', '/settings/my-account', undefined, token);
      expect(del.headers.get('allow')).toBe('GET');
      await expectError(del, 405);
      const param = await s.json('GET', '/admin/kyc/12/approve', undefined, token);
      expect(param.headers.get('allow')).toBe('POST');
      await expectError(param, 405);
    });

    it('answers a malformed path parameter with a 4xx', async () => {
      const admin = await s.loginAs('admin@demo.test');
      // a built operation (a planned one answers 501 before validating)
      await expectError(await s.json('POST', '/admin/deposits/not-a-number/approve', undefined, admin), 422);
      await expectError(await s.json('POST', '/admin/deposits/%E0%A4%A/approve', undefined, admin), is4xx);
    });
  });
});

describe('an unexpected failure', () => {
  it('answers 500 with the generic envelope and no stack trace', async () => {
    // a real database whose auth_tokens table is gone: the query throws inside the server
    const dir = mkdtempSync(join(tmpdir(), 'sb-portal-500-'));
    const db = openDatabase(join(dir, 'portal.sqlite'));
    try {
      await migrateToLatest(db);
      await sql`DROP TABLE auth_tokens`.execute(db);
      const app = createApp({ db, clock: manualClock(), log: createLogger('silent') });
      const res = await app.request('/api/settings/my-account', {
        headers: { authorization: `Bearer ${'A'.repeat(43)}` },
      });
      const body = await expectError(res, 500);
      expect(body).toEqual({ success: false, message: 'An unexpected error occurred. Please try again later.' });
      expect(JSON.stringify(body)).not.toMatch(/auth_tokens|sqlite/i);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
