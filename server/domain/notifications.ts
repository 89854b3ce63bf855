import { isPortalPath } from '../../machines/portal-path';
import type { components } from '../../openapi/schema';
import type { Db } from '../db/database';
import { prepared } from '../db/prepared';
import type { PageKey } from './paging';

export type Notification = components['schemas']['Notification'];
export type Activity = components['schemas']['Activity'];

/** The dashboard widgets show this many of the latest rows. */
export const DASHBOARD_LATEST = 5;

const viewed = (n: number): 0 | 1 => (n === 1 ? 1 : 0);

/**
 * Where a page starts: the first rows (`offset` 0), `offset` rows in (a page asked for by number), or after
 * the row `after` (a cursor: read from the (user_id, created_at, id) index at once, however deep).
 */
export type PageStart = { limit: number; offset?: number; after?: PageKey };

/** A page of rows, newest first, and the key of its last row when more rows follow it. */
export interface Slice<T> {
  rows: T[];
  next: PageKey | null;
}

// Each list is read newest first from its (user_id, created_at, id) index, one row more than the page holds
// to tell whether another page follows. The queries are prepared once (server/db/prepared.ts).
type FromOffset = { user: number; limit: number; offset: number };
type AfterKey = { user: number; limit: number; created_at: string; id: number };

const notificationsFromOffset = prepared((db, $: FromOffset) =>
  db
    .selectFrom('notifications')
    .select(['id', 'name', 'description', 'viewed', 'created_at', 'link'])
    .where('user_id', '=', $.user)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit($.limit)
    .offset($.offset),
);
const notificationsAfterKey = prepared((db, $: AfterKey) =>
  db
    .selectFrom('notifications')
    .select(['id', 'name', 'description', 'viewed', 'created_at', 'link'])
    .where('user_id', '=', $.user)
    .where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple($.created_at, $.id)))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit($.limit),
);
const activityFromOffset = prepared((db, $: FromOffset) =>
  db
    .selectFrom('activity_log')
    .select(['id', 'type', 'description', 'created_at'])
    .where('user_id', '=', $.user)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit($.limit)
    .offset($.offset),
);
const activityAfterKey = prepared((db, $: AfterKey) =>
  db
    .selectFrom('activity_log')
    .select(['id', 'type', 'description', 'created_at'])
    .where('user_id', '=', $.user)
    .where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple($.created_at, $.id)))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit($.limit),
);

/** Cuts the one extra row off and keys the next page by the last row kept. */
function sliceOf<R extends { id: number; created_at: string }>(rows: R[], limit: number): Slice<R> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  return { rows: kept, next: more && last ? { created_at: last.created_at, id: last.id } : null };
}

/** A page of a user's notifications, newest first. */
export async function notificationSlice(
  db: Db,
  userId: number,
  { limit, offset = 0, after }: PageStart,
): Promise<Slice<Notification>> {
  const rows = after
    ? await notificationsAfterKey.execute(db, { user: userId, limit: limit + 1, ...after })
    : await notificationsFromOffset.execute(db, { user: userId, limit: limit + 1, offset });
  return sliceOf(
    rows.map((r) => ({ ...r, viewed: viewed(r.viewed) })),
    limit,
  );
}

/** A page of a user's activity log, newest first. */
export async function activitySlice(
  db: Db,
  userId: number,
  { limit, offset = 0, after }: PageStart,
): Promise<Slice<Activity>> {
  const rows = after
    ? await activityAfterKey.execute(db, { user: userId, limit: limit + 1, ...after })
    : await activityFromOffset.execute(db, { user: userId, limit: limit + 1, offset });
  return sliceOf(rows, limit);
}

/** A user's latest notifications, newest first. */
export async function listNotifications(db: Db, userId: number, start: PageStart): Promise<Notification[]> {
  return (await notificationSlice(db, userId, start)).rows;
}

/** A user's latest activity, newest first. */
export async function listActivity(db: Db, userId: number, start: PageStart): Promise<Activity[]> {
  return (await activitySlice(db, userId, start)).rows;
}

/** One of a user's notifications; another user's id answers undefined, as an unknown one does. */
export async function findNotification(db: Db, userId: number, id: number): Promise<Notification | undefined> {
  const row = await db
    .selectFrom('notifications')
    .select(['id', 'name', 'description', 'viewed', 'created_at', 'link'])
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

export interface FeedCounts {
  /** notifications in all */
  total: number;
  unread: number;
  activity: number;
}

// kept by triggers on notifications and activity_log (migrations 0006, 0041) in up to 16 shards per user (a row's
// shard is its id modulo 16, so that one seller's concurrent sales do not all lock one row): never a count of rows
const feedCounts = prepared((db, $: { user: number }) =>
  db
    .selectFrom('user_feed_count_shards')
    .select((eb) => [
      eb.fn.sum<number | string>('notifications').as('notifications'),
      eb.fn.sum<number | string>('unread_notifications').as('unread_notifications'),
      eb.fn.sum<number | string>('activity').as('activity'),
    ])
    .where('user_id', '=', $.user),
);

/** How many notifications a user has, how many of them are unread, and how many activity rows: 16 rows summed. */
export async function feedCountsOf(db: Db, userId: number): Promise<FeedCounts> {
  const row = await feedCounts.takeFirst(db, { user: userId });
  return {
    total: Number(row?.notifications ?? 0),
    unread: Number(row?.unread_notifications ?? 0),
    activity: Number(row?.activity ?? 0),
  };
}

/**
 * Tells a user something happened: one notifications row, in the caller's transaction (so a rolled-back change
 * notifies nobody). `link` is the portal path the notification is about, opened from the panel: the order in its
 * sales list, the buyer's booking, the wallet. The description is cut to the column's 500 characters.
 */
export async function notify(
  db: Db,
  n: { userId: number; name: string; description: string; link?: string | null; at: Date | string },
): Promise<void> {
  if (n.link != null && !isPortalPath(n.link)) throw new Error(`not a portal path: ${n.link}`);
  await newNotification.execute(db, {
    user: n.userId,
    name: n.name,
    description: n.description.slice(0, 500),
    at: typeof n.at === 'string' ? n.at : n.at.toISOString(),
    link: n.link ?? null,
  });
}

// built and compiled once: every sale writes one
const newNotification = prepared(
  (db, $: { user: number; name: string; description: string; at: string; link: string | null }) =>
    db.insertInto('notifications').values({
      user_id: $.user,
      name: $.name,
      description: $.description,
      viewed: 0,
      created_at: $.at,
      link: $.link,
    }),
);

/** The portal paths notifications link to, in one place so that a moved page moves its links. */
export const notificationLinks = {
  /** A sale in its list, its drawer open (the sales page reads `?order=`). */
  sale: (status: string, orderId: number) => `/sales/${status}?order=${orderId}`,
  /** A buyer's booking in the purchase history. */
  booking: (bookingNo: string) => `/trade/purchase?booking_no=${encodeURIComponent(bookingNo)}`,
  wallet: '/reports/wallet',
  addListings: '/add-listings',
} as const;
