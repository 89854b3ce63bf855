import { type AnyActorRef, assign, fromPromise, setup, spawnChild } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { SALES_STATUSES, type SalesStatus } from './sales-statuses';

export { SALES_STATUS_LABELS, SALES_STATUSES, type SalesStatus } from './sales-statuses';
export type SalesCount = DataOf<'/sales/sales-count', 'get'>[number];
export type NotificationCounts = DataOf<'/ui-settings/menu-notification', 'get'>;

export interface MenuCountsInput {
  canSeeSales: boolean;
  canSeeNotifications: boolean;
}

export interface MenuCountsContext extends MenuCountsInput {
  sales: SalesCount[];
  notifications: NotificationCounts | null;
}

export type MenuCountsEvent =
  | { type: 'counts.refreshed' }
  | { type: 'notification.opened'; id: number }
  | { type: 'unread.changed'; unreadCount: number };

/**
 * The numbers on the side menu: orders per sales status in every currency (badges, and where a collapsed
 * Sales leads) and the notification counts (the unread badge, the panel's tab counts). Each loads only with
 * its permission; a failure hides the badges rather than the menu. The shell runs it in the actor system as
 * `menuCounts` while the KYC gate is open: a feed tells it when an unread notification is opened, it marks
 * it read on the server and the badge takes the server's new unread count.
 */
export const menuCountsMachine = setup({
  types: {
    context: {} as MenuCountsContext,
    input: {} as MenuCountsInput,
    events: {} as MenuCountsEvent,
  },
  actors: {
    loadSalesCounts: fromPromise<SalesCount[]>(async () => unwrap(await api.GET('/sales/sales-count'))),
    loadNotificationCounts: fromPromise<NotificationCounts>(async () =>
      unwrap(await api.GET('/ui-settings/menu-notification')),
    ),
    markViewed: fromPromise<void, { id: number; counts: AnyActorRef }>(async ({ input }) => {
      const data = unwrap(await api.POST('/notification/update-notification', { body: { id: input.id } }));
      input.counts.send({ type: 'unread.changed', unreadCount: data.unread_count });
    }),
  },
  guards: {
    canSeeSales: ({ context }) => context.canSeeSales,
    canSeeNotifications: ({ context }) => context.canSeeNotifications,
  },
}).createMachine({
  id: 'menuCounts',
  context: ({ input }) => ({ ...input, sales: [], notifications: null }),
  type: 'parallel',
  states: {
    sales: {
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'canSeeSales', target: 'loading' }, { target: 'hidden' }] },
        hidden: { description: 'No sales permission: no sales badges.' },
        loading: {
          invoke: {
            id: 'loadSalesCounts',
            src: 'loadSalesCounts',
            onDone: { target: 'ready', actions: assign({ sales: ({ event }) => event.output }) },
            onError: 'unavailable',
          },
        },
        ready: { on: { 'counts.refreshed': 'loading' } },
        unavailable: { on: { 'counts.refreshed': 'loading' } },
      },
    },
    notifications: {
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'canSeeNotifications', target: 'loading' }, { target: 'hidden' }] },
        hidden: { description: 'No notification permission: no badge.' },
        loading: {
          invoke: {
            id: 'loadNotificationCounts',
            src: 'loadNotificationCounts',
            onDone: { target: 'ready', actions: assign({ notifications: ({ event }) => event.output }) },
            onError: 'unavailable',
          },
        },
        ready: {
          on: {
            'counts.refreshed': 'loading',
            'unread.changed': {
              actions: assign({
                notifications: ({ context, event }) =>
                  context.notifications && { ...context.notifications, unread_count: event.unreadCount },
              }),
            },
          },
        },
        unavailable: { on: { 'counts.refreshed': 'loading' } },
      },
      on: {
        // marked read whatever the counts are doing; the answer brings the new unread count
        'notification.opened': {
          actions: spawnChild('markViewed', {
            input: ({ event, self }) => ({ id: event.type === 'notification.opened' ? event.id : 0, counts: self }),
          }),
        },
      },
    },
  },
});

/** Where a collapsed Sales leads: the first sub-page (menu order) with orders, else sales/pending. */
export function salesLandingStatus(counts: readonly SalesCount[]): SalesStatus {
  for (const { status } of SALES_STATUSES) {
    if ((counts.find((c) => c.status === status)?.orders ?? 0) > 0) return status;
  }
  return 'pending';
}

/** A badge: the number, capped at '10+' above 10 when the menu is collapsed. */
export function badgeText(count: number, collapsed: boolean): string | null {
  if (count <= 0) return null;
  return collapsed && count > 10 ? '10+' : String(count);
}
