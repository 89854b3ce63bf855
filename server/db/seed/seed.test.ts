import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../../test-support';
import { CITIES } from './geo-data';
import { DEMO_PASSWORD, seed } from './index';

type Server = Awaited<ReturnType<typeof freshServer>>;

const TABLES = ['currencies', 'countries', 'cities', 'users', 'permissions', 'user_permissions'] as const;

describe('the demo seed', () => {
  let s: Server;

  beforeAll(async () => {
    s = await freshServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const counts = async () => {
    const out: Record<string, number> = {};
    for (const table of TABLES) {
      const row = await s.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  };

  it('is idempotent: a second and third run add nothing and create no users', async () => {
    const before = await counts();
    expect(before.users).toBe(5);
    expect(await seed(s.db, s.clock)).toEqual({ createdUsers: [] });
    expect(await seed(s.db, s.clock)).toEqual({ createdUsers: [] });
    expect(await counts()).toEqual(before);
  });

  it('has exactly the four currencies', async () => {
    const rows = await s.db.selectFrom('currencies').select('code').orderBy('code').execute();
    expect(rows.map((r) => r.code)).toEqual(['AED', 'EUR', 'GBP', 'USD']);
  });

  it('has about 250 countries with unique short names', async () => {
    const rows = await s.db.selectFrom('countries').select(['name', 'short_name', 'dialing_code']).execute();
    expect(rows.length).toBeGreaterThanOrEqual(245);
    expect(rows.length).toBeLessThanOrEqual(260);
    expect(new Set(rows.map((r) => r.short_name)).size).toBe(rows.length);
    expect(rows.every((r) => r.short_name.length >= 2)).toBe(true);
  });

  it('leaves the dialing code empty for exactly Kosovo, Montenegro, North Macedonia, Scotland and TBA', async () => {
    const empty = await s.db
      .selectFrom('countries')
      .select('name')
      .where('dialing_code', '=', '')
      .orderBy('name')
      .execute();
    expect(empty.map((r) => r.name)).toEqual(['Kosovo', 'Montenegro', 'North Macedonia', 'Scotland', 'TBA']);
    const others = await s.db.selectFrom('countries').select('dialing_code').where('dialing_code', '!=', '').execute();
    expect(others.every((r) => /^\+\d{1,4}$/.test(r.dialing_code))).toBe(true);
  });

  it('has cities for the main football countries, and every seeded city list found its country', async () => {
    for (const short of ['GB', 'ES', 'DE']) {
      const rows = await s.db
        .selectFrom('cities')
        .innerJoin('countries', 'countries.id', 'cities.country_id')
        .select('cities.name')
        .where('countries.short_name', '=', short)
        .execute();
      expect(rows.length, short).toBeGreaterThan(3);
    }
    const shorts = await s.db.selectFrom('countries').select('short_name').execute();
    const known = new Set(shorts.map((r) => r.short_name));
    expect(Object.keys(CITIES).filter((k) => !known.has(k))).toEqual([]);
  });

  it('creates the five demo accounts with their user type and KYC status', async () => {
    const users = await s.db
      .selectFrom('users')
      .select(['email', 'user_type', 'kyc_status', 'kyc_rejection_reason', 'deleted_at'])
      .orderBy('email')
      .execute();
    expect(users.map((u) => [u.email, u.user_type, u.kyc_status])).toEqual([
      ['admin@demo.test', 'admin', 1],
      ['member@demo.test', 'team_members', 1],
      ['newseller@demo.test', 'sellers', 0],
      ['rejected@demo.test', 'sellers', 2],
      ['seller@demo.test', 'sellers', 1],
    ]);
    expect(users.find((u) => u.email === 'rejected@demo.test')?.kyc_rejection_reason).toBeTruthy();
    expect(users.every((u) => u.deleted_at === null)).toBe(true);
  });

  it('makes the member a team member of the seller with only dashboard, sales and notification', async () => {
    const seller = await s.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'seller@demo.test')
      .executeTakeFirstOrThrow();
    const member = await s.db
      .selectFrom('users')
      .select(['id', 'team_owner_id'])
      .where('email', '=', 'member@demo.test')
      .executeTakeFirstOrThrow();
    expect(member.team_owner_id).toBe(seller.id);
    const allowed = async (userId: number) =>
      (
        await s.db
          .selectFrom('user_permissions')
          .select('permission_name')
          .where('user_id', '=', userId)
          .where('is_can_access', '=', 1)
          .orderBy('permission_name')
          .execute()
      ).map((r) => r.permission_name);
    expect(await allowed(member.id)).toEqual(['dashboard', 'notification', 'sales']);
    expect(await allowed(seller.id)).toHaveLength(8);
  });

  it('stores passwords as self-describing scrypt hashes at OWASP cost, never the plain text', async () => {
    const rows = await s.db.selectFrom('users').select('password_hash').execute();
    for (const { password_hash } of rows) {
      expect(password_hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/);
      expect(password_hash).not.toContain(DEMO_PASSWORD);
    }
    // a fresh salt per user
    expect(new Set(rows.map((r) => r.password_hash.split('$')[4])).size).toBe(rows.length);
  });
});
