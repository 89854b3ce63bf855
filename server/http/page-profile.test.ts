import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_MS } from '../auth/tokens';
import type { AppEnv } from '../contract/router';
import { createLogger } from '../logger';
import { BUILT_INDEX_HTML, freshServer, userIdOf } from '../test-support';
import { PROFILE_WAIT_MS, profileForPage } from './page-profile';
import { jsonInScript, PROFILE_ELEMENT_ID } from './static';

const HTML = BUILT_INDEX_HTML;
const ISSUED_AT = 1_790_000_000_000;
const OPENING = `<script id="${PROFILE_ELEMENT_ID}" type="application/json">`;

/** The text of the profile element as an HTML parser ends it: at the first `</script`, whatever comes before. */
function profileText(html: string): string | null {
  const start = html.indexOf(OPENING);
  if (start < 0) return null;
  const from = start + OPENING.length;
  return html.slice(from, html.toLowerCase().indexOf('</script', from));
}

const decoded = (body: Buffer, encoding: string | null) =>
  (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body).toString();

describe('a page opened with a session carries its profile', () => {
  let s: Awaited<ReturnType<typeof freshServer>>;
  let dir: string;
  const page = (path: string, cookie: string, headers: Record<string, string> = {}, method = 'GET') =>
    s.app.request(path, { method, headers: { cookie, ...headers } });
  const cookiesOf = (token: string, issuedAt: number | string = ISSUED_AT) =>
    `theme=dark; auth_token=${encodeURIComponent(token)}; auth_token_validity=${issuedAt}; user_token=u1`;
  /** What the app's three profile calls answer for `token`. */
  async function callsFor(token: string) {
    const data = async (path: string) =>
      ((await (await s.json('GET', path, undefined, token)).json()) as { data: unknown }).data;
    return {
      account: await data('/settings/my-account'),
      roles: await data('/account/roles-permissions'),
      kyc: await data('/account/kyc-status'),
    };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-portal-page-profile-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), HTML);
    writeFileSync(join(dir, 'assets', 'index-1a.js'), 'console.log(1)');
    s = await freshServer({ staticDir: dir });
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('what the three profile calls answer, for the stamp it was asked with, in every encoding, never cached', async () => {
    const token = await s.loginAs('seller@demo.test');
    const expected = { issuedAt: ISSUED_AT, ...(await callsFor(token)) };
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await page('/dashboard', cookiesOf(token), { 'accept-encoding': encoding });
      expect(res.status, encoding).toBe(200);
      expect(res.headers.get('cache-control'), encoding).toBe('private, no-store');
      expect(res.headers.get('vary'), encoding).toBe('Accept-Encoding, Cookie');
      expect(res.headers.get('etag'), encoding).toBeNull();
      const sent = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('content-length'), encoding).toBe(String(sent.length));
      const html = decoded(sent, res.headers.get('content-encoding'));
      expect(JSON.parse(profileText(html) ?? 'null'), encoding).toEqual(expected);
      // the page as built around it, the element at the end of its head
      expect(html.replace(/<script id="sb-profile"[\s\S]*?<\/script>/, ''), encoding).toBe(HTML);
      expect(html.indexOf(OPENING), encoding).toBeLessThan(html.indexOf('</head>'));
    }
    // every route of the app, /login too (the app sends a live session on from there)
    for (const path of ['/sales/pending', '/notifications/home', '/login', '/']) {
      const html = await (await page(path, cookiesOf(token))).text();
      expect(JSON.parse(profileText(html) ?? 'null'), path).toEqual(expected);
    }
    // HEAD: nothing is read for it, the page as built's headers, no body
    const head = await page('/dashboard', cookiesOf(token), {}, 'HEAD');
    expect(head.headers.get('cache-control')).toBe('no-cache');
    expect(await head.text()).toBe('');
  });

  it('a team member’s: its seller’s KYC hold and its own permissions, as the calls answer them', async () => {
    const token = await s.loginAs('member@demo.test');
    const html = await (await page('/dashboard', cookiesOf(token))).text();
    const profile = JSON.parse(profileText(html) ?? 'null');
    expect(profile).toEqual({ issuedAt: ISSUED_AT, ...(await callsFor(token)) });
    expect(profile.roles.user_type).toBe('team_members');
    // the seller's status, whatever the member's own row says
    const seller = await s.db
      .selectFrom('users')
      .select('kyc_status')
      .where('email', '=', 'seller@demo.test')
      .executeTakeFirstOrThrow();
    await s.db.updateTable('users').set({ kyc_status: 0 }).where('email', '=', 'member@demo.test').execute();
    const again = JSON.parse(profileText(await (await page('/dashboard', cookiesOf(token))).text()) ?? 'null');
    expect(again.kyc.kyc_status).toBe(seller.kyc_status);
  });

  it('hostile names stay inside the element (no </script>, no comment, no $ pattern) and parse back as saved', async () => {
    const token = await s.loginAs('rival@demo.test');
    const hostile = '</script><script>alert(1)</script><!-- & \u2028 "\\ $\' $& $` $$';
    await s.db
      .updateTable('users')
      .set({ first_name: hostile, last_name: '</SCRIPT ><img src=x onerror=alert(2)>' })
      .where('id', '=', await userIdOf(s.db, 'rival@demo.test'))
      .execute();
    const html = await (await page('/dashboard', cookiesOf(token))).text();
    const text = profileText(html) ?? '';
    expect(text).not.toMatch(/[<>&]/);
    const profile = JSON.parse(text) as { account: { first_name: string; last_name: string } };
    expect(profile.account.first_name).toBe(hostile);
    expect(profile.account.last_name).toBe('</SCRIPT ><img src=x onerror=alert(2)>');
    // one element: nothing after it was taken for markup
    expect(html.split('<script').length).toBe(HTML.split('<script').length + 1);
    expect(jsonInScript({ a: '<>&' })).toBe('{"a":"\\u003c\\u003e\\u0026"}');
  });

  it('goes without it, as built and no error, when the API would not answer the calls', async () => {
    const token = await s.loginAs('newseller@demo.test');
    const revoked = await s.loginAs('newseller@demo.test');
    expect((await s.json('POST', '/auth/logout', undefined, revoked)).status).toBe(200);
    const cases: Record<string, string> = {
      'a made-up token': cookiesOf('made-up-token-0000000000000000000000000'),
      'a revoked token': cookiesOf(revoked),
      'no validity stamp': `auth_token=${token}`,
      'a stamp that is not a number': cookiesOf(token, 'yesterday'),
      'a stamp of zero': cookiesOf(token, 0),
      'a token that does not decode': `auth_token=%E0%A4%A; auth_token_validity=${ISSUED_AT}`,
      'a huge token': cookiesOf('x'.repeat(8_000)),
      'an empty token': `auth_token=; auth_token_validity=${ISSUED_AT}`,
      'a token with a line break': cookiesOf(`${token}\nx`),
      'a token with a space': cookiesOf(`${token} x`),
      // a second token (another path's, or one a sibling domain tossed in) beside this browser's stamp
      'two tokens': `auth_token=${token}; ${cookiesOf(token)}`,
      'two stamps': `auth_token_validity=${ISSUED_AT}; ${cookiesOf(token)}`,
    };
    for (const [label, cookie] of Object.entries(cases)) {
      const res = await page('/dashboard', cookie);
      expect(res.status, label).toBe(200);
      expect(await res.text(), label).toBe(HTML);
      expect(res.headers.get('cache-control'), label).toBe('no-cache');
    }
    // and no longer once the token has expired
    expect(profileText(await (await page('/dashboard', cookiesOf(token))).text())).not.toBeNull();
    s.clock.advance(TOKEN_LIFETIME_MS + 1_000);
    expect(await (await page('/dashboard', cookiesOf(token))).text()).toBe(HTML);
  });

  it('is never in a file, an API answer or a page asked for without the cookie', async () => {
    const token = await s.loginAs('seller@demo.test');
    const authorization = { authorization: `Bearer ${token}` };
    expect(await (await page('/dashboard', '', authorization)).text()).toBe(HTML);
    expect(await (await page('/assets/index-1a.js', cookiesOf(token))).text()).toBe('console.log(1)');
    expect((await page('/api/nothing-here', cookiesOf(token))).status).toBe(404);
  });
});

describe('profileForPage, on its own', () => {
  const log = createLogger('silent');
  const cookies = `auth_token=${'t'.repeat(43)}; auth_token_validity=${ISSUED_AT}`;

  it('gives up after PROFILE_WAIT_MS when the API is slow: the page is not held', async () => {
    const slow = new Hono<AppEnv>();
    slow.get('*', () => new Promise<Response>(() => {}));
    const started = performance.now();
    expect(await profileForPage(slow, log)(cookies)).toBeNull();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(PROFILE_WAIT_MS - 5);
    expect(waited).toBeLessThan(PROFILE_WAIT_MS + 1_000);
  });

  it('a call that throws: no profile, and the error’s message (which may quote the header) is not logged', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const failing = new Hono<AppEnv>();
    failing.get('*', () => {
      throw new Error(`invalid header value: Bearer ${'t'.repeat(43)}`);
    });
    failing.onError((err) => {
      throw err;
    });
    expect(await profileForPage(failing, createLogger('warn', 'json', sink))(cookies)).toBeNull();
    expect(lines.join('')).toContain('a page went without its profile');
    expect(lines.join('')).not.toContain('t'.repeat(43));
  });
});
