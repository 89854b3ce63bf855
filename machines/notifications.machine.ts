import { api, type DataOf, unwrap } from '../openapi/client';
import { createListMachine, fromPageMeta, type ListPage } from './list.machine';

export type Tab = 'notifications' | 'activity';
export type NotificationItem = DataOf<'/notification/history', 'get'>['notification_list'][number];
export type ActivityItem = DataOf<'/notification/activity-history', 'get'>['activity_list'][number];
export type FeedItem = NotificationItem | ActivityItem;
export interface FeedFilters {
  tab: Tab;
}

/** The spec's placeholders (section 9): 5 while the first page loads, 3 under the list while more load. */
export const PLACEHOLDERS_FIRST = 5;
export const PLACEHOLDERS_MORE = 3;

export const EMPTY_TEXT: Record<Tab, string> = {
  notifications: 'No notifications found',
  activity: 'No recent activity',
};
export const ERROR_TEXT: Record<Tab, string> = {
  notifications: 'Failed to load notifications',
  activity: 'Failed to load activity',
};

async function fetchFeedPage(tab: Tab, page: number, signal: AbortSignal): Promise<ListPage<FeedItem>> {
  if (tab === 'notifications') {
    const data = unwrap(
      await api.GET('/notification/history', { params: { query: { page } }, signal }),
      ERROR_TEXT.notifications,
    );
    return fromPageMeta(data.notification_list, data.meta);
  }
  const data = unwrap(
    await api.GET('/notification/activity-history', { params: { query: { page } }, signal }),
    ERROR_TEXT.activity,
  );
  return fromPageMeta(data.activity_list, data.meta);
}

export const isUnread = (item: FeedItem): item is NotificationItem => 'viewed' in item && item.viewed === 0;

/**
 * The notifications feed, in the panel and on /notifications/home: the list machine over the two tabs
 * (the tab is its filter, so switching tabs starts again at page 1). The notifications tab toasts
 * 'Failed to load notifications'; the activity log shows 'Failed to load activity' in place and logs it.
 * Opening an unread notification shows it as read at once and tells the menu counts (through the actor
 * system), which mark it read on the server and lower the badge.
 */
export const notificationsMachine = createListMachine<FeedItem, FeedFilters>({
  id: 'notifications',
  fetchPage: ({ filters, page }, signal) => fetchFeedPage(filters.tab, page, signal),
  keyOf: (item) => item.id,
  errorMessage: ({ tab }) => ERROR_TEXT[tab],
  toastsErrors: ({ tab }) => tab === 'notifications',
  opened: {
    patch: (item) => (isUnread(item) ? { ...item, viewed: 1 } : item),
    tell: {
      systemId: 'menuCounts',
      event: (item) => (isUnread(item) ? { type: 'notification.opened', id: item.id } : null),
    },
  },
});
