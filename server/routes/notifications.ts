import type { Router } from '../contract/router';
import {
  activitySlice,
  feedCountsOf,
  findNotification,
  markNotificationViewed,
  notificationSlice,
} from '../domain/notifications';
import { BadCursor, metaOf, pageOf } from '../domain/paging';
import { MESSAGES } from '../http/errors';

const NOT_FOUND = { status: 404, body: { success: false, message: 'Notification not found.' } } as const;

/** The page asked for, or the 422 of a cursor that does not read. */
function pageFrom(query: { page?: number; per_page?: number; cursor?: string }) {
  try {
    return { page: pageOf(query) };
  } catch (error) {
    if (!(error instanceof BadCursor)) throw error;
    const errors = [{ path: '/query/cursor', message: error.message }];
    return {
      invalid: { status: 422 as const, body: { success: false as const, message: MESSAGES.validation, errors } },
    };
  }
}

/**
 * The notifications panel and the menu badge: always the caller's own notifications and activity. Pages are
 * read by number (`page`) or, deep in a long list, by the `cursor` the page before gave; the counts come from
 * the kept per-user counters, never from counting rows.
 */
export function notificationRoutes({ route }: Router) {
  route('/notification/history', 'get', async ({ user, query }, { db }) => {
    const { page, invalid } = pageFrom(query);
    if (!page) return invalid;
    const [slice, counts] = await Promise.all([notificationSlice(db, user.id, page), feedCountsOf(db, user.id)]);
    return {
      status: 200,
      body: {
        success: true,
        data: {
          notification_list: slice.rows,
          unread_count: counts.unread,
          meta: metaOf(page, counts.total, slice.next),
        },
      },
    };
  });

  route('/notification/activity-history', 'get', async ({ user, query }, { db }) => {
    const { page, invalid } = pageFrom(query);
    if (!page) return invalid;
    const [slice, counts] = await Promise.all([activitySlice(db, user.id, page), feedCountsOf(db, user.id)]);
    return {
      status: 200,
      body: {
        success: true,
        data: {
          activity_list: slice.rows,
          activity_count: counts.activity,
          meta: metaOf(page, counts.activity, slice.next),
        },
      },
    };
  });

  route('/notification/update-notification', 'post', async ({ user, body }, { db }) => {
    if (!(await markNotificationViewed(db, user.id, body.id))) return NOT_FOUND;
    const { unread } = await feedCountsOf(db, user.id);
    return { status: 200, body: { success: true, data: { id: body.id, viewed: 1, unread_count: unread } } };
  });

  route('/notification/details', 'post', async ({ user, body }, { db }) => {
    const notification = await findNotification(db, user.id, body.id);
    if (!notification) return NOT_FOUND;
    return { status: 200, body: { success: true, data: notification } };
  });

  route('/ui-settings/menu-notification', 'get', async ({ user }, { db }) => {
    const counts = await feedCountsOf(db, user.id);
    return {
      status: 200,
      body: {
        success: true,
        data: { notification: counts.total, activity: counts.activity, unread_count: counts.unread },
      },
    };
  });
}
