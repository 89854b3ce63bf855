import type { Db } from '../../db/database';
import { runFixed } from '../../db/prepared';
import type { OrderStatus } from '../../db/schema';
import { HttpError } from '../../http/errors';
import type { Payments } from '../../payments/port';
import { applyOrderEvent } from './lifecycle';
import type { Who } from './logs';
import { lockOrder, ORDER_NOT_FOUND } from './orders';

export type BulkAction = { action: 'accept' } | { action: 'decline'; reason: string };

export interface BulkResult {
  booking_id: number;
  booking_no: string;
  ok: boolean;
  status: OrderStatus;
  message: string;
}

const DONE: Record<BulkAction['action'], string> = {
  accept: 'Order accepted.',
  decline: 'Order declined: the buyer is refunded.',
};
const VERB: Record<BulkAction['action'], string> = { accept: 'accepted', decline: 'declined' };

/** '3 orders accepted.', '2 orders accepted; 1 could not be.' */
export function bulkMessage(action: BulkAction['action'], done: number, refused: number) {
  const orders = (n: number) => `${n} order${n === 1 ? '' : 's'}`;
  const head = `${orders(done)} ${VERB[action]}`;
  return refused === 0 ? `${head}.` : `${head}; ${refused} could not be.`;
}

/**
 * Accepts or declines a seller's orders, each on its own: every id must be one of the seller's orders (else 404
 * and nothing changes, checked before anything is written); then each is taken through the order lifecycle in a
 * savepoint of its own, so that one the lifecycle refuses stays exactly as it was and says why, while the others
 * go through. Orders are locked in id order, so that two bulk calls over the same orders cannot deadlock.
 */
export async function actOnOrders(
  db: Db,
  sellerId: number,
  ids: readonly number[],
  action: BulkAction,
  who: Who,
  now: Date,
  payments: Payments,
): Promise<{ done: number; refused: number; results: BulkResult[] }> {
  const owned = await db
    .selectFrom('orders')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('id', 'in', [...ids])
    .execute();
  if (owned.length !== new Set(ids).size) throw new HttpError(404, ORDER_NOT_FOUND);
  const event =
    action.action === 'accept'
      ? ({ type: 'order.accept', by: 'seller' } as const)
      : ({ type: 'order.decline', by: 'seller', reason: action.reason } as const);
  const byId = new Map<number, BulkResult>();
  for (const id of [...ids].sort((a, b) => a - b)) {
    await runFixed(db, 'SAVEPOINT bulk_order');
    const o = await lockOrder(db, sellerId, id, now);
    try {
      const status = await applyOrderEvent(db, o, event, who, now, payments);
      await runFixed(db, 'RELEASE SAVEPOINT bulk_order');
      byId.set(id, { booking_id: id, booking_no: o.booking_no, ok: true, status, message: DONE[action.action] });
    } catch (error) {
      // the lifecycle's refusal (409) leaves this order as it was; anything else ends the whole call
      if (!(error instanceof HttpError) || error.status !== 409) throw error;
      await runFixed(db, 'ROLLBACK TO SAVEPOINT bulk_order');
      await runFixed(db, 'RELEASE SAVEPOINT bulk_order');
      byId.set(id, { booking_id: id, booking_no: o.booking_no, ok: false, status: o.status, message: error.message });
    }
  }
  const results = ids.map((id) => byId.get(id) as BulkResult);
  const done = results.filter((r) => r.ok).length;
  return { done, refused: results.length - done, results };
}
