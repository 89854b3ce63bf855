import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_LIFETIMES } from '../auth/account-tokens';
import { hashToken } from '../auth/tokens';
import { DEMO_PASSWORD } from '../db/seed/index';
import { readOutbox } from '../mail/outbox';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
interface Body {
  success: boolean;
  message: string;
  data?: Record<string, unknown>;
  errors?: { path: string; message: string }[];
}

const NEW_PASSWORD = 'N3w-password!';

describe('public account flows (sign-up, verification, reset, change)', () => {
  let s: Server;
  let clientNo = 0;
  /** Each test calls from an address of its own (behind a trusted proxy), so the per-client limits stay apart. */
  let client = '';

  beforeAll(async () => {
    s = await freshServer({ trustProxy: 1, appUrl: 'http://portal.test' });
  });
  afterAll(async () => {
    await s?.close();
  });
  const nextClient = () => {
    clientNo += 1;
    client = `203.0.113.${clientNo}`;
  };

  const call = async (path: string, body?: unknown, token?: string) => {
    const res = await s.json('POST', path, body, token, { 'x-forwarded-for': client });
    return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
  };
  const signUp = (email: string, password = 'Sign-up-1234') =>
    call('/auth/register', {
      first_name: 'Nell',
      last_name: 'New',
      email,
      password,
      password_confirmation: password,
    });
  const mails = (to: string) => readOutbox(s.db, { to });
  /** The token of the newest link to `path` mailed to `to`. */
  const tokenFrom = async (to: string, path: string) => {
    const [mail] = await mails(to);
    const found = new RegExp(`http://portal\\.test${path}/([A-Za-z0-9_-]+)`).exec(mail?.body ?? '');
    if (!found?.[1]) throw new Error(`no ${path} link mailed to ${to}`);
    return found[1];
  };
  const login = (email: string, password: string) => call('/auth/login', { email, password });

  it('signs up, mails a verification link, refuses login until it is opened, then logs in', async () => {
    nextClient();
    const res = await signUp('Nell@Example.test');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ email: 'nell@example.test' });
    const token = await tokenFrom('nell@example.test', '/verify-email/token');
    expect((await login('nell@example.test', 'Sign-up-1234')).status).toBe(403);
    const verified = await call('/auth/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(verified.body.data).toEqual({ email: 'nell@example.test' });
    const user = await s.db
      .selectFrom('users')
      .select(['user_type', 'kyc_status', 'email_verified', 'id'])
      .where('email', '=', 'nell@example.test')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ user_type: 'sellers', kyc_status: 0, email_verified: 1 });
    expect((await login('nell@example.test', 'Sign-up-1234')).status).toBe(200);
    // single use
    expect((await call('/auth/verify-email', { token })).status).toBe(404);
  });

  it('stores only the hash of a token, never the token', async () => {
    nextClient();
    await signUp('hashed@example.test');
    const token = await tokenFrom('hashed@example.test', '/verify-email/token');
    const rows = await s.db.selectFrom('account_tokens').select('token_hash').execute();
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(rows.map((r) => r.token_hash)).not.toContain(token);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a verification link expires after 24 hours; a new one from resend works and the old one no longer does', async () => {
    nextClient();
    await signUp('late@example.test');
    const first = await tokenFrom('late@example.test', '/verify-email/token');
    s.clock.advance(TOKEN_LIFETIMES.verify + 1000);
    const expired = await call('/auth/verify-email', { token: first });
    expect(expired.status).toBe(404);
    expect(expired.body.message).toBe('This verification link is not valid or has expired. Ask for a new one below.');
    expect((await call('/auth/resend-verify-email', { email: 'late@example.test' })).status).toBe(200);
    const second = await tokenFrom('late@example.test', '/verify-email/token');
    expect(second).not.toBe(first);
    s.clock.advance(TOKEN_LIFETIMES.verify - 1000);
    expect((await call('/auth/verify-email', { token: second })).status).toBe(200);
  });

  it('a newer verification link retires the earlier one', async () => {
    nextClient();
    await signUp('twice@example.test');
    const first = await tokenFrom('twice@example.test', '/verify-email/token');
    await call('/auth/resend-verify-email', { email: 'twice@example.test' });
    expect((await call('/auth/verify-email', { token: first })).status).toBe(404);
  });

  it('answers sign-up, resend and reset the same for a registered address and an unknown one', async () => {
    nextClient();
    const strip = (r: { status: number; body: Body }, email: string) => ({
      status: r.status,
      message: r.body.message.replace(email, '<email>'),
      keys: Object.keys(r.body.data ?? {}),
    });
    const known = 'seller@demo.test';
    const unknown = 'nobody-here@example.test';
    const before = await s.db.selectFrom('users').select('id').where('email', '=', known).executeTakeFirstOrThrow();
    for (const path of ['/auth/resend-verify-email', '/auth/password/reset-request']) {
      expect(strip(await call(path, { email: known }), known)).toEqual(
        strip(await call(path, { email: unknown }), unknown),
      );
    }
    nextClient();
    expect(strip(await signUp(known), known)).toEqual(
      strip(await signUp('brand-new@example.test'), 'brand-new@example.test'),
    );
    // the registered account is untouched: its password still works and it has a note by mail, not a new account
    expect((await login(known, DEMO_PASSWORD)).status).toBe(200);
    const after = await s.db.selectFrom('users').select('id').where('email', '=', known).execute();
    expect(after).toEqual([before]);
    expect((await mails(known))[0]?.subject).toBe('Someone tried to sign up to SB Portal with your address');
    // nothing is mailed to an address without an account
    expect(await mails(unknown)).toEqual([]);
  });

  it('check-email says whether an address is free, and is limited per client', async () => {
    nextClient();
    const free = await call('/auth/check-email', { email: 'free-one@example.test' });
    expect(free.body.data).toEqual({ email: 'free-one@example.test', available: true });
    const taken = await call('/auth/check-email', { email: 'Seller@Demo.test' });
    expect(taken.body.data).toEqual({ email: 'seller@demo.test', available: false });
    for (let i = 2; i < 30; i++)
      expect((await call('/auth/check-email', { email: `x${i}@example.test` })).status).toBe(200);
    const limited = await call('/auth/check-email', { email: 'seller@demo.test' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // another client is not held by it
    nextClient();
    expect((await call('/auth/check-email', { email: 'seller@demo.test' })).status).toBe(200);
  });

  it('check-email keeps back-office accounts out: the admin address reads as free', async () => {
    nextClient();
    const admin = await call('/auth/check-email', { email: 'Admin@Demo.test' });
    const free = await call('/auth/check-email', { email: 'nobody-at-all@example.test' });
    expect(admin.status).toBe(200);
    expect(admin.body.data).toEqual({ email: 'admin@demo.test', available: true });
    expect(admin.body.message).toBe(free.body.message);
  });

  it('check-email slows a client down after a few "taken" answers, whatever it asks next', async () => {
    nextClient();
    const taken = ['seller@demo.test', 'rival@demo.test', 'member@demo.test', 'fanzone@demo.test', 'kyc@demo.test'];
    for (const email of taken) {
      const answer = await call('/auth/check-email', { email });
      expect(answer.body.data).toEqual({ email, available: false });
    }
    // a sixth registered address and an unknown one answer alike: 429 with Retry-After, no "taken" nor "free"
    for (const email of ['tickets4u@demo.test', 'still-free@example.test']) {
      const held = await call('/auth/check-email', { email });
      expect(held.status).toBe(429);
      expect(held.body.data).toBeUndefined();
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(600);
      expect(held.body.message).toMatch(/^Too many requests from your network\. Try again in \d+ minutes\.$/);
    }
    // another client is not held by it; an hour later this one may check again
    nextClient();
    expect((await call('/auth/check-email', { email: 'tickets4u@demo.test' })).status).toBe(200);
    s.clock.advance(60 * 60_000 + 1000);
    clientNo -= 1;
    client = `203.0.113.${clientNo}`;
    expect((await call('/auth/check-email', { email: 'tickets4u@demo.test' })).status).toBe(200);
    nextClient();
  });

  it('limits sign-up, resend and reset calls per client, and mails per address', async () => {
    nextClient();
    for (let i = 0; i < 10; i++)
      expect((await call('/auth/password/reset-request', { email: 'rival@demo.test' })).status).toBe(200);
    expect((await call('/auth/password/reset-request', { email: 'rival@demo.test' })).status).toBe(429);
    // three mails an hour to one address, whatever the calls
    expect((await mails('rival@demo.test')).length).toBe(3);
  });

  it('resets a password by the emailed link (1 hour, once), ends every session and lifts a login lock', async () => {
    nextClient();
    const email = 'rejected@demo.test';
    const session = await s.loginAs(email);
    // lock the address: 10 wrong passwords
    for (let i = 0; i < 10; i++) await login(email, 'wrong-guess');
    expect((await login(email, DEMO_PASSWORD)).status).toBe(429);
    await call('/auth/password/reset-request', { email });
    const token = await tokenFrom(email, '/reset-password/token');
    const mismatch = await call('/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      password_confirmation: 'other-one',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual([
      { path: '/body/password_confirmation', message: 'The passwords do not match.' },
    ]);
    const done = await call('/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(done.status).toBe(200);
    // the session of before is over, the lock is lifted, the new password works and the old one does not
    expect((await s.json('GET', '/settings/my-account', undefined, session)).status).toBe(401);
    expect((await login(email, DEMO_PASSWORD)).status).toBe(401);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
    // once only
    const again = await call('/auth/reset-password', {
      token,
      password: 'An0ther-pass',
      password_confirmation: 'An0ther-pass',
    });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('This reset link is not valid or has expired. Ask for a new one.');
  });

  it('a reset link expires after 1 hour', async () => {
    nextClient();
    await call('/auth/password/reset-request', { email: 'newseller@demo.test' });
    const token = await tokenFrom('newseller@demo.test', '/reset-password/token');
    s.clock.advance(TOKEN_LIFETIMES.reset + 1000);
    const res = await call('/auth/reset-password', {
      token,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.status).toBe(404);
    expect((await login('newseller@demo.test', DEMO_PASSWORD)).status).toBe(200);
  });

  it('refuses tampered, foreign and hostile tokens', async () => {
    nextClient();
    await signUp('tamper@example.test');
    const verifyToken = await tokenFrom('tamper@example.test', '/verify-email/token');
    const flipped = `${verifyToken.slice(0, -1)}${verifyToken.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [flipped, `${verifyToken}x`, "' OR 1=1 --", '../../etc/passwd', '😀'.repeat(40)]) {
      expect((await call('/auth/verify-email', { token })).status).toBe(404);
    }
    // a verification token is no reset token
    const res = await call('/auth/reset-password', {
      token: verifyToken,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(res.status).toBe(404);
    expect((await call('/auth/verify-email', { token: 'x'.repeat(201) })).status).toBe(422);
    expect((await call('/auth/verify-email', { token: verifyToken, extra: 1 })).status).toBe(422);
  });

  it('changes the password in settings and ends every other session, not the caller’s', async () => {
    nextClient();
    const email = 'tickets4u@demo.test';
    const mine = await s.loginAs(email);
    const other = await s.loginAs(email);
    const wrong = await call(
      '/auth/change-password',
      { current_password: 'not-it', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      mine,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([
      { path: '/body/current_password', message: 'Your current password is not correct.' },
    ]);
    const changed = await call(
      '/auth/change-password',
      { current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      mine,
    );
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ sessions_ended: 1 });
    expect((await s.json('GET', '/settings/my-account', undefined, mine)).status).toBe(200);
    expect((await s.json('GET', '/settings/my-account', undefined, other)).status).toBe(401);
    expect((await login(email, NEW_PASSWORD)).status).toBe(200);
    expect((await mails(email))[0]?.subject).toBe('Your SB Portal password was changed');
  });

  it('needs a login to change a password, and a password of 8 characters at least', async () => {
    nextClient();
    const body = { current_password: DEMO_PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    expect((await call('/auth/change-password', body)).status).toBe(401);
    const short = await signUp('short@example.test', 'short');
    expect(short.status).toBe(422);
    expect(short.body.errors?.[0]?.path).toBe('/body/password');
  });
});
