import type { Router } from '../contract/router';
import {
  activityCount,
  findNotification,
  listActivity,
  listNotifications,
  markNotificationViewed,
  notificationCounts,
} from '../domain/notifications';
import { metaOf, pageOf } from '../domain/paging';

const NOT_FOUND = { status: 404, body: { success: false, message: 'Notification not found.' } } as const;

/** The notifications panel and the menu badge: always the caller's own notifications and activity. */
export function notificationRoutes({ route }: Router) {
  route('/notification/history', 'get', async ({ user, query }, { db }) => {
    const page = pageOf(query);
    const [notification_list, counts] = await Promise.all([
      listNotifications(db, user.id, page),
      notificationCounts(db, user.id),
    ]);
    return {
      status: 200,
      body: {
        success: true,
        data: { notification_list, unread_count: counts.unread, meta: metaOf(page, counts.total) },
      },
    };
  });

  route('/notification/activity-history', 'get', async ({ user, query }, { db }) => {
    const page = pageOf(query);
    const [activity_list, total] = await Promise.all([listActivity(db, user.id, page), activityCount(db, user.id)]);
    return {
      status: 200,
      body: { success: true, data: { activity_list, activity_count: total, meta: metaOf(page, total) } },
    };
  });

  route('/notification/update-notification', 'post', async ({ user, body }, { db }) => {
    if (!(await markNotificationViewed(db, user.id, body.id))) return NOT_FOUND;
    const { unread } = await notificationCounts(db, user.id);
    return { status: 200, body: { success: true, data: { id: body.id, viewed: 1, unread_count: unread } } };
  });

  route('/notification/details', 'post', async ({ user, body }, { db }) => {
    const notification = await findNotification(db, user.id, body.id);
    if (!notification) return NOT_FOUND;
    return { status: 200, body: { success: true, data: notification } };
  });

  route('/ui-settings/menu-notification', 'get', async ({ user }, { db }) => {
    const [counts, activity] = await Promise.all([notificationCounts(db, user.id), activityCount(db, user.id)]);
    return {
      status: 200,
      body: { success: true, data: { notification: counts.total, activity, unread_count: counts.unread } },
    };
  });
}
