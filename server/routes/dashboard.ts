import type { Router } from '../contract/router';
import { DASHBOARD_LATEST, feedCountsOf, listActivity, listNotifications } from '../domain/notifications';
import { awaitingDelivery, figuresByStatus, topSellingEvents } from '../domain/sales/figures';
import { currencyFor, sellerIdOf } from '../domain/sales/totals';

/**
 * The dashboard widgets. Sales figures are those of the seller the caller sells for, counting only the orders
 * priced in the currency asked for (or the caller's own); notifications and activity are the caller's own. Every
 * figure comes from the kept totals and counters (migration 0006), so a call costs the same whatever the history.
 */
export function dashboardRoutes({ route }: Router) {
  route('/dashboard/sales-overview', 'get', async ({ user, query }, { db }) => {
    const currency = currencyFor(query.currency, user);
    const figures = await figuresByStatus(db, sellerIdOf(user), currency);
    const sold = figures.filter((f) => f.status !== 'cancelled');
    const sum = (key: 'orders' | 'tickets' | 'amount') => sold.reduce((n, f) => n + f[key], 0);
    return {
      status: 200,
      body: {
        success: true,
        data: {
          currency,
          total_sales: sum('amount'),
          orders: sum('orders'),
          tickets_sold: sum('tickets'),
          statuses: figures.map(({ status, orders, amount }) => ({ status, orders, amount })),
        },
      },
    };
  });

  route('/dashboard/awaiting-delivery', 'get', async ({ user, query }, { db }) => ({
    status: 200,
    body: { success: true, data: await awaitingDelivery(db, sellerIdOf(user), currencyFor(query.currency, user)) },
  }));

  route('/dashboard/top-selling-events', 'get', async ({ user, query }, { db }) => ({
    status: 200,
    body: {
      success: true,
      data: { events: await topSellingEvents(db, sellerIdOf(user), currencyFor(query.currency, user)) },
    },
  }));

  route('/dashboard/notifications', 'get', async ({ user }, { db }) => {
    const [notification_list, counts] = await Promise.all([
      listNotifications(db, user.id, { limit: DASHBOARD_LATEST }),
      feedCountsOf(db, user.id),
    ]);
    return { status: 200, body: { success: true, data: { notification_list, unread_count: counts.unread } } };
  });

  route('/dashboard/activity', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: { activity_list: await listActivity(db, user.id, { limit: DASHBOARD_LATEST }) } },
  }));
}
