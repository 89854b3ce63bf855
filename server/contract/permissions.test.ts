import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../db/seed/index';
import { freshServer, userIdOf } from '../test-support';
import { loadContract } from './contract';

type Server = Awaited<ReturnType<typeof freshServer>>;
const FORBIDDEN = { success: false, message: "You don't have permission to access this." };

/** The router enforces every operation's `x-permission`, whatever the operation. */
describe('x-permission', () => {
  let s: Server;
  let token: string;
  let userId: number;
  const guarded = loadContract().operations.filter((op) => op.permission !== null);

  beforeAll(async () => {
    s = await freshServer();
    token = await s.loginAs('newseller@demo.test');
    // an approved seller, so that only the permissions decide here (the KYC gate is tested below)
    await s.db.updateTable('users').set({ kyc_status: 1 }).where('email', '=', 'newseller@demo.test').execute();
    userId = await userIdOf(s.db, 'newseller@demo.test');
  });
  afterAll(async () => {
    await s?.close();
  });

  const allowOnly = (name: string | null) =>
    s.db
      .updateTable('user_permissions')
      .set((eb) => ({
        is_can_access: eb
          .case()
          .when('permission_name', '=', name ?? '')
          .then(1)
          .else(0)
          .end(),
      }))
      .where('user_id', '=', userId)
      .execute();
  const request = (op: (typeof guarded)[number]) =>
    s.json(
      op.method.toUpperCase(),
      op.path.replace(/\{[^}]+\}/g, '1'),
      op.bodyMediaType === 'application/json' ? { id: 1 } : undefined,
      token,
    );

  it('answers 403 with the envelope to a caller without the permission, and lets one with it through', async () => {
    expect(guarded.length).toBeGreaterThan(0);
    for (const op of guarded) {
      await allowOnly(null);
      const denied = await request(op);
      expect(denied.status, op.operationId).toBe(403);
      expect(await denied.json()).toEqual(FORBIDDEN);
      // every other permission does not help
      await allowOnly(PERMISSIONS.map((p) => p.name).find((n) => n !== op.permission) ?? null);
      expect((await request(op)).status, op.operationId).toBe(403);
      await allowOnly(op.permission);
      const allowed = await request(op);
      // a call not built yet is closed to the wrong callers all the same; with the permission it says 501
      // (an upload, an idempotent call sent without its key, or a body without the fields it needs is refused after
      // the permission: 422, as is a read sent without a query parameter it requires)
      const needsMore = op.idempotent || op.bodyMediaType !== null || op.validateQuery({}).length > 0;
      // (an upload sent without its form is 415 when nothing else stops it first)
      const upload = op.bodyMediaType === 'multipart/form-data' ? [415] : [];
      const through = op.planned ? [501] : needsMore ? [200, 404, 422, ...upload] : [200, 404];
      expect(through, `${op.operationId} answered ${allowed.status}`).toContain(allowed.status);
    }
  });

  it('closes the back office to everyone but admins, before the call is even built', async () => {
    const admin = loadContract().operations.filter((op) => op.role === 'admin');
    expect(admin.map((op) => op.path).every((p) => p.startsWith('/admin/'))).toBe(true);
    expect(admin.length).toBeGreaterThanOrEqual(3);
    await allowOnly(null);
    const sellerToken = await s.loginAs('seller@demo.test');
    const memberToken = await s.loginAs('member@demo.test');
    const adminToken = await s.loginAs('admin@demo.test');
    for (const op of admin) {
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      for (const t of [sellerToken, memberToken, token]) {
        const res = await s.json(op.method.toUpperCase(), path, undefined, t);
        expect(res.status, op.operationId).toBe(403);
        expect(await res.json()).toEqual(FORBIDDEN);
      }
      expect((await s.json(op.method.toUpperCase(), path, undefined, adminToken)).status, op.operationId).not.toBe(403);
    }
  });

  it('reads the permission on every call: a revoked permission takes effect at once, with the same token', async () => {
    await allowOnly('notification');
    expect((await s.json('GET', '/notification/history', undefined, token)).status).toBe(200);
    await allowOnly('dashboard');
    expect((await s.json('GET', '/notification/history', undefined, token)).status).toBe(403);
  });
});

describe('the KYC gate on the server', () => {
  let s: Server;
  const held = ['rejected@demo.test', 'newseller@demo.test'];
  const tokens: Record<string, string> = {};
  const exempt = loadContract().operations.filter((op) => op.kycExempt && !op.planned);

  beforeAll(async () => {
    s = await freshServer();
    for (const email of [...held, 'member@demo.test']) tokens[email] = await s.loginAs(email);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('refuses a seller without approved KYC everything but the KYC page’s calls', async () => {
    for (const email of held) {
      for (const path of ['/dashboard/sales-overview', '/sales/sales-count', '/notification/history']) {
        const res = await s.json('GET', path, undefined, tokens[email]);
        expect(res.status, `${email} ${path}`).toBe(403);
        expect(await res.json()).toEqual({
          success: false,
          message: 'Complete your identity verification (KYC) to use this.',
        });
      }
      for (const path of ['/settings/my-account', '/account/roles-permissions', '/account/kyc-status']) {
        expect((await s.json('GET', path, undefined, tokens[email])).status, `${email} ${path}`).toBe(200);
      }
    }
    expect(exempt.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['logout', 'getMyAccount', 'getRolesPermissions', 'getKycStatus']),
    );
  });

  it('does not hold anyone who is not a seller, whatever the status', async () => {
    await s.db.updateTable('users').set({ kyc_status: 0 }).where('email', '=', 'member@demo.test').execute();
    expect((await s.json('GET', '/sales/sales-count', undefined, tokens['member@demo.test'])).status).toBe(200);
  });

  it('opens up as soon as the KYC is approved', async () => {
    await s.db.updateTable('users').set({ kyc_status: 1 }).where('email', '=', 'rejected@demo.test').execute();
    expect((await s.json('GET', '/sales/sales-count', undefined, tokens['rejected@demo.test'])).status).toBe(200);
  });
});
