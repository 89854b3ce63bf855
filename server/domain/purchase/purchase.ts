import { sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { FieldError } from '../../contract/contract';
import type { Db } from '../../db/database';
import { HttpError, KeptRefusal, MESSAGES } from '../../http/errors';
import type { Payments } from '../../payments/port';
import { InsufficientFunds, payFromWallet, walletBalances } from '../ledger';
import { notificationLinks, notify } from '../notifications';
import { recordOrder } from '../sales';
import { bookingDeliveries } from '../sales-delivery';
import { findListing, GUEST_FIELDS, type GuestField, guestFieldsOf, unitPriceOf } from './catalog';
import {
  checkHoldLimit,
  expireCart,
  HOLD_ENDED_REASON,
  HOLD_EXPIRED_MESSAGE,
  releaseCart,
  releaseDueHolds,
} from './holds';
import {
  type CurrencyCode,
  chargeProblem,
  HOLD_MS,
  type PaymentMethod,
  type PricingProblem,
  priceBreakdown,
  pricingProblem,
  splitList,
  TICKET_TYPE_NAMES,
} from './pricing';

export type Cart = components['schemas']['Cart'];
export type Booking = components['schemas']['Booking'];
export type PaymentResult = components['schemas']['PaymentResult'];
export type Attendee = components['schemas']['Attendee'];
type FailureReason = components['schemas']['PaymentFailureReason'];
type BillingAddress = components['schemas']['BillingAddress'];

export const CONFIRMED_MESSAGE = 'Booking Confirmed Successfully';
export const GUESTS_MISSING_MESSAGE = 'submit all guest details';
export const NO_BILLING_ADDRESS_MESSAGE = 'Please add a billing address';
export const LATE_PAYMENT_REASON = 'The payment arrived after the 15-minute hold ended; it was refunded.';
const NOT_FOUND_TICKETS = 'These tickets were not found.';
const NO_LONGER_AVAILABLE = 'These tickets are no longer available.';
const SYMBOLS: Record<string, string> = { GBP: '£', EUR: '€', USD: '$', AED: 'AED ' };
/** '£1,240.50' from 124050 minor units. */
export const money = (minor: number, currency: string) =>
  `${SYMBOLS[currency] ?? `${currency} `}${Math.floor(minor / 100).toLocaleString('en-GB')}.${String(minor % 100).padStart(2, '0')}`;

const invalid = (errors: FieldError[], message: string = MESSAGES.validation) => new HttpError(422, message, errors);
const unpriced = (problem: PricingProblem) => new HttpError(422, problem.message, [problem.error]);
/** What a buyer can do with a booking whose total is below the minimum charge (made before that rule). */
export const UNPAYABLE = 'It cannot be paid: cancel this booking and choose more tickets.';
/** The booking's charge by `method`, refused (422) below the minimum charge: nothing confirms a total of 0. */
function chargeOf(b: BookingRow, ticketTypeId: number, method: PaymentMethod): number {
  const priced = breakdownOf({ ...b, ticket_type_id: ticketTypeId }, method);
  const problem = chargeProblem(priced, '/body/booking_id', UNPAYABLE);
  if (problem) throw unpriced(problem);
  return priced.total_with_payment_fee;
}
const iso = (d: Date) => d.toISOString();
const secondsLeft = (expiresAt: string, now: Date) =>
  Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));

// ------------------------------------------------------------------------------------------------------------
// Carts

export interface NewCart {
  buyerId: number;
  userId: number;
  listingId: number;
  matchId: number;
  quantity: number;
  currency: CurrencyCode;
  method: PaymentMethod;
}

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
  let take = db
    .updateTable('listings')
    .set({ available: sql<number>`available - ${q}` })
    .where('id', '=', listing.id)
    .where('available', '>=', q);
  if (listing.split_type === 'all_together') take = take.where('available', '=', q);
  if (listing.split_type === 'avoid_single') take = take.where('available', '<>', q + 1);
  // the seats come back with the take (the catalogue's row does not carry them): the cart keeps them
  const taken = await take.returning('seats').executeTakeFirst();
  if (!taken) {
    const left = await db.selectFrom('listings').select('available').where('id', '=', listing.id).executeTakeFirst();
    throw new HttpError(
      409,
      left && left.available > 0 ? `Sorry, only ${left.available} tickets are left.` : NO_LONGER_AVAILABLE,
    );
  }
  const at = iso(now);
  const expiresAt = iso(new Date(now.getTime() + HOLD_MS));
  const row = await db
    .insertInto('carts')
    .values({
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
      status: 'held',
      hold_state: 'holding',
      expires_at: expiresAt,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    cart_id: row.id,
    status: 'held',
    message: 'Tickets held for 15 minutes.',
    sell_ticket_id: listing.id,
    match_id: listing.event_id,
    quantity: q,
    currency: input.currency,
    payment_method: input.method,
    expires_at: expiresAt,
    hold_seconds_left: secondsLeft(expiresAt, now),
    price_breakdown: breakdown,
  };
}

// ------------------------------------------------------------------------------------------------------------
// Bookings

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

type BookingRow = {
  id: number;
  booking_no: string;
  cart_id: number;
  buyer_id: number;
  user_id: number;
  seller_id: number;
  listing_id: number;
  event_id: number;
  quantity: number;
  currency: string;
  unit_price: number;
  payment_method: number;
  status: string;
  status_reason: string | null;
  billing: string;
  guest_fields: string;
  attendees: string;
  guests_complete: number;
  order_id: number | null;
  expires_at: string;
  confirmed_at: string | null;
  created_at: string;
};

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
      'events.name as match_name',
      'events.event_date',
      'events.event_time',
      'events.stadium_name',
      'cities.name as city_name',
      'countries.name as country_name',
    ]);

type ViewRow = BookingRow & {
  category: string;
  ticket_block: string;
  row: string;
  ticket_type_id: number;
  match_name: string;
  event_date: string;
  event_time: string;
  stadium_name: string;
  city_name: string;
  country_name: string;
};

const breakdownOf = (b: Pick<ViewRow, 'currency' | 'unit_price' | 'quantity' | 'ticket_type_id'>, method: number) =>
  priceBreakdown({
    currency: b.currency as CurrencyCode,
    unitPrice: b.unit_price,
    quantity: b.quantity,
    ticketTypeId: b.ticket_type_id,
    method: method as PaymentMethod,
  });

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
            'id',
          ])
          .where('booking_id', 'in', ids)
          .where('status', 'in', ['succeeded', 'refunded'])
          .orderBy('id', 'desc')
          .execute();
  const paymentOf = new Map<number, (typeof payments)[number]>();
  for (const p of payments) if (!paymentOf.has(p.booking_id)) paymentOf.set(p.booking_id, p);
  // issue 12: the sale behind each confirmed booking, as the buyer sees its delivery
  const deliveryOf = await bookingDeliveries(db, rows);
  return rows.map((r) => {
    const required = guestFieldsOf(r.guest_fields);
    const p = paymentOf.get(r.id);
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
      payment: p
        ? {
            payment_method: p.payment_method as PaymentMethod,
            gateway: p.gateway as 'sbpay' | 'stripe' | 'adyen' | 'sandbox',
            status: p.status as 'succeeded' | 'refunded',
            reference: p.reference,
            amount: Number(p.amount),
            currency: p.currency as CurrencyCode,
            refunded_amount: Number(p.refunded_amount),
          }
        : null,
      created_at: r.created_at,
      confirmed_at: r.confirmed_at,
      delivery: deliveryOf.get(r.id) ?? null,
    };
  });
}

/** One booking of the buyer as the purchase page shows it, or undefined (another buyer's, or none). */
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

async function bookingOrThrow(db: Db, buyerId: number, bookingId: number, now: Date): Promise<Booking> {
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

export interface BillingInput {
  address_id?: number;
  first_name?: string;
  last_name?: string;
  email?: string;
  dialing_code?: string;
  mobile_no?: string;
  country?: number;
  city?: number | null;
  address?: string;
  postal_code?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The billing address: the caller's saved one, or the billing form's fields with its rules. */
async function billingOf(db: Db, buyerId: number, input: BillingInput): Promise<BillingAddress> {
  if (input.address_id !== undefined) {
    const a = await db
      .selectFrom('addresses')
      .innerJoin('countries', 'countries.id', 'addresses.country_id')
      .leftJoin('cities', 'cities.id', 'addresses.city_id')
      .select([
        'addresses.first_name',
        'addresses.last_name',
        'addresses.email',
        'addresses.country_code',
        'addresses.mobile_number',
        'addresses.country_id',
        'countries.name as country_name',
        'addresses.city_id',
        'cities.name as city_name',
        'addresses.address',
        'addresses.zip_code',
      ])
      .where('addresses.id', '=', input.address_id)
      .where('addresses.owner_id', '=', buyerId)
      .executeTakeFirst();
    if (!a) throw new HttpError(404, 'Address not found.');
    return {
      first_name: a.first_name,
      last_name: a.last_name,
      email: a.email,
      dialing_code: a.country_code,
      mobile_no: a.mobile_number,
      country: a.country_id,
      country_name: a.country_name,
      city: a.city_id,
      city_name: a.city_name,
      address: a.address,
      postal_code: a.zip_code,
    };
  }
  const text = (v: string | undefined) => v?.trim() ?? '';
  const required = ['first_name', 'last_name', 'email', 'address', 'country', 'postal_code'] as const;
  const missing = required.filter((f) => (f === 'country' ? input.country === undefined : text(input[f]) === ''));
  if (missing.length > 0) {
    throw invalid(
      missing.map((f) => ({ path: `/body/${f}`, message: 'is required' })),
      NO_BILLING_ADDRESS_MESSAGE,
    );
  }
  if (!EMAIL.test(text(input.email))) throw invalid([{ path: '/body/email', message: 'must be an email address' }]);
  const country = await db
    .selectFrom('countries')
    .select(['id', 'name'])
    .where('id', '=', input.country as number)
    .executeTakeFirst();
  if (!country) throw invalid([{ path: '/body/country', message: 'is not a known country' }]);
  let cityName: string | null = null;
  if (input.city !== undefined && input.city !== null) {
    const city = await db
      .selectFrom('cities')
      .select('name')
      .where('id', '=', input.city)
      .where('country_id', '=', country.id)
      .executeTakeFirst();
    if (!city) throw invalid([{ path: '/body/city', message: 'is not a city of that country' }]);
    cityName = city.name;
  }
  return {
    first_name: text(input.first_name),
    last_name: text(input.last_name),
    email: text(input.email),
    dialing_code: text(input.dialing_code) || null,
    mobile_no: text(input.mobile_no) || null,
    country: country.id,
    country_name: country.name,
    city: input.city ?? null,
    city_name: cityName,
    address: text(input.address),
    postal_code: text(input.postal_code),
  };
}

export const bookingNoOf = (cartId: number) => `BK${String(cartId).padStart(8, '0')}`;

/**
 * Makes the booking of a cart: it takes over the cart's hold (same expiry). A cart makes one booking (unique
 * cart_id): asking again answers the same booking.
 */
export async function createBooking(
  db: Db,
  input: {
    buyerId: number;
    userId: number;
    listingId: number;
    cartId: number;
    method: PaymentMethod;
    billing: BillingInput;
  },
  now: Date,
): Promise<Booking> {
  // another buyer's address is not found, whatever the cart
  const billingFirst =
    input.billing.address_id !== undefined ? await billingOf(db, input.buyerId, input.billing) : null;
  const cart = await db
    .selectFrom('carts')
    .selectAll()
    .where('id', '=', input.cartId)
    .where('buyer_id', '=', input.buyerId)
    .executeTakeFirst();
  if (!cart) throw new HttpError(404, 'Cart not found.');
  if (cart.listing_id !== input.listingId) {
    throw invalid([{ path: '/path/sell_ticket_id', message: 'is not the sell ticket of this cart' }]);
  }
  const existing = await db.selectFrom('bookings').select('id').where('cart_id', '=', cart.id).executeTakeFirst();
  if (existing) return bookingOrThrow(db, input.buyerId, existing.id, now);
  if (cart.hold_state !== 'holding' || cart.expires_at <= iso(now)) {
    if (cart.hold_state !== 'holding') throw new HttpError(409, HOLD_EXPIRED_MESSAGE);
    // the tickets go back now, and stay back: the refusal keeps the release
    await expireCart(db, cart, now);
    throw new KeptRefusal(409, HOLD_EXPIRED_MESSAGE);
  }
  const billing = billingFirst ?? (await billingOf(db, input.buyerId, input.billing));
  const listing = await db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .select(['listings.seller_id', 'events.guest_fields'])
    .where('listings.id', '=', cart.listing_id)
    .executeTakeFirstOrThrow();
  const required = guestFieldsOf(listing.guest_fields);
  const at = iso(now);
  const booked = await db
    .updateTable('carts')
    .set({ status: 'booked', payment_method: input.method, updated_at: at })
    .where('id', '=', cart.id)
    .where('status', '=', 'held')
    .executeTakeFirst();
  if (booked.numUpdatedRows !== 1n) throw new HttpError(409, HOLD_EXPIRED_MESSAGE);
  const row = await db
    .insertInto('bookings')
    .values({
      booking_no: bookingNoOf(cart.id),
      cart_id: cart.id,
      buyer_id: input.buyerId,
      user_id: input.userId,
      seller_id: listing.seller_id,
      listing_id: cart.listing_id,
      event_id: cart.event_id,
      quantity: cart.quantity,
      currency: cart.currency,
      unit_price: cart.unit_price,
      payment_method: input.method,
      status: 'pending',
      status_reason: null,
      billing: JSON.stringify(billing),
      guest_fields: required.join(','),
      attendees: '[]',
      guests_complete: required.length === 0 ? 1 : 0,
      order_id: null,
      expires_at: cart.expires_at,
      confirmed_at: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return bookingOrThrow(db, input.buyerId, row.id, now);
}

/**
 * Takes the booking's row for this transaction (an update that changes only its updated_at): two calls on one
 * booking (a double submit, a webhook beside the browser's confirmation) then run one after the other, and the
 * second reads what the first did. A pending booking whose hold has ended is expired first.
 */
async function lockBooking(
  db: Db,
  buyerId: number,
  bookingId: number,
  now: Date,
): Promise<BookingRow & { endedNow?: true }> {
  const locked = await db
    .updateTable('bookings')
    .set({ updated_at: iso(now) })
    .where('id', '=', bookingId)
    .where('buyer_id', '=', buyerId)
    .executeTakeFirst();
  if (locked.numUpdatedRows !== 1n) throw new HttpError(404, 'Booking not found.');
  const read = () => db.selectFrom('bookings').selectAll().where('id', '=', bookingId).executeTakeFirstOrThrow();
  const row = await read();
  if (row.status === 'pending' && row.expires_at <= iso(now)) {
    const cart = await db
      .selectFrom('carts')
      .select(['id', 'listing_id', 'quantity'])
      .where('id', '=', row.cart_id)
      .executeTakeFirstOrThrow();
    // endedNow: this call gave the tickets back, so a refusal of it keeps that (KeptRefusal)
    return (await expireCart(db, cart, now)) ? { ...(await read()), endedNow: true } : read();
  }
  return row;
}

/** A refusal of a call whose booking lockBooking found ended: it keeps the release (the tickets stay back). */
const refusalOf = (b: { endedNow?: true }) => (b.endedNow ? KeptRefusal : HttpError);

// ------------------------------------------------------------------------------------------------------------
// Guest details

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function fieldProblem(field: GuestField, value: string, now: Date): string | null {
  switch (field) {
    case 'contact_email':
      return EMAIL.test(value) ? null : 'must be an email address';
    case 'contact_phone':
      return /^\+?[0-9 ()-]{5,30}$/.test(value) ? null : 'must be a phone number';
    case 'gender':
      return ['male', 'female', 'other'].includes(value) ? null : 'must be male, female or other';
    case 'date_of_birth': {
      const m = DATE.exec(value);
      const date = m ? new Date(`${value}T00:00:00Z`) : null;
      if (!m || !date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
        return 'must be a date (YYYY-MM-DD)';
      }
      const latest = `${now.getUTCFullYear() - 2}-12-31`;
      if (value > latest) return `must be on or before ${latest}`;
      if (value < '1900-01-01') return 'must be on or after 1900-01-01';
      return null;
    }
    default:
      return null;
  }
}

/**
 * Stores the guests' details of a pending booking, checked against the event's required fields: every required
 * field of every guest non-empty ('submit all guest details'), and each value by its rule.
 */
export async function updateAttendees(
  db: Db,
  input: { buyerId: number; bookingId: number; attendees: Attendee[] },
  now: Date,
): Promise<Booking> {
  const booking = await lockBooking(db, input.buyerId, input.bookingId, now);
  if (booking.status !== 'pending') {
    throw new (refusalOf(booking))(
      409,
      booking.status === 'confirmed'
        ? 'This booking is confirmed; its guest details can no longer change.'
        : `This booking is ${booking.status}; its guest details can no longer change.`,
    );
  }
  const required = guestFieldsOf(booking.guest_fields);
  const asked = new Set<GuestField>([...required, 'additional_street_name']);
  const missing: FieldError[] = [];
  const wrong: FieldError[] = [];
  const byNumber = new Map<number, number>();
  input.attendees.forEach((a, i) => {
    if (a.attendee_number > booking.quantity) {
      wrong.push({ path: `/body/attendees/${i}/attendee_number`, message: `must be at most ${booking.quantity}` });
    } else if (byNumber.has(a.attendee_number)) {
      wrong.push({ path: `/body/attendees/${i}/attendee_number`, message: 'is given twice' });
    } else byNumber.set(a.attendee_number, i);
  });
  const stored: Attendee[] = [];
  for (let n = 1; n <= booking.quantity; n++) {
    const i = byNumber.get(n);
    const given = i === undefined ? undefined : input.attendees[i];
    const values = new Map<GuestField, string>();
    for (const f of given?.fields ?? []) values.set(f.field, f.value.trim());
    const at = i === undefined ? `/body/attendees/${n - 1}` : `/body/attendees/${i}`;
    for (const field of required) {
      const value = values.get(field) ?? '';
      if (value === '') missing.push({ path: `${at}/${field}`, message: 'is required' });
      else {
        const problem = fieldProblem(field, value, now);
        if (problem) wrong.push({ path: `${at}/${field}`, message: problem });
      }
    }
    const kept = GUEST_FIELDS.filter((f) => asked.has(f) && (values.get(f) ?? '') !== '').map((f) => ({
      field: f,
      value: values.get(f) as string,
    }));
    if (required.length > 0 || kept.length > 0) stored.push({ attendee_number: n, fields: kept });
  }
  if (missing.length > 0) throw invalid([...missing, ...wrong], GUESTS_MISSING_MESSAGE);
  if (wrong.length > 0) throw invalid(wrong);
  await db
    .updateTable('bookings')
    .set({ attendees: JSON.stringify(stored), guests_complete: 1, updated_at: iso(now) })
    .where('id', '=', booking.id)
    .execute();
  return bookingOrThrow(db, input.buyerId, booking.id, now);
}

/** Gives up a pending booking: cancelled, its tickets back at once. A confirmed one is 409. */
export async function cancelBooking(db: Db, buyerId: number, bookingId: number, now: Date): Promise<Booking> {
  const booking = await lockBooking(db, buyerId, bookingId, now);
  if (booking.status === 'confirmed')
    throw new HttpError(409, 'This booking is confirmed and paid; it cannot be cancelled here.');
  if (booking.status === 'pending') {
    const cart = await db
      .selectFrom('carts')
      .select(['id', 'listing_id', 'quantity'])
      .where('id', '=', booking.cart_id)
      .executeTakeFirstOrThrow();
    await releaseCart(db, cart, 'released', now);
    await db
      .updateTable('bookings')
      .set({ status: 'cancelled', status_reason: 'Cancelled by the buyer.', updated_at: iso(now) })
      .where('id', '=', booking.id)
      .where('status', '=', 'pending')
      .execute();
  }
  return bookingOrThrow(db, buyerId, booking.id, now);
}

// ------------------------------------------------------------------------------------------------------------
// Payment and confirmation

export interface Outcome {
  result: PaymentResult;
  booking: Booking;
}

const result = (
  b: Pick<BookingRow, 'id' | 'booking_no'>,
  ok: boolean,
  message: string,
  reason: FailureReason | null,
  refunded = false,
): PaymentResult => ({
  status: ok ? 1 : 0,
  booking_status: ok ? 'Success' : 'Failed',
  message,
  reason,
  refunded,
  booking_id: b.id,
  booking_no: b.booking_no,
});

async function outcome(db: Db, b: BookingRow, r: PaymentResult, now: Date): Promise<Outcome> {
  return { result: r, booking: await bookingOrThrow(db, b.buyer_id, b.id, now) };
}

/** Why a booking that is not pending cannot be paid, as a result. */
function notPayable(b: BookingRow): PaymentResult {
  if (b.status === 'cancelled') return result(b, false, 'This booking was cancelled.', 'booking_cancelled');
  if (b.status === 'failed') return result(b, false, b.status_reason ?? 'This booking failed.', 'booking_failed');
  return result(b, false, HOLD_EXPIRED_MESSAGE, 'hold_expired');
}

function requireGuests(b: BookingRow) {
  if (b.guests_complete !== 1) {
    throw invalid([{ path: '/body/booking_id', message: 'has guest details missing' }], GUESTS_MISSING_MESSAGE);
  }
}

/** The listing's terms the booking's cart held: its seats, its ticket type (the fees), the seller's price. */
async function termsOf(db: Db, cartId: number) {
  return db
    .selectFrom('carts')
    .select([
      'ticket_type_id',
      'seller_unit_price as price',
      'seller_currency as currency',
      'category',
      'ticket_block',
      'row',
      'seats',
    ])
    .where('id', '=', cartId)
    .executeTakeFirstOrThrow();
}

async function noteFailure(db: Db, b: BookingRow, reason: string, now: Date) {
  await db
    .updateTable('bookings')
    .set({ status_reason: reason, updated_at: iso(now) })
    .where('id', '=', b.id)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Claims the booking's tickets for good (the cart from holding to sold, only while its hold lasts) and confirms
 * the booking: the seller's sale (pending), the seller's notification, the buyer's activity, in the caller's
 * transaction. Answers false when the hold had ended (nothing changed).
 */
async function fulfil(db: Db, b: BookingRow, method: PaymentMethod, now: Date): Promise<boolean> {
  const at = iso(now);
  const claimed = await db
    .updateTable('carts')
    .set({ hold_state: 'sold', updated_at: at })
    .where('id', '=', b.cart_id)
    .where('hold_state', '=', 'holding')
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (claimed.numUpdatedRows !== 1n) return false;
  const listing = await termsOf(db, b.cart_id);
  const event = await db.selectFrom('events').select('name').where('id', '=', b.event_id).executeTakeFirstOrThrow();
  const order = await recordOrder(db, {
    booking_no: b.booking_no,
    listing_id: b.listing_id,
    seller_id: b.seller_id,
    event_id: b.event_id,
    quantity: b.quantity,
    // the seller's takings at its own price and currency
    amount: listing.price * b.quantity,
    currency: listing.currency as CurrencyCode,
    status: 'pending',
    created_at: at,
    buyer_user_id: b.user_id,
    sold: listing,
  });
  await db
    .updateTable('bookings')
    .set({
      status: 'confirmed',
      status_reason: null,
      payment_method: method,
      order_id: order.id,
      confirmed_at: at,
      updated_at: at,
    })
    .where('id', '=', b.id)
    .where('status', '=', 'pending')
    .execute();
  const tickets = `${b.quantity} ticket${b.quantity === 1 ? '' : 's'}`;
  await notify(db, {
    userId: b.seller_id,
    name: 'new_order',
    description: `New order ${b.booking_no}: ${tickets} for ${event.name}.`,
    link: notificationLinks.sale('pending', order.id),
    at,
  });
  await db
    .insertInto('activity_log')
    .values({
      user_id: b.user_id,
      type: 'ticket_purchased',
      description: `Bought ${tickets} for ${event.name} (${b.booking_no}).`,
      created_at: at,
    })
    .execute();
  return true;
}

async function recordPayment(
  db: Db,
  b: BookingRow,
  p: {
    method: PaymentMethod;
    gateway: string;
    reference: string;
    amount: number;
    status: string;
    failure?: string | null;
  },
  now: Date,
) {
  const at = iso(now);
  await db
    .insertInto('payments')
    .values({
      booking_id: b.id,
      buyer_id: b.buyer_id,
      payment_method: p.method,
      gateway: p.gateway,
      reference: p.reference,
      amount: p.amount,
      currency: b.currency,
      status: p.status,
      failure_reason: p.failure ?? null,
      refunded_amount: 0,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['gateway', 'reference'])
        .doUpdateSet({ status: p.status, failure_reason: p.failure ?? null, updated_at: at }),
    )
    .execute();
}

/**
 * Method 1: pays from the buyer's SB Pay wallet through the ledger and confirms, in one transaction. Too little
 * balance changes nothing (the debit and the claim are undone to a savepoint) and answers Failed.
 */
export async function confirmWithWallet(db: Db, buyerId: number, bookingId: number, now: Date): Promise<Outcome> {
  const b = await lockBooking(db, buyerId, bookingId, now);
  if (b.status === 'confirmed') return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
  if (b.status !== 'pending') return outcome(db, b, notPayable(b), now);
  requireGuests(b);
  const listing = await termsOf(db, b.cart_id);
  const total = chargeOf(b, listing.ticket_type_id, 1);
  await sql`SAVEPOINT sbpay`.execute(db);
  try {
    const posting = await payFromWallet(
      db,
      {
        userId: buyerId,
        currency: b.currency,
        amount: total,
        reference: `booking:${b.id}`,
        description: `Purchase ${b.booking_no}`,
      },
      now,
    );
    await recordPayment(
      db,
      b,
      { method: 1, gateway: 'sbpay', reference: `ledger:${posting.entryId}`, amount: total, status: 'succeeded' },
      now,
    );
    if (!(await fulfil(db, b, 1, now))) {
      await sql`ROLLBACK TO SAVEPOINT sbpay`.execute(db);
      const cart = await db
        .selectFrom('carts')
        .select(['id', 'listing_id', 'quantity'])
        .where('id', '=', b.cart_id)
        .executeTakeFirstOrThrow();
      await expireCart(db, cart, now);
      return outcome(db, b, result(b, false, HOLD_EXPIRED_MESSAGE, 'hold_expired'), now);
    }
    await sql`RELEASE SAVEPOINT sbpay`.execute(db);
  } catch (error) {
    if (!(error instanceof InsufficientFunds)) throw error;
    await sql`ROLLBACK TO SAVEPOINT sbpay`.execute(db);
    const balance = (await walletBalances(db, buyerId)).get(b.currency) ?? 0;
    const message = `Insufficient SB Pay balance: ${money(balance, b.currency)} available, ${money(total, b.currency)} needed. Top up or choose another payment method.`;
    await noteFailure(db, b, message, now);
    return outcome(db, b, result(b, false, message, 'insufficient_funds'), now);
  }
  return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
}

/** The intent a card payment of this booking made (createPaymentIntent), as we recorded it. */
async function cardPayment(db: Db, gateway: string, bookingId: number, intentId: string) {
  return db
    .selectFrom('payments')
    .select(['id', 'status', 'amount', 'reference'])
    .where('gateway', '=', gateway)
    .where('reference', '=', intentId)
    .where('booking_id', '=', bookingId)
    .executeTakeFirst();
}

async function refundCard(db: Db, payments: Payments, paymentId: number, intentId: string, now: Date) {
  await payments.card.refund(db, intentId, now);
  await db
    .updateTable('payments')
    .set({ status: 'refunded', refunded_amount: sql<number>`amount`, updated_at: iso(now) })
    .where('id', '=', paymentId)
    .execute();
}

/**
 * Method 2, and the webhook's payment_intent.succeeded: the intent is read from the gateway (never the
 * browser's word) and must have succeeded for this booking's method-2 total and currency. A payment for a
 * booking that can no longer be fulfilled (hold ended, cancelled, or paid by another payment) is refunded.
 */
export async function confirmWithCard(
  db: Db,
  payments: Payments,
  input: { buyerId: number; bookingId: number; intentId: string; fromWebhook?: boolean },
  now: Date,
): Promise<Outcome> {
  const b = await lockBooking(db, input.buyerId, input.bookingId, now);
  const payment = await cardPayment(db, payments.card.name, b.id, input.intentId);
  if (!payment)
    throw invalid([{ path: '/body/payment_intent_id', message: 'is not a payment intent of this booking' }]);
  const intent = await payments.card.retrieveIntent(db, input.intentId);
  const succeeded = intent?.status === 'succeeded';
  if (b.status === 'confirmed') {
    // paid by this intent before: nothing to do; paid by another payment: this one is refunded
    if (succeeded && payment.status === 'requires_payment_method') {
      await refundCard(db, payments, payment.id, input.intentId, now);
      return outcome(
        db,
        b,
        result(b, true, 'This booking was already paid; this card payment was refunded.', null, true),
        now,
      );
    }
    return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
  }
  if (!succeeded || !intent) {
    await noteFailure(db, b, 'The card payment has not completed.', now);
    return outcome(db, b, result(b, false, 'The card payment has not completed.', 'payment_not_completed'), now);
  }
  if (payment.status === 'refunded') {
    return outcome(db, b, result(b, false, LATE_PAYMENT_REASON, 'hold_expired', true), now);
  }
  if (b.status !== 'pending') {
    await refundCard(db, payments, payment.id, input.intentId, now);
    await lateNote(db, b, now);
    return outcome(
      db,
      b,
      { ...notPayable(b), refunded: true, ...(b.status === 'expired' ? { message: LATE_PAYMENT_REASON } : {}) },
      now,
    );
  }
  requireGuests(b);
  const listing = await termsOf(db, b.cart_id);
  const total = chargeOf(b, listing.ticket_type_id, 2);
  if (
    intent.amount !== total ||
    intent.currency.toUpperCase() !== b.currency ||
    intent.metadata.booking_id !== String(b.id)
  ) {
    await refundCard(db, payments, payment.id, input.intentId, now);
    const message = 'The card payment was not for this booking and total; it was refunded.';
    await noteFailure(db, b, message, now);
    return outcome(db, b, result(b, false, message, 'amount_mismatch', true), now);
  }
  await db
    .updateTable('payments')
    .set({ status: 'succeeded', updated_at: iso(now) })
    .where('id', '=', payment.id)
    .execute();
  if (!(await fulfil(db, b, 2, now))) {
    await refundCard(db, payments, payment.id, input.intentId, now);
    const cart = await db
      .selectFrom('carts')
      .select(['id', 'listing_id', 'quantity'])
      .where('id', '=', b.cart_id)
      .executeTakeFirstOrThrow();
    await expireCart(db, cart, now);
    await lateNote(db, b, now);
    return outcome(db, b, result(b, false, LATE_PAYMENT_REASON, 'hold_expired', true), now);
  }
  return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
}

/** An expired booking whose payment came late says so. */
async function lateNote(db: Db, b: BookingRow, now: Date) {
  await db
    .updateTable('bookings')
    .set({ status_reason: LATE_PAYMENT_REASON, updated_at: iso(now) })
    .where('id', '=', b.id)
    .where('status', 'in', ['expired', 'failed'])
    .execute();
}

/**
 * Method 3: charges a stored card by its recurring reference at the stored-card gateway (our reference per
 * booking and attempt is its idempotency key), then confirms as the others do. A refusal answers status 0
 * with 'Payment failed: {reason}', and the booking stays pending.
 */
export async function payWithStoredCard(
  db: Db,
  payments: Payments,
  input: { buyerId: number; bookingId: number; recurringDetailReference: string },
  now: Date,
): Promise<Outcome> {
  const card = await db
    .selectFrom('stored_cards')
    .select(['id', 'recurring_reference'])
    .where('owner_id', '=', input.buyerId)
    .where('recurring_reference', '=', input.recurringDetailReference)
    .executeTakeFirst();
  const b = await lockBooking(db, input.buyerId, input.bookingId, now);
  if (!card) throw invalid([{ path: '/body/recurringDetailReference', message: 'is not one of your stored cards' }]);
  if (b.status === 'confirmed') return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
  if (b.status !== 'pending') return outcome(db, b, notPayable(b), now);
  requireGuests(b);
  const listing = await termsOf(db, b.cart_id);
  const total = chargeOf(b, listing.ticket_type_id, 3);
  const attempts = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('booking_id', '=', b.id)
    .where('payment_method', '=', 3)
    .executeTakeFirstOrThrow();
  const reference = `${b.booking_no}-m3-${Number(attempts.n) + 1}`;
  const charged = await payments.storedCard.charge(
    db,
    {
      amount: total,
      currency: b.currency as CurrencyCode,
      recurringDetailReference: card.recurring_reference,
      shopperReference: `buyer-${b.buyer_id}`,
      reference,
    },
    now,
  );
  await recordPayment(
    db,
    b,
    {
      method: 3,
      gateway: payments.storedCard.name,
      reference: charged.reference,
      amount: total,
      status: charged.ok ? 'succeeded' : 'failed',
      failure: charged.ok ? null : charged.message,
    },
    now,
  );
  if (!charged.ok) {
    const message = `Payment failed: ${charged.message}`;
    await noteFailure(db, b, message, now);
    return outcome(
      db,
      b,
      result(b, false, message, charged.reason === 'unknown_card' ? 'unknown_card' : charged.reason),
      now,
    );
  }
  if (!(await fulfil(db, b, 3, now))) {
    await payments.storedCard.refund(db, charged.reference, total, b.currency as CurrencyCode);
    await db
      .updateTable('payments')
      .set({ status: 'refunded', refunded_amount: total, updated_at: iso(now) })
      .where('gateway', '=', payments.storedCard.name)
      .where('reference', '=', charged.reference)
      .execute();
    const cart = await db
      .selectFrom('carts')
      .select(['id', 'listing_id', 'quantity'])
      .where('id', '=', b.cart_id)
      .executeTakeFirstOrThrow();
    await expireCart(db, cart, now);
    await lateNote(db, b, now);
    return outcome(db, b, result(b, false, LATE_PAYMENT_REASON, 'hold_expired', true), now);
  }
  return outcome(db, b, result(b, true, CONFIRMED_MESSAGE, null), now);
}

/**
 * A card payment intent for a pending booking (method 2): the amount must be its method-2 total, the currency
 * its own. One intent per booking and amount at the gateway (its idempotency key), recorded in `payments`.
 */
export async function createCardIntent(
  db: Db,
  payments: Payments,
  input: { buyerId: number; bookingId: number; amount: number; currency: string; orderId?: string },
  now: Date,
) {
  const b = await lockBooking(db, input.buyerId, input.bookingId, now);
  if (b.status !== 'pending') {
    throw new (refusalOf(b))(409, b.status === 'confirmed' ? 'This booking is already paid.' : notPayable(b).message);
  }
  const listing = await termsOf(db, b.cart_id);
  const total = chargeOf(b, listing.ticket_type_id, 2);
  const errors: FieldError[] = [];
  if (input.amount !== total) {
    errors.push({ path: '/body/amount', message: `must be the booking's card total, ${total} (minor units)` });
  }
  if (input.currency.toUpperCase() !== b.currency) {
    errors.push({ path: '/body/currency', message: `must be the booking's currency, ${b.currency}` });
  }
  if (input.orderId !== undefined && input.orderId !== b.booking_no) {
    errors.push({ path: '/body/metadata/order_id', message: `must be the booking's number, ${b.booking_no}` });
  }
  if (errors.length > 0) throw invalid(errors);
  const intent = await payments.card.createIntent(
    db,
    {
      amount: total,
      currency: b.currency as CurrencyCode,
      bookingId: b.id,
      bookingNo: b.booking_no,
      ownerId: b.buyer_id,
      idempotencyKey: `intent-${b.booking_no}-${total}`,
    },
    now,
  );
  const at = iso(now);
  await db
    .insertInto('payments')
    .values({
      booking_id: b.id,
      buyer_id: b.buyer_id,
      payment_method: 2,
      gateway: payments.card.name,
      reference: intent.id,
      amount: total,
      currency: b.currency,
      status: intent.status === 'succeeded' ? 'succeeded' : 'requires_payment_method',
      failure_reason: null,
      refunded_amount: 0,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.columns(['gateway', 'reference']).doNothing())
    .execute();
  return {
    client_secret: intent.clientSecret,
    payment_intent_id: intent.id,
    gateway: payments.card.name,
    publishable_key: payments.card.publishableKey(b.currency as CurrencyCode),
    amount: intent.amount,
    currency: intent.currency,
    status: intent.status,
  };
}

/** The buyer whose booking a recorded card payment belongs to (for the webhook, which has no caller). */
export async function cardPaymentOwner(db: Db, gateways: readonly string[], intentId: string) {
  return db
    .selectFrom('payments')
    .select(['booking_id', 'buyer_id'])
    .where('gateway', 'in', gateways)
    .where('reference', '=', intentId)
    .executeTakeFirst();
}

/** The webhook's payment_intent.payment_failed: the booking (still pending) notes why. */
export async function noteCardFailure(db: Db, bookingId: number, message: string, now: Date) {
  await db
    .updateTable('bookings')
    .set({ status_reason: `Payment failed: ${message}`, updated_at: iso(now) })
    .where('id', '=', bookingId)
    .where('status', '=', 'pending')
    .execute();
}

export { HOLD_ENDED_REASON };
