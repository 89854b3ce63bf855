import type { Db } from '../server/db/database';
import { encodeCursor } from '../server/domain/paging';
import { recountOrderTotals } from '../server/domain/sales/totals';

/**
 * The demo seller at scale, for `npm run bench:api`: `events` more events, its seeded orders copied round-robin
 * over them up to `orders` orders in all, and its notifications and activity log grown to `feed` rows each.
 * Written in bulk (a few hundred rows a statement, one transaction), straight into the tables, around
 * recordOrder: the seller's totals are then recounted from its orders (the feed counts keep themselves).
 */
export async function multiplyDemoSeller(
  db: Db,
  email: string,
  counts: { orders: number; events: number; feed: number },
) {
  const { id: sellerId } = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const templateEvent = await db.selectFrom('events').selectAll().orderBy('id').executeTakeFirstOrThrow();
  const seeded = await db.selectFrom('orders').selectAll().where('seller_id', '=', sellerId).orderBy('id').execute();
  const now = Date.now();
  const day = 24 * 60 * 60 * 1000;
  const batch = async <T>(rows: T[], write: (chunk: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += 500) await write(rows.slice(i, i + 500));
  };

  await db.transaction().execute(async (trx) => {
    const { id: _id, ...event } = templateEvent;
    const newEvents = Array.from({ length: counts.events }, (_, i) => ({
      ...event,
      name: `Bench Fixture ${i + 1}`,
      event_date: new Date(now + (2 + (i % 300)) * day).toISOString().slice(0, 10),
      event_time: ['12:30', '15:00', '17:30', '19:45', '20:00', '21:00'][i % 6] as string,
    }));
    await batch(newEvents, (chunk) => trx.insertInto('events').values(chunk).execute());
    const allEvents = await trx.selectFrom('events').select(['id', 'event_date', 'event_time']).orderBy('id').execute();
    const events = new Map(allEvents.map((e) => [e.id, e]));
    const eventIds = allEvents.map((e) => e.id);

    const more = Math.max(0, counts.orders - seeded.length);
    const orders = Array.from({ length: more }, (_, i) => {
      const { id: _o, ...o } = seeded[i % seeded.length] as (typeof seeded)[number];
      const event = events.get(eventIds[(i * 7) % eventIds.length] as number) as (typeof allEvents)[number];
      return {
        ...o,
        booking_no: `SB-X${i + 1}`,
        event_id: event.id,
        event_date: event.event_date,
        event_time: event.event_time,
        created_at: new Date(now - (i % 90_000) * 60_000).toISOString(),
      };
    });
    await batch(orders, (chunk) => trx.insertInto('orders').values(chunk).execute());
    await recountOrderTotals(trx, sellerId);

    const feedOf = async (table: 'notifications' | 'activity_log') => {
      const have = Number(
        (
          await trx
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', sellerId)
            .executeTakeFirstOrThrow()
        ).n,
      );
      const rows = Array.from({ length: Math.max(0, counts.feed - have) }, (_, i) => {
        const created_at = new Date(now - 61 * day - i * 60_000).toISOString();
        return table === 'notifications'
          ? {
              user_id: sellerId,
              name: 'new_order',
              description: `Bench order ${i + 1}.`,
              viewed: i % 3 ? 1 : 0,
              created_at,
            }
          : { user_id: sellerId, type: i % 2 ? 'logged_out' : 'logged_in', description: 'Bench session.', created_at };
      });
      await batch(rows, (chunk) =>
        trx
          .insertInto(table)
          .values(chunk as never)
          .execute(),
      );
    };
    await feedOf('notifications');
    await feedOf('activity_log');
  });

  const count = async (table: 'orders' | 'notifications' | 'activity_log', column: 'seller_id' | 'user_id') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column, '=', sellerId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    orders: await count('orders', 'seller_id'),
    events: Number(
      (
        await db
          .selectFrom('events')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    notifications: await count('notifications', 'user_id'),
    activity: await count('activity_log', 'user_id'),
    /** Pages deep in the seller's lists: by number (OFFSET), and by cursor from the same row. */
    deepPages: await deepPages(db, sellerId),
  };
}

/** Page 5,000 of each list by number, and the same page by the cursor its page 4,999 would give. */
async function deepPages(db: Db, userId: number) {
  const page = 5000;
  const lastOfPageBefore = async (table: 'notifications' | 'activity_log') =>
    db
      .selectFrom(table)
      .select(['created_at', 'id'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset((page - 1) * 10 - 1)
      .limit(1)
      .executeTakeFirst();
  const paths: string[] = [];
  for (const [table, path] of [
    ['notifications', '/api/notification/history'],
    ['activity_log', '/api/notification/activity-history'],
  ] as const) {
    paths.push(`${path}?page=${page}`);
    const key = await lastOfPageBefore(table);
    if (key) paths.push(`${path}?cursor=${encodeCursor(page, key)}`);
  }
  return paths;
}
