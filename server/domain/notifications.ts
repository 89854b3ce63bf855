import type { components } from '../../openapi/schema';
import type { Db } from '../db/database';

export type Notification = components['schemas']['Notification'];
export type Activity = components['schemas']['Activity'];

/** The dashboard widgets show this many of the latest rows. */
export const DASHBOARD_LATEST = 5;

const viewed = (n: number): 0 | 1 => (n === 1 ? 1 : 0);

/** A user's notifications, newest first. */
export async function listNotifications(
  db: Db,
  userId: number,
  { limit, offset = 0 }: { limit: number; offset?: number },
): Promise<Notification[]> {
  const rows = await db
    .selectFrom('notifications')
    .select(['id', 'name', 'description', 'viewed', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({ ...r, viewed: viewed(r.viewed) }));
}

/** One of a user's notifications; another user's id answers undefined, as an unknown one does. */
export async function findNotification(db: Db, userId: number, id: number): Promise<Notification | undefined> {
  const row = await db
    .selectFrom('notifications')
    .select(['id', 'name', 'description', 'viewed', 'created_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row && { ...row, viewed: viewed(row.viewed) };
}

/** Marks one of a user's notifications viewed; false when it is not theirs (nothing changes then). */
export async function markNotificationViewed(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db
    .updateTable('notifications')
    .set({ viewed: 1 })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** How many notifications a user has, and how many of them are unread, in one query. */
export async function notificationCounts(db: Db, userId: number): Promise<{ total: number; unread: number }> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when('viewed', '=', 0).then(1).else(0).end()).as('unread'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), unread: Number(row?.unread ?? 0) };
}

/** A user's activity log, newest first. */
export async function listActivity(
  db: Db,
  userId: number,
  { limit, offset = 0 }: { limit: number; offset?: number },
): Promise<Activity[]> {
  return db
    .selectFrom('activity_log')
    .select(['id', 'type', 'description', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function activityCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('activity_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
