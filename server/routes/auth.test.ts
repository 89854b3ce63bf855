import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../auth/passwords';
import { login } from '../auth/session';
import { newUserToken } from '../auth/tokens';
import { DEMO_PASSWORD } from '../db/seed/index';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
interface Body {
  success: boolean;
  message?: string;
  data?: Record<string, unknown>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

describe('login, session and own account', () => {
  let s: Server;

  beforeAll(async () => {
    s = await freshServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await s.json(method, path, body, token);
    return { status: res.status, body: (await res.json()) as Body };
  };
  const get = (path: string, token?: string) => call('GET', path, undefined, token);
  const postLogin = (email: string, password = DEMO_PASSWORD) => call('POST', '/auth/login', { email, password });
  const userByEmail = (email: string) =>
    s.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const activity = (userId: number) =>
    s.db
      .selectFrom('activity_log')
      .select(['type', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();

  it('logs a seller in: a 256-bit base64url token, the names, the user token and a 24-hour expiry', async () => {
    const { status, body } = await postLogin('seller@demo.test');
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    const data = body.data as {
      token: string;
      first_name: string;
      last_name: string;
      user_token: string;
      expires_at: string;
    };
    expect(data.token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(data.token, 'base64url')).toHaveLength(32);
    expect(Buffer.from(data.token, 'base64url').toString('base64url')).toBe(data.token);
    const user = await userByEmail('seller@demo.test');
    expect(data).toMatchObject({ first_name: 'Sam', last_name: 'Seller', user_token: user.user_token });
    expect(data.expires_at).toBe(new Date(s.clock.now().getTime() + DAY_MS).toISOString());
  });

  it('stores only the SHA-256 of the token: the raw token appears nowhere in the database', async () => {
    const token = await s.loginAs('seller@demo.test');
    const hash = createHash('sha256').update(token).digest('hex');
    const row = await s.db.selectFrom('auth_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
    expect(row?.revoked_at).toBeNull();

    let dump = '';
    for (const { name } of await s.db.introspection.getTables()) {
      const rows = await sql.raw<Record<string, unknown>>(`SELECT * FROM "${name}"`).execute(s.db);
      dump += JSON.stringify(rows.rows);
    }
    expect(dump).toContain(hash);
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(Buffer.from(token, 'base64url').toString('hex'));
  });

  it('gives a wrong password and an unknown email the very same 401 answer', async () => {
    const wrong = await postLogin('newseller@demo.test', 'not-the-password');
    const unknown = await postLogin('nobody@demo.test', 'not-the-password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({ success: false, message: 'Incorrect email or password.' });
  });

  it('treats the email case-insensitively and trims it', async () => {
    expect((await postLogin('SeLLer@Demo.TEST')).status).toBe(200);
    const result = await login(s.db, s.clock, '  Seller@Demo.Test  ', DEMO_PASSWORD);
    expect(result.kind).toBe('ok');
  });

  it('answers the seller own account, roles with every permission, and KYC approved', async () => {
    const token = await s.loginAs('seller@demo.test');
    const user = await userByEmail('seller@demo.test');

    const account = await get('/settings/my-account', token);
    expect(account.status).toBe(200);
    expect(account.body).toEqual({
      success: true,
      data: {
        id: user.id,
        email: 'seller@demo.test',
        first_name: 'Sam',
        last_name: 'Seller',
        user_type: 'sellers',
        kyc_status: 1,
        currency: 'GBP',
        user_token: user.user_token,
        team_owner_id: null,
        created_at: user.created_at,
        // the details My Account edits (issue 13): the demo seller has given none but its language
        phone_dialing_code: null,
        phone_number: null,
        country_id: null,
        city_id: null,
        language: 'en',
      },
    });

    const roles = await get('/account/roles-permissions', token);
    expect(roles.status).toBe(200);
    expect(roles.body.data).toEqual({
      user_type: 'sellers',
      permissions: ['settings', 'dashboard', 'notification', 'event', 'sales', 'reports', 'lmt-pay', 'lmt-trade'].map(
        (name) => ({ name, is_can_access: 1 }),
      ),
    });

    const kyc = await get('/account/kyc-status', token);
    expect(kyc).toEqual({ status: 200, body: { success: true, data: { kyc_status: 1, rejection_reason: null } } });
  });

  it('answers a team member with only dashboard, sales and notification, and the owner id', async () => {
    const token = await s.loginAs('member@demo.test');
    const seller = await userByEmail('seller@demo.test');
    const account = await get('/settings/my-account', token);
    expect(account.body.data).toMatchObject({ user_type: 'team_members', team_owner_id: seller.id });

    const roles = await get('/account/roles-permissions', token);
    expect(roles.status).toBe(200);
    const data = roles.body.data as { user_type: string; permissions: { name: string; is_can_access: number }[] };
    expect(data.user_type).toBe('team_members');
    expect(data.permissions).toHaveLength(8);
    expect(data.permissions.filter((p) => p.is_can_access === 1).map((p) => p.name)).toEqual([
      'dashboard',
      'notification',
      'sales',
    ]);
    expect(data.permissions.every((p) => p.is_can_access === 0 || p.is_can_access === 1)).toBe(true);
  });

  it('answers the rejected seller with kyc_status 2 and the rejection reason', async () => {
    const token = await s.loginAs('rejected@demo.test');
    const kyc = await get('/account/kyc-status', token);
    expect(kyc.status).toBe(200);
    expect(kyc.body.data?.kyc_status).toBe(2);
    expect(kyc.body.data?.rejection_reason).toEqual(expect.stringMatching(/\w+/));
  });

  it('answers the new seller with kyc_status 0 and no rejection reason', async () => {
    const token = await s.loginAs('newseller@demo.test');
    expect((await get('/account/kyc-status', token)).body.data).toEqual({ kyc_status: 0, rejection_reason: null });
    expect((await get('/settings/my-account', token)).body.data).toMatchObject({ kyc_status: 0, user_type: 'sellers' });
  });

  it("answers a team member with its seller's KYC status: a member inherits its seller's hold", async () => {
    const member = await s.loginAs('member@demo.test');
    expect((await get('/account/kyc-status', member)).body.data).toEqual({ kyc_status: 1, rejection_reason: null });

    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const addMember = async (email: string, ownerEmail: string) => {
      const owner = await userByEmail(ownerEmail);
      await s.db
        .insertInto('users')
        .values({
          email,
          password_hash: passwordHash,
          first_name: 'Team',
          last_name: 'Member',
          user_type: 'team_members',
          kyc_status: 1,
          kyc_rejection_reason: null,
          team_owner_id: owner.id,
          currency: 'GBP',
          user_token: newUserToken(),
          created_at: s.clock.now().toISOString(),
          deleted_at: null,
        })
        .execute();
      return s.loginAs(email);
    };
    const ofHeld = await addMember('member-of-held@demo.test', 'newseller@demo.test');
    expect((await get('/account/kyc-status', ofHeld)).body.data).toEqual({ kyc_status: 0, rejection_reason: null });
    // and the router holds it like its seller
    expect((await get('/sales/sales-count', ofHeld)).status).toBe(403);

    const rejected = await userByEmail('rejected@demo.test');
    const ofRejected = await addMember('member-of-rejected@demo.test', 'rejected@demo.test');
    expect((await get('/account/kyc-status', ofRejected)).body.data).toEqual({
      kyc_status: 2,
      rejection_reason: rejected.kyc_rejection_reason,
    });
  });

  it('logs out: the token is revoked, a second logout answers 401, and both ends are in the activity log', async () => {
    const user = await userByEmail('seller@demo.test');
    const before = (await activity(user.id)).length;
    const token = await s.loginAs('seller@demo.test');
    expect((await get('/settings/my-account', token)).status).toBe(200);

    const out = await call('POST', '/auth/logout', undefined, token);
    expect(out).toEqual({ status: 200, body: { success: true, message: 'Logged out.' } });
    expect((await get('/settings/my-account', token)).status).toBe(401);
    expect((await get('/account/roles-permissions', token)).status).toBe(401);
    expect((await call('POST', '/auth/logout', undefined, token)).status).toBe(401);

    const rows = await activity(user.id);
    expect(rows.slice(before).map((r) => r.type)).toEqual(['logged_in', 'logged_out']);
    const hash = createHash('sha256').update(token).digest('hex');
    const stored = await s.db
      .selectFrom('auth_tokens')
      .select('revoked_at')
      .where('token_hash', '=', hash)
      .executeTakeFirst();
    expect(stored?.revoked_at).toBe(s.clock.now().toISOString());
  });

  it("rejects a deleted user's token and login", async () => {
    const token = await s.loginAs('admin@demo.test');
    expect((await get('/settings/my-account', token)).status).toBe(200);
    await s.db
      .updateTable('users')
      .set({ deleted_at: s.clock.now().toISOString() })
      .where('email', '=', 'admin@demo.test')
      .execute();
    const res = await get('/settings/my-account', token);
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
    expect(await postLogin('admin@demo.test')).toEqual({
      status: 401,
      body: { success: false, message: 'Incorrect email or password.' },
    });
  });

  it('rejects a tampered token, a malformed header and a missing one', async () => {
    const token = await s.loginAs('seller@demo.test');
    const i = 10;
    const tampered = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
    const bad = await get('/settings/my-account', tampered);
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ success: false, message: 'Your session has expired. Please log in again.' });
    expect((await get('/settings/my-account', `${token}x`)).status).toBe(401);

    const basic = await s.app.request('/api/settings/my-account', { headers: { authorization: `Basic ${token}` } });
    expect(basic.status).toBe(401);

    for (const path of ['/settings/my-account', '/account/roles-permissions', '/account/kyc-status']) {
      expect(await get(path), path).toEqual({
        status: 401,
        body: { success: false, message: 'Please log in to continue.' },
      });
    }
    expect((await call('POST', '/auth/logout')).status).toBe(401);
    // the untampered token still works
    expect((await get('/settings/my-account', token)).status).toBe(200);
  });

  // moves the clock: keep it last
  it('expires a token 24 hours after login', async () => {
    const token = await s.loginAs('newseller@demo.test');
    s.clock.advance(DAY_MS - 1);
    expect((await get('/account/kyc-status', token)).status).toBe(200);
    s.clock.advance(2);
    const expired = await get('/account/kyc-status', token);
    expect(expired).toEqual({
      status: 401,
      body: { success: false, message: 'Your session has expired. Please log in again.' },
    });
    // a new login still works
    expect((await postLogin('newseller@demo.test')).status).toBe(200);
  });

  // last in the file: it deletes the demo seller
  it('shuts a team member out once the seller whose team it is is deleted', async () => {
    const token = await s.loginAs('member@demo.test');
    expect((await get('/sales/sales-count', token)).status).toBe(200);
    await s.db
      .updateTable('users')
      .set({ deleted_at: s.clock.now().toISOString() })
      .where('email', '=', 'seller@demo.test')
      .execute();
    expect((await get('/sales/sales-count', token)).status).toBe(401);
    expect((await get('/settings/my-account', token)).status).toBe(401);
  });
});
