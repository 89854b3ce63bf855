/**
 * The purchase's reads: a booking as the purchase page shows it (`bookingView`, built from values, the same
 * whether they were read or are in hand after a write), the buyer's bookings, and the few rows the writes read.
 */
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import { restrictionsOf } from '../listings/rules';
import { bookingDeliveries } from '../sales/buyer-view';
import { guestFieldsOf } from './catalog';
import { releaseDueHolds } from './holds';
import { type CurrencyCode, type PaymentMethod, TICKET_TYPE_NAMES } from './pricing';
import { type Attendee, type BillingAddress, type Booking, type BookingRow, breakdownOf, secondsLeft } from './rules';

const bookingColumns = [
  'bookings.id',
  'bookings.booking_no',
  'bookings.cart_id',
  'bookings.buyer_id',
  'bookings.user_id',
  'bookings.seller_id',
  'bookings.listing_id',
  'bookings.event_id',
  'bookings.quantity',
  'bookings.currency',
  'bookings.unit_price',
  'bookings.payment_method',
  'bookings.status',
  'bookings.status_reason',
  'bookings.billing',
  'bookings.guest_fields',
  'bookings.attendees',
  'bookings.guests_complete',
  'bookings.order_id',
  'bookings.expires_at',
  'bookings.confirmed_at',
  'bookings.created_at',
] as const;

const viewQuery = (db: Db) =>
  db
    .selectFrom('bookings')
    .innerJoin('carts', 'carts.id', 'bookings.cart_id')
    .innerJoin('events', 'events.id', 'bookings.event_id')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id')
    .select([
      ...bookingColumns,
      // the seats and ticket type the cart held, not the listing's of now
      'carts.category',
      'carts.ticket_block',
      'carts.row',
      'carts.ticket_type_id',
      'carts.seats',
      'carts.face_value',
      'carts.restrictions',
      'carts.seller_currency',
      'events.name as match_name',
      'events.event_date',
      'events.event_time',
      'events.stadium_name',
      'cities.name as city_name',
      'countries.name as country_name',
    ]);

/** The seats and ticket type a booking's cart held. */
export interface HeldTerms {
  category: string;
  ticket_block: string;
  row: string;
  ticket_type_id: number;
  seats: string | null;
  face_value: number | null;
  restrictions: string;
  /** the listing's currency, the one its face value is in */
  seller_currency: string;
}

/** What the purchase page shows of a booking's event. */
export interface EventShown {
  match_name: string;
  event_date: string;
  event_time: string;
  stadium_name: string;
  city_name: string;
  country_name: string;
  /** the club's transfer window, hours before kick-off (mobile tickets), or none */
  transfer_window_hours?: number | null;
}

type ViewRow = BookingRow & HeldTerms & EventShown;

/** The event as a booking shows it, by the event's id: one row, built and compiled once. */
export const eventShownById = prepared((db, $: { id: number }) =>
  db
    .selectFrom('events')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id')
    .select([
      'events.name as match_name',
      'events.event_date',
      'events.event_time',
      'events.stadium_name',
      'events.transfer_window_hours',
      'cities.name as city_name',
      'countries.name as country_name',
    ])
    .where('events.id', '=', $.id),
);

type Payment = NonNullable<Booking['payment']>;
type Delivery = Booking['delivery'];

/** A booking as the purchase page shows it, from its row, its cart's terms, its event, payment and delivery. */
export function bookingView(r: ViewRow, payment: Payment | null, delivery: Delivery, now: Date): Booking {
  const required = guestFieldsOf(r.guest_fields);
  return {
    booking_id: r.id,
    booking_no: r.booking_no,
    cart_id: r.cart_id,
    status: r.status as Booking['status'],
    status_reason: r.status_reason,
    match_id: r.event_id,
    sell_ticket_id: r.listing_id,
    match_name: r.match_name,
    match_date: r.event_date,
    match_time: r.event_time,
    stadium_name: r.stadium_name,
    city_name: r.city_name,
    country_name: r.country_name,
    Category: r.category,
    ticket_block: r.ticket_block,
    row: r.row,
    Ticket_type: TICKET_TYPE_NAMES[r.ticket_type_id] ?? 'Ticket',
    ticket_type_id: r.ticket_type_id as Booking['ticket_type_id'],
    quantity: r.quantity,
    currency: r.currency as CurrencyCode,
    payment_method: r.payment_method as PaymentMethod,
    price_breakdown: breakdownOf(r, r.payment_method),
    billing_address: JSON.parse(r.billing) as BillingAddress,
    guest_data: {
      list:
        required.length === 0
          ? []
          : Array.from({ length: r.quantity }, (_, i) => ({ index: i + 1, required_fields: required })),
    },
    attendees: JSON.parse(r.attendees) as Attendee[],
    guest_details_complete: r.guests_complete === 1 ? 1 : 0,
    expires_at: r.expires_at,
    hold_seconds_left: r.status === 'pending' ? secondsLeft(r.expires_at, now) : 0,
    payment,
    terms: {
      face_value: r.face_value,
      face_value_currency: r.seller_currency as CurrencyCode,
      seats: r.seats,
      restrictions: restrictionsOf(r.restrictions),
    },
    created_at: r.created_at,
    confirmed_at: r.confirmed_at,
    delivery,
  };
}

async function viewsOf(db: Db, rows: ViewRow[], now: Date): Promise<Booking[]> {
  const ids = rows.map((r) => r.id);
  const payments =
    ids.length === 0
      ? []
      : await db
          .selectFrom('payments')
          .select([
            'booking_id',
            'payment_method',
            'gateway',
            'status',
            'reference',
            'amount',
            'currency',
            'refunded_amount',
            'authentication',
            'id',
          ])
          .where('booking_id', 'in', ids)
          .where('status', 'in', ['succeeded', 'refunded'])
          .orderBy('id', 'desc')
          .execute();
  const paymentOf = new Map<number, (typeof payments)[number]>();
  for (const p of payments) if (!paymentOf.has(p.booking_id)) paymentOf.set(p.booking_id, p);
  // the sale behind each confirmed booking, as the buyer sees its delivery
  const deliveryOf = await bookingDeliveries(db, rows, now);
  return rows.map((r) => {
    const p = paymentOf.get(r.id);
    const payment: Payment | null = p
      ? {
          payment_method: p.payment_method as PaymentMethod,
          gateway: p.gateway as Payment['gateway'],
          status: p.status as Payment['status'],
          reference: p.reference,
          amount: Number(p.amount),
          currency: p.currency as CurrencyCode,
          refunded_amount: Number(p.refunded_amount),
          authentication: p.authentication as Payment['authentication'],
        }
      : null;
    return bookingView(r, payment, deliveryOf.get(r.id) ?? null, now);
  });
}

/** The caller's booking; with `method`, its price breakdown is paying by that method's (its fee). */
export async function findBooking(
  db: Db,
  buyerId: number,
  bookingId: number,
  now: Date,
  method?: PaymentMethod,
): Promise<Booking | undefined> {
  const row = await viewQuery(db)
    .where('bookings.id', '=', bookingId)
    .where('bookings.buyer_id', '=', buyerId)
    .executeTakeFirst();
  if (!row) return undefined;
  const booking = (await viewsOf(db, [row as ViewRow], now))[0];
  return booking && method ? { ...booking, price_breakdown: breakdownOf(row as ViewRow, method) } : booking;
}

export async function bookingOrThrow(db: Db, buyerId: number, bookingId: number, now: Date): Promise<Booking> {
  const booking = await findBooking(db, buyerId, bookingId, now);
  if (!booking) throw new Error(`booking ${bookingId} vanished inside its own transaction`);
  return booking;
}

/** Whether a booking is the buyer's (another buyer's and an unknown one are alike: not found). */
export async function ownsBooking(db: Db, buyerId: number, bookingId: number): Promise<boolean> {
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('id', '=', bookingId)
    .where('buyer_id', '=', buyerId)
    .executeTakeFirst();
  return !!row;
}
/** A page of the buyer's bookings, newest first; ended holds are released first, so they read expired. */
export async function bookingHistory(
  db: Db,
  buyerId: number,
  filters: { status?: string; booking_no?: string },
  page: { limit: number; offset: number },
  now: Date,
): Promise<{ rows: Booking[]; total: number }> {
  await releaseDueHolds(db, now, { buyerId });
  let q = viewQuery(db).where('bookings.buyer_id', '=', buyerId);
  let c = db.selectFrom('bookings').where('buyer_id', '=', buyerId);
  if (filters.status) {
    q = q.where('bookings.status', '=', filters.status);
    c = c.where('status', '=', filters.status);
  }
  if (filters.booking_no) {
    q = q.where('bookings.booking_no', '=', filters.booking_no);
    c = c.where('booking_no', '=', filters.booking_no);
  }
  const [count, rows] = await Promise.all([
    c.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    q
      .orderBy('bookings.created_at', 'desc')
      .orderBy('bookings.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return { rows: await viewsOf(db, rows as ViewRow[], now), total: Number(count.n) };
}
