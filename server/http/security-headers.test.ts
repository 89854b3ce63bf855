import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { manualClock } from '../clock';
import { type Db, openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { createLogger } from '../logger';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;

function csp(res: Response): Map<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...values]) => [name, values]),
  );
}

/** A page of the app (or one of its files): the page's policy, Stripe's origins allowed. */
function expectSecurityHeaders(res: Response, label: string) {
  const policy = csp(res);
  expect(policy.get('script-src'), label).toContain('https://js.stripe.com');
  expect(policy.get('script-src'), label).not.toContain("'unsafe-inline'");
  expect(policy.get('script-src'), label).not.toContain("'unsafe-eval'");
  expect(policy.get('frame-src'), label).toContain('https://js.stripe.com');
  expect(policy.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(policy.get('default-src'), label).toEqual(["'self'"]);
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), label).toBe('DENY');
  expect(res.headers.get('x-request-id'), label).toMatch(/^\S{8,64}$/);
}

/** An answer of the API: nothing may load or run, nobody may frame it, other origins may not read it. */
function expectApiSecurityHeaders(res: Response, label: string) {
  const policy = csp(res);
  expect(policy.get('default-src'), label).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors'), label).toEqual(["'none'"]);
  expect(policy.has('script-src'), label).toBe(false);
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), label).toBe('DENY');
  expect(res.headers.get('cross-origin-resource-policy'), label).toBe('same-origin');
  expect(res.headers.get('strict-transport-security'), label).toMatch(/^max-age=\d{8}/);
  expect(res.headers.get('cache-control'), label).toBe('no-store');
  expect(res.headers.get('x-request-id'), label).toMatch(/^\S{8,64}$/);
  // the page's policies have nothing to say on JSON
  expect(res.headers.get('permissions-policy'), label).toBeNull();
}

describe('security headers on API answers', () => {
  let s: Server;
  let token: string;

  beforeAll(async () => {
    s = await freshServer();
    token = await s.loginAs('seller@demo.test');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('are on every answer, success or error, with Cache-Control no-store', async () => {
    const answers: [string, Response, number][] = [
      ['my-account', await s.json('GET', '/settings/my-account', undefined, token), 200],
      ['login', await s.json('POST', '/auth/login', { email: 'member@demo.test', password: 'Demo1234!' }), 200],
      ['health', await s.json('GET', '/health'), 200],
      ['unknown route', await s.json('GET', '/nope'), 404],
      ['no token', await s.json('GET', '/settings/my-account'), 401],
      ['bad json', await s.json('POST', '/auth/login', '{bad'), 400],
      ['wrong method', await s.json('PUT', '/auth/login'), 405],
      // the back office is refused to a seller
      ['forbidden', await s.json('GET', '/admin/deposits', undefined, token), 403],
    ];
    for (const [label, res, status] of answers) {
      expect(res.status, label).toBe(status);
      expectApiSecurityHeaders(res, label);
      expect(res.headers.get('cache-control'), label).toBe('no-store');
    }
  });

  it('gives every answer its own request id, and ignores one a client makes up', async () => {
    const a = (await s.json('GET', '/health')).headers.get('x-request-id');
    const b = (await s.json('GET', '/health')).headers.get('x-request-id');
    expect(a).not.toBe(b);
    // a client could otherwise write whatever it likes into our logs' request ids
    const forged = await s.app.request('/api/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(forged.headers.get('x-request-id')).not.toBe('trace-123');
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('takes the request id a trusted proxy sets, when it is a plain token', async () => {
    const behindProxy = createApp({ db: s.db, clock: s.clock, log: createLogger('silent'), trustProxy: true });
    const mine = await behindProxy.request('/api/health', { headers: { 'x-request-id': 'trace-123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-123');
    const hostile = await behindProxy.request('/api/health', { headers: { 'x-request-id': 'a b;c'.repeat(40) } });
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('security headers beside the single-page app', () => {
  let dir: string;
  let db: Db;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-portal-static-'));
    mkdirSync(join(dir, 'dist', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>SB Portal</title><div id="root"></div>');
    writeFileSync(join(dir, 'dist', 'assets', 'app-123.js'), 'console.log(1)');
    db = openDatabase(join(dir, 'portal.sqlite'));
    await migrateToLatest(db);
    app = createApp({ db, clock: manualClock(), log: createLogger('silent'), staticDir: join(dir, 'dist') });
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the SPA for its routes with the same headers', async () => {
    for (const path of ['/', '/login', '/dashboard']) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toContain('SB Portal');
      expectSecurityHeaders(res, path);
    }
    const asset = await app.request('/assets/app-123.js');
    expect(asset.status).toBe(200);
    expectSecurityHeaders(asset, 'asset');
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it('still answers unknown API routes with JSON 404 and no-store, not the SPA', async () => {
    const res = await app.request('/api/nope');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expectApiSecurityHeaders(res, 'api 404');
    const wrongMethod = await app.request('/api/auth/login');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });
});
