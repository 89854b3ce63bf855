import type { AuthUser } from '../auth/session';
import type { Router } from '../contract/router';
import { recordAdminAction } from '../domain/admin/audit';
import { recordOrderProof } from '../domain/disputes/proofs';
import { actOnOrders, bulkMessage } from '../domain/sales/bulk';
import { expireUnaccepted, settleFinished } from '../domain/sales/clock';
import {
  changeTicketType,
  deliverMobile,
  deliverPaper,
  deliverPdfs,
  removeDelivery,
  uploadInstructions,
} from '../domain/sales/delivery';
import { orderDetails, ticketDetails } from '../domain/sales/details';
import { EXPORT_COLUMNS, EXPORT_LIMIT, exportFile } from '../domain/sales/exports';
import { figuresByStatus } from '../domain/sales/figures';
import { applyOrderEvent } from '../domain/sales/lifecycle';
import { type SalesFilters, salesOverview, salesPage, salesRows } from '../domain/sales/lists';
import { orderLogPage, type Who, writeLog } from '../domain/sales/logs';
import { DELIVERY_METHOD, findOrder, lockOrder, ORDER_NOT_FOUND, ticketTypeName } from '../domain/sales/orders';
import { ticketZip } from '../domain/sales/ticket-zip';
import { sellerIdOf } from '../domain/sales/totals';
import { remindTransfers } from '../domain/sales/transfers';
import { registerPrune } from '../housekeeping';
import { HttpError, MESSAGES } from '../http/errors';
import type { Payments } from '../payments/port';

const sellerWho = (user: AuthUser): Who => ({ actor: 'seller', userId: user.id });
const invalid = (path: string, message: string) => new HttpError(422, MESSAGES.validation, [{ path, message }]);

const metaOf = (page: number, perPage: number, total: number) => ({
  current_page: page,
  last_page: Math.max(1, Math.ceil(total / perPage)),
  per_page: perPage,
  total,
});

function checkRange(query: { date_from?: string; date_to?: string }) {
  if (query.date_from && query.date_to && query.date_from > query.date_to) {
    throw invalid('/query/date_from', 'must not be after /query/date_to');
  }
}

async function readable(db: Parameters<typeof findOrder>[0], user: AuthUser, id: number) {
  const o = await findOrder(db, sellerIdOf(user), id);
  if (!o) throw new HttpError(404, ORDER_NOT_FOUND);
  return o;
}

const deliveredMessage = (t: { delivered: number; quantity: number }) =>
  `Tickets delivered: ${t.delivered} of ${t.quantity}.`;

/**
 * Sales and fulfilment (issue 12). Every order is the seller's the caller works for (a team member with `sales`
 * acts for its seller); another seller's order answers 404 and changes nothing. Status changes go through the
 * order machine (server/domain/sales/lifecycle.ts, applyOrderEvent) inside the router's transaction, with their log
 * row, refund, stock and earnings.
 */
export function salesRoutes({ route }: Router, payments: Payments) {
  registerPrune('sales: unanswered orders cancelled', (db, now) => expireUnaccepted(db, payments, now));
  registerPrune('sales: delivered orders completed after the match', (db, now) => settleFinished(db, now));
  registerPrune('sales: buyers reminded to accept transfers', (db, now) => remindTransfers(db, now), {
    everyMs: 60 * 60_000,
  });

  route('/sales/sales-count', 'get', async ({ user }, { db }) => {
    const figures = await figuresByStatus(db, sellerIdOf(user));
    return { status: 200, body: { success: true, data: figures.map(({ status, orders }) => ({ status, orders })) } };
  });

  route('/sales/overview-all-currency', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: { currencies: await salesOverview(db, sellerIdOf(user)) } },
  }));

  route('/sales/history-all-currency', 'get', async ({ user, query }, { db }) => {
    checkRange(query);
    const { page = 1, per_page = 20, ...filters } = query;
    const { orders, total } = await salesPage(db, sellerIdOf(user), filters as SalesFilters, {
      page,
      perPage: per_page,
    });
    return { status: 200, body: { success: true, data: { orders, meta: metaOf(page, per_page, total) } } };
  });

  route('/sales/export-reports', 'get', async ({ user, query }, { db, clock }) => {
    checkRange(query);
    const { format = 'xlsx', ...filters } = query;
    const rows = await salesRows(db, sellerIdOf(user), filters as SalesFilters, EXPORT_LIMIT + 1);
    if (rows.length > EXPORT_LIMIT) {
      throw new HttpError(422, 'The export holds at most 20,000 orders; narrow the filters.', [
        { path: '/query/status', message: 'matches more than 20,000 orders' },
      ]);
    }
    const file = await exportFile(rows, format, query.status, clock.now());
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

  route('/sales/order-details', 'get', async ({ user, query }, { db }) => {
    const o = await readable(db, user, query.booking_id);
    return { status: 200, body: { success: true, data: await orderDetails(db, o, 'seller') } };
  });

  route('/sales/order-logs', 'get', async ({ user, query }, { db }) => {
    const o = await readable(db, user, query.booking_id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 50;
    const { logs, total } = await orderLogPage(db, o.id, { page, perPage });
    return { status: 200, body: { success: true, data: { logs, meta: metaOf(page, perPage, total) } } };
  });

  route('/sales/inventory-logs', 'get', async ({ user, query }, { db }) => {
    const o = await readable(db, user, query.booking_id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 50;
    const rows = await db
      .selectFrom('listing_logs')
      .innerJoin('users', 'users.id', 'listing_logs.user_id')
      .select([
        'listing_logs.id',
        'listing_logs.listing_id',
        'listing_logs.action',
        'listing_logs.field',
        'listing_logs.old_value',
        'listing_logs.new_value',
        'listing_logs.user_id',
        'listing_logs.created_at',
        'users.first_name',
        'users.last_name',
      ])
      .where('listing_logs.listing_id', '=', o.listing_id)
      .orderBy('listing_logs.created_at', 'desc')
      .orderBy('listing_logs.id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const counted = await db
      .selectFrom('listing_logs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('listing_id', '=', o.listing_id)
      .executeTakeFirst();
    const logs = rows.map((r) => ({
      log_id: r.id,
      ticket_id: r.listing_id,
      action: r.action as 'created',
      field: r.field,
      old_value: r.old_value,
      new_value: r.new_value,
      user_id: r.user_id,
      user_name: `${r.first_name} ${r.last_name}`.trim(),
      created_at: r.created_at,
    }));
    return {
      status: 200,
      body: { success: true, data: { logs, meta: metaOf(page, perPage, Number(counted?.n ?? 0)) } },
    };
  });

  route('/sales/ticket-types', 'get', async () => ({
    status: 200,
    body: {
      success: true,
      data: ([1, 2, 3, 4, 5, 6] as const).map((id) => ({
        ticket_type_id: id,
        name: ticketTypeName(id),
        delivery_method: DELIVERY_METHOD[id] ?? 'pdf',
      })),
    },
  }));

  route('/sales/ticket-details', 'get', async ({ user, query }, { db }) => {
    const o = await readable(db, user, query.booking_id);
    return { status: 200, body: { success: true, data: await ticketDetails(db, o) } };
  });

  route('/sales/download-all-tickets/{booking_id}', 'get', async ({ user, params }, { db, dataDir }) => {
    const o = await readable(db, user, params.booking_id);
    const data = await ticketZip(db, dataDir, o, 'No tickets have been delivered for this order yet.');
    return { status: 200, body: { success: true, data } };
  });

  route('/sales/order-action', 'post', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), body.booking_id, now);
    const reason = (body.reason ?? '').trim();
    if (body.action === 'decline' && !reason) throw invalid('/body/reason', 'is required to decline an order');
    const event =
      body.action === 'accept'
        ? ({ type: 'order.accept', by: 'seller' } as const)
        : ({ type: 'order.decline', by: 'seller', reason } as const);
    const status = await applyOrderEvent(db, o, event, sellerWho(user), now, payments);
    const after = await findOrder(db, null, o.id);
    if (!after) throw new HttpError(404, ORDER_NOT_FOUND);
    return {
      status: 200,
      body: {
        success: true,
        message: status === 'confirmed' ? 'Order accepted.' : 'Order declined: the buyer is refunded.',
        data: await orderDetails(db, after, 'seller'),
      },
    };
  });

  route('/sales/order-actions', 'post', async ({ user, body }, { db, clock }) => {
    const reason = (body.reason ?? '').trim();
    if (body.action === 'decline' && !reason) throw invalid('/body/reason', 'is required to decline orders');
    const action =
      body.action === 'accept' ? ({ action: 'accept' } as const) : ({ action: 'decline', reason } as const);
    const data = await actOnOrders(
      db,
      sellerIdOf(user),
      body.booking_ids,
      action,
      sellerWho(user),
      clock.now(),
      payments,
    );
    return { status: 200, body: { success: true, message: bulkMessage(body.action, data.done, data.refused), data } };
  });

  route('/admin/sales/order-action', 'post', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, null, body.booking_id, now);
    const reason = body.reason.trim();
    if (!reason) throw invalid('/body/reason', 'must not be empty');
    const event =
      body.action === 'cancel'
        ? ({ type: 'order.cancel', by: 'admin', reason } as const)
        : ({ type: 'order.replace', by: 'admin', reason } as const);
    const status = await applyOrderEvent(db, o, event, { actor: 'admin', userId: user.id }, now, payments);
    // a cancellation refunds the buyer the whole order
    const amount = status === 'cancelled' ? { minor: Number(o.amount), currency: o.currency } : null;
    const action = status === 'cancelled' ? 'order.cancelled' : 'order.replaced';
    await recordAdminAction(db, user, action, { type: 'order', id: o.id, amount, detail: reason }, now);
    const after = await findOrder(db, null, o.id);
    if (!after) throw new HttpError(404, ORDER_NOT_FOUND);
    return {
      status: 200,
      body: { success: true, message: `Order ${status}.`, data: await orderDetails(db, after, 'admin') },
    };
  });

  route('/sales/update-ticket-type', 'post', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), body.booking_id, now);
    await changeTicketType(db, o, body.ticket_type_id, sellerWho(user), now);
    const after = await readable(db, user, o.id);
    return {
      status: 200,
      body: { success: true, message: 'Ticket type updated.', data: await ticketDetails(db, after) },
    };
  });

  route('/sales/save-notes', 'post', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), body.booking_id, now);
    const notes = body.notes.trim() === '' ? null : body.notes;
    const at = notes === null ? null : now.toISOString();
    await db.updateTable('orders').set({ notes, notes_updated_at: at }).where('id', '=', o.id).execute();
    await writeLog(
      db,
      { orderId: o.id, action: 'notes_saved', from: o.status, to: o.status, who: sellerWho(user) },
      now,
    );
    return {
      status: 200,
      body: { success: true, message: 'Notes saved.', data: { booking_id: o.id, notes, notes_updated_at: at } },
    };
  });

  route('/sales/delete-ticket', 'post', async ({ user, body }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), body.booking_id, now);
    await removeDelivery(db, o, body.ticket_no, sellerWho(user), now);
    const data = await ticketDetails(db, await readable(db, user, o.id));
    return { status: 200, body: { success: true, message: `Ticket ${body.ticket_no} removed.`, data } };
  });

  route('/api/sales/upload-tickets', 'post', async ({ user, query, body, files }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), query.booking_id, now);
    await deliverPdfs(
      db,
      o,
      { mode: body.mode, ticket_nos: body.ticket_nos, files: files.files ?? [] },
      sellerWho(user),
      now,
    );
    const data = await ticketDetails(db, await readable(db, user, o.id));
    return { status: 200, body: { success: true, message: deliveredMessage(data), data } };
  });

  route('/api/sales/paper-ticket-upload', 'post', async ({ user, query, body, files }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), query.booking_id, now);
    await deliverPaper(
      db,
      o,
      {
        courier: body.courier,
        tracking_number: body.tracking_number,
        ticket_nos: body.ticket_nos,
        proof: files.proof?.[0],
      },
      sellerWho(user),
      now,
    );
    const data = await ticketDetails(db, await readable(db, user, o.id));
    return { status: 200, body: { success: true, message: deliveredMessage(data), data } };
  });

  route('/api/sales/upload-mobile-ticket', 'post', async ({ user, query, body, files }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), query.booking_id, now);
    await deliverMobile(
      db,
      o,
      {
        transfer_links: body.transfer_links,
        link_mode: body.link_mode,
        ticket_nos: body.ticket_nos,
        files: files.files,
      },
      sellerWho(user),
      now,
    );
    const data = await ticketDetails(db, await readable(db, user, o.id));
    return { status: 200, body: { success: true, message: deliveredMessage(data), data } };
  });

  route('/api/sales/upload-instruction-file', 'post', async ({ user, query, files }, { db, clock }) => {
    const now = clock.now();
    const o = await lockOrder(db, sellerIdOf(user), query.booking_id, now);
    const file = files.file?.[0];
    if (!file) throw invalid('/body/file', 'is required');
    await uploadInstructions(db, o, file, sellerWho(user), now);
    const data = await ticketDetails(db, await readable(db, user, o.id));
    return { status: 200, body: { success: true, message: 'Instruction file saved.', data } };
  });

  route(
    '/purchase/lmt-trade/bookings/{booking_id}/tickets',
    'get',
    async ({ user, params }, { db, dataDir, clock }) => {
      const booking = await db
        .selectFrom('bookings')
        .select(['order_id'])
        .where('id', '=', params.booking_id)
        .where('buyer_id', '=', sellerIdOf(user))
        .executeTakeFirst();
      if (!booking) throw new HttpError(404, 'Booking not found.');
      const none = 'No tickets have been delivered for this booking yet.';
      const o = booking.order_id ? await findOrder(db, null, booking.order_id) : undefined;
      if (!o || o.status === 'cancelled') throw new HttpError(409, none);
      const data = await ticketZip(db, dataDir, o, none);
      // the buyer's download is proof the tickets reached them (docs/decisions/disputes.md)
      await recordOrderProof(db, o.id, 'download', user.id, clock.now().toISOString(), data.name);
      return { status: 200, body: { success: true, data } };
    },
  );
}
