import { type AnyActorRef, assign, emit, fromPromise, setup, spawnChild } from 'xstate';
import { api, unwrap } from '../openapi/client';

export type Tab = 'notifications' | 'activity';

export interface NotificationItem {
  id: number;
  name: string;
  description: string;
  viewed: 0 | 1;
  created_at: string;
}
export interface ActivityItem {
  id: number;
  type: string;
  description: string;
  created_at: string;
}
export type FeedItem = NotificationItem | ActivityItem;

export interface FeedPage {
  items: FeedItem[];
  currentPage: number;
  lastPage: number;
}

export interface NotificationsInput {
  tab?: Tab;
}

export interface NotificationsContext {
  tab: Tab;
  items: FeedItem[];
  /** The last page loaded (0 before the first). */
  page: number;
  lastPage: number;
  /** Distance from the bottom of the list at the last scroll event, in px. */
  distance: number;
  error: string | null;
}

export type NotificationsEvent =
  | { type: 'tab.selected'; tab: Tab }
  | { type: 'panel.scrolled'; distanceFromBottom: number }
  | { type: 'panel.measured'; fillsPanel: boolean }
  | { type: 'retry' }
  | { type: 'notification.opened'; id: number }
  | { type: 'notification.marked'; id: number; unreadCount: number };

export type NotificationsEmitted =
  | { type: 'notify'; level: 'error'; message: string }
  | { type: 'unread.changed'; unreadCount: number };

/** The spec's numbers (section 9): scroll threshold, debounce, delayed fill check, placeholders. */
export const SCROLL_THRESHOLD_PX = 50;
export const SCROLL_DEBOUNCE_MS = 100;
export const FILL_CHECK_MS = 200;
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

async function fetchFeedPage(tab: Tab, page: number): Promise<FeedPage> {
  if (tab === 'notifications') {
    const data = unwrap(await api.GET('/notification/history', { params: { query: { page } } }), ERROR_TEXT[tab]);
    return { items: data.notification_list, currentPage: data.meta.current_page, lastPage: data.meta.last_page };
  }
  const data = unwrap(
    await api.GET('/notification/activity-history', { params: { query: { page } } }),
    ERROR_TEXT[tab],
  );
  return { items: data.activity_list, currentPage: data.meta.current_page, lastPage: data.meta.last_page };
}

const isUnread = (item: FeedItem | undefined) => !!item && 'viewed' in item && item.viewed === 0;

/**
 * Paging through the notifications or the activity log, in the panel and on /notifications/home.
 * Switching tabs starts again at page 1. More loads when the list is scrolled within 50 px of its bottom
 * (scroll events debounced 100 ms), or, 200 ms after a page arrives, when the list does not fill the panel.
 */
export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    input: {} as NotificationsInput,
    events: {} as NotificationsEvent,
    emitted: {} as NotificationsEmitted,
  },
  actors: {
    fetchPage: fromPromise<FeedPage, { tab: Tab; page: number }>(({ input }) => fetchFeedPage(input.tab, input.page)),
    markViewed: fromPromise<void, { id: number; parent: AnyActorRef }>(async ({ input }) => {
      const data = unwrap(await api.POST('/notification/update-notification', { body: { id: input.id } }));
      input.parent.send({ type: 'notification.marked', id: input.id, unreadCount: data.unread_count });
    }),
  },
  delays: {
    scrollDebounce: SCROLL_DEBOUNCE_MS,
    fillCheck: FILL_CHECK_MS,
  },
  guards: {
    isOtherTab: ({ context, event }) => event.type === 'tab.selected' && event.tab !== context.tab,
    isEmpty: (_, page: FeedPage) => page.items.length === 0,
    isLastPage: (_, page: FeedPage) => page.currentPage >= page.lastPage,
    isNearBottom: ({ context }) => context.distance <= SCROLL_THRESHOLD_PX,
    doesNotFillPanel: ({ event }) => event.type === 'panel.measured' && !event.fillsPanel,
    isNotificationsTab: ({ context }) => context.tab === 'notifications',
    isUnreadNotification: ({ context, event }) =>
      event.type === 'notification.opened' && isUnread(context.items.find((i) => i.id === event.id)),
  },
  actions: {
    resetFor: assign((_, params: { tab: Tab }) => ({ tab: params.tab, items: [], page: 0, lastPage: 1, error: null })),
    storePage: assign(({ context }, page: FeedPage) => ({
      items: [...context.items, ...page.items.filter((i) => !context.items.some((known) => known.id === i.id))],
      page: page.currentPage,
      lastPage: page.lastPage,
      error: null,
    })),
    storeDistance: assign({
      distance: ({ event }) => (event.type === 'panel.scrolled' ? event.distanceFromBottom : Number.POSITIVE_INFINITY),
    }),
    recordError: assign({ error: ({ context }) => ERROR_TEXT[context.tab] }),
    toastNotificationsError: emit({ type: 'notify', level: 'error', message: ERROR_TEXT.notifications } as const),
    logError: (_, params: { error: unknown }) => {
      console.error('Failed to load activity', params.error);
    },
    markLocally: assign({
      items: ({ context, event }) =>
        context.items.map((i) =>
          event.type === 'notification.opened' && i.id === event.id && 'viewed' in i ? { ...i, viewed: 1 as const } : i,
        ),
    }),
    announceUnread: emit(({ event }) => ({
      type: 'unread.changed' as const,
      unreadCount: event.type === 'notification.marked' ? event.unreadCount : 0,
    })),
  },
}).createMachine({
  id: 'notifications',
  context: ({ input }) => ({
    tab: input.tab ?? 'notifications',
    items: [],
    page: 0,
    lastPage: 1,
    distance: Number.POSITIVE_INFINITY,
    error: null,
  }),
  initial: 'loadingFirst',
  states: {
    loadingFirst: {
      description: 'Page 1 of the tab: 5 placeholders.',
      tags: ['loading', 'loadingFirst'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => ({ tab: context.tab, page: 1 }),
        onDone: [
          { guard: { type: 'isEmpty', params: ({ event }) => event.output }, target: 'empty' },
          {
            guard: { type: 'isLastPage', params: ({ event }) => event.output },
            target: 'complete',
            actions: { type: 'storePage', params: ({ event }) => event.output },
          },
          { target: 'more', actions: { type: 'storePage', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: 'isNotificationsTab', target: 'failed', actions: ['recordError', 'toastNotificationsError'] },
          {
            target: 'failed',
            actions: ['recordError', { type: 'logError', params: ({ event }) => ({ error: event.error }) }],
          },
        ],
      },
    },
    more: {
      description: 'Some pages are loaded and more exist.',
      initial: 'settling',
      states: {
        settling: { after: { fillCheck: 'measuring' } },
        measuring: {
          description: 'The view reports whether the list fills the panel; if not, the next page loads.',
          tags: ['measure'],
          on: {
            'panel.measured': [
              { guard: 'doesNotFillPanel', target: '#notifications.loadingMore' },
              { target: 'waiting' },
            ],
          },
        },
        waiting: {},
        debouncing: {
          after: {
            scrollDebounce: [{ guard: 'isNearBottom', target: '#notifications.loadingMore' }, { target: 'waiting' }],
          },
        },
      },
      on: { 'panel.scrolled': { target: '.debouncing', reenter: true, actions: 'storeDistance' } },
    },
    loadingMore: {
      description: 'The next page: 3 placeholders under the loaded items.',
      tags: ['loading', 'loadingMore'],
      invoke: {
        id: 'fetchPage',
        src: 'fetchPage',
        input: ({ context }) => ({ tab: context.tab, page: context.page + 1 }),
        onDone: [
          {
            guard: { type: 'isLastPage', params: ({ event }) => event.output },
            target: 'complete',
            actions: { type: 'storePage', params: ({ event }) => event.output },
          },
          { target: 'more', actions: { type: 'storePage', params: ({ event }) => event.output } },
        ],
        onError: [
          { guard: 'isNotificationsTab', target: 'failedMore', actions: ['recordError', 'toastNotificationsError'] },
          {
            target: 'failedMore',
            actions: ['recordError', { type: 'logError', params: ({ event }) => ({ error: event.error }) }],
          },
        ],
      },
    },
    failed: {
      description: 'Page 1 failed: the message and Retry.',
      tags: ['error'],
      on: { retry: 'loadingFirst' },
    },
    failedMore: {
      description: 'A later page failed: the loaded items stay, with the message and Retry under them.',
      tags: ['error'],
      on: { retry: 'loadingMore' },
    },
    empty: { description: "'No notifications found' or 'No recent activity'." },
    complete: { description: "Every page is loaded: 'All {type} loaded'." },
  },
  on: {
    'tab.selected': {
      guard: 'isOtherTab',
      target: '.loadingFirst',
      actions: {
        type: 'resetFor',
        params: ({ event }) => ({ tab: event.type === 'tab.selected' ? event.tab : 'notifications' }),
      },
    },
    'notification.opened': {
      guard: 'isUnreadNotification',
      actions: [
        'markLocally',
        // the item shows as read at once; the server's answer brings the new unread count
        spawnChild('markViewed', {
          input: ({ event, self }) => ({ id: event.type === 'notification.opened' ? event.id : 0, parent: self }),
        }),
      ],
    },
    'notification.marked': { actions: 'announceUnread' },
  },
});
