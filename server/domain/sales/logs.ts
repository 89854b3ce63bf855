import type { OrderActor } from '../../../machines/order.machine';
import type { Db } from '../../db/database';
import type { OrderStatus } from '../../db/schema';
import type { LogAction } from './orders';

// ---------------------------------------------------------------------------------------------------------
// Logs

export interface Who {
  actor: OrderActor | 'buyer';
  userId: number | null;
}

export async function writeLog(
  db: Db,
  row: {
    orderId: number;
    action: LogAction;
    from: OrderStatus | null;
    to: OrderStatus;
    reason?: string | null;
    detail?: string | null;
    who: Who;
  },
  now: Date,
) {
  await db
    .insertInto('order_logs')
    .values({
      order_id: row.orderId,
      action: row.action,
      from_status: row.from,
      to_status: row.to,
      reason: row.reason ? row.reason.slice(0, 500) : null,
      detail: row.detail ? row.detail.slice(0, 500) : null,
      actor: row.who.actor,
      user_id: row.who.userId,
      created_at: now.toISOString(),
    })
    .execute();
}

export async function orderLogPage(db: Db, orderId: number, page: { page: number; perPage: number }) {
  const rows = await db
    .selectFrom('order_logs')
    .leftJoin('users', 'users.id', 'order_logs.user_id')
    .select([
      'order_logs.id',
      'order_logs.order_id',
      'order_logs.action',
      'order_logs.from_status',
      'order_logs.to_status',
      'order_logs.reason',
      'order_logs.detail',
      'order_logs.actor',
      'order_logs.user_id',
      'order_logs.created_at',
      'users.first_name',
      'users.last_name',
    ])
    .where('order_logs.order_id', '=', orderId)
    .orderBy('order_logs.created_at', 'desc')
    .orderBy('order_logs.id', 'desc')
    .limit(page.perPage)
    .offset((page.page - 1) * page.perPage)
    .execute();
  const counted = await db
    .selectFrom('order_logs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_id', '=', orderId)
    .executeTakeFirst();
  return {
    logs: rows.map((r) => ({
      log_id: r.id,
      booking_id: r.order_id,
      action: r.action as LogAction,
      from_status: r.from_status,
      to_status: r.to_status,
      reason: r.reason,
      detail: r.detail,
      actor: r.actor,
      user_id: r.user_id,
      user_name: r.first_name ? `${r.first_name} ${r.last_name ?? ''}`.trim() : null,
      created_at: r.created_at,
    })),
    total: Number(counted?.n ?? 0),
  };
}
