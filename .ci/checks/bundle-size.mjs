// Fails the build when the JavaScript that /login loads during its first render is over budget: 100 KB as
// served to a browser, which takes brotli (the .br copies).
// Measured, not guessed from the bundler's graph: /login is opened in Chromium (phone and desktop widths)
// against the built folder, and every script the page fetches until the network is idle is counted: the
// entry chunk, its static imports and what it loads at once (the toasts, right after first paint). Routes
// loaded on demand later do not count. Sizes are those the server sends: the .gz and .br copies written by
// scripts/precompress.mjs, or the file itself where it has none (files under 1 KB).
//
//   node .ci/checks/bundle-size.mjs dist
//
// Needs Chromium (CHROMIUM_PATH, default /usr/bin/chromium), as the e2e tests do. Without it the check is
// skipped with a warning, except under CI, where it fails.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const BUDGET_KB = 100;
const dir = resolve(process.argv[2] ?? 'dist');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// the launch flags of e2e/playwright.config.ts
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

if (!existsSync(join(dir, 'index.html'))) {
  console.error(`bundle-size: no ${join(dir, 'index.html')}: build first`);
  process.exit(2);
}
if (!existsSync(chromiumPath)) {
  const say = `bundle-size: no Chromium at ${chromiumPath} (set CHROMIUM_PATH): the /login budget is not checked`;
  if (process.env.CI) {
    console.error(say);
    process.exit(1);
  }
  console.warn(`${say}.`);
  process.exit(0);
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};
/** The built folder as the app's server presents it: files, the API absent (no session), index.html for routes. */
function fileFor(urlPath) {
  const path = normalize(join(dir, decodeURIComponent(urlPath)));
  if (!path.startsWith(dir + sep) || path.split(sep).some((part) => part.startsWith('.'))) return null;
  return existsSync(path) && statSync(path).isFile() ? path : null;
}
const server = createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"success":false,"message":"Not signed in."}');
    return;
  }
  const file = fileFor(pathname) ?? (extname(pathname) ? null : join(dir, 'index.html'));
  if (!file) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  res.end(readFileSync(file));
});
await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
const origin = `http://127.0.0.1:${server.address().port}`;

const { chromium } = await import('@playwright/test');
const browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_ARGS });
/** Path -> resource type, for everything /login fetched from our origin. */
const loaded = new Map();
try {
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === origin) loaded.set(url.pathname, request.resourceType());
    });
    await page.goto(`${origin}/login`, { waitUntil: 'networkidle' });
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}

const sizeOf = (file) => {
  const raw = statSync(file).size;
  // what the server sends: the precompressed copy when there is one, else the file itself
  const sent = (suffix) => (existsSync(file + suffix) ? statSync(file + suffix).size : raw);
  return { raw, gz: sent('.gz'), br: sent('.br') };
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const rows = [];
for (const [path, type] of loaded) {
  const file = fileFor(path) ?? (type === 'document' ? join(dir, 'index.html') : null);
  if (file) rows.push({ path, type, ...sizeOf(file) });
}
const scripts = rows.filter((r) => r.type === 'script' || r.path.endsWith('.js'));
if (scripts.length === 0) {
  console.error('bundle-size: /login loaded no script: the page did not start');
  process.exit(1);
}
for (const r of rows) {
  console.info(
    `  ${r.path.padEnd(44)} ${r.type.padEnd(10)} ${kb(r.raw).padStart(9)}  gzip ${kb(r.gz).padStart(8)}  br ${kb(r.br).padStart(8)}`,
  );
}
const total = (list, key) => list.reduce((n, r) => n + r[key], 0);
console.info(
  `/login loads ${scripts.length} scripts: ${kb(total(scripts, 'raw'))}, gzip ${kb(total(scripts, 'gz'))}, br ${kb(total(scripts, 'br'))}` +
    ` (everything: ${kb(total(rows, 'raw'))}, gzip ${kb(total(rows, 'gz'))}, br ${kb(total(rows, 'br'))})`,
);
const brKb = total(scripts, 'br') / 1024;
console.info(
  `budget: ${BUDGET_KB} KB of JavaScript as served (brotli); /login loads ${brKb.toFixed(1)} KB (${total(scripts, 'br')} bytes)`,
);
if (brKb > BUDGET_KB) {
  console.error(`The /login JavaScript is ${(brKb - BUDGET_KB).toFixed(1)} KB over budget: load more of it on demand.`);
  process.exit(1);
}
