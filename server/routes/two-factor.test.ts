import { createHash } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SOCKET_CLIENT } from '../auth/client';
import { pairKey } from '../auth/throttle';
import { DEMO_PASSWORD } from '../db/seed/index';
import { readOutbox } from '../mail/outbox';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
interface Body {
  success: boolean;
  message?: string;
  data?: Record<string, unknown>;
  errors?: { path: string; message: string }[];
}

describe('two-factor login (TOTP, recovery codes)', () => {
  let s: Server;

  beforeAll(async () => {
    s = await freshServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const call = async (
    method: string,
    path: string,
    body?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ) => {
    const res = await s.json(method, path, body, token, headers);
    return { status: res.status, body: (await res.json()) as Body, headers: res.headers };
  };
  const codeAt = (secret: string, ms = s.clock.now().getTime()) =>
    new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
      timestamp: ms,
    });
  const challengeFor = async (email: string) => {
    const res = await call('POST', '/auth/login', { email, password: DEMO_PASSWORD });
    expect(res.status).toBe(202);
    return res.body.data as { two_factor_required: true; challenge: string; expires_at: string };
  };
  const tokensOf = async (email: string) => {
    const row = await s.db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('users.email', '=', email)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  /** Turns two-factor on for `email`; answers the secret and the recovery codes. */
  const turnOn = async (email: string) => {
    const token = await s.loginAs(email);
    const setup = await call('POST', '/auth/two-factor/setup', undefined, token);
    expect(setup.status).toBe(200);
    const { secret } = setup.body.data as { secret: string };
    const enabled = await call('POST', '/auth/two-factor/enable', { code: codeAt(secret) }, token);
    expect(enabled.status).toBe(200);
    return { token, secret, recovery: (enabled.body.data as { recovery_codes: string[] }).recovery_codes };
  };

  it('sets up with a QR code and the base32 secret, turns on with a first code, and shows 10 recovery codes once', async () => {
    const token = await s.loginAs('seller@demo.test');
    expect((await call('GET', '/auth/two-factor', undefined, token)).body.data).toEqual({
      enabled: false,
      enabled_at: null,
      recovery_codes_left: 0,
    });
    const setup = await call('POST', '/auth/two-factor/setup', undefined, token);
    expect(setup.status).toBe(200);
    const data = setup.body.data as { secret: string; otpauth_uri: string; qr_svg: string };
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data.otpauth_uri).toMatch(/^otpauth:\/\/totp\/SB%20Portal:seller%40demo\.test\?/);
    expect(data.otpauth_uri).toContain(`secret=${data.secret}`);
    expect(data.otpauth_uri).toContain('digits=6');
    expect(data.otpauth_uri).toContain('period=30');
    expect(data.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>$/);
    expect(data.qr_svg).not.toMatch(/<script|href/i);

    const wrong = await call(
      'POST',
      '/auth/two-factor/enable',
      { code: '000000' === codeAt(data.secret) ? '111111' : '000000' },
      token,
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors?.[0]?.path).toBe('/body/code');
    expect((await call('GET', '/auth/two-factor', undefined, token)).body.data).toMatchObject({ enabled: false });

    const on = await call('POST', '/auth/two-factor/enable', { code: codeAt(data.secret) }, token);
    expect(on.status).toBe(200);
    const codes = (on.body.data as { recovery_codes: string[] }).recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect((await call('GET', '/auth/two-factor', undefined, token)).body.data).toMatchObject({
      enabled: true,
      recovery_codes_left: 10,
    });
    // only hashes are kept; a second setup is refused while it is on
    const stored = await s.db.selectFrom('two_factor_recovery_codes').select('code_hash').execute();
    const hashes = stored.map((r) => r.code_hash);
    for (const code of codes) {
      expect(hashes).not.toContain(code);
      expect(hashes).toContain(createHash('sha256').update(code.replaceAll('-', '')).digest('hex'));
    }
    expect((await call('POST', '/auth/two-factor/setup', undefined, token)).status).toBe(409);
    expect((await call('POST', '/auth/two-factor/enable', { code: codeAt(data.secret) }, token)).status).toBe(409);
  });

  it('asks for a code after a right password, starts no session until then, and logs in with the code', async () => {
    const { secret } = await turnOn('rival@demo.test');
    s.clock.advance(30_000);
    const before = await tokensOf('rival@demo.test');
    const { challenge, expires_at } = await challengeFor('rival@demo.test');
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(expires_at) - s.clock.now().getTime()).toBe(5 * 60_000);
    expect(await tokensOf('rival@demo.test')).toBe(before);
    // a wrong password is still the plain 401
    expect((await call('POST', '/auth/login', { email: 'rival@demo.test', password: 'nope-nope' })).status).toBe(401);

    const done = await call('POST', '/auth/login/two-factor', { challenge, code: codeAt(secret) }, undefined, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36',
    });
    expect(done.status).toBe(200);
    const data = done.body.data as { token: string; first_name: string; expires_at: string };
    expect(data.first_name).toBe('Rory');
    expect((await call('GET', '/settings/my-account', undefined, data.token)).status).toBe(200);
    expect(await tokensOf('rival@demo.test')).toBe(before + 1);
    // the challenge is single-use
    expect((await call('POST', '/auth/login/two-factor', { challenge, code: codeAt(secret) })).status).toBe(404);
  });

  it('refuses a code used before (the same time step), and takes the next step', async () => {
    const { secret } = await turnOn('tickets4u@demo.test');
    // the code that turned it on cannot log in
    const first = await challengeFor('tickets4u@demo.test');
    const replayed = await call('POST', '/auth/login/two-factor', { challenge: first.challenge, code: codeAt(secret) });
    expect(replayed.status).toBe(401);
    s.clock.advance(30_000);
    const code = codeAt(secret);
    expect((await call('POST', '/auth/login/two-factor', { challenge: first.challenge, code })).status).toBe(200);
    // the same code again, on a new challenge: refused
    const second = await challengeFor('tickets4u@demo.test');
    expect((await call('POST', '/auth/login/two-factor', { challenge: second.challenge, code })).status).toBe(401);
    // an earlier step, still within the window, is refused too once a later one was used
    expect(
      (
        await call('POST', '/auth/login/two-factor', {
          challenge: second.challenge,
          code: codeAt(secret, s.clock.now().getTime() - 30_000),
        })
      ).status,
    ).toBe(401);
    s.clock.advance(30_000);
    expect(
      (await call('POST', '/auth/login/two-factor', { challenge: second.challenge, code: codeAt(secret) })).status,
    ).toBe(200);
  });

  it('counts wrong codes under the login throttle: the 5th waits 30 s, and a right password does not clear the count', async () => {
    const { secret } = await turnOn('fanzone@demo.test');
    s.clock.advance(30_000);
    const wrongCode = () => {
      const right = codeAt(secret);
      return right === '123456' ? '654321' : '123456';
    };
    let { challenge } = await challengeFor('fanzone@demo.test');
    for (let i = 1; i <= 3; i++) {
      const res = await call('POST', '/auth/login/two-factor', { challenge, code: wrongCode() });
      expect(res.status).toBe(401);
      expect(res.body.message).toMatch(/not correct/);
    }
    // the password again: a new challenge, but the count stands
    ({ challenge } = await challengeFor('fanzone@demo.test'));
    expect((await call('POST', '/auth/login/two-factor', { challenge, code: wrongCode() })).status).toBe(401);
    const fifth = await call('POST', '/auth/login/two-factor', { challenge, code: wrongCode() });
    expect(fifth.status).toBe(429);
    expect(fifth.headers.get('retry-after')).toBe('30');
    // while throttled even the right code waits, and so does the password
    expect((await call('POST', '/auth/login/two-factor', { challenge, code: codeAt(secret) })).status).toBe(429);
    expect((await call('POST', '/auth/login', { email: 'fanzone@demo.test', password: DEMO_PASSWORD })).status).toBe(
      429,
    );
    s.clock.advance(31_000);
    expect((await call('POST', '/auth/login/two-factor', { challenge, code: codeAt(secret) })).status).toBe(200);
    const failures = await s.db
      .selectFrom('login_failures')
      .selectAll()
      .where('email', '=', 'fanzone@demo.test')
      .executeTakeFirst();
    expect(failures?.failed_logins ?? 0).toBe(0);
  });

  it('refuses a tampered, an expired or a made-up challenge with one 404', async () => {
    const { secret } = await turnOn('admin@demo.test');
    s.clock.advance(30_000);
    const { challenge } = await challengeFor('admin@demo.test');
    const flipped = `${challenge.slice(0, -1)}${challenge.endsWith('A') ? 'B' : 'A'}`;
    const tampered = await call('POST', '/auth/login/two-factor', { challenge: flipped, code: codeAt(secret) });
    expect(tampered.status).toBe(404);
    expect(tampered.body.message).toBe('This login has expired. Enter your email and password again.');
    expect(
      (await call('POST', '/auth/login/two-factor', { challenge: 'x'.repeat(43), code: codeAt(secret) })).status,
    ).toBe(404);
    s.clock.advance(5 * 60_000 + 1_000);
    expect((await call('POST', '/auth/login/two-factor', { challenge, code: codeAt(secret) })).status).toBe(404);
    // a fresh one works
    const fresh = await challengeFor('admin@demo.test');
    expect(
      (await call('POST', '/auth/login/two-factor', { challenge: fresh.challenge, code: codeAt(secret) })).status,
    ).toBe(200);
    // exactly one of code and recovery_code
    const both = await call('POST', '/auth/login/two-factor', {
      challenge: fresh.challenge,
      code: '123456',
      recovery_code: 'abcd-efgh',
    });
    expect(both.status).toBe(422);
    expect((await call('POST', '/auth/login/two-factor', { challenge: fresh.challenge })).status).toBe(422);
  });

  it('logs in with a recovery code once; the same code is refused after', async () => {
    const { recovery } = await turnOn('member@demo.test');
    const [code] = recovery;
    if (!code) throw new Error('no recovery code');
    const first = await challengeFor('member@demo.test');
    // any case, spaces for hyphens
    const typed = code.toUpperCase().replaceAll('-', ' ');
    const done = await call('POST', '/auth/login/two-factor', { challenge: first.challenge, recovery_code: typed });
    expect(done.status).toBe(200);
    const token = (done.body.data as { token: string }).token;
    expect((await call('GET', '/auth/two-factor', undefined, token)).body.data).toMatchObject({
      recovery_codes_left: 9,
    });
    const again = await challengeFor('member@demo.test');
    const reused = await call('POST', '/auth/login/two-factor', { challenge: again.challenge, recovery_code: code });
    expect(reused.status).toBe(401);
    expect(reused.body.message).toBe('This recovery code is not correct, or it was already used.');
  });

  it('turns off with the password (a wrong one counts as a failed login) or with a code; login is one step again', async () => {
    const { token, secret } = await turnOn('newseller@demo.test');
    // a seller on the KYC hold may manage it: the calls are x-kyc-exempt
    expect((await call('POST', '/auth/two-factor/disable', {}, token)).status).toBe(422);
    expect(
      (await call('POST', '/auth/two-factor/disable', { password: DEMO_PASSWORD, code: '123456' }, token)).status,
    ).toBe(422);
    const wrong = await call('POST', '/auth/two-factor/disable', { password: 'not-the-password' }, token);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors?.[0]?.path).toBe('/body/password');
    const failures = await s.db
      .selectFrom('login_pair_failures')
      .select('failed_logins')
      .where('pair', '=', pairKey('newseller@demo.test', NO_SOCKET_CLIENT))
      .executeTakeFirst();
    expect(failures?.failed_logins).toBe(1);
    const off = await call('POST', '/auth/two-factor/disable', { password: DEMO_PASSWORD }, token);
    expect(off.status).toBe(200);
    expect(off.body.data).toEqual({ enabled: false, enabled_at: null, recovery_codes_left: 0 });
    expect((await call('POST', '/auth/two-factor/disable', { password: DEMO_PASSWORD }, token)).status).toBe(409);
    expect(
      await s.db
        .selectFrom('two_factor_recovery_codes')
        .selectAll()
        .where(
          'user_id',
          '=',
          (
            await s.db
              .selectFrom('users')
              .select('id')
              .where('email', '=', 'newseller@demo.test')
              .executeTakeFirstOrThrow()
          ).id,
        )
        .execute(),
    ).toEqual([]);
    const plain = await call('POST', '/auth/login', { email: 'newseller@demo.test', password: DEMO_PASSWORD });
    expect(plain.status).toBe(200);
    expect(secret).toBeTruthy();

    // on again, off with a code from the app
    const again = await turnOn('newseller@demo.test');
    s.clock.advance(30_000);
    const byCode = await call('POST', '/auth/two-factor/disable', { code: codeAt(again.secret) }, again.token);
    expect(byCode.status).toBe(200);
  });

  it('a login challenge made before the password was changed, or reset, no longer logs in', async () => {
    const email = 'rejected@demo.test';
    const { token, secret } = await turnOn(email);
    const codeLogin = (challenge: string) =>
      call('POST', '/auth/login/two-factor', { challenge, code: codeAt(secret) });
    const passwordLogin = async (password: string) => {
      const res = await call('POST', '/auth/login', { email, password });
      expect(res.status).toBe(202);
      return (res.body.data as { challenge: string }).challenge;
    };
    // someone who knows the password has a challenge open when the owner changes the password in settings
    const beforeChange = await passwordLogin(DEMO_PASSWORD);
    const changed = 'Changed-pass-1';
    const change = { current_password: DEMO_PASSWORD, password: changed, password_confirmation: changed };
    expect((await call('POST', '/auth/change-password', change, token)).status).toBe(200);
    s.clock.advance(30_000);
    expect((await codeLogin(beforeChange)).status).toBe(404);
    // the same with a reset by the emailed link
    const beforeReset = await passwordLogin(changed);
    expect((await call('POST', '/auth/password/reset-request', { email })).status).toBe(200);
    const [mail] = await readOutbox(s.db, { to: email });
    const resetToken = /\/reset-password\/token\/([A-Za-z0-9_-]+)/.exec(mail?.body ?? '')?.[1];
    const reset = 'Reset-pass-12';
    const resetBody = { token: resetToken, password: reset, password_confirmation: reset };
    expect((await call('POST', '/auth/reset-password', resetBody)).status).toBe(200);
    s.clock.advance(30_000);
    expect((await codeLogin(beforeReset)).status).toBe(404);
    // a challenge made with the new password logs in
    const after = await passwordLogin(reset);
    s.clock.advance(30_000);
    expect((await codeLogin(after)).status).toBe(200);
  });

  it('log out everywhere also ends the login challenges waiting for a code', async () => {
    const email = 'kyc@demo.test';
    const { token, secret } = await turnOn(email);
    const open = await call('POST', '/auth/login', { email, password: DEMO_PASSWORD });
    expect(open.status).toBe(202);
    const { challenge } = open.body.data as { challenge: string };
    expect((await call('POST', '/auth/sessions/logout-others', undefined, token)).status).toBe(200);
    s.clock.advance(30_000);
    expect((await call('POST', '/auth/login/two-factor', { challenge, code: codeAt(secret) })).status).toBe(404);
    expect((await call('GET', '/auth/two-factor', undefined, token)).status).toBe(200);
  });
});
