import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context, MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';

/**
 * The built single-page app, served from memory. The folder (dist, or dist-e2e) is read once at start:
 * every file with the .br and .gz copies scripts/precompress.mjs wrote beside it, its ETag and type, so a
 * request costs no file system call and no compression, and static files stay fast while the libuv thread
 * pool is busy (password hashing). Restart the server after a build.
 *
 * - `/assets/*` (content-hashed names): cached for a year, immutable. Everything else: `no-cache`
 *   (revalidated with the ETag, answered 304 when unchanged).
 * - A path with no file: a route of the app, answered with index.html (`no-cache`), unless it is under
 *   `/assets/`, has a file extension or a dot segment: then 404 with `no-store`, never index.html
 *   (a missing chunk must not be cached as HTML for a year).
 * - Dotfiles and dot folders (`.vite/`) are never read, so never served. `/api` and `/api/*` are never
 *   the app: they fall through to the API's JSON answers.
 * - Every route's page varies on Cookie. Without a session cookie: index.html, or for /login the build's
 *   prerendered login page (`.login.html`, the form already in the HTML).
 * - With a session cookie (/login too: the app sends a live session on): the build's session page
 *   (`.session.html`, the app's first loader in #root). Where the build listed the route's chunks
 *   (`.session-preload.json`, written by scripts/session-preload.ts: /dashboard's), it names them in
 *   `<link rel="modulepreload">`, so that they load with the entry instead of after it has run and asked for them.
 * - A route opened with a session cookie the API accepts also carries the session's profile in its HTML (see
 *   `PROFILE_ELEMENT_ID`): what the app's three profile calls would answer, so that the portal renders without
 *   waiting a round trip for them. Such a page is the user's own: `private, no-store`, compressed as it is sent.
 */

type Encoding = 'br' | 'gzip';

export interface StaticFile {
  type: string;
  cacheControl: string;
  /** The file as built, then its precompressed copies (only those smaller than the file). */
  identity: Representation;
  br?: Representation;
  gzip?: Representation;
}
interface Representation {
  body: Uint8Array;
  etag: string;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
const COPIES: Record<string, Encoding> = { '.br': 'br', '.gz': 'gzip' };

/** A file's ETag (before its quotes and coding suffix): the start of its content's SHA-256. */
const tagOf = (body: Uint8Array) => createHash('sha256').update(body).digest('base64url').slice(0, 22);

/** Reads `root` into memory, keyed by URL path (`/assets/index-abc.js`); null when it holds no index.html. */
export function loadStaticFiles(root: string): Map<string, StaticFile> | null {
  if (!existsSync(join(root, 'index.html'))) return null;
  const names: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${prefix}${entry.name}/`);
      else if (entry.isFile()) names.push(`${prefix}${entry.name}`);
    }
  };
  walk(root, '');
  const present = new Set(names);
  const files = new Map<string, StaticFile>();
  for (const name of names) {
    const copyOf = Object.keys(COPIES).find(
      (suffix) => name.endsWith(suffix) && present.has(name.slice(0, -suffix.length)),
    );
    if (copyOf) continue; // served as an encoding of its original, not as a file of its own
    const body = readFileSync(join(root, name));
    const tag = tagOf(body);
    const file: StaticFile = {
      type: getMimeType(name) ?? 'application/octet-stream',
      cacheControl: name.startsWith('assets/') ? IMMUTABLE : REVALIDATE,
      identity: { body, etag: `"${tag}"` },
    };
    for (const [suffix, encoding] of Object.entries(COPIES)) {
      if (!present.has(name + suffix)) continue;
      const copy = readFileSync(join(root, name + suffix));
      if (copy.length < body.length) file[encoding] = { body: copy, etag: `"${tag}-${encoding}"` };
    }
    files.set(`/${name}`, file);
  }
  return files;
}

/**
 * The content coding to send: among the copies a file has, the one the client accepts with the highest
 * q-value, brotli before gzip on a tie; null for the file itself. `*` stands for codings not named.
 */
export function chooseEncoding(acceptEncoding: string | undefined, available: readonly Encoding[]): Encoding | null {
  if (!acceptEncoding || available.length === 0) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!name) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  let best: Encoding | null = null;
  let bestQ = 0;
  for (const encoding of (['br', 'gzip'] as const).filter((e) => available.includes(e))) {
    const value = q.get(encoding) ?? q.get('*') ?? 0;
    if (value > bestQ) {
      best = encoding;
      bestQ = value;
    }
  }
  return best;
}

/** RFC 9110 If-None-Match: a list of entity tags compared weakly, or `*`. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

function send(c: Context, file: StaticFile, varyOnCookie = false): Response {
  const available = (['br', 'gzip'] as const).filter((e) => file[e]);
  const encoding = chooseEncoding(c.req.header('accept-encoding'), available);
  const chosen = (encoding && file[encoding]) || file.identity;
  const headers: Record<string, string> = { 'Cache-Control': file.cacheControl, ETag: chosen.etag };
  // a page that varies on Cookie varies on Accept-Encoding too: its other version may be compressed
  if (varyOnCookie) headers.Vary = 'Accept-Encoding, Cookie';
  else if (available.length > 0) headers.Vary = 'Accept-Encoding';
  if (matches(c.req.header('if-none-match'), chosen.etag)) return c.body(null, 304, headers);
  headers['Content-Type'] = file.type;
  headers['Content-Length'] = String(chosen.body.length);
  if (encoding) headers['Content-Encoding'] = encoding;
  return c.body(chosen.body as Uint8Array<ArrayBuffer>, 200, headers);
}

export const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

/** A path the app's router may own: not an asset, no dot segment, no file extension in its last segment. */
const isRoutePath = (path: string) =>
  !path.startsWith('/assets/') && !path.split('/').some((segment) => segment.startsWith('.')) && !/\.[^/]*$/.test(path);

/**
 * The build's list (beside index.html, written by scripts/session-preload.ts) of what a page opened with a
 * session loads after the entry: by route path (`/dashboard`), its chunks' scripts and style sheets, the entry's
 * own excluded.
 */
export const SESSION_PRELOAD_FILE = '.session-preload.json';

/**
 * The build's /login page (beside index.html, written by scripts/prerender-pages.tsx): index.html with the login
 * form already in #root, so that it shows before the app's script has run. Sent for /login to a browser with no
 * session cookie (one with a session is sent on by the app, and gets the session page).
 */
export const LOGIN_PAGE_FILE = '.login.html';
/**
 * The build's page for a route opened with a session cookie (beside index.html, written by
 * scripts/prerender-pages.tsx): index.html with the app's first loader in #root, so that the page is not blank
 * while its scripts load. index.html stands in for it in a build without one.
 */
export const SESSION_PAGE_FILE = '.session.html';
const LOGIN_PATH = '/login';
export interface SessionPreload {
  paths: Record<string, { scripts: string[]; styles: string[] }>;
}

/** A built file served from memory, with its ETag and the compressed copies worth sending. */
function fileOf(body: Uint8Array, type: string, cacheControl: string): StaticFile {
  const tag = tagOf(body);
  const file: StaticFile = { type, cacheControl, identity: { body, etag: `"${tag}"` } };
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  const gzip = gzipSync(body, { level: 9 });
  if (br.length < body.length) file.br = { body: br, etag: `"${tag}-br"` };
  if (gzip.length < body.length) file.gzip = { body: gzip, etag: `"${tag}-gzip"` };
  return file;
}

/**
 * index.html naming, for each route path the build listed, the chunks that path loads after the entry: module
 * preloads for its scripts, plain preloads for its style sheets (a stylesheet link would hold the first paint).
 */
export function sessionIndexes(root: string, index: StaticFile): Map<string, StaticFile> {
  const listed = join(root, SESSION_PRELOAD_FILE);
  const pages = new Map<string, StaticFile>();
  if (!existsSync(listed)) return pages;
  const { paths } = JSON.parse(readFileSync(listed, 'utf8')) as SessionPreload;
  const html = Buffer.from(index.identity.body).toString('utf8');
  if (!html.includes('</head>')) return pages;
  for (const [path, { scripts, styles }] of Object.entries(paths)) {
    const links = [
      // low priority: the entry's scripts and the style sheet, which the first paint needs, go first; these are
      // needed a round trip later, once the profile calls have answered
      ...scripts.map((f) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${f}">`),
      ...styles.map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`),
    ];
    const body = Buffer.from(
      html.replace(/[ \t]*<\/head>/, (end) => `${links.map((l) => `    ${l}\n`).join('')}${end}`),
    );
    pages.set(path, fileOf(body, index.type, index.cacheControl));
  }
  return pages;
}

/**
 * The id of the `<script type="application/json">` that carries, in a page opened with a live session, what the
 * profile calls would answer: `{ issuedAt, account, roles, kyc }` (src/app/app.tsx reads it; `issuedAt` is the
 * `auth_token_validity` cookie the page was asked for with, so that the app takes it only for that session).
 */
export const PROFILE_ELEMENT_ID = 'sb-profile';

/**
 * The profile of the session whose cookies a page was asked for with, or null when there is none the API
 * accepts (no token, an expired or revoked one, any of the calls failing): then the page goes without it, and
 * the app makes the calls.
 */
export type ProfileForPage = (cookies: string) => Promise<object | null>;

/** JSON that may stand inside a `<script>` element: no `<` (no `</script>`, no `<!--`), nor `>` and `&`. */
export const jsonInScript = (value: unknown) =>
  JSON.stringify(value).replace(/[<>&]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** A page built for one request (the user's own): compressed as it is sent, cheaply (it is about 2 KB). */
function sendPersonal(c: Context, html: string): Response {
  const body = Buffer.from(html);
  const encoding = chooseEncoding(c.req.header('accept-encoding'), ['br', 'gzip']);
  const sent =
    encoding === 'br'
      ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : encoding === 'gzip'
        ? gzipSync(body, { level: 6 })
        : body;
  const headers: Record<string, string> = {
    // another user's page must never come out of any cache, nor this one after a logout
    'Cache-Control': 'private, no-store',
    Vary: 'Accept-Encoding, Cookie',
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': String(sent.length),
  };
  if (encoding) headers['Content-Encoding'] = encoding;
  return c.body(sent as Uint8Array<ArrayBuffer>, 200, headers);
}

/** The request carries a session's token cookie (unchecked here: a stale one gets the loader and the preloads, no profile). */
const hasSessionCookie = (c: Context) => /(?:^|;\s*)auth_token=[^;\s]/.test(c.req.header('cookie') ?? '');

/**
 * Serves the built app in `root` (see above); null when `root` has no index.html (an API-only server).
 * Mount it after the API, for every path.
 */
export function builtApp(root: string, options: { profileForPage?: ProfileForPage } = {}): MiddlewareHandler | null {
  const files = loadStaticFiles(root);
  const index = files?.get('/index.html');
  if (!files || !index) return null;
  const builtPage = (name: string) =>
    existsSync(join(root, name)) ? fileOf(readFileSync(join(root, name)), index.type, index.cacheControl) : null;
  const login = builtPage(LOGIN_PAGE_FILE);
  const sessionPage = builtPage(SESSION_PAGE_FILE) ?? index;
  const withSession = sessionIndexes(root, sessionPage);
  const { profileForPage } = options;
  const htmlOf = (file: StaticFile) => Buffer.from(file.identity.body).toString('utf8');
  /** The page with the session's profile in it, or null (no profile: the page as built). */
  const withProfile = async (c: Context, page: StaticFile): Promise<Response | null> => {
    // a HEAD request gets the page's headers: nothing to read for it
    const wanted = profileForPage && c.req.method === 'GET';
    const profile = wanted ? await profileForPage(c.req.header('cookie') ?? '') : null;
    if (!profile) return null;
    const element = `<script id="${PROFILE_ELEMENT_ID}" type="application/json">${jsonInScript(profile)}</script>`;
    const html = htmlOf(page);
    // a function, not a string: a `$&` or `$'` in a saved name must not be read as a replacement pattern
    return sendPersonal(
      c,
      html.includes('</head>') ? html.replace('</head>', () => `${element}</head>`) : element + html,
    );
  };
  return async (c, next) => {
    const { method, path } = c.req;
    if ((method !== 'GET' && method !== 'HEAD') || isApiPath(path)) return next();
    const file = files.get(path);
    if (file) return send(c, file);
    if (isRoutePath(path)) {
      // every route's page depends on the session cookie (the login form, the preloads, the profile)
      if (!hasSessionCookie(c)) return send(c, path === LOGIN_PATH && login ? login : index, true);
      const page = withSession.get(path) ?? sessionPage;
      return (await withProfile(c, page)) ?? send(c, page, true);
    }
    // the app's JSON 404, which no cache may keep (the file may come with the next deployment)
    c.header('Cache-Control', 'no-store');
    return next();
  };
}
