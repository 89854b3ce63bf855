import type { Router } from '../contract/router';
import { logPage } from '../domain/listings/logs';
import { SCHEDULE_OFF, SCHEDULE_SAVED, saveSchedule, scheduleOf } from '../domain/report-schedules';
import {
  dashboardReport,
  type HistoryFilters,
  historyPage,
  historyRows,
  periodOf,
  reportEvents,
  reportOverview,
} from '../domain/reports';
import { orderDetails } from '../domain/sales/details';
import { EXPORT_COLUMNS, EXPORT_LIMIT, exportFile } from '../domain/sales/exports';
import { orderLogPage, writeLog } from '../domain/sales/logs';
import { findOrder, lockOrder, ORDER_NOT_FOUND } from '../domain/sales/orders';
import { type CurrencyCode, sellerIdOf } from '../domain/sales/totals';
import { HttpError } from '../http/errors';

/** The reports' currency when the call names none (spec section 9: GBP for the dashboard report). */
const REPORT_CURRENCY: CurrencyCode = 'GBP';

const metaOf = (page: number, perPage: number, total: number) => ({
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  per_page: perPage,
  total,
});

type Db = Parameters<typeof findOrder>[0];

async function readable(db: Db, sellerId: number, id: number) {
  const o = await findOrder(db, sellerId, id);
  if (!o) throw new HttpError(404, ORDER_NOT_FOUND);
  return o;
}

/**
 * Report history and the dashboard report (issue 14). Every figure is the seller's the caller works for (a team
 * member with `reports` reads its seller's), over the orders priced in one currency and placed in the period (UTC
 * days); ReportFigures in the contract says what each counts. The order calls answer as their sales twins, through
 * the same domain functions; another seller's order answers 404.
 */
export function reportsRoutes({ route }: Router) {
  route('/dashboard/reports', 'get', async ({ user, query }, { db, clock }) => ({
    status: 200,
    body: {
      success: true,
      data: await dashboardReport(db, sellerIdOf(user), query.currency ?? REPORT_CURRENCY, clock.now()),
    },
  }));

  route('/reports/overview', 'get', async ({ user, query }, { db, clock }) => {
    const period = periodOf(query, clock.now());
    const data = await reportOverview(db, sellerIdOf(user), query.currency ?? REPORT_CURRENCY, period);
    return { status: 200, body: { success: true, data } };
  });

  const filtersOf = (
    query: Omit<HistoryFilters, 'currency' | 'period'> & {
      currency?: CurrencyCode;
      period?: Parameters<typeof periodOf>[0]['period'];
      date_from?: string;
      date_to?: string;
    },
    now: Date,
  ): HistoryFilters => ({
    currency: query.currency ?? REPORT_CURRENCY,
    period: periodOf(query, now),
    status: query.status,
    match_id: query.match_id,
    q: query.q,
    sort: query.sort,
  });

  route('/reports/history', 'get', async ({ user, query }, { db, clock }) => {
    const { page = 1, per_page = 20 } = query;
    const { orders, total } = await historyPage(db, sellerIdOf(user), filtersOf(query, clock.now()), {
      page,
      perPage: per_page,
    });
    return { status: 200, body: { success: true, data: { orders, meta: metaOf(page, per_page, total) } } };
  });

  route('/reports/export', 'get', async ({ user, query }, { db, clock }) => {
    const now = clock.now();
    const rows = await historyRows(db, sellerIdOf(user), filtersOf(query, now), EXPORT_LIMIT + 1);
    if (rows.length > EXPORT_LIMIT) {
      throw new HttpError(422, 'The export holds at most 20,000 orders; narrow the filters.', [
        { path: '/query/date_from', message: 'matches more than 20,000 orders' },
      ]);
    }
    const file = await exportFile(rows, query.format ?? 'xlsx', 'report', now);
    return {
      status: 200,
      body: {
        success: true,
        data: {
          name: file.name,
          mime: file.mime,
          size: file.content.length,
          rows: rows.length,
          columns: [...EXPORT_COLUMNS],
          content_base64: file.content.toString('base64'),
        },
      },
    };
  });

  route('/reports/events-search', 'get', async ({ user, query }, { db }) => ({
    status: 200,
    body: {
      success: true,
      data: { events: await reportEvents(db, sellerIdOf(user), query.currency ?? REPORT_CURRENCY, query.q) },
    },
  }));

  route('/reports/order-details', 'get', async ({ user, query }, { db }) => {
    const o = await readable(db, sellerIdOf(user), query.order_id);
    return { status: 200, body: { success: true, data: await orderDetails(db, o, 'seller') } };
  });

  route('/reports/order-logs', 'get', async ({ user, query }, { db }) => {
    const o = await readable(db, sellerIdOf(user), query.order_id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 50;
    const { logs, total } = await orderLogPage(db, o.id, { page, perPage });
    return { status: 200, body: { success: true, data: { logs, meta: metaOf(page, perPage, total) } } };
  });

  route('/reports/inventory-logs', 'get', async ({ user, query }, { db }) => {
    const sellerId = sellerIdOf(user);
    const o = await readable(db, sellerId, query.order_id);
    const data = await logPage(db, sellerId, o.listing_id, { page: query.page ?? 1, per_page: query.per_page ?? 50 });
    return { status: 200, body: { success: true, data } };
  });

  route('/reports/schedule', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: await scheduleOf(db, user) },
  }));

  route('/reports/schedule', 'put', async ({ user, body }, { db, clock }) => {
    await saveSchedule(db, user, body, clock.now());
    const message = body.frequency === 'off' ? SCHEDULE_OFF : SCHEDULE_SAVED;
    return { status: 200, body: { success: true, message, data: await scheduleOf(db, user) } };
  });

  route('/reports/save-notes', 'post', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), body.order_id, now);
    const notes = body.notes.trim() === '' ? null : body.notes;
    const at = notes === null ? null : now.toISOString();
    await db.updateTable('orders').set({ notes, notes_updated_at: at }).where('id', '=', o.id).execute();
    await writeLog(
      db,
      { orderId: o.id, action: 'notes_saved', from: o.status, to: o.status, who: { actor: 'seller', userId: user.id } },
      now,
    );
    return {
      status: 200,
      body: { success: true, message: 'Notes saved.', data: { booking_id: o.id, notes, notes_updated_at: at } },
    };
  });
}
