import type { Router } from '../contract/router';
import { auditLogPage } from '../domain/admin/audit';
import { adminOrderPage, adminQueues } from '../domain/admin/queues';
import { metaOf } from '../domain/paging';

/**
 * The back office's home and its record (x-role admin): what waits in each queue, the orders needing action,
 * and the audit log of every action taken.
 */
export function adminHomeRoutes({ route }: Router) {
  route('/admin/queues', 'get', async (_input, { db, clock }) => ({
    status: 200,
    body: { success: true, data: { queues: await adminQueues(db, clock.now()) } },
  }));

  route('/admin/orders', 'get', async ({ query }, { db, clock }) => {
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const { orders, total } = await adminOrderPage(db, clock.now(), {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      status: 200,
      body: { success: true, data: { orders, meta: metaOf({ page, perPage, limit: perPage, offset: 0 }, total) } },
    };
  });

  route('/admin/audit-log', 'get', async ({ query }, { db }) => {
    const perPage = query.per_page ?? 50;
    const page = query.page ?? 1;
    const { entries, total } = await auditLogPage(
      db,
      { action: query.action, operator: query.operator, dateFrom: query.date_from, dateTo: query.date_to },
      { limit: perPage, offset: (page - 1) * perPage },
    );
    return {
      status: 200,
      body: { success: true, data: { entries, meta: metaOf({ page, perPage, limit: perPage, offset: 0 }, total) } },
    };
  });
}
