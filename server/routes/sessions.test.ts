import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../db/seed/index';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
interface SessionRow {
  id: string;
  current: boolean;
  created_at: string;
  last_used_at: string | null;
  device: string | null;
  user_agent: string | null;
  client: string | null;
}

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1';

describe('active sessions', () => {
  let s: Server;

  beforeAll(async () => {
    s = await freshServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const call = async (method: string, path: string, token?: string) => {
    const res = await s.json(method, path, undefined, token);
    return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>; message?: string } };
  };
  const loginWith = async (email: string, userAgent: string) => {
    const res = await s.json('POST', '/auth/login', { email, password: DEMO_PASSWORD }, undefined, {
      'user-agent': userAgent,
    });
    return ((await res.json()) as { data: { token: string } }).data.token;
  };
  const sessionsOf = async (token: string) =>
    ((await call('GET', '/auth/sessions', token)).body.data as { sessions: SessionRow[] }).sessions;

  it("lists only the caller's own sessions, newest first, the current one marked, with browser and system", async () => {
    const laptop = await loginWith('seller@demo.test', CHROME);
    s.clock.advance(1_000);
    const phone = await loginWith('seller@demo.test', IPHONE);
    const rival = await loginWith('rival@demo.test', CHROME);
    const list = await sessionsOf(laptop);
    expect(list).toHaveLength(2);
    expect(list.map((r) => r.device)).toEqual(['Safari on iOS', 'Chrome on Linux']);
    expect(list.map((r) => r.current)).toEqual([false, true]);
    expect(list[0]?.user_agent).toBe(IPHONE);
    expect(list[0]?.client).toBe('local');
    for (const row of list) expect(row.id).toMatch(/^[0-9a-f]{32}$/);
    // nothing of the token hash leaves the server
    const hashes = (await s.db.selectFrom('auth_tokens').select('token_hash').execute()).map((r) => r.token_hash);
    for (const row of list) expect(hashes.some((h) => h.startsWith(row.id))).toBe(false);
    // the rival sees its own only
    const rivals = await sessionsOf(rival);
    expect(rivals).toHaveLength(1);
    expect(list.map((r) => r.id)).not.toContain(rivals[0]?.id);
    expect((await call('GET', '/settings/my-account', phone)).status).toBe(200);
  });

  it('records when a session was last used, at most once a minute', async () => {
    const token = await loginWith('member@demo.test', CHROME);
    const [atLogin] = await sessionsOf(token);
    expect(atLogin?.last_used_at).toBe(atLogin?.created_at);
    s.clock.advance(30_000);
    const [soon] = await sessionsOf(token);
    expect(soon?.last_used_at).toBe(atLogin?.created_at);
    s.clock.advance(60_000);
    await call('GET', '/settings/my-account', token);
    const [later] = await sessionsOf(token);
    expect(later?.last_used_at).toBe(s.clock.now().toISOString());
  });

  it("answers 404 for another user's session id and for a made-up one, and ends nothing", async () => {
    const mine = await loginWith('tickets4u@demo.test', CHROME);
    const theirs = await loginWith('fanzone@demo.test', CHROME);
    const [their] = await sessionsOf(theirs);
    if (!their) throw new Error('no session');
    expect((await call('POST', `/auth/sessions/${their.id}/end`, mine)).status).toBe(404);
    expect((await call('POST', `/auth/sessions/${'0'.repeat(32)}/end`, mine)).status).toBe(404);
    expect((await call('POST', '/auth/sessions/not-an-id/end', mine)).status).toBe(422);
    expect((await call('GET', '/settings/my-account', theirs)).status).toBe(200);
  });

  it('ends one session: its next call is refused at once', async () => {
    const a = await loginWith('newseller@demo.test', CHROME);
    const b = await loginWith('newseller@demo.test', IPHONE);
    const other = (await sessionsOf(a)).find((r) => !r.current);
    if (!other) throw new Error('no other session');
    // a seller on the KYC hold may do it (x-kyc-exempt)
    const ended = await call('POST', `/auth/sessions/${other.id}/end`, a);
    expect(ended.status).toBe(200);
    expect(ended.body.message).toBe('That session is logged out.');
    expect((await call('GET', '/account/kyc-status', b)).status).toBe(401);
    expect((await call('POST', `/auth/sessions/${other.id}/end`, a)).status).toBe(404);
    expect((await sessionsOf(a)).map((r) => r.current)).toEqual([true]);
  });

  it('logs out everywhere else at once, keeping the current session', async () => {
    const keep = await loginWith('admin@demo.test', CHROME);
    const others = [await loginWith('admin@demo.test', IPHONE), await loginWith('admin@demo.test', CHROME)];
    const rival = await loginWith('rival@demo.test', IPHONE);
    const res = await call('POST', '/auth/sessions/logout-others', keep);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sessions_ended: 2 });
    for (const token of others) expect((await call('GET', '/settings/my-account', token)).status).toBe(401);
    expect((await call('GET', '/settings/my-account', keep)).status).toBe(200);
    expect((await call('GET', '/settings/my-account', rival)).status).toBe(200);
    expect(await sessionsOf(keep)).toHaveLength(1);
    expect((await call('POST', '/auth/sessions/logout-others', keep)).body.data).toEqual({ sessions_ended: 0 });
  });

  it('ending the current session is a logout', async () => {
    const token = await loginWith('seller@demo.test', CHROME);
    const current = (await sessionsOf(token)).find((r) => r.current);
    if (!current) throw new Error('no current session');
    const res = await call('POST', `/auth/sessions/${current.id}/end`, token);
    expect(res.body.message).toBe('You are logged out.');
    expect((await call('GET', '/auth/sessions', token)).status).toBe(401);
  });
});
