/** Add-to-cart: a hold of a listing's tickets for 15 minutes (the first call of a purchase). */
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import { HttpError } from '../../http/errors';
import { restrictionsOf } from '../listings/rules';
import { findListing, unitPriceOf } from './catalog';
import { checkHoldLimit } from './holds';
import { type CurrencyCode, HOLD_MS, type PaymentMethod, priceBreakdown, pricingProblem, splitList } from './pricing';
import { type Cart, invalid, iso, NO_LONGER_AVAILABLE, NOT_FOUND_TICKETS, secondsLeft, unpriced } from './rules';

export interface NewCart {
  buyerId: number;
  userId: number;
  listingId: number;
  matchId: number;
  quantity: number;
  currency: CurrencyCode;
  method: PaymentMethod;
  /** How long the hold lasts: 15 minutes for a purchase (HOLD_MS), less for a seat alert's hold. */
  holdMs?: number;
}

type Take = { id: number; q: number };
const takeQuery = (db: Db, $: Take) =>
  db
    .updateTable('listings')
    .set({ available: sql<number>`available - ${$.q}` })
    .where('id', '=', $.id)
    .where('available', '>=', $.q);
/** The take by split rule (its WHERE holds the rule, so a race can never leave a split the seller refused). */
const takes = {
  any: prepared((db, $: Take) => takeQuery(db, $).returning('seats')),
  all_together: prepared((db, $: Take) => takeQuery(db, $).where('available', '=', $.q).returning('seats')),
  avoid_single: prepared((db, $: Take & { q1: number }) =>
    takeQuery(db, $).where('available', '<>', $.q1).returning('seats'),
  ),
};

/**
 * Takes `q` tickets of a listing by one conditional update, its split rule in the WHERE: answers the listing's
 * seats, or undefined when the tickets were no longer there. A buyer's cart and another channel's hold
 * (server/domain/seller-api/holds.ts) take by it, so a ticket is taken once whichever asks.
 */
export function takeTickets(db: Db, listing: { id: number; split_type: string }, q: number) {
  if (listing.split_type === 'all_together') return takes.all_together.takeFirst(db, { id: listing.id, q });
  if (listing.split_type === 'avoid_single') return takes.avoid_single.takeFirst(db, { id: listing.id, q, q1: q + 1 });
  return takes.any.takeFirst(db, { id: listing.id, q });
}

export const availableOf = prepared((db, $: { id: number }) =>
  db.selectFrom('listings').select('available').where('id', '=', $.id),
);

type CartValues = {
  buyer_id: number;
  user_id: number;
  listing_id: number;
  event_id: number;
  quantity: number;
  currency: string;
  unit_price: number;
  payment_method: number;
  category: string;
  ticket_block: string;
  row: string;
  seats: string | null;
  ticket_type_id: number;
  seller_unit_price: number;
  seller_currency: string;
  in_hand_date: string | null;
  face_value: number | null;
  restrictions: string;
  expires_at: string;
  at: string;
};
const insertCart = prepared((db, $: CartValues) =>
  db
    .insertInto('carts')
    .values({
      buyer_id: $.buyer_id,
      user_id: $.user_id,
      listing_id: $.listing_id,
      event_id: $.event_id,
      quantity: $.quantity,
      currency: $.currency,
      unit_price: $.unit_price,
      payment_method: $.payment_method,
      category: $.category,
      ticket_block: $.ticket_block,
      row: $.row,
      seats: $.seats,
      ticket_type_id: $.ticket_type_id,
      seller_unit_price: $.seller_unit_price,
      seller_currency: $.seller_currency,
      in_hand_date: $.in_hand_date,
      face_value: $.face_value,
      restrictions: $.restrictions,
      status: 'held',
      hold_state: 'holding',
      expires_at: $.expires_at,
      created_at: $.at,
      updated_at: $.at,
    })
    .returning('id'),
);

/**
 * Holds `quantity` tickets of a listing for 15 minutes: one conditional update takes them from the listing
 * (with the split rule in its WHERE, so a race can never leave a split the seller refused), then the cart is
 * written. The caller's transaction undoes both if anything after fails.
 */
export async function createCart(db: Db, input: NewCart, now: Date): Promise<Cart> {
  // no ended hold is released here (holds.ts, lock order): the housekeeping and the reads free them
  const listing = await findListing(db, input.buyerId, input.listingId);
  if (!listing || listing.event_id !== input.matchId) throw new HttpError(404, NOT_FOUND_TICKETS);
  const q = input.quantity;
  if (listing.available === 0) throw new HttpError(409, NO_LONGER_AVAILABLE);
  if (q > listing.available) throw new HttpError(409, `Sorry, only ${listing.available} tickets are left.`);
  // tickets left, but this buyer holds enough already: it waits for one of its holds to end (Retry-After)
  await checkHoldLimit(db, input.buyerId, now);
  const split = splitList(listing.split_type, listing.available);
  if (!split.includes(q)) {
    throw invalid([
      { path: '/query/quantity', message: `must be one of ${split.join(', ')} (how this listing splits)` },
    ]);
  }
  const unitPrice = unitPriceOf(listing, input.currency);
  const breakdown = priceBreakdown({
    currency: input.currency,
    unitPrice,
    quantity: q,
    ticketTypeId: listing.ticket_type_id,
    method: input.method,
  });
  const problem = pricingProblem(listing, breakdown, { listing: '/query/sell_ticket_id', quantity: '/query/quantity' });
  if (problem) throw unpriced(problem);
  // the seats come back with the take (the catalogue's row does not carry them): the cart keeps them
  const taken = await takeTickets(db, listing, q);
  if (!taken) {
    const left = await availableOf.takeFirst(db, { id: listing.id });
    throw new HttpError(
      409,
      left && left.available > 0 ? `Sorry, only ${left.available} tickets are left.` : NO_LONGER_AVAILABLE,
    );
  }
  const at = iso(now);
  const holdMs = input.holdMs ?? HOLD_MS;
  const expiresAt = iso(new Date(now.getTime() + holdMs));
  const row = await insertCart.takeFirst(db, {
    buyer_id: input.buyerId,
    user_id: input.userId,
    listing_id: listing.id,
    event_id: listing.event_id,
    quantity: q,
    currency: input.currency,
    unit_price: unitPrice,
    payment_method: input.method,
    // the listing's terms as the buyer saw them: what the booking, its fees and the seller's takings are of,
    // whatever the seller edits in the listing afterwards
    category: listing.category,
    ticket_block: listing.ticket_block,
    row: listing.row,
    seats: taken.seats,
    ticket_type_id: listing.ticket_type_id,
    seller_unit_price: listing.price,
    seller_currency: listing.currency,
    in_hand_date: listing.in_hand_date,
    face_value: listing.face_value,
    restrictions: listing.restrictions,
    expires_at: expiresAt,
    at,
  });
  if (!row) throw new Error('the cart was not written');
  return {
    cart_id: row.id,
    status: 'held',
    message: `Tickets held for ${Math.round(holdMs / 60_000)} minutes.`,
    sell_ticket_id: listing.id,
    match_id: listing.event_id,
    quantity: q,
    currency: input.currency,
    payment_method: input.method,
    expires_at: expiresAt,
    hold_seconds_left: secondsLeft(expiresAt, now),
    price_breakdown: breakdown,
    terms: {
      face_value: listing.face_value,
      face_value_currency: listing.currency as CurrencyCode,
      seats: taken.seats,
      restrictions: restrictionsOf(listing.restrictions),
    },
  };
}
