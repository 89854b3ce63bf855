/**
 * The booking (inventory/buy, the second call of a purchase): a cart's hold becomes a pending booking with its
 * billing address; its guests' details; its cancellation. And the booking's lock that every payment takes.
 */
import type { Selectable } from 'kysely';
import type { FieldError } from '../../contract/contract';
import type { Db } from '../../db/database';
import { rootOf } from '../../db/database';
import { prepared } from '../../db/prepared';
import type { CartTable } from '../../db/schema-purchase';
import { HttpError, KeptRefusal } from '../../http/errors';
import { GUEST_FIELDS, type GuestField, guestFieldsOf } from './catalog';
import { expireCart, HOLD_EXPIRED_MESSAGE, releaseCart } from './holds';
import type { PaymentMethod } from './pricing';
import {
  type Attendee,
  type BillingAddress,
  type BillingInput,
  type Booking,
  type BookingRow,
  bookingNoOf,
  EMAIL,
  fieldProblem,
  GUESTS_MISSING_MESSAGE,
  invalid,
  iso,
  NO_BILLING_ADDRESS_MESSAGE,
  refusalOf,
} from './rules';
import { bookingOrThrow, bookingView, type HeldTerms } from './views';

export interface NewBooking {
  buyerId: number;
  userId: number;
  listingId: number;
  cartId: number;
  method: PaymentMethod;
  billing: BillingInput;
}

/** The countries by id, read once per process and database: the table is the seed's, never edited. */
const countries = new WeakMap<Db, Map<number, string>>();
async function countryOf(db: Db, id: number): Promise<{ id: number; name: string } | undefined> {
  const root = rootOf(db);
  let known = countries.get(root);
  if (!known) {
    known = new Map((await db.selectFrom('countries').select(['id', 'name']).execute()).map((c) => [c.id, c.name]));
    countries.set(root, known);
  }
  const name = known.get(id);
  return name === undefined ? undefined : { id, name };
}

/** The cart booked, when it is the caller's, of this listing, held and its hold not ended. */
const bookCart = prepared((db, $: { id: number; buyer: number; listing: number; method: number; at: string }) =>
  db
    .updateTable('carts')
    .set({ status: 'booked', payment_method: $.method, updated_at: $.at })
    .where('id', '=', $.id)
    .where('buyer_id', '=', $.buyer)
    .where('listing_id', '=', $.listing)
    .where('status', '=', 'held')
    .where('hold_state', '=', 'holding')
    .where('expires_at', '>', $.at)
    .returningAll(),
);

/** The seller, the event's guest fields and the event as the booking shows it: one read by the listing. */
const listingOfBooking = prepared((db, $: { id: number }) =>
  db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id')
    .select([
      'listings.seller_id',
      'events.guest_fields',
      'events.name as match_name',
      'events.event_date',
      'events.event_time',
      'events.stadium_name',
      'cities.name as city_name',
      'countries.name as country_name',
    ])
    .where('listings.id', '=', $.id),
);

type BookingValues = Omit<BookingRow, 'id'>;
const insertBooking = prepared((db, $: BookingValues) =>
  db
    .insertInto('bookings')
    .values({
      booking_no: $.booking_no,
      cart_id: $.cart_id,
      buyer_id: $.buyer_id,
      user_id: $.user_id,
      seller_id: $.seller_id,
      listing_id: $.listing_id,
      event_id: $.event_id,
      quantity: $.quantity,
      currency: $.currency,
      unit_price: $.unit_price,
      payment_method: $.payment_method,
      status: $.status,
      status_reason: $.status_reason,
      billing: $.billing,
      guest_fields: $.guest_fields,
      attendees: $.attendees,
      guests_complete: $.guests_complete,
      order_id: $.order_id,
      expires_at: $.expires_at,
      confirmed_at: $.confirmed_at,
      created_at: $.created_at,
      updated_at: $.created_at,
    })
    .returning('id'),
);

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
  const country = await countryOf(db, input.country as number);
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

/**
 * Makes the booking of a cart: it takes over the cart's hold (same expiry). A cart makes one booking (unique
 * cart_id): asking again answers the same booking.
 */
export async function createBooking(db: Db, input: NewBooking, now: Date): Promise<Booking> {
  // another buyer's address is not found, whatever the cart
  const billingFirst =
    input.billing.address_id !== undefined ? await billingOf(db, input.buyerId, input.billing) : null;
  // the usual case in one statement: the cart is the caller's, of this listing, held and not ended
  const cart = await bookCart.takeFirst(db, {
    id: input.cartId,
    buyer: input.buyerId,
    listing: input.listingId,
    method: input.method,
    at: iso(now),
  });
  if (cart)
    return writeBooking(db, input, cart, billingFirst ?? (await billingOf(db, input.buyerId, input.billing)), now);
  return createBookingOtherwise(db, input, billingFirst, now);
}

/** The booking of a cart that was not simply held: another buyer's, ended, or booked before. */
async function createBookingOtherwise(
  db: Db,
  input: NewBooking,
  billingFirst: BillingAddress | null,
  now: Date,
): Promise<Booking> {
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
  const at = iso(now);
  const booked = await db
    .updateTable('carts')
    .set({ status: 'booked', payment_method: input.method, updated_at: at })
    .where('id', '=', cart.id)
    .where('status', '=', 'held')
    .returningAll()
    .executeTakeFirst();
  if (!booked) throw new HttpError(409, HOLD_EXPIRED_MESSAGE);
  return writeBooking(db, input, booked, billing, now);
}

type HeldCart = Pick<
  Selectable<CartTable>,
  'id' | 'listing_id' | 'event_id' | 'quantity' | 'currency' | 'unit_price' | 'expires_at'
> &
  HeldTerms;

/** The booking row of a cart just booked, and its answer from the values in hand. */
async function writeBooking(
  db: Db,
  input: NewBooking,
  cart: HeldCart,
  billing: BillingAddress,
  now: Date,
): Promise<Booking> {
  const listing = await listingOfBooking.takeFirst(db, { id: cart.listing_id });
  if (!listing) throw new Error(`listing ${cart.listing_id} of cart ${cart.id} vanished`);
  const required = guestFieldsOf(listing.guest_fields);
  const at = iso(now);
  const values = {
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
  };
  const row = await insertBooking.takeFirst(db, values);
  if (!row) throw new Error(`the booking of cart ${cart.id} was not written`);
  const terms = {
    category: cart.category,
    ticket_block: cart.ticket_block,
    row: cart.row,
    seats: cart.seats,
    face_value: cart.face_value,
    restrictions: cart.restrictions,
    seller_currency: cart.seller_currency,
  };
  return bookingView(
    { ...values, id: row.id, ...terms, ticket_type_id: cart.ticket_type_id, ...listing },
    null,
    null,
    now,
  );
}
const lockedBooking = prepared((db, $: { id: number; buyer: number; at: string }) =>
  db
    .updateTable('bookings')
    .set({ updated_at: $.at })
    .where('id', '=', $.id)
    .where('buyer_id', '=', $.buyer)
    .returningAll(),
);

/**
 * Takes the booking's row for this transaction (an update that changes only its updated_at, and answers the
 * row): two calls on one booking (a double submit, a webhook beside the browser's confirmation) then run one
 * after the other, and the second reads what the first did. A pending booking whose hold has ended is expired
 * first.
 */
export async function lockBooking(
  db: Db,
  buyerId: number,
  bookingId: number,
  now: Date,
): Promise<BookingRow & { endedNow?: true }> {
  const row = await lockedBooking.takeFirst(db, { id: bookingId, buyer: buyerId, at: iso(now) });
  if (!row) throw new HttpError(404, 'Booking not found.');
  if (row.status === 'pending' && row.expires_at <= iso(now)) {
    const read = () => db.selectFrom('bookings').selectAll().where('id', '=', bookingId).executeTakeFirstOrThrow();
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
