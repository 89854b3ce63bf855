import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { manualClock } from '../clock';
import { type Db, openDatabase } from '../db/database';
import { createLogger } from '../logger';
import { BUILT_INDEX_HTML } from '../test-support';
import { chooseEncoding, LOGIN_PAGE_FILE, SESSION_PAGE_FILE, SESSION_PRELOAD_FILE } from './static';

const INDEX = '<!doctype html><title>SB Portal</title><div id="root"></div><script src="/assets/app-1a2b.js"></script>';
const ASSET = `export const rows = [${Array.from({ length: 200 }, (_, i) => `{ id: ${i}, name: "row ${i}" }`).join(', ')}];\n`;
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A small built app: index.html, a hashed asset with its .br and .gz copies, a public file and what must stay private. */
/** A body as sent in `encoding` (br, gzip, anything else: as is), decoded to text. */
const decoded = (body: Buffer, encoding: string | null | undefined) =>
  (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body).toString();

function fakeDist(root: string) {
  mkdirSync(join(root, 'assets'), { recursive: true });
  mkdirSync(join(root, '.vite'), { recursive: true });
  writeFileSync(join(root, 'index.html'), INDEX);
  writeFileSync(join(root, 'assets', 'app-1a2b.js'), ASSET);
  writeFileSync(join(root, 'assets', 'app-1a2b.js.br'), brotliCompressSync(ASSET));
  writeFileSync(join(root, 'assets', 'app-1a2b.js.gz'), gzipSync(ASSET, { level: 9 }));
  writeFileSync(join(root, 'assets', 'tiny-9z.css'), 'a{}');
  // a "copy" bigger than its file is not worth sending
  writeFileSync(join(root, 'assets', 'tiny-9z.css.gz'), gzipSync('a{}'));
  writeFileSync(join(root, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(root, '.vite', 'manifest.json'), '{"secret":"manifest"}');
  writeFileSync(join(root, '.env'), 'SECRET=1');
  writeFileSync(join(root, 'assets', '.hidden.js'), 'secret()');
}

describe('the built app, served from memory', () => {
  let dir: string;
  let db: Db;
  let app: ReturnType<typeof createApp>;
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    app.request(path, { method, headers });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-portal-static-'));
    fakeDist(join(dir, 'dist'));
    db = openDatabase(join(dir, 'portal.sqlite'));
    app = createApp({ db, clock: manualClock(), log: createLogger('silent'), staticDir: join(dir, 'dist') });
    // read once at start: what happens to the folder afterwards does not change what is served
    unlinkSync(join(dir, 'dist', 'assets', 'app-1a2b.js'));
    writeFileSync(join(dir, 'dist', 'assets', 'late-5x.js'), 'added after start');
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the brotli copy, then gzip, then the file, by Accept-Encoding, with Vary', async () => {
    const cases: [string | undefined, string | null][] = [
      ['gzip, deflate, br, zstd', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
      ['*;q=0', null],
      ['deflate', null],
      ['identity', null],
      [undefined, null],
    ];
    for (const [accept, encoding] of cases) {
      const res = await get('/assets/app-1a2b.js', accept === undefined ? {} : { 'accept-encoding': accept });
      const label = `Accept-Encoding: ${accept}`;
      expect(res.status, label).toBe(200);
      expect(res.headers.get('content-encoding'), label).toBe(encoding);
      expect(res.headers.get('vary'), label).toBe('Accept-Encoding');
      expect(res.headers.get('content-type'), label).toBe('text/javascript; charset=utf-8');
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('content-length'), label).toBe(String(body.length));
      expect(decoded(body, encoding), label).toBe(ASSET);
      if (encoding) expect(body.length, label).toBeLessThan(Buffer.byteLength(ASSET));
    }
  });

  it('sends a file as built when its compressed copy would be bigger', async () => {
    const res = await get('/assets/tiny-9z.css', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe('a{}');
  });

  it('answers 304 to If-None-Match with the ETag of the representation sent', async () => {
    const br = await get('/assets/app-1a2b.js', { 'accept-encoding': 'br' });
    const plain = await get('/assets/app-1a2b.js');
    const brTag = br.headers.get('etag') ?? '';
    const plainTag = plain.headers.get('etag') ?? '';
    expect(brTag).toMatch(/^"[\w-]+"$/);
    expect(plainTag).toMatch(/^"[\w-]+"$/);
    expect(brTag).not.toBe(plainTag);

    for (const ifNoneMatch of [brTag, `W/${brTag}`, `"other", ${brTag}`, '*']) {
      const res = await get('/assets/app-1a2b.js', { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch });
      expect(res.status, ifNoneMatch).toBe(304);
      expect(await res.text(), ifNoneMatch).toBe('');
      expect(res.headers.get('etag'), ifNoneMatch).toBe(brTag);
      expect(res.headers.get('cache-control'), ifNoneMatch).toBe(IMMUTABLE);
      expect(res.headers.get('vary'), ifNoneMatch).toBe('Accept-Encoding');
    }
    // the brotli tag does not validate the gzip copy, nor a tag of something else
    expect((await get('/assets/app-1a2b.js', { 'accept-encoding': 'gzip', 'if-none-match': brTag })).status).toBe(200);
    expect((await get('/assets/app-1a2b.js', { 'if-none-match': '"stale"' })).status).toBe(200);

    const index = await get('/dashboard');
    const again = await get('/login', { 'if-none-match': index.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('no-cache');
  });

  it('caches hashed assets for a year and makes index.html and other files revalidate', async () => {
    expect((await get('/assets/app-1a2b.js')).headers.get('cache-control')).toBe(IMMUTABLE);
    for (const path of ['/', '/index.html', '/dashboard', '/favicon.svg']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(res.headers.get('etag'), path).toMatch(/^"[\w-]+"$/);
    }
    expect((await get('/favicon.svg')).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('answers every route of the app with index.html', async () => {
    for (const path of ['/', '/login', '/dashboard', '/settings/kyc?handle=true', '/notifications/', '/sales/42/x']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(await res.text(), path).toBe(INDEX);
    }
    const head = await get('/dashboard', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(INDEX)));
    expect(await head.text()).toBe('');
  });

  it('answers a missing asset or file with 404 and no-store, never index.html', async () => {
    for (const path of [
      '/assets/app-gone.js',
      '/assets/late-5x.js',
      '/assets/',
      '/assets/chunk',
      '/robots.txt',
      '/dashboard/logo.png',
      '/assets/app-1a2b.js.br',
      '/assets/app-1a2b.js.gz',
    ]) {
      const res = await get(path, { 'accept-encoding': 'br, gzip' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await res.text(), path).not.toContain('<!doctype html>');
    }
  });

  it('never serves dotfiles or the build manifest', async () => {
    for (const path of [
      '/.vite/manifest.json',
      '/.vite/',
      '/.vite',
      '/.env',
      '/assets/.hidden.js',
      '/%2Evite/manifest.json',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      const text = await res.text();
      expect(text, path).not.toContain('secret');
      expect(text, path).not.toContain('<!doctype html>');
    }
  });

  it('leaves /api and everything under it to the API: JSON 404, never the app', async () => {
    for (const path of ['/api', '/api/', '/api/nope', '/api/assets/app-1a2b.js']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await get(path, {}, method);
        const label = `${method} ${path}`;
        expect(res.status, label).toBe(404);
        expect(res.headers.get('content-type'), label).toMatch(/^application\/json/);
        expect(res.headers.get('cache-control'), label).toBe('no-store');
        if (method === 'GET')
          expect(await res.json(), label).toEqual({ success: false, message: `There is nothing at GET ${path}.` });
      }
    }
    expect((await get('/api/health')).status).toBe(200);
  });

  it('answers other methods on app paths with the JSON 404', async () => {
    const res = await app.request('/dashboard', { method: 'POST' });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('a page opened with a session: the chunks it loads next, named in its HTML', () => {
  const HTML = BUILT_INDEX_HTML;
  const LOGIN_HTML = HTML.replace('<div id="root"></div>', '<div id="root"><main><h1>Log in</h1></main></div>');
  /** The page a browser with a session cookie gets (scripts/prerender-pages.tsx): the app's loader in #root. */
  const SESSION_HTML = HTML.replace(
    '<div id="root"></div>',
    '<div id="root"><div role="status">Loading...</div></div>',
  );
  const LINKS = [
    '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/shell-layout-2b.js">',
    '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/dashboard-page-3c.js">',
    '<link rel="preload" as="style" crossorigin href="/assets/dash-4d.css">',
  ];
  let dir: string;
  let db: Db;
  let app: ReturnType<typeof createApp>;
  const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers });
  const SESSION = { cookie: 'theme=dark; auth_token=t0k3n; auth_token_validity=1700000000000' };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-portal-preload-'));
    const dist = join(dir, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), HTML);
    const preload = {
      paths: {
        '/dashboard': {
          scripts: ['assets/shell-layout-2b.js', 'assets/dashboard-page-3c.js'],
          styles: ['assets/dash-4d.css'],
        },
      },
    };
    writeFileSync(join(dist, SESSION_PRELOAD_FILE), JSON.stringify(preload));
    writeFileSync(join(dist, LOGIN_PAGE_FILE), LOGIN_HTML);
    writeFileSync(join(dist, SESSION_PAGE_FILE), SESSION_HTML);
    db = openDatabase(join(dir, 'portal.sqlite'));
    app = createApp({ db, clock: manualClock(), log: createLogger('silent'), staticDir: dist });
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names the listed chunks in the head of a listed path opened with a session cookie, in every encoding', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await get('/dashboard', { ...SESSION, 'accept-encoding': encoding });
      expect(res.status, encoding).toBe(200);
      expect(res.headers.get('vary'), encoding).toBe('Accept-Encoding, Cookie');
      expect(res.headers.get('cache-control'), encoding).toBe('no-cache');
      const text = decoded(Buffer.from(await res.arrayBuffer()), encoding);
      expect(text, encoding).toBe(
        SESSION_HTML.replace('  </head>', `${LINKS.map((l) => `    ${l}\n`).join('')}  </head>`),
      );
    }
  });

  it('sends index.html as built without a session cookie, with another ETag; the loader’s page on other paths', async () => {
    const plain = await get('/dashboard', { cookie: 'theme=dark; auth_token=' });
    expect(await plain.text()).toBe(HTML);
    expect(plain.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    const preloading = await get('/dashboard', SESSION);
    expect(preloading.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    // a cached copy of the other one is not taken for this one
    const revalidated = await get('/dashboard', { ...SESSION, 'if-none-match': plain.headers.get('etag') ?? '' });
    expect(revalidated.status).toBe(200);
    // other routes: index.html, varying on Cookie too (with a session the API accepts, the page carries its
    // profile: server/http/page-profile.test.ts)
    for (const path of ['/sales/pending', '/']) {
      const res = await get(path, SESSION);
      expect(await res.text(), path).toBe(SESSION_HTML);
      expect(res.headers.get('vary'), path).toBe('Accept-Encoding, Cookie');
      expect(await (await get(path)).text(), path).toBe(HTML);
    }
  });

  it('sends /login with the prerendered form without a session cookie, the loader’s page with one', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await get('/login?next=%2Fsales', { cookie: 'theme=dark', 'accept-encoding': encoding });
      expect(res.headers.get('vary'), encoding).toBe('Accept-Encoding, Cookie');
      expect(res.headers.get('cache-control'), encoding).toBe('no-cache');
      const text = decoded(Buffer.from(await res.arrayBuffer()), encoding);
      expect(text, encoding).toBe(LOGIN_HTML);
    }
    const withSession = await get('/login', SESSION);
    expect(await withSession.text()).toBe(SESSION_HTML);
    expect(withSession.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    // only /login: the other public pages are the app's
    expect(await (await get('/signup')).text()).toBe(HTML);
  });

  it('never serves the list or the login page as files', async () => {
    for (const file of [SESSION_PRELOAD_FILE, LOGIN_PAGE_FILE, SESSION_PAGE_FILE]) {
      const res = await get(`/${file}`, SESSION);
      expect(res.status, file).toBe(404);
    }
  });
});

describe('without a built app', () => {
  it('serves only the API when the folder has no index.html', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-portal-static-'));
    const db = openDatabase(':memory:');
    try {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'assets', 'a.js'), 'x');
      const app = createApp({ db, clock: manualClock(), log: createLogger('silent'), staticDir: dir });
      expect((await app.request('/')).status).toBe(404);
      expect((await app.request('/assets/a.js')).status).toBe(404);
      expect((await app.request('/api/health')).status).toBe(200);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('chooseEncoding', () => {
  it('prefers brotli on a tie, honours q-values, q=0 and *, and ignores codings the file lacks', () => {
    expect(chooseEncoding('gzip, br', ['br', 'gzip'])).toBe('br');
    expect(chooseEncoding('gzip, br', ['gzip'])).toBe('gzip');
    expect(chooseEncoding('BR;Q=0.8, GZIP;q=0.9', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('br;q=0', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('*;q=0.1, br;q=0', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('br;q=nonsense', ['br'])).toBeNull();
    expect(chooseEncoding('', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('br', [])).toBeNull();
  });
});

describe('scripts/precompress.mjs', () => {
  it('writes a brotli and a gzip copy of compressible files over 1 KB, and nothing else', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-portal-precompress-'));
    try {
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'assets', 'big.js'), ASSET);
      writeFileSync(join(dir, 'assets', 'small.js'), 'x()');
      writeFileSync(join(dir, 'logo.png'), Buffer.alloc(4096, 7));
      writeFileSync(join(dir, 'index.html'), INDEX);
      execFileSync(process.execPath, ['scripts/precompress.mjs', dir], { stdio: 'pipe' });
      expect(brotliDecompressSync(readFileSync(join(dir, 'assets', 'big.js.br'))).toString()).toBe(ASSET);
      expect(gunzipSync(readFileSync(join(dir, 'assets', 'big.js.gz'))).toString()).toBe(ASSET);
      for (const name of ['assets/small.js', 'logo.png', 'index.html'])
        for (const suffix of ['.br', '.gz']) expect(existsSync(join(dir, name + suffix)), name + suffix).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
