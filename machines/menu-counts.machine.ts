import { assign, fromPromise, setup } from 'xstate';
import { api, unwrap } from '../openapi/client';

export type SalesStatus = 'pending' | 'confirmed' | 'delivered' | 'completed' | 'cancelled' | 'replaced';
export interface SalesCount {
  status: SalesStatus;
  orders: number;
}
export interface NotificationCounts {
  notification: number;
  activity: number;
  unread_count: number;
}

export interface MenuCountsInput {
  canSeeSales: boolean;
  canSeeNotifications: boolean;
}

export interface MenuCountsContext extends MenuCountsInput {
  sales: SalesCount[];
  notifications: NotificationCounts | null;
}

export type MenuCountsEvent = { type: 'counts.refreshed' } | { type: 'unread.changed'; unreadCount: number };

/**
 * The numbers on the side menu: orders per sales status (badges, and where a collapsed Sales leads) and the
 * notification counts (the unread badge, the panel's tab counts). Each loads only with its permission; a
 * failure hides the badges rather than the menu.
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
    },
  },
});

/** The spec's sales sub-pages, in menu order, with their labels. */
export const SALES_STATUSES: ReadonlyArray<{ status: SalesStatus; label: string }> = [
  { status: 'pending', label: 'Pending' },
  { status: 'confirmed', label: 'Awaiting Delivery' },
  { status: 'delivered', label: 'Delivered' },
  { status: 'completed', label: 'Completed' },
  { status: 'cancelled', label: 'Cancelled' },
  { status: 'replaced', label: 'Replaced' },
];

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
