import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES, passwordProblem } from '../auth/password-strength';
import { DEMO_PASSWORD } from '../db/seed/index';
import { readOutbox } from '../mail/outbox';
import { freshServer } from '../test-support';

/**
 * Every call that sets a password refuses the same weak ones with the same words (NewPassword's
 * x-password-strength): sign-up, reset, change and a team invite's acceptance; and the passwords the demo and
 * the tests use pass.
 */
type Server = Awaited<ReturnType<typeof freshServer>>;
interface Body {
  message: string;
  errors?: { path: string; message: string }[];
}

const WEAK: ReadonlyArray<readonly [string, string]> = [
  ['password', PASSWORD_MESSAGES.common],
  ['12345678', PASSWORD_MESSAGES.common],
  ['P@ssw0rd', PASSWORD_MESSAGES.common],
  ['Liverpool1', PASSWORD_MESSAGES.common],
  ['aaaaaaaa', PASSWORD_MESSAGES.repeated],
  ['ZZZZZZZZZZZZZZZZ', PASSWORD_MESSAGES.repeated],
  ['abcdefgh', PASSWORD_MESSAGES.guessable],
];

describe('new passwords: common, breached and repeated ones are refused wherever a password is set', () => {
  let s: Server;
  let client = 0;
  beforeAll(async () => {
    s = await freshServer({ trustProxy: 1, appUrl: 'http://portal.test' });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const post = async (path: string, body: unknown, token?: string) => {
    client += 1;
    const res = await s.json('POST', path, body, token, {
      'x-forwarded-for': `198.51.100.${client}`,
      'idempotency-key': `password-strength-${client}`,
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const linkIn = async (to: string, path: string) => {
    const [mail] = await readOutbox(s.db, { to });
    const found = new RegExp(`http://portal\\.test${path}/([A-Za-z0-9_-]+)`).exec(mail?.body ?? '');
    if (!found?.[1]) throw new Error(`no ${path} link mailed to ${to}`);
    return found[1];
  };
  const refusedAsWeak = (res: { status: number; body: Body }, message: string, what: string) => {
    expect(res.status, what).toBe(422);
    expect(res.body.message, what).toBe(message);
    expect(res.body.errors, what).toEqual([{ path: '/body/password', message }]);
  };

  it('refuses them at sign-up, saying what to choose instead', async () => {
    for (const [password, message] of WEAK) {
      const res = await post('/auth/register', {
        first_name: 'Wes',
        last_name: 'Weak',
        email: `weak-${client}@example.test`,
        password,
        password_confirmation: password,
      });
      refusedAsWeak(res, message, password);
    }
    const strong = await post('/auth/register', {
      first_name: 'Sam',
      last_name: 'Strong',
      email: 'strong@example.test',
      password: 'Correct-horse-9',
      password_confirmation: 'Correct-horse-9',
    });
    expect(strong.status).toBe(200);
  });

  it('refuses them on a reset, a change and an invite, and keeps the old password', async () => {
    await post('/auth/password/reset-request', { email: 'rival@demo.test' });
    const reset = await linkIn('rival@demo.test', '/reset-password/token');
    const seller = await s.loginAs('seller@demo.test');
    expect(
      (
        await post(
          '/settings/my-teams/add',
          {
            email: 'weak.member@example.test',
            first_name: 'Wim',
            last_name: 'Weak',
            permissions: ['dashboard'],
          },
          seller,
        )
      ).status,
    ).toBe(200);
    const invite = await linkIn('weak.member@example.test', '/signup/invite');
    for (const [password, message] of WEAK) {
      const both = { password, password_confirmation: password };
      refusedAsWeak(await post('/auth/reset-password', { token: reset, ...both }), message, `reset ${password}`);
      refusedAsWeak(
        await post('/auth/change-password', { current_password: DEMO_PASSWORD, ...both }, seller),
        message,
        `change ${password}`,
      );
      refusedAsWeak(
        await post('/settings/my-teams/accept-invite', { token: invite, ...both }),
        message,
        `invite ${password}`,
      );
    }
    // nothing changed: the old passwords work, and the links still do their job with a good password
    expect(await s.loginAs('seller@demo.test')).toBeTruthy();
    expect(await s.loginAs('rival@demo.test')).toBeTruthy();
    const good = { password: 'Viewer-1234-x', password_confirmation: 'Viewer-1234-x' };
    expect((await post('/auth/reset-password', { token: reset, ...good })).status).toBe(200);
    expect((await post('/settings/my-teams/accept-invite', { token: invite, ...good })).status).toBe(200);
  });
});

describe('the judge', () => {
  it("lets the demo's and the tests' passwords through", () => {
    for (const password of [
      DEMO_PASSWORD,
      'N3w-password!',
      'Sign-up-1234',
      'Team-member-2026',
      'Team-mate-2026',
      'Kyc-pass-13',
      'First-pass-1',
      'Second-pass-2',
      'Correct-horse-9',
      'An0ther-pass',
      'Viewer-1234',
      'correct horse battery staple',
    ])
      expect(passwordProblem(password), password).toBeNull();
  });

  it('judges the first 64 characters of a long password, in a bounded time', () => {
    expect(passwordProblem(`${'a'.repeat(64)}Xy7!qLm2`)).toBe(PASSWORD_MESSAGES.guessable);
    const started = performance.now();
    passwordProblem('aB3$'.repeat(32));
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
