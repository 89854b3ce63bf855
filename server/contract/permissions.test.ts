import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../db/seed/index';
import { freshServer } from '../test-support';
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
    userId = (
      await s.db.selectFrom('users').select('id').where('email', '=', 'newseller@demo.test').executeTakeFirstOrThrow()
    ).id;
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
      expect([200, 404], `${op.operationId} answered ${allowed.status}`).toContain(allowed.status);
    }
  });

  it('reads the permission on every call: a revoked permission takes effect at once, with the same token', async () => {
    await allowOnly('notification');
    expect((await s.json('GET', '/notification/history', undefined, token)).status).toBe(200);
    await allowOnly('dashboard');
    expect((await s.json('GET', '/notification/history', undefined, token)).status).toBe(403);
  });
});
