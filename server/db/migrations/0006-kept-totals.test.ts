import { type Kysely, type Migration, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { feedCountsOf } from '../../domain/notifications';
import { figuresByStatus, topSellingEvents } from '../../domain/sales/figures';
import { TOTAL_SHARDS } from '../../domain/sales/totals';
import { type FreshDatabase, freshDatabase } from '../../test-support';
import { MIGRATION_NAMES, migrateToLatest } from '../migrate';

/**
 * A database made before 0006 (orders, notifications and activity already there, as in any ./data folder of
 * an earlier version) gets its totals, counts and copied event dates from the rows it has, on the test engine.
 */
describe('migration 0006 on a database that has orders', () => {
  let d: FreshDatabase;
  // the tables as they were before 0006, without its columns
  let raw: Kysely<Record<string, Record<string, unknown>>>;
  const ids = { seller: 0, other: 0, events: [] as number[] };

  beforeAll(async () => {
    d = await freshDatabase();
    raw = d.db as never;
    const migrations: Record<string, Migration> = {};
    for (const name of MIGRATION_NAMES) migrations[name] = (await import(`./${name}.ts`)) as Migration;
    const migrator = new Migrator({ db: d.db, provider: { getMigrations: async () => migrations } });
    const upTo0005 = await migrator.migrateTo('0005-login-throttle');
    if (upTo0005.error) throw upTo0005.error;

    await raw
      .insertInto('currencies')
      .values([
        { code: 'GBP', name: 'Pound sterling', symbol: '£', minor_unit: 2 },
        { code: 'EUR', name: 'Euro', symbol: '€', minor_unit: 2 },
      ])
      .execute();
    const country = await raw
      .insertInto('countries')
      .values({ name: 'England', short_name: 'EN', dialing_code: '+44', phone_code: 44 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const city = await raw
      .insertInto('cities')
      .values({ country_id: country.id, name: 'London' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = (email: string) =>
      raw
        .insertInto('users')
        .values({
          email,
          password_hash: 'x',
          first_name: 'A',
          last_name: 'B',
          user_type: 'sellers',
          kyc_status: 1,
          team_owner_id: null,
          kyc_rejection_reason: null,
          currency: 'GBP',
          user_token: email,
          created_at: '2026-01-01T00:00:00.000Z',
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    ids.seller = Number((await user('a@example.test')).id);
    ids.other = Number((await user('b@example.test')).id);
    for (const [i, date] of ['2026-05-02', '2026-04-01', '2026-06-03'].entries()) {
      const e = await raw
        .insertInto('events')
        .values({
          name: `Event ${i}`,
          home_team: 'H',
          away_team: 'A',
          tournament: 'T',
          event_date: date,
          event_time: `1${i}:00`,
          stadium_name: 'S',
          city_id: city.id,
          country_id: country.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.events.push(Number(e.id));
    }
    const listing = await raw
      .insertInto('listings')
      .values({
        seller_id: ids.seller,
        event_id: ids.events[0],
        category: 'C',
        ticket_block: 'B',
        row: '1',
        ticket_type_id: 1,
        quantity: 10,
        price: 1000,
        currency: 'GBP',
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const plan: [number, string, string, number, number][] = [
      [ids.seller, 'GBP', 'confirmed', 0, 2],
      [ids.seller, 'GBP', 'confirmed', 1, 1],
      [ids.seller, 'GBP', 'cancelled', 1, 4],
      [ids.seller, 'GBP', 'completed', 2, 3],
      [ids.seller, 'EUR', 'pending', 0, 1],
      [ids.other, 'GBP', 'confirmed', 2, 5],
    ];
    await raw
      .insertInto('orders')
      .values(
        plan.map(([seller, currency, status, event, quantity], i) => ({
          booking_no: `SB-${i}`,
          listing_id: listing.id,
          seller_id: seller,
          event_id: ids.events[event],
          quantity,
          amount: quantity * 1000 + i,
          currency,
          status,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })),
      )
      .execute();
    const at = (i: number) => `2026-01-0${1 + (i % 9)}T00:00:00.000Z`;
    await raw
      .insertInto('notifications')
      .values(
        [0, 1, 0, 0, 1].map((viewed, i) => ({
          user_id: i < 4 ? ids.seller : ids.other,
          name: 'n',
          description: 'd',
          viewed,
          created_at: at(i),
        })),
      )
      .execute();
    await raw
      .insertInto('activity_log')
      .values([1, 2, 3].map((i) => ({ user_id: ids.seller, type: 'logged_in', description: 'd', created_at: at(i) })))
      .execute();

    // 0006 and whatever came after it
    expect(await migrateToLatest(d.db)).toEqual(MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf('0006-kept-totals')));
  });
  afterAll(async () => {
    await d?.close();
  });

  it('fills the totals per status and per event from the orders there', async () => {
    const gbp = await figuresByStatus(d.db, ids.seller, 'GBP');
    expect(gbp.filter((f) => f.orders > 0)).toEqual([
      { status: 'confirmed', orders: 2, tickets: 3, amount: 2000 + 0 + 1000 + 1 },
      { status: 'completed', orders: 1, tickets: 3, amount: 3003 },
      { status: 'cancelled', orders: 1, tickets: 4, amount: 4002 },
    ]);
    expect((await figuresByStatus(d.db, ids.seller)).find((f) => f.status === 'pending')?.orders).toBe(1);
    expect((await figuresByStatus(d.db, ids.other, 'GBP')).find((f) => f.status === 'confirmed')?.orders).toBe(1);
    // cancelled orders are left out of the events' totals
    const top = await topSellingEvents(d.db, ids.seller, 'GBP');
    expect(top.map((e) => [e.event_id, e.tickets_sold, e.revenue])).toEqual([
      [ids.events[2], 3, 3003],
      [ids.events[0], 2, 2000],
      [ids.events[1], 1, 1001],
    ]);
  });

  it("keeps each order's share of the status totals in its own shard, where a status change takes it from", async () => {
    const kept = await d.db
      .selectFrom('seller_order_totals')
      .select(['seller_id', 'currency', 'status', 'shard', 'orders', 'tickets', 'amount'])
      .where('orders', '>', 0)
      .orderBy(['seller_id', 'currency', 'status', 'shard'])
      .execute();
    const orders = await d.db
      .selectFrom('orders')
      .select(['id', 'seller_id', 'currency', 'status', 'quantity', 'amount'])
      .orderBy(['seller_id', 'currency', 'status', 'id'])
      .execute();
    // each order is alone in its shard here (ids 1 to 6 of 16 shards)
    expect(
      kept.map((k) => [k.seller_id, k.currency, k.status, k.shard, k.orders, k.tickets, k.amount].map(Number)),
    ).toEqual(
      orders.map((o) =>
        [o.seller_id, o.currency, o.status, Number(o.id) % TOTAL_SHARDS, 1, o.quantity, o.amount].map(Number),
      ),
    );
  });

  it("copies each order's event date and time", async () => {
    const rows = await d.db
      .selectFrom('orders')
      .innerJoin('events', 'events.id', 'orders.event_id')
      .select(['orders.event_date', 'orders.event_time', 'events.event_date as date', 'events.event_time as time'])
      .execute();
    expect(rows).toHaveLength(6);
    for (const r of rows) expect([r.event_date, r.event_time]).toEqual([r.date, r.time]);
  });

  it('counts the notifications, unread ones and activity of every user, and keeps counting', async () => {
    expect(await feedCountsOf(d.db, ids.seller)).toEqual({ total: 4, unread: 3, activity: 3 });
    expect(await feedCountsOf(d.db, ids.other)).toEqual({ total: 1, unread: 0, activity: 0 });
    await d.db
      .insertInto('notifications')
      .values({ user_id: ids.other, name: 'n', description: 'd', created_at: '2026-02-01T00:00:00.000Z' })
      .execute();
    expect(await feedCountsOf(d.db, ids.other)).toEqual({ total: 2, unread: 1, activity: 0 });
  });
});
