import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_INVALID, API_TOKEN_NOT_FOR_THIS, apiScopeMissing } from '../auth/api-tokens';
import { MESSAGES } from '../http/errors';
import { freshServer, userIdOf } from '../test-support';
import { call, type Server } from './trade-testing';

/** API tokens: made in a session, shown once, kept hashed; a token acts as its seller within its scopes only. */
describe('seller API tokens', () => {
  let s: Server;
  let session: string;
  let sellerId: number;
  beforeAll(async () => {
    s = await freshServer();
    session = await s.loginAs('tickets4u@demo.test');
    sellerId = await userIdOf(s.db, 'tickets4u@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const create = async (scopes: string[], days = 30, token = session) =>
    call(s, 'POST', '/settings/api-tokens', token, { name: 'Channel manager', scopes, expires_in_days: days });

  it('shows a new token once and keeps only its SHA-256', async () => {
    const made = await create(['listings']);
    expect(made.status).toBe(200);
    const data = made.body.data as { token: string; api_token: { id: number; token_hint: string; scopes: string[] } };
    expect(data.token).toMatch(/^sbk_[A-Za-z0-9_-]{43}$/);
    expect(data.api_token.token_hint).toBe(data.token.slice(-4));
    const rows = await s.db.selectFrom('api_tokens').selectAll().where('id', '=', data.api_token.id).execute();
    expect(JSON.stringify(rows)).not.toContain(data.token);
    const list = await call(s, 'GET', '/settings/api-tokens', session);
    expect(JSON.stringify(list.body)).not.toContain(data.token);
    expect((list.body.data as { api_tokens: { id: number; status: string }[] }).api_tokens[0]).toMatchObject({
      id: data.api_token.id,
      status: 'active',
      last_used_at: null,
    });
  });

  it('acts as the seller within its scopes, and records its last use', async () => {
    const { token, api_token } = (await create(['listings'])).body.data as { token: string; api_token: { id: number } };
    const listings = await call(s, 'GET', '/my-listings', token);
    expect(listings.status).toBe(200);
    const list = await call(s, 'GET', '/settings/api-tokens', session);
    const row = (list.body.data as { api_tokens: { id: number; last_used_at: string | null }[] }).api_tokens.find(
      (t) => t.id === api_token.id,
    );
    expect(row?.last_used_at).toBe(s.clock.now().toISOString());
    const sales = await call(s, 'GET', '/sales/sales-count', token);
    expect(sales.status).toBe(403);
    expect(sales.body.message).toBe(apiScopeMissing('sales'));
  });

  it('never reaches the portal’s own operations: its tokens, sessions, wallet', async () => {
    const { token } = (await create(['listings', 'sales', 'delivery'])).body.data as { token: string };
    for (const [method, path] of [
      ['GET', '/settings/api-tokens'],
      ['POST', '/settings/api-tokens'],
      ['POST', '/settings/api-tokens/1/revoke'],
      ['GET', '/auth/sessions'],
      ['POST', '/auth/logout'],
    ] as const) {
      const answer =
        method === 'POST' && path === '/settings/api-tokens'
          ? await create(['listings'], 30, token)
          : await call(s, method, path, token);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.message).toBe(API_TOKEN_NOT_FOR_THIS);
    }
  });

  it('carries the seller’s permissions and KYC hold', async () => {
    const { token } = (await create(['listings'])).body.data as { token: string };
    await s.db
      .updateTable('user_permissions')
      .set({ is_can_access: 0 })
      .where('user_id', '=', sellerId)
      .where('permission_name', '=', 'event')
      .execute();
    const refused = await call(s, 'GET', '/my-listings', token);
    expect([refused.status, refused.body.message]).toEqual([403, MESSAGES.forbidden]);
    await s.db
      .updateTable('user_permissions')
      .set({ is_can_access: 1 })
      .where('user_id', '=', sellerId)
      .where('permission_name', '=', 'event')
      .execute();
    await s.db.updateTable('users').set({ kyc_status: 0 }).where('id', '=', sellerId).execute();
    const held = await call(s, 'GET', '/my-listings', token);
    expect([held.status, held.body.message]).toEqual([403, MESSAGES.kycRequired]);
    await s.db.updateTable('users').set({ kyc_status: 1 }).where('id', '=', sellerId).execute();
    expect((await call(s, 'GET', '/my-listings', token)).status).toBe(200);
  });

  it('answers 401 once revoked, and another seller cannot revoke it', async () => {
    const { token, api_token } = (await create(['listings'])).body.data as { token: string; api_token: { id: number } };
    const rival = await s.loginAs('fanzone@demo.test');
    expect((await call(s, 'POST', `/settings/api-tokens/${api_token.id}/revoke`, rival)).status).toBe(404);
    expect((await call(s, 'GET', '/my-listings', token)).status).toBe(200);
    const revoked = await call(s, 'POST', `/settings/api-tokens/${api_token.id}/revoke`, session);
    expect(revoked.body.data).toMatchObject({ status: 'revoked' });
    const after = await call(s, 'GET', '/my-listings', token);
    expect([after.status, after.body.message]).toEqual([401, API_TOKEN_INVALID]);
  });

  it('refuses bad input with field errors', async () => {
    const bad = await call(s, 'POST', '/settings/api-tokens', session, {
      name: ' ',
      scopes: ['admin'],
      expires_in_days: 0,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.map((e) => e.path).sort()).toEqual(
      ['/body/expires_in_days', '/body/name', '/body/scopes/0'].sort(),
    );
    expect((await create([])).status).toBe(422);
  });

  it('answers 401 once expired', async () => {
    const { token } = (await create(['listings'], 1)).body.data as { token: string };
    expect((await call(s, 'GET', '/my-listings', token)).status).toBe(200);
    s.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const after = await call(s, 'GET', '/my-listings', token);
    expect([after.status, after.body.message]).toEqual([401, API_TOKEN_INVALID]);
  });
});
