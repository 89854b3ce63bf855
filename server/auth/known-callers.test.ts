import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database';
import { freshServer, userIdOf } from '../test-support';
import { hashToken, TOKEN_LIFETIME_MS } from './tokens';

// authenticate() keeps the callers it read on SQLite by the database's version (server/auth/session.ts): each
// change below is made where the server does not see it coming, and its very next call must see it.
describe('a caller kept between calls is read again after any change', () => {
  let s: Awaited<ReturnType<typeof freshServer>>;
  let other: ReturnType<typeof openDatabase>;

  beforeAll(async () => {
    s = await freshServer();
    // a second connection to the same database: another process, as SQLite sees it
    other = openDatabase(s.target);
  });
  afterAll(async () => {
    await other?.destroy();
    await s?.close();
  });

  const status = async (path: string, token: string) => (await s.json('GET', path, undefined, token)).status;
  /** Two calls: the first may write the session's last use, the second finds the caller kept. */
  const warm = async (path: string, token: string) => {
    expect(await status(path, token)).toBe(200);
    expect(await status(path, token)).toBe(200);
  };
  const userId = (email: string) => userIdOf(s.db, email);

  it('a session revoked by another connection is refused at once', async () => {
    const token = await s.loginAs('seller@demo.test');
    await warm('/account/kyc-status', token);
    await other.updateTable('auth_tokens').set({ revoked_at: new Date().toISOString() }).execute();
    expect(await status('/account/kyc-status', token)).toBe(401);
    await other.updateTable('auth_tokens').set({ revoked_at: null }).execute();
    expect(await status('/account/kyc-status', token)).toBe(200);
  });

  it('a permission taken away through the same connection, outside any call, is refused at once', async () => {
    const token = await s.loginAs('member@demo.test');
    await warm('/dashboard/sales-overview', token);
    const member = await userId('member@demo.test');
    const take = (access: number) =>
      s.db
        .updateTable('user_permissions')
        .set({ is_can_access: access })
        .where('user_id', '=', member)
        .where('permission_name', '=', 'dashboard')
        .execute();
    await take(0);
    expect(await status('/dashboard/sales-overview', token)).toBe(403);
    await take(1);
    expect(await status('/dashboard/sales-overview', token)).toBe(200);
  });

  it("a team member is held as soon as its seller's KYC is no longer approved", async () => {
    const token = await s.loginAs('member@demo.test');
    await warm('/dashboard/sales-overview', token);
    const seller = await userId('seller@demo.test');
    await other.updateTable('users').set({ kyc_status: 0 }).where('id', '=', seller).execute();
    expect(await status('/dashboard/sales-overview', token)).toBe(403);
    await other.updateTable('users').set({ kyc_status: 1 }).where('id', '=', seller).execute();
    expect(await status('/dashboard/sales-overview', token)).toBe(200);
  });

  it('a deleted user is refused at once', async () => {
    const token = await s.loginAs('rival@demo.test');
    await warm('/account/kyc-status', token);
    await sql`UPDATE users SET deleted_at = ${new Date().toISOString()} WHERE email = 'rival@demo.test'`.execute(other);
    expect(await status('/account/kyc-status', token)).toBe(401);
  });

  it('a kept session still expires by the clock, and its last use is still written once a minute', async () => {
    const token = await s.loginAs('seller@demo.test');
    await warm('/account/kyc-status', token);
    const lastUse = async () =>
      (
        await s.db
          .selectFrom('auth_tokens')
          .select('last_used_at')
          .where('token_hash', '=', hashToken(token))
          .executeTakeFirstOrThrow()
      ).last_used_at;
    const before = await lastUse();
    s.clock.advance(61_000);
    expect(await status('/account/kyc-status', token)).toBe(200);
    expect(await lastUse()).not.toBe(before);
    s.clock.advance(TOKEN_LIFETIME_MS);
    expect(await status('/account/kyc-status', token)).toBe(401);
  });
});
