/**
 * Seat alerts, the buyer's side: save one, list them with what each found (the seats held and until when, the
 * place in a listing's queue, what was bought), delete one. An alert belongs to the buyer account (a team
 * member's alert buys for its owner, as carts do).
 */
import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import type { CurrencyCode } from '../purchase/pricing';
import { type AlertWish, blockList, checkWish, MAX_ALERTS, TOO_MANY_ALERTS } from './rules';

export interface NewAlert extends AlertWish {
  buyerId: number;
  userId: number;
  eventId: number;
  byMail: boolean;
}

/** An alert as the contract answers it (SeatAlert), with what it found (SeatAlertFinding). */
export type AlertView = components['schemas']['SeatAlert'];
export type AlertFinding = components['schemas']['SeatAlertFinding'];

const EVENT_GONE = 'This event is not on sale: choose an event of the trade area.';

export async function createAlert(db: Db, a: NewAlert, now: Date): Promise<AlertView> {
  checkWish(a);
  const event = await db
    .selectFrom('events')
    .select(['id', 'event_date'])
    .where('id', '=', a.eventId)
    .executeTakeFirst();
  if (!event || event.event_date < now.toISOString().slice(0, 10)) throw new HttpError(404, EVENT_GONE);
  const live = await db
    .selectFrom('seat_alerts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('buyer_id', '=', a.buyerId)
    .where('state', '=', 'active')
    .executeTakeFirst();
  if (Number(live?.n ?? 0) >= MAX_ALERTS) throw new HttpError(409, TOO_MANY_ALERTS);
  const blocks = blockList(a.blocks);
  const row = await db
    .insertInto('seat_alerts')
    .values({
      buyer_id: a.buyerId,
      user_id: a.userId,
      event_id: a.eventId,
      quantity: a.quantity,
      category: a.category?.trim() || null,
      blocks: blocks.length > 0 ? blocks.join(',') : null,
      max_price: a.maxPrice,
      currency: a.currency,
      by_mail: a.byMail ? 1 : 0,
      state: 'active',
      created_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const [view] = await listAlerts(db, a.buyerId, now, row.id);
  if (!view) throw new Error('the alert was not written');
  return view;
}

/** Deletes an alert of the buyer's (another's answers 404); a hold it made runs to its end. */
export async function deleteAlert(db: Db, buyerId: number, id: number): Promise<void> {
  const gone = await db
    .updateTable('seat_alerts')
    .set({ state: 'deleted' })
    .where('id', '=', id)
    .where('buyer_id', '=', buyerId)
    .where('state', '=', 'active')
    .executeTakeFirst();
  if (gone.numUpdatedRows !== 1n) throw new HttpError(404, 'No such seat alert.');
  await db
    .updateTable('seat_alert_matches')
    .set({ state: 'lapsed' })
    .where('alert_id', '=', id)
    .where('state', '=', 'waiting')
    .execute();
}

/** The buyer's live alerts, newest first (or the one `only` names), each with what it found. */
export async function listAlerts(db: Db, buyerId: number, now: Date, only?: number): Promise<AlertView[]> {
  let q = db
    .selectFrom('seat_alerts')
    .innerJoin('events', 'events.id', 'seat_alerts.event_id')
    .select([
      'seat_alerts.id',
      'seat_alerts.event_id',
      'events.name as match_name',
      'events.event_date',
      'seat_alerts.quantity',
      'seat_alerts.category',
      'seat_alerts.blocks',
      'seat_alerts.max_price',
      'seat_alerts.currency',
      'seat_alerts.by_mail',
      'seat_alerts.created_at',
    ])
    .where('seat_alerts.buyer_id', '=', buyerId)
    .where('seat_alerts.state', '=', 'active')
    .orderBy('seat_alerts.id', 'desc');
  if (only !== undefined) q = q.where('seat_alerts.id', '=', only);
  const alerts = await q.execute();
  if (alerts.length === 0) return [];
  const ids = alerts.map((a) => a.id);
  const found = await db
    .selectFrom('seat_alert_matches as m')
    .innerJoin('listings', 'listings.id', 'm.listing_id')
    .leftJoin('carts', 'carts.id', 'm.cart_id')
    .select([
      'm.id',
      'm.alert_id',
      'm.listing_id',
      'm.state',
      'm.unit_all_in',
      'm.cart_id',
      'listings.category',
      'listings.ticket_block',
      'carts.expires_at',
      'carts.hold_state',
      // the place in the listing's queue: the live alerts that waited for it before this one, plus one
      (eb) =>
        eb
          .selectFrom('seat_alert_matches as w')
          .innerJoin('seat_alerts as wa', 'wa.id', 'w.alert_id')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('w.listing_id', '=', 'm.listing_id')
          .where('w.state', '=', 'waiting')
          .where('wa.state', '=', 'active')
          .whereRef('w.id', '<', 'm.id')
          .as('ahead'),
    ])
    .where('m.alert_id', 'in', ids)
    .orderBy('m.id', 'desc')
    .execute();
  const at = now.toISOString();
  return alerts.map((a) => {
    const mine = found.filter((f) => f.alert_id === a.id);
    return {
      id: a.id,
      event_id: a.event_id,
      match_name: a.match_name,
      event_date: a.event_date,
      quantity: a.quantity,
      category: a.category,
      blocks: a.blocks ? a.blocks.split(',') : [],
      max_price: Number(a.max_price),
      currency: a.currency as CurrencyCode,
      by_mail: a.by_mail === 1,
      created_at: a.created_at,
      findings: mine.map((f) => {
        // a hold whose time ran out reads lapsed at once, whether or not the sweep has freed it yet
        const live = f.state === 'held' && f.hold_state === 'holding' && (f.expires_at ?? '') > at;
        const state = f.state === 'held' && !live ? 'lapsed' : f.state;
        return {
          listing_id: f.listing_id,
          state,
          unit_all_in: Number(f.unit_all_in),
          category: f.category,
          ticket_block: f.ticket_block,
          cart_id: state === 'held' ? f.cart_id : null,
          held_until: state === 'held' ? (f.expires_at ?? null) : null,
          queue_place: state === 'waiting' ? Number(f.ahead ?? 0) + 1 : null,
        };
      }),
      holds: mine.filter((f) => f.cart_id !== null).length,
      bought: mine.filter((f) => f.state === 'bought').length,
    };
  });
}
