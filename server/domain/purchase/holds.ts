import { sql } from 'kysely';
import { type Db, engineOf } from '../../db/database';
import { prepared } from '../../db/prepared';
import { inTransaction } from '../../db/transaction';
import { registerPrune } from '../../housekeeping';
import { HttpError } from '../../http/errors';

/**
 * Holds: a cart takes its tickets from the listing's `available` when it is made, and holds them (its
 * `hold_state` holding) until a booking of it is confirmed (sold) or the hold ends (released). Giving tickets
 * back is exactly once by nature: the cart leaves `holding` by a conditional update, and only the transaction
 * that wins it adds the quantity back to the listing. An ended hold is released by the housekeeping (every
 * minute), by a read of the trade area that meets it, or by its own booking's calls, in any process, never twice.
 *
 * Lock order: a release locks its cart, then its listing, then the listing's kept stock (`event_stock`, by
 * trigger); a take locks the listing, then the stock. So a release runs in a transaction of its own, one hold a
 * transaction, and never inside a take: a take that first released a hold of another listing of the same match
 * held that listing and the shared stock row while it waited for its own listing, the reverse of a plain take
 * (PostgreSQL counted 17 deadlocks in 6 s of 40 buyers on one listing, and answered 500 after the retries).
 */

export const HOLD_EXPIRED_MESSAGE = 'Your hold on these tickets has expired. Please start again.';
export const HOLD_ENDED_REASON = 'The 15-minute hold ended before payment.';

/**
 * How many holds one buyer account may have at once (each up to 15 minutes, each up to MAX_PURCHASE_QUANTITY
 * tickets): a buyer finishing a purchase or two never meets it; one account holding a match's whole stock by
 * adding to cart in a loop (eleven listings, 66 tickets, in a second) does.
 */
export const MAX_OPEN_HOLDS = 5;
export const TOO_MANY_HOLDS = `You already hold tickets in ${MAX_OPEN_HOLDS} bookings. Pay for one or cancel it on the Purchase page before holding more; a hold ends by itself after 15 minutes.`;

/** A key of our own for Postgres advisory locks: one buyer's holds (with the buyer's id). */
const BUYER_HOLDS_LOCK = 9_002;

const liveHolds = prepared((db, $: { buyer: number; at: string }) =>
  db
    .selectFrom('carts')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('expires_at').as('first_end')])
    .where('buyer_id', '=', $.buyer)
    .where('hold_state', '=', 'holding')
    .where('expires_at', '>', $.at),
);

const buyerHoldsLock = prepared((db, $: { buyer: number }) =>
  db.selectNoFrom(sql<string>`pg_advisory_xact_lock(${BUYER_HOLDS_LOCK}, ${$.buyer})`.as('locked')),
);

/**
 * Lets a buyer make one more hold, or answers 429 with Retry-After the seconds until its first hold ends. The
 * count and the cart the caller then writes are one decision per buyer, whichever process runs it: on Postgres
 * the buyer's advisory lock (until the caller's transaction ends) puts a second add-to-cart of the same buyer
 * behind the first, whose cart its count then sees; SQLite runs one write transaction at a time, across
 * processes too. Without it, twenty calls at once all counted fewer than 5: 14 carts held with one process, 16
 * with three. Holds that have ended count no more, freed or not yet.
 */
export async function checkHoldLimit(db: Db, buyerId: number, now: Date) {
  if (engineOf(db) === 'postgres') await buyerHoldsLock.execute(db, { buyer: buyerId });
  const at = now.toISOString();
  const [open] = await liveHolds.execute(db, { buyer: buyerId, at });
  if (Number(open?.n ?? 0) < MAX_OPEN_HOLDS) return;
  const wait = Math.max(1, Math.ceil((Date.parse(String(open?.first_end)) - now.getTime()) / 1000));
  throw new HttpError(429, TOO_MANY_HOLDS, undefined, { 'Retry-After': String(wait) });
}

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
 * buyer, each in a small transaction of its own (see the lock order above). Answers how many it released.
 */
export async function releaseDueHolds(
  db: Db,
  now: Date,
  only: { listingId?: number; buyerId?: number } = {},
  limit = 500,
): Promise<number> {
  if (db.isTransaction) throw new Error('releaseDueHolds releases one hold a transaction: call it outside one');
  const at = now.toISOString();
  // every read of the trade area asks first (prepared: building the query cost more than running it)
  const due =
    only.listingId !== undefined
      ? await dueOfListing.execute(db, { at, limit, listing: only.listingId })
      : only.buyerId !== undefined
        ? await dueOfBuyer.execute(db, { at, limit, buyer: only.buyerId })
        : await dueHolds.execute(db, { at, limit });
  let released = 0;
  for (const cart of due) if (await inTransaction(db, (trx) => expireCart(trx, cart, now))) released += 1;
  return released;
}

/** How often the housekeeping frees ended holds: the contract's promise (the tickets are back within a minute). */
export const HOLDS_SWEEP_MS = 60_000;

// the housekeeping releases what no read met, in every process (exactly once by nature): with nothing due, one
// look at the index carts_holding (hold_state, expires_at)
registerPrune('ended ticket holds', (db, now) => releaseDueHolds(db, now, {}, 5_000), { everyMs: HOLDS_SWEEP_MS });
