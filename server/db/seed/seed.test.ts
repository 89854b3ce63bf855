import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRYPT } from '../../auth/passwords';
import { manualClock } from '../../clock';
import { freshServer, userIdOf } from '../../test-support';
import { openDatabase } from '../database';
import { migrateToLatest } from '../migrate';
import { CITIES } from './geo-data';
import { DEMO_PASSWORD, seed } from './index';

type Server = Awaited<ReturnType<typeof freshServer>>;

const TABLES = [
  'currencies',
  'countries',
  'cities',
  'users',
  'permissions',
  'user_permissions',
  'events',
  'listings',
  'orders',
  'notifications',
  'activity_log',
  'seed_fixtures',
] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

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

  it('is idempotent: a second and third run add nothing and create no users, even days later', async () => {
    const before = await counts();
    // the nine demo accounts and three invited team members (demo-teams.ts)
    expect(before.users).toBe(12);
    expect(before.orders).toBeGreaterThan(0);
    expect(await seed(s.db, s.clock)).toEqual({ createdUsers: [], appliedFixtures: [] });
    const later = manualClock(new Date(s.clock.now().getTime() + 30 * DAY_MS));
    expect(await seed(s.db, later)).toEqual({ createdUsers: [], appliedFixtures: [] });
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

  it('creates the nine demo accounts and three invited team members, with their user type and KYC status', async () => {
    const users = await s.db
      .selectFrom('users')
      .select(['email', 'user_type', 'kyc_status', 'kyc_rejection_reason', 'deleted_at'])
      .orderBy('email')
      .execute();
    expect(users.map((u) => [u.email, u.user_type, u.kyc_status])).toEqual([
      ['admin@demo.test', 'admin', 1],
      ['fanzone@demo.test', 'sellers', 1],
      ['ivy.invited@demo.test', 'team_members', 0],
      ['kyc@demo.test', 'sellers', 0],
      ['member@demo.test', 'team_members', 1],
      ['newseller@demo.test', 'sellers', 0],
      ['rejected@demo.test', 'sellers', 2],
      ['rex.rival-team@demo.test', 'team_members', 0],
      ['ria.rival-team@demo.test', 'team_members', 0],
      ['rival@demo.test', 'sellers', 1],
      ['seller@demo.test', 'sellers', 1],
      ['tickets4u@demo.test', 'sellers', 1],
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

  it('stores passwords as self-describing scrypt hashes, never the plain text', async () => {
    // at the parameters of this run: OWASP's everywhere but in the test runner (see server/auth/passwords.ts)
    const cost = new RegExp(
      `^scrypt\\$${SCRYPT.N}\\$${SCRYPT.r}\\$${SCRYPT.p}\\$[A-Za-z0-9_-]{22}\\$[A-Za-z0-9_-]{86}$`,
    );
    const all = await s.db.selectFrom('users').select(['password_hash', 'invited_at']).execute();
    // an invited member has no usable password until it opens its link: a marker no password can match
    const invited = all.filter((r) => r.invited_at !== null);
    expect(invited).toHaveLength(3);
    for (const { password_hash } of invited) expect(password_hash).not.toMatch(/^scrypt\$/);
    const rows = all.filter((r) => r.invited_at === null);
    expect(rows).toHaveLength(9);
    for (const { password_hash } of rows) {
      expect(password_hash).toMatch(cost);
      expect(password_hash).not.toContain(DEMO_PASSWORD);
    }
    // a fresh salt per user
    expect(new Set(rows.map((r) => r.password_hash.split('$')[4])).size).toBe(rows.length);
  });

  describe('the demo sales, notifications and activity', () => {
    const now = () => s.clock.now().getTime();
    const idOf = (email: string) => userIdOf(s.db, email);

    it('has about 12 upcoming football events in seeded cities of their own country', async () => {
      const events = await s.db
        .selectFrom('events')
        .innerJoin('cities', 'cities.id', 'events.city_id')
        .select(['events.name', 'home_team', 'away_team', 'event_date', 'event_time', 'events.country_id'])
        .select('cities.country_id as city_country_id')
        // the sales demo's events (the trade area's 48 more are the trade seed's: server/routes/trade.test.ts)
        .where(
          'events.id',
          'in',
          s.db
            .selectFrom('listings')
            .select('event_id')
            .where('seller_id', '=', await idOf('seller@demo.test'))
            .where('created_at', '<', new Date(now() - 60 * DAY_MS).toISOString()),
        )
        .execute();
      expect(events.length).toBeGreaterThanOrEqual(10);
      expect(events.length).toBeLessThanOrEqual(15);
      const today = new Date(now()).toISOString().slice(0, 10);
      const horizon = new Date(now() + 90 * DAY_MS).toISOString().slice(0, 10);
      for (const e of events) {
        expect(e.name).toBe(`${e.home_team} vs ${e.away_team}`);
        expect(e.event_date > today && e.event_date < horizon, e.event_date).toBe(true);
        expect(e.event_time).toMatch(/^([01]\d|2[0-3]):[0-5]\d$/);
        expect(e.city_country_id).toBe(e.country_id);
      }
    });

    it('gives the seller about 40 orders in every status, mostly GBP, priced from their listings', async () => {
      const seller = await idOf('seller@demo.test');
      const orders = await s.db
        .selectFrom('orders')
        .innerJoin('listings', 'listings.id', 'orders.listing_id')
        .select([
          'orders.booking_no',
          'orders.status',
          'orders.currency',
          'orders.quantity',
          'orders.amount',
          'orders.event_id',
          'orders.created_at',
          'listings.price',
          'listings.event_id as listing_event_id',
          'listings.currency as listing_currency',
          'listings.seller_id as listing_seller_id',
        ])
        .where('orders.seller_id', '=', seller)
        .execute();
      expect(orders.length).toBeGreaterThanOrEqual(35);
      expect(orders.length).toBeLessThanOrEqual(45);
      for (const status of ['pending', 'confirmed', 'delivered', 'completed', 'cancelled', 'replaced']) {
        expect(orders.filter((o) => o.status === status).length, status).toBeGreaterThanOrEqual(4);
      }
      const byCurrency = (c: string) => orders.filter((o) => o.currency === c).length;
      expect(byCurrency('GBP') / orders.length).toBeGreaterThan(0.7);
      for (const c of ['EUR', 'USD', 'AED']) expect(byCurrency(c), c).toBeGreaterThan(0);
      for (const o of orders) {
        expect(o.booking_no).toMatch(/^SB-\d{6}$/);
        expect(Number.isInteger(o.amount) && Number.isInteger(o.price)).toBe(true);
        expect(o.amount).toBe(o.price * o.quantity);
        expect([o.listing_event_id, o.listing_currency, o.listing_seller_id]).toEqual([o.event_id, o.currency, seller]);
        expect(Date.parse(o.created_at)).toBeLessThan(now());
        expect(Date.parse(o.created_at)).toBeGreaterThan(now() - 61 * DAY_MS);
      }
    });

    it('gives the seller at least 45 notifications (about a third unread) and 45 activity rows over 60 days', async () => {
      const seller = await idOf('seller@demo.test');
      const notifications = await s.db.selectFrom('notifications').selectAll().where('user_id', '=', seller).execute();
      expect(notifications.length).toBeGreaterThanOrEqual(45);
      const unread = notifications.filter((n) => n.viewed === 0).length / notifications.length;
      expect(unread).toBeGreaterThan(0.25);
      expect(unread).toBeLessThan(0.45);
      expect(notifications.map((n) => n.name)).toEqual(
        expect.arrayContaining(['new_order', 'ticket_delivered', 'payout_processed']),
      );
      const activity = await s.db.selectFrom('activity_log').selectAll().where('user_id', '=', seller).execute();
      expect(activity.length).toBeGreaterThanOrEqual(45);
      const types = new Set(activity.map((a) => a.type));
      expect(types.has('logged_in') && types.has('logged_out')).toBe(true);
      expect(types.size).toBeGreaterThanOrEqual(4);
      for (const row of [...notifications, ...activity]) {
        const t = Date.parse(row.created_at);
        expect(t).toBeLessThan(now());
        expect(t).toBeGreaterThanOrEqual(now() - 60 * DAY_MS);
      }
      // spread over the whole window, not bunched up
      const oldest = Math.min(...activity.map((a) => Date.parse(a.created_at)));
      const newest = Math.max(...activity.map((a) => Date.parse(a.created_at)));
      expect(newest - oldest).toBeGreaterThan(40 * DAY_MS);
    });

    it('gives the member a handful of notifications and activity, and the others nothing sales-related', async () => {
      const member = await idOf('member@demo.test');
      const countFor = async (table: 'notifications' | 'activity_log', userId: number) =>
        Number(
          (
            await s.db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('user_id', '=', userId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await countFor('notifications', member)).toBeGreaterThanOrEqual(3);
      expect(await countFor('notifications', member)).toBeLessThanOrEqual(10);
      expect(await countFor('activity_log', member)).toBeGreaterThanOrEqual(3);
      const member_orders = await s.db.selectFrom('orders').select('id').where('seller_id', '=', member).execute();
      expect(member_orders).toEqual([]);
      for (const email of ['newseller@demo.test', 'rejected@demo.test', 'admin@demo.test']) {
        const id = await idOf(email);
        expect(await s.db.selectFrom('listings').select('id').where('seller_id', '=', id).execute(), email).toEqual([]);
        expect(await s.db.selectFrom('orders').select('id').where('seller_id', '=', id).execute(), email).toEqual([]);
        expect(await countFor('notifications', id), email).toBe(0);
        expect(await countFor('activity_log', id), email).toBe(0);
      }
    });

    it('is deterministic: the same clock on another database gives the very same rows', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sb-portal-seed-'));
      const other = openDatabase(join(dir, 'portal.sqlite'));
      try {
        await migrateToLatest(other);
        await seed(other, manualClock(s.clock.now()));
        for (const table of ['events', 'listings', 'orders', 'notifications'] as const) {
          const mine = await s.db.selectFrom(table).selectAll().orderBy('id').execute();
          expect(await other.selectFrom(table).selectAll().orderBy('id').execute(), table).toEqual(mine);
        }
        const activity = (db: typeof other) =>
          db.selectFrom('activity_log').select(['type', 'description', 'created_at']).orderBy('id').execute();
        expect(await activity(other)).toEqual(await activity(s.db));
      } finally {
        await other.destroy();
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('keeps order statuses, ticket types and money within the rules of the schema', async () => {
      const order = await s.db.selectFrom('orders').selectAll().orderBy('id').executeTakeFirstOrThrow();
      const { id: _id, ...rest } = order;
      const insert = (change: Partial<typeof order>) =>
        s.db
          .insertInto('orders')
          .values({ ...rest, booking_no: 'SB-999999', ...change } as typeof rest)
          .execute();
      await expect(insert({ status: 'shipped' as never })).rejects.toThrow(/CHECK|check constraint/i);
      await expect(insert({ currency: 'XXX' })).rejects.toThrow(/FOREIGN KEY|foreign key constraint/i);
      await expect(insert({ quantity: 0 })).rejects.toThrow(/CHECK|check constraint/i);
      await expect(insert({ booking_no: order.booking_no })).rejects.toThrow(/UNIQUE|duplicate key/i);
      const listing = await s.db.selectFrom('listings').selectAll().executeTakeFirstOrThrow();
      const { id: _l, ...listingRest } = listing;
      await expect(
        s.db
          .insertInto('listings')
          .values({ ...listingRest, ticket_type_id: 7 })
          .execute(),
      ).rejects.toThrow(/CHECK|check constraint/i);
    });
  });
});
