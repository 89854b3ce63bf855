import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import type { ListingHoldTable } from '../../db/schema-seller-api';
import { inTransaction } from '../../db/transaction';
import { registerPrune } from '../../housekeeping';
import { HttpError, KeptRefusal, MESSAGES } from '../../http/errors';
import { availableOf, takeTickets } from '../purchase/carts';
import { HOLDS_SWEEP_MS } from '../purchase/holds';
import { splitList } from '../purchase/pricing';

/**
 * The hold API: another sales channel reserves seats of a seller's listing for a few minutes, then releases them
 * or confirms them sold elsewhere. A hold takes its seats from the listing's `available` by the very conditional
 * update a buyer's cart takes by (takeTickets), so a seat is taken once whichever channel asks first. Giving seats
 * back is exactly once as for carts (server/domain/purchase/holds.ts): the hold leaves `holding` by a conditional
 * update, and only the transaction that wins it adds the quantity back. Lock order as a cart's: a take locks the
 * listing then its kept stock; a release locks its hold, then the listing, then the stock, in a transaction of its
 * own.
 */

type ListingHold = components['schemas']['ListingHold'];
type HoldRow = Selectable<ListingHoldTable>;

export const NO_SUCH_HOLD = 'No such hold.';
export const NO_SUCH_LISTING = 'No such listing.';
export const HOLD_WAS_SOLD = 'This hold was confirmed as sold elsewhere: its seats cannot be released.';
export const holdEnded = (at: string) =>
  `This hold ended (${at}); its seats went back on sale and may have been sold here. Hold them again to sell them.`;

export function holdOf(row: HoldRow, now: Date): ListingHold {
  const left = Math.ceil((Date.parse(row.expires_at) - now.getTime()) / 1000);
  return {
    id: row.id,
    listing_id: row.listing_id,
    quantity: row.quantity,
    reference: row.reference,
    state: row.state,
    expires_at: row.expires_at,
    created_at: row.created_at,
    seconds_left: row.state === 'holding' ? Math.max(0, left) : 0,
  };
}

export interface NewHold {
  listing_id: number;
  quantity: number;
  minutes: number;
  reference?: string;
}

/** Holds seats of one of the seller's listings; runs in the caller's transaction. */
export async function createHold(db: Db, sellerId: number, input: NewHold, now: Date): Promise<HoldRow> {
  const listing = await db
    .selectFrom('listings')
    .select(['id', 'available', 'split_type'])
    .where('id', '=', input.listing_id)
    .where('seller_id', '=', sellerId)
    .where('status', '<>', 'deleted')
    .executeTakeFirst();
  if (!listing) throw new HttpError(404, NO_SUCH_LISTING);
  const q = input.quantity;
  const refuseLeft = (left: number) =>
    new HttpError(
      409,
      left > 0 ? `Only ${left} seats of this listing are on sale.` : 'No seats of this listing are on sale.',
    );
  if (q > listing.available) throw refuseLeft(listing.available);
  const split = splitList(listing.split_type, listing.available);
  if (!split.includes(q))
    throw new HttpError(422, MESSAGES.validation, [
      { path: '/body/quantity', message: `must be one of ${split.join(', ')} (how this listing splits)` },
    ]);
  const taken = await takeTickets(db, listing, q);
  if (!taken) throw refuseLeft((await availableOf.takeFirst(db, { id: listing.id }))?.available ?? 0);
  const at = now.toISOString();
  return db
    .insertInto('listing_holds')
    .values({
      seller_id: sellerId,
      listing_id: listing.id,
      quantity: q,
      reference: input.reference ?? null,
      state: 'holding',
      expires_at: new Date(now.getTime() + input.minutes * 60_000).toISOString(),
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listHolds(db: Db, sellerId: number): Promise<HoldRow[]> {
  return db
    .selectFrom('listing_holds')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
}

export async function findHold(db: Db, sellerId: number, id: number): Promise<HoldRow | undefined> {
  return db
    .selectFrom('listing_holds')
    .selectAll()
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .executeTakeFirst();
}

/**
 * Gives a hold's seats back to its listing, once: answers false when the hold no longer held them. `state` is
 * what it becomes: released (asked for) or expired (its time ran out).
 */
export async function giveBack(
  db: Db,
  hold: Pick<HoldRow, 'id' | 'listing_id' | 'quantity'>,
  state: 'released' | 'expired',
  now: Date,
) {
  const won = await db
    .updateTable('listing_holds')
    .set({ state, updated_at: now.toISOString() })
    .where('id', '=', hold.id)
    .where('state', '=', 'holding')
    .executeTakeFirst();
  if (won.numUpdatedRows !== 1n) return false;
  await db
    .updateTable('listings')
    .set({ available: sql<number>`available + ${hold.quantity}` })
    .where('id', '=', hold.listing_id)
    .execute();
  return true;
}

/** Releases a hold (asked by its channel); a released or expired one answers as it is, a sold one 409. */
export async function releaseHold(db: Db, sellerId: number, id: number, now: Date): Promise<HoldRow> {
  const hold = await findHold(db, sellerId, id);
  if (!hold) throw new HttpError(404, NO_SUCH_HOLD);
  if (hold.state === 'sold') throw new HttpError(409, HOLD_WAS_SOLD);
  await giveBack(db, hold, 'released', now);
  return (await findHold(db, sellerId, id)) as HoldRow;
}

/**
 * Confirms a hold sold elsewhere: its seats stay taken for good. Only a hold still holding before its end; one
 * found ended is given back now (kept, as a cart's ended hold is) and answers 409.
 */
export async function confirmHold(db: Db, sellerId: number, id: number, now: Date): Promise<HoldRow> {
  const at = now.toISOString();
  const sold = await db
    .updateTable('listing_holds')
    .set({ state: 'sold', updated_at: at })
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .where('state', '=', 'holding')
    .where('expires_at', '>', at)
    .executeTakeFirst();
  const hold = await findHold(db, sellerId, id);
  if (!hold) throw new HttpError(404, NO_SUCH_HOLD);
  if (sold.numUpdatedRows === 1n || hold.state === 'sold') return hold;
  if (hold.state === 'holding') await giveBack(db, hold, 'expired', now);
  throw new KeptRefusal(409, holdEnded(hold.expires_at));
}

/** Releases the holds that have ended by `now` (at most `limit`), each in a transaction of its own. */
export async function releaseDueListingHolds(db: Db, now: Date, limit = 500): Promise<number> {
  const due = await db
    .selectFrom('listing_holds')
    .select(['id', 'listing_id', 'quantity'])
    .where('state', '=', 'holding')
    .where('expires_at', '<=', now.toISOString())
    .orderBy('expires_at')
    .limit(limit)
    .execute();
  let released = 0;
  for (const hold of due) if (await inTransaction(db, (trx) => giveBack(trx, hold, 'expired', now))) released += 1;
  return released;
}

// the same housekeeping path as carts' ended holds: every minute, in every process, exactly once by nature
registerPrune('ended listing holds', (db, now) => releaseDueListingHolds(db, now, 5_000), { everyMs: HOLDS_SWEEP_MS });
