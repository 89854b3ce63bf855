import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer, userIdOf } from '../test-support';
import { feedCountsOf } from './notifications';

type Server = Awaited<ReturnType<typeof freshServer>>;

/**
 * The per-user counts (user_feed_count_shards, kept by triggers) against a recount of the rows, after random writes
 * made straight to the tables, as any code that writes notifications or activity would make them.
 */
describe('the notification and activity counts', () => {
  let s: Server;
  let users: number[];

  beforeAll(async () => {
    s = await freshServer();
    users = (await s.db.selectFrom('users').select('id').orderBy('id').limit(3).execute()).map((u) => u.id);
  });
  afterAll(async () => {
    await s?.close();
  });

  async function expectCountsEqualRecount() {
    const notifications = await s.db.selectFrom('notifications').select(['user_id', 'viewed']).execute();
    const activity = await s.db.selectFrom('activity_log').select('user_id').execute();
    const all = (await s.db.selectFrom('users').select('id').execute()).map((u) => u.id);
    for (const id of all) {
      const mine = notifications.filter((n) => n.user_id === id);
      expect(await feedCountsOf(s.db, id), `user ${id}`).toEqual({
        total: mine.length,
        unread: mine.filter((n) => n.viewed === 0).length,
        activity: activity.filter((a) => a.user_id === id).length,
      });
    }
  }

  it('start equal to the seeded rows', async () => {
    await expectCountsEqualRecount();
    const seeded = await feedCountsOf(s.db, users[0] ?? -1);
    expect(seeded.total).toBeGreaterThan(0);
    expect(seeded.unread).toBeGreaterThan(0);
    expect(seeded.activity).toBeGreaterThan(0);
  });

  it('equal a recount after any mix of inserts, reads, unreads, moves and deletes', async () => {
    const user = fc.nat(2);
    const write = fc.oneof(
      fc.record({
        kind: fc.constant('notify' as const),
        user,
        viewed: fc.constantFrom(0, 1),
        many: fc.integer({ min: 1, max: 3 }),
      }),
      fc.record({ kind: fc.constant('view' as const), pick: fc.nat(), viewed: fc.constantFrom(0, 1) }),
      fc.record({ kind: fc.constant('viewAll' as const), user }),
      fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), user }),
      fc.record({ kind: fc.constant('forget' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('act' as const), user }),
      fc.record({ kind: fc.constant('unact' as const), pick: fc.nat() }),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 20 }), async (writes) => {
        for (const w of writes) {
          const someNotification = async (pick: number) => {
            const ids = await s.db.selectFrom('notifications').select('id').orderBy('id').execute();
            return ids[pick % Math.max(1, ids.length)]?.id ?? -1;
          };
          const created_at = new Date(Date.UTC(2026, 1, 1, 0, 0, ++n)).toISOString();
          if (w.kind === 'notify') {
            await s.db
              .insertInto('notifications')
              .values(
                Array.from({ length: w.many }, (_, i) => ({
                  user_id: users[w.user] ?? -1,
                  name: 'test',
                  description: `test ${n}.${i}`,
                  viewed: w.viewed,
                  created_at,
                })),
              )
              .execute();
          } else if (w.kind === 'view') {
            await s.db
              .updateTable('notifications')
              .set({ viewed: w.viewed })
              .where('id', '=', await someNotification(w.pick))
              .execute();
          } else if (w.kind === 'viewAll') {
            await s.db
              .updateTable('notifications')
              .set({ viewed: 1 })
              .where('user_id', '=', users[w.user] ?? -1)
              .execute();
          } else if (w.kind === 'move') {
            await s.db
              .updateTable('notifications')
              .set({ user_id: users[w.user] ?? -1 })
              .where('id', '=', await someNotification(w.pick))
              .execute();
          } else if (w.kind === 'forget') {
            await s.db
              .deleteFrom('notifications')
              .where('id', '=', await someNotification(w.pick))
              .execute();
          } else if (w.kind === 'act') {
            await s.db
              .insertInto('activity_log')
              .values({ user_id: users[w.user] ?? -1, type: 'test', description: 'test', created_at })
              .execute();
          } else {
            const ids = await s.db.selectFrom('activity_log').select('id').orderBy('id').execute();
            await s.db
              .deleteFrom('activity_log')
              .where('id', '=', ids[w.pick % Math.max(1, ids.length)]?.id ?? -1)
              .execute();
          }
        }
        await expectCountsEqualRecount();
      }),
      { numRuns: 15 },
    );
  });

  it('are spread over 16 shards by row id, each shard equal to a recount of its rows', async () => {
    const user = users[1] ?? -1;
    for (let i = 0; i < 40; i++) {
      const created_at = new Date(Date.UTC(2026, 2, 1, 0, 0, i)).toISOString();
      const { id } = await s.db
        .insertInto('notifications')
        .values({ user_id: user, name: 'sale', description: `sale ${i}`, viewed: 0, created_at })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (i % 3 === 0) await s.db.updateTable('notifications').set({ viewed: 1 }).where('id', '=', id).execute();
      if (i % 7 === 0) await s.db.deleteFrom('notifications').where('id', '=', id).execute();
      await s.db
        .insertInto('activity_log')
        .values({ user_id: user, type: 'sale', description: 'x', created_at })
        .execute();
    }
    const mine = await s.db.selectFrom('notifications').select(['id', 'viewed']).where('user_id', '=', user).execute();
    const acts = await s.db.selectFrom('activity_log').select('id').where('user_id', '=', user).execute();
    const shards = await s.db.selectFrom('user_feed_count_shards').selectAll().where('user_id', '=', user).execute();
    expect(shards.map((r) => r.shard).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, k) => k));
    for (const row of shards) {
      const inShard = mine.filter((n) => n.id % 16 === row.shard);
      expect([row.notifications, row.unread_notifications, row.activity].map(Number), `shard ${row.shard}`).toEqual([
        inShard.length,
        inShard.filter((n) => n.viewed === 0).length,
        acts.filter((a) => a.id % 16 === row.shard).length,
      ]);
    }
    await expectCountsEqualRecount();
  });

  it('follow bulk writes, and leave with a deleted user', async () => {
    const { id } = await s.db
      .insertInto('users')
      .values({
        email: 'gone@example.test',
        password_hash: 'x',
        first_name: 'G',
        last_name: 'One',
        user_type: 'sellers',
        kyc_status: 1,
        kyc_rejection_reason: null,
        team_owner_id: null,
        currency: 'GBP',
        user_token: 'gone',
        created_at: '2026-03-01T00:00:00.000Z',
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const at = (i: number) => new Date(Date.UTC(2026, 3, 1, 0, 0, i)).toISOString();
    await s.db
      .insertInto('notifications')
      .values(
        Array.from({ length: 1500 }, (_, i) => ({
          user_id: id,
          name: 'bulk',
          description: `${i}`,
          viewed: i % 3 ? 1 : 0,
          created_at: at(i),
        })),
      )
      .execute();
    await s.db
      .insertInto('activity_log')
      .values(
        Array.from({ length: 700 }, (_, i) => ({ user_id: id, type: 'bulk', description: `${i}`, created_at: at(i) })),
      )
      .execute();
    expect(await feedCountsOf(s.db, id)).toEqual({ total: 1500, unread: 500, activity: 700 });
    await s.db.updateTable('notifications').set({ viewed: 1 }).where('user_id', '=', id).execute();
    await s.db.deleteFrom('activity_log').where('user_id', '=', id).where('description', '<', '5').execute();
    await expectCountsEqualRecount();
    // deleting the user takes its rows with it (ON DELETE CASCADE), counts included
    await s.db.deleteFrom('users').where('id', '=', id).execute();
    expect(await s.db.selectFrom('user_feed_count_shards').selectAll().where('user_id', '=', id).execute()).toEqual([]);
    await expectCountsEqualRecount();
  });

  it('roll back with the write they count', async () => {
    const before = await feedCountsOf(s.db, users[0] ?? -1);
    await expect(
      s.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('notifications')
          .values({
            user_id: users[0] ?? -1,
            name: 'test',
            description: 'undone',
            created_at: '2026-03-01T00:00:00.000Z',
          })
          .execute();
        await trx
          .insertInto('activity_log')
          .values({
            user_id: users[0] ?? -1,
            type: 'test',
            description: 'undone',
            created_at: '2026-03-01T00:00:00.000Z',
          })
          .execute();
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await feedCountsOf(s.db, users[0] ?? -1)).toEqual(before);
  });

  it('count a login and a logout through the API', async () => {
    const seller = await userIdOf(s.db, 'seller@demo.test');
    const before = await feedCountsOf(s.db, seller);
    const token = await s.loginAs('seller@demo.test');
    expect((await feedCountsOf(s.db, seller)).activity).toBe(before.activity + 1);
    await s.json('POST', '/auth/logout', undefined, token);
    expect((await feedCountsOf(s.db, seller)).activity).toBe(before.activity + 2);
    await expectCountsEqualRecount();
  });
});
