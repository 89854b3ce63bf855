/**
 * Seat alerts, the matching (every ALERT_SWEEP_MS, by the housekeeping): each live alert, oldest first (first come
 * first served), meets the listings of its event that fit it, new, repriced or given back by an ended hold alike.
 * The cheapest that fits is held for its buyer by a cart of ALERT_HOLD_MINUTES (createCart: the same conditional
 * take as a purchase, so a seat is never held twice, and the carts' own release gives it back exactly once when
 * the hold ends), and the buyer is told in the app (and by mail when they asked). An alert whose listing is held
 * by an earlier alert waits in that listing's queue, its place shown. An alert holds one listing at a time, and a
 * buyer hears of a listing once.
 */
import type { Db } from '../../db/database';
import type { SeatAlertMatchState } from '../../db/schema-alerts';
import { inTransaction } from '../../db/transaction';
import { HttpError } from '../../http/errors';
import type { Mailer } from '../../mail/port';
import { notify } from '../notifications';
import { createCart } from '../purchase/carts';
import { amountText, type CurrencyCode } from '../purchase/pricing';
import { ALERT_HOLD_MINUTES, ALERT_HOLD_MS, type CandidateListing, splitFits, unitAllIn, wanted } from './rules';

/** Where a held match sends the buyer: the event's page in the trade area. */
const eventPage = (eventId: number) => `/trade/events/${eventId}`;

/** Settles the holds that ended: bought when their booking is confirmed, else lapsed. */
async function settleHolds(db: Db) {
  await db
    .updateTable('seat_alert_matches')
    .set({ state: 'bought' })
    .where('state', '=', 'held')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('bookings')
          .select('bookings.id')
          .whereRef('bookings.cart_id', '=', 'seat_alert_matches.cart_id')
          .where('bookings.status', '=', 'confirmed'),
      ),
    )
    .execute();
  await db
    .updateTable('seat_alert_matches')
    .set({ state: 'lapsed' })
    .where('state', '=', 'held')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('carts')
          .select('carts.id')
          .whereRef('carts.id', '=', 'seat_alert_matches.cart_id')
          .where('carts.hold_state', '<>', 'holding'),
      ),
    )
    .execute();
}

type LiveAlert = {
  id: number;
  buyer_id: number;
  user_id: number;
  event_id: number;
  quantity: number;
  category: string | null;
  blocks: string | null;
  max_price: number;
  currency: string;
  by_mail: number;
  email: string;
  match_name: string;
};

/** Matches every live alert once; answers how many holds it made. */
export async function matchAlerts(db: Db, mailer: Mailer | null, now: Date, limit = 2_000): Promise<number> {
  await settleHolds(db);
  const today = now.toISOString().slice(0, 10);
  const alerts: LiveAlert[] = await db
    .selectFrom('seat_alerts')
    .innerJoin('events', 'events.id', 'seat_alerts.event_id')
    .innerJoin('users', 'users.id', 'seat_alerts.user_id')
    .select([
      'seat_alerts.id',
      'seat_alerts.buyer_id',
      'seat_alerts.user_id',
      'seat_alerts.event_id',
      'seat_alerts.quantity',
      'seat_alerts.category',
      'seat_alerts.blocks',
      'seat_alerts.max_price',
      'seat_alerts.currency',
      'seat_alerts.by_mail',
      'users.email',
      'events.name as match_name',
    ])
    .where('seat_alerts.state', '=', 'active')
    .where('events.event_date', '>=', today)
    .orderBy('seat_alerts.id')
    .limit(limit)
    .execute();
  if (alerts.length === 0) return 0;
  const eventIds = [...new Set(alerts.map((a) => a.event_id))];
  const listings: CandidateListing[] = await db
    .selectFrom('listings')
    .select([
      'id',
      'seller_id',
      'event_id',
      'category',
      'ticket_block',
      'available',
      'split_type',
      'price',
      'currency',
      'ticket_type_id',
    ])
    .where('event_id', 'in', eventIds)
    .where('status', '=', 'published')
    .execute();
  const matches = await db
    .selectFrom('seat_alert_matches')
    .innerJoin('carts', (j) => j.onRef('carts.id', '=', 'seat_alert_matches.cart_id'))
    .select(['seat_alert_matches.listing_id', 'carts.quantity'])
    .where('seat_alert_matches.state', '=', 'held')
    .where('carts.hold_state', '=', 'holding')
    .where(
      'seat_alert_matches.alert_id',
      'in',
      db.selectFrom('seat_alerts').select('id').where('event_id', 'in', eventIds),
    )
    .execute();
  // the seats each listing has held for alerts: they come back to its queue when a hold ends
  const heldFor = new Map<number, number>();
  for (const m of matches) heldFor.set(m.listing_id, (heldFor.get(m.listing_id) ?? 0) + m.quantity);
  const pairs = await db
    .selectFrom('seat_alert_matches')
    .select(['alert_id', 'listing_id', 'state'])
    .where(
      'alert_id',
      'in',
      alerts.map((a) => a.id),
    )
    .execute();
  const told = new Map(pairs.map((p) => [`${p.alert_id}:${p.listing_id}`, p.state as SeatAlertMatchState]));
  const holding = new Set(pairs.filter((p) => p.state === 'held').map((p) => p.alert_id));

  let held = 0;
  for (const alert of alerts) {
    if (holding.has(alert.id)) continue;
    const fitting = listings
      .filter((l) => wanted(alert, l))
      .map((l) => ({ l, unit: unitAllIn(alert, l) }))
      .sort((a, b) => a.unit - b.unit || a.l.id - b.l.id);
    for (const { l, unit } of fitting) {
      const before = told.get(`${alert.id}:${l.id}`);
      if (before !== undefined && before !== 'waiting') continue;
      if (splitFits(alert, l, l.available)) {
        const cartId = await holdFor(db, mailer, alert, l, unit, now);
        if (cartId === null) continue;
        l.available -= alert.quantity;
        heldFor.set(l.id, (heldFor.get(l.id) ?? 0) + alert.quantity);
        told.set(`${alert.id}:${l.id}`, 'held');
        held += 1;
        break;
      }
      // the seats an earlier alert holds: this one waits for them, if they would fit it once given back
      if (before === undefined && splitFits(alert, l, l.available + (heldFor.get(l.id) ?? 0))) {
        await db
          .insertInto('seat_alert_matches')
          .values({
            alert_id: alert.id,
            listing_id: l.id,
            state: 'waiting',
            unit_all_in: unit,
            matched_at: now.toISOString(),
          })
          .execute();
        told.set(`${alert.id}:${l.id}`, 'waiting');
      }
    }
  }
  return held;
}

/**
 * Holds the seats of `l` for the alert's buyer, tells them, and records the match, in one transaction: the cart
 * is undone with the record when anything fails. Answers the cart, or null when the seats went meanwhile or the
 * buyer holds as many as one may.
 */
async function holdFor(db: Db, mailer: Mailer | null, alert: LiveAlert, l: CandidateListing, unit: number, now: Date) {
  try {
    return await inTransaction(db, async (trx) => {
      const cart = await createCart(
        trx,
        {
          buyerId: alert.buyer_id,
          userId: alert.user_id,
          listingId: l.id,
          matchId: l.event_id,
          quantity: alert.quantity,
          currency: alert.currency as CurrencyCode,
          method: 1,
          holdMs: ALERT_HOLD_MS,
        },
        now,
      );
      const at = now.toISOString();
      const values = { state: 'held' as const, unit_all_in: unit, cart_id: cart.cart_id, held_at: at };
      await trx
        .insertInto('seat_alert_matches')
        .values({ alert_id: alert.id, listing_id: l.id, matched_at: at, ...values })
        .onConflict((oc) => oc.columns(['alert_id', 'listing_id']).doUpdateSet(values))
        .execute();
      const what =
        `${alert.quantity} together in ${l.category}, ${l.ticket_block}, for ${alert.match_name} at ` +
        `${amountText(unit)} ${alert.currency} each all-in`;
      const description = `Seat alert: ${what}. Held for you for ${ALERT_HOLD_MINUTES} minutes.`;
      await notify(trx, {
        userId: alert.user_id,
        name: 'seat_alert_held',
        description,
        link: eventPage(l.event_id),
        at: now,
      });
      if (alert.by_mail && mailer) {
        await mailer.send(trx, {
          to: alert.email,
          subject: `Seats held for you: ${alert.match_name}`,
          text: [
            'Hello,',
            '',
            `Your seat alert found ${what}.`,
            `They are held for you for ${ALERT_HOLD_MINUTES} minutes (${eventPage(l.event_id)}).`,
          ].join('\n'),
        });
      }
      return cart.cart_id;
    });
  } catch (error) {
    if (error instanceof HttpError && (error.status === 409 || error.status === 429 || error.status === 422)) {
      return null;
    }
    throw error;
  }
}
