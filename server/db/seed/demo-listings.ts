import { sql } from 'kysely';
import type { Clock } from '../../clock';
import type { NewListing } from '../../domain/listings/checks';
import { createListings, setStatus } from '../../domain/listings/commands';
import { updatePrices } from '../../domain/listings/prices';
import { RESTRICTIONS, STADIUM_LAYOUT } from '../../domain/listings/rules';
import type { Db } from '../database';
import { prng } from './demo-sales';

type Rng = () => number;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)] as T;

/** How many more listings the demo seller gets (beside the sales and trade demos' ones). */
export const DEMO_SELLER_EXTRA_LISTINGS = 240;

const NOTES = [
  'Seats together. E-tickets sent a week before the match.',
  'Great view of the pitch.',
  'Includes lounge access before kick-off.',
  'Aisle seats.',
];

/**
 * The Inventory demo (issue 11): the demo seller gets a realistic inventory over the upcoming matches (about 300
 * listings with the earlier demos', some unpublished, some repriced, so the log has history) and two event
 * requests (one pending, one rejected). Made through the inventory's own domain code, so every listing has its
 * 'created' log row. The earlier demos recorded orders against listings without taking their tickets from the
 * quantity; the quantities are raised so that every listing's quantity covers its sold and unsold tickets.
 */
export async function seedDemoListings(db: Db, clock: Clock, who: { seller: number }) {
  const now = clock.now();
  const rng = prng(20261111);

  const sold = sql<number>`COALESCE((SELECT SUM(o.quantity) FROM orders o
    WHERE o.listing_id = listings.id AND o.status <> 'cancelled'), 0)`;
  const held = sql<number>`COALESCE((SELECT SUM(c.quantity) FROM carts c
    WHERE c.listing_id = listings.id AND c.hold_state = 'holding'), 0)`;
  await db
    .updateTable('listings')
    .set({ quantity: sql<number>`available + withheld + ${sold} + ${held}` })
    .where(sql<boolean>`quantity < available + withheld + ${sold} + ${held}`)
    .execute();

  const events = await db
    .selectFrom('events')
    .select('id')
    .where('event_date', '>=', now.toISOString().slice(0, 10))
    .orderBy('event_date')
    .orderBy('id')
    .execute();
  if (events.length === 0) return;
  const inputs: NewListing[] = [];
  for (let i = 0; i < DEMO_SELLER_EXTRA_LISTINGS; i++) {
    const category = pick(rng, STADIUM_LAYOUT);
    const currency = rng() < 0.85 ? 'GBP' : pick(rng, ['EUR', 'USD'] as const);
    const split = pick(rng, ['any', 'any', 'any', 'pairs', 'avoid_single', 'all_together'] as const);
    let quantity = int(rng, 1, 10);
    if (split === 'pairs' && quantity % 2 === 1) quantity += 1;
    inputs.push({
      match_id: (events[i % events.length] as { id: number }).id,
      category: category.name,
      ticket_block: pick(rng, category.blocks),
      row: String(int(rng, 1, 35)),
      seats: rng() < 0.3 ? `${int(rng, 1, 20)}-${int(rng, 21, 30)}` : undefined,
      ticket_type_id: int(rng, 1, 6) as NewListing['ticket_type_id'],
      quantity,
      split_type: split,
      price: int(rng, 10, 120) * 500,
      face_value: rng() < 0.5 ? int(rng, 6, 80) * 500 : undefined,
      currency,
      restrictions: rng() < 0.25 ? [pick(rng, RESTRICTIONS)] : [],
      notes: rng() < 0.3 ? pick(rng, NOTES) : undefined,
      publish: rng() >= 0.12,
    });
  }
  const actor = { sellerId: who.seller, userId: who.seller };
  const ids = await createListings(db, actor, inputs, now);
  // some history in the log: a repriced selection, and a few listings taken off sale and back
  await updatePrices(db, actor, { ticket_ids: ids.slice(0, 12), change_percent: -5 }, now);
  // a new price is an amount of one currency: one call per currency of the selection
  const repriced = ids.slice(20, 24);
  for (const currency of new Set(repriced.map((id) => inputs[ids.indexOf(id)]?.currency))) {
    const ofCurrency = repriced.filter((id) => inputs[ids.indexOf(id)]?.currency === currency);
    await updatePrices(db, actor, { ticket_ids: ofCurrency, price: 9_500 }, now);
  }
  const published = ids.filter((_, i) => inputs[i]?.publish !== false);
  await setStatus(db, actor, published.slice(30, 34), 'unpublished', now);
  await setStatus(db, actor, published.slice(30, 32), 'published', now);

  const at = now.toISOString();
  const day = 24 * 60 * 60 * 1000;
  await db
    .insertInto('event_requests')
    .values([
      {
        seller_id: who.seller,
        user_id: who.seller,
        match_name: 'Celtic vs Rangers',
        home_team: 'Celtic',
        away_team: 'Rangers',
        tournament: 'Scottish Premiership',
        match_date: new Date(now.getTime() + 40 * day).toISOString().slice(0, 10),
        match_time: '12:30',
        stadium_name: 'Celtic Park',
        city_name: 'Glasgow',
        notes: null,
        status: 'pending',
        status_reason: null,
        event_id: null,
        created_at: at,
        updated_at: at,
      },
      {
        seller_id: who.seller,
        user_id: who.seller,
        match_name: 'Arsenal vs Chelsea (friendly)',
        home_team: 'Arsenal',
        away_team: 'Chelsea',
        tournament: null,
        match_date: new Date(now.getTime() + 20 * day).toISOString().slice(0, 10),
        match_time: null,
        stadium_name: 'Emirates Stadium',
        city_name: 'London',
        notes: 'Pre-season friendly',
        status: 'rejected',
        status_reason: 'No such fixture has been announced.',
        event_id: null,
        created_at: new Date(now.getTime() - 3 * day).toISOString(),
        updated_at: at,
      },
    ])
    .execute();
}
