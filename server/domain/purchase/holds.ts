import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import { inTransaction } from '../../db/transaction';
import { registerPrune } from '../../housekeeping';

/**
 * Holds: a cart takes its tickets from the listing's `available` when it is made, and holds them (its
 * `hold_state` holding) until a booking of it is confirmed (sold) or the hold ends (released). Giving tickets
 * back is exactly once by nature: the cart leaves `holding` by a conditional update, and only the transaction
 * that wins it adds the quantity back to the listing. So an ended hold is released wherever it is met first
 * (a read that meets it, the purchase calls, or the housekeeping), in any process, and never twice.
 */

export const HOLD_EXPIRED_MESSAGE = 'Your hold on these tickets has expired. Please start again.';
export const HOLD_ENDED_REASON = 'The 15-minute hold ended before payment.';

interface HeldCart {
  id: number;
  listing_id: number;
  quantity: number;
}

/**
 * Gives a cart's tickets back to its listing, once: answers false when the cart no longer held them. `status`
 * is what a cart that was not booked becomes (expired when its time ran out, released when its booking was
 * cancelled).
 */
export async function releaseCart(db: Db, cart: HeldCart, status: 'expired' | 'released', now: Date) {
  const at = now.toISOString();
  const released = await db
    .updateTable('carts')
    .set({
      hold_state: 'released',
      status: sql<string>`CASE WHEN status = 'held' THEN ${status} ELSE status END`,
      updated_at: at,
    })
    .where('id', '=', cart.id)
    .where('hold_state', '=', 'holding')
    .executeTakeFirst();
  if (released.numUpdatedRows !== 1n) return false;
  await db
    .updateTable('listings')
    .set({ available: sql<number>`available + ${cart.quantity}` })
    .where('id', '=', cart.listing_id)
    .execute();
  return true;
}

/**
 * Ends a hold whose time ran out: the tickets go back, and its booking, if pending, becomes expired (or failed
 * when a payment of it had failed, with that reason). Runs in the caller's transaction.
 */
export async function expireCart(db: Db, cart: HeldCart, now: Date): Promise<boolean> {
  const released = await releaseCart(db, cart, 'expired', now);
  if (!released) return false;
  await db
    .updateTable('bookings')
    .set({
      status: sql<string>`CASE WHEN status_reason IS NULL THEN 'expired' ELSE 'failed' END`,
      status_reason: sql<string>`CASE WHEN status_reason IS NULL THEN ${HOLD_ENDED_REASON} ELSE status_reason || ' ' || ${HOLD_ENDED_REASON} END`,
      updated_at: now.toISOString(),
    })
    .where('cart_id', '=', cart.id)
    .where('status', '=', 'pending')
    .execute();
  return true;
}

const dueQuery = (db: Db, $: { at: string; limit: number }) =>
  db
    .selectFrom('carts')
    .select(['id', 'listing_id', 'quantity'])
    .where('hold_state', '=', 'holding')
    .where('expires_at', '<=', $.at)
    .orderBy('expires_at')
    .limit($.limit);
const dueHolds = prepared(dueQuery);
const dueOfListing = prepared((db, $: { at: string; limit: number; listing: number }) =>
  dueQuery(db, $).where('listing_id', '=', $.listing),
);
const dueOfBuyer = prepared((db, $: { at: string; limit: number; buyer: number }) =>
  dueQuery(db, $).where('buyer_id', '=', $.buyer),
);

/**
 * Releases the holds that have ended by `now` (at most `limit`), optionally only those of one listing or one
 * buyer. In a transaction, in it; otherwise each in a small transaction of its own. Answers how many it released.
 */
export async function releaseDueHolds(
  db: Db,
  now: Date,
  only: { listingId?: number; buyerId?: number } = {},
  limit = 500,
): Promise<number> {
  const at = now.toISOString();
  // every read of the trade area asks first (prepared: building the query cost more than running it)
  const due =
    only.listingId !== undefined
      ? await dueOfListing.execute(db, { at, limit, listing: only.listingId })
      : only.buyerId !== undefined
        ? await dueOfBuyer.execute(db, { at, limit, buyer: only.buyerId })
        : await dueHolds.execute(db, { at, limit });
  let released = 0;
  for (const cart of due) {
    const done = db.isTransaction
      ? await expireCart(db, cart, now)
      : await inTransaction(db, (trx) => expireCart(trx, cart, now));
    if (done) released += 1;
  }
  return released;
}

// the housekeeping releases what no read met (at start and every few minutes, in every process: exactly once)
registerPrune('ended ticket holds', (db, now) => releaseDueHolds(db, now, {}, 5_000));
