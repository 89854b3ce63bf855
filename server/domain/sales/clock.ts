import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import type { Payments } from '../../payments/port';
import { ACCEPT_HOURS } from './deadlines';
import { applyOrderEvent } from './lifecycle';
import { HOUR, lockOrder, type OrderRow } from './orders';

/** A delivered order completes this long after its match starts. */
export const SETTLE_HOURS = 48;

// ---------------------------------------------------------------------------------------------------------
// The clock: acceptance expiry and completion after the event

/** Cancels the pending orders whose 48 hours have passed (refunds and stock through the lifecycle). */
export async function expireUnaccepted(db: Db, payments: Payments | null, now: Date, batch = 100): Promise<number> {
  const due = await db
    .selectFrom('orders')
    .select('id')
    .where('status', '=', 'pending')
    .where('accept_by', '<=', now.toISOString())
    .orderBy('accept_by')
    .limit(batch)
    .execute();
  let done = 0;
  for (const { id } of due) {
    done += await onOrder(db, id, now, async (trx, o) => {
      if (o.status !== 'pending' || !o.accept_by || o.accept_by > now.toISOString()) return false;
      await applyOrderEvent(
        trx,
        o,
        { type: 'order.acceptanceExpired', by: 'system' },
        { actor: 'system', userId: null },
        now,
        payments,
        {
          detail: `Not accepted within ${ACCEPT_HOURS} hours.`,
        },
      );
      return true;
    });
  }
  return done;
}

/** Completes the delivered orders whose match started at least 48 hours ago (the seller's earnings credited). */
export async function settleFinished(db: Db, now: Date, batch = 100): Promise<number> {
  const lastDay = new Date(now.getTime() - SETTLE_HOURS * HOUR).toISOString().slice(0, 10);
  const due = await db
    .selectFrom('orders')
    .select(['id'])
    .where('status', '=', 'delivered')
    .where('event_date', '<=', lastDay)
    // an open claim holds the sale until the back office resolves it (docs/decisions/disputes.md)
    .where(({ not, exists, selectFrom }) => not(exists(openClaimOf(selectFrom))))
    .orderBy('event_date')
    .limit(batch)
    .execute();
  let done = 0;
  for (const { id } of due) {
    done += await onOrder(db, id, now, async (trx, o) => {
      const start = Date.parse(`${o.event_date}T${o.event_time}:00.000Z`);
      if (o.status !== 'delivered' || start + SETTLE_HOURS * HOUR > now.getTime()) return false;
      const held = await trx
        .selectFrom('order_disputes')
        .select('id')
        .where('order_id', '=', o.id)
        .where('status', '=', 'open')
        .executeTakeFirst();
      if (held) return false;
      await applyOrderEvent(
        trx,
        o,
        { type: 'event.settled', by: 'system' },
        { actor: 'system', userId: null },
        now,
        null,
      );
      return true;
    });
  }
  return done;
}

const openClaimOf = (selectFrom: SelectFrom) =>
  selectFrom('order_disputes')
    .select('order_disputes.id')
    .whereRef('order_disputes.order_id', '=', 'orders.id')
    .where('order_disputes.status', '=', 'open');

type SelectFrom = ExpressionBuilder<Database, 'orders'>['selectFrom'];

async function onOrder(
  db: Db,
  id: number,
  now: Date,
  work: (trx: Db, o: NonNullable<OrderRow>) => Promise<boolean>,
): Promise<number> {
  return inTransaction(
    db,
    async (trx) => {
      const o = await lockOrder(trx, null, id, now).catch(() => null);
      if (!o) return 0;
      return (await work(trx, o)) ? 1 : 0;
    },
    (done) => done > 0,
  );
}
