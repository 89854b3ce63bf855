import { sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import { type Db, engineOf } from '../../db/database';
import { HttpError, MESSAGES } from '../../http/errors';

export type Address = components['schemas']['Address'];
export type AddressInput = components['schemas']['AddressInput'];
export type AddressUpdate = components['schemas']['AddressUpdateInput'];
export type LinkedCard = components['schemas']['LinkedCard'];
export type TrackingRow = components['schemas']['TradeTrackingRow'];
type TrackingStep = components['schemas']['TradeTrackingStep'];

const addressQuery = (db: Db) =>
  db
    .selectFrom('addresses')
    .innerJoin('countries', 'countries.id', 'addresses.country_id')
    .leftJoin('cities', 'cities.id', 'addresses.city_id')
    .select([
      'addresses.id',
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
      'addresses.address_type',
      'addresses.primary_address',
    ]);

type AddressRow = Omit<Address, 'address_id' | 'address_type' | 'primary_address'> & {
  address_type: string;
  primary_address: number;
};
const addressOf = (r: AddressRow): Address => ({
  ...r,
  address_id: r.id,
  address_type: r.address_type as Address['address_type'],
  primary_address: r.primary_address === 1 ? 1 : 0,
});

/** The owner's addresses, the primary one first, then newest first. */
export async function addressBook(db: Db, ownerId: number): Promise<Address[]> {
  const rows = await addressQuery(db)
    .where('addresses.owner_id', '=', ownerId)
    .orderBy('addresses.primary_address', 'desc')
    .orderBy('addresses.id', 'desc')
    .execute();
  return rows.map((r) => addressOf(r as AddressRow));
}

/** A key of our own for Postgres advisory locks: one owner's address book (with the owner's id). */
const ADDRESS_BOOK_LOCK = 9_001;

/**
 * One writer at a time per address book: on Postgres two calls that each make an address primary would
 * otherwise both pass the "others lose it" update and one would break the one-primary index (a 500); SQLite
 * runs one write transaction at a time anyway.
 */
async function lockAddressBook(db: Db, ownerId: number) {
  if (engineOf(db) === 'postgres')
    await sql`select pg_advisory_xact_lock(${ADDRESS_BOOK_LOCK}, ${ownerId})`.execute(db);
}

const notFound = () => new HttpError(404, 'Address not found.');
const invalid = (path: string, message: string) => new HttpError(422, MESSAGES.validation, [{ path, message }]);

/** The country exists, and the city (when given) is one of its cities. */
async function checkPlace(db: Db, countryId: number, cityId: number | null | undefined) {
  const country = await db.selectFrom('countries').select('id').where('id', '=', countryId).executeTakeFirst();
  if (!country) throw invalid('/body/country_id', 'is not a known country');
  if (cityId !== undefined && cityId !== null) {
    const city = await db
      .selectFrom('cities')
      .select('id')
      .where('id', '=', cityId)
      .where('country_id', '=', countryId)
      .executeTakeFirst();
    if (!city) throw invalid('/body/city_id', 'is not a city of that country');
  }
}

/** The owner's address by id, or 404 (another owner's address is not found either). */
async function ownAddress(db: Db, ownerId: number, id: number) {
  const row = await db
    .selectFrom('addresses')
    .select(['id', 'country_id', 'city_id', 'primary_address'])
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * Changes the fields given (the others keep their values), with addAddress's rules. primary_address 1 makes it
 * the primary (the other loses it); 0 on the primary address is refused (409): the primary changes only by
 * making another address primary.
 */
export async function updateAddress(db: Db, ownerId: number, input: AddressUpdate): Promise<Address> {
  await lockAddressBook(db, ownerId);
  const current = await ownAddress(db, ownerId, input.id);
  const blank = (['first_name', 'last_name', 'email', 'address', 'zip_code'] as const).filter(
    (f) => input[f] !== undefined && input[f].trim() === '',
  );
  if (blank.length > 0) {
    throw new HttpError(
      422,
      MESSAGES.validation,
      blank.map((f) => ({ path: `/body/${f}`, message: 'must not be empty' })),
    );
  }
  if (input.country_id !== undefined || input.city_id !== undefined) {
    // the city is checked against the country the address will have; a new country with the old city that is
    // not one of its cities asks for the city too
    const countryId = input.country_id ?? current.country_id;
    if (input.city_id === undefined && current.city_id !== null) {
      try {
        await checkPlace(db, countryId, current.city_id);
      } catch (error) {
        if (!(error instanceof HttpError) || error.errors?.[0]?.path !== '/body/city_id') throw error;
        throw invalid(
          '/body/city_id',
          'the address city is not in the new country: send city_id (one of its cities, or null)',
        );
      }
    } else await checkPlace(db, countryId, input.city_id);
  }
  if (input.primary_address === 0 && current.primary_address === 1) {
    throw new HttpError(409, 'This is your primary address: make another address primary instead.');
  }
  if (input.primary_address === 1 && current.primary_address !== 1) {
    await db
      .updateTable('addresses')
      .set({ primary_address: 0 })
      .where('owner_id', '=', ownerId)
      .where('primary_address', '=', 1)
      .execute();
  }
  const text = (v: string | undefined) => (v === undefined ? undefined : v.trim());
  const changes = {
    first_name: text(input.first_name),
    last_name: text(input.last_name),
    email: text(input.email),
    country_code: input.country_code === undefined ? undefined : input.country_code.trim() || null,
    mobile_number: input.mobile_number === undefined ? undefined : input.mobile_number.trim() || null,
    country_id: input.country_id,
    city_id: input.city_id,
    address: text(input.address),
    zip_code: text(input.zip_code),
    address_type: input.address_type,
    primary_address: input.primary_address === 1 ? 1 : undefined,
  };
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length > 0) {
    await db.updateTable('addresses').set(set).where('id', '=', current.id).execute();
  }
  const made = await addressQuery(db).where('addresses.id', '=', current.id).executeTakeFirstOrThrow();
  return addressOf(made as AddressRow);
}

/**
 * Deletes one of the owner's addresses. The primary address goes only when it is the last one; while others
 * exist the call is refused (409) rather than choosing a new billing default for the buyer.
 */
export async function deleteAddress(
  db: Db,
  ownerId: number,
  id: number,
): Promise<{ deleted_id: number; primary_address_id: number | null }> {
  await lockAddressBook(db, ownerId);
  const current = await ownAddress(db, ownerId, id);
  if (current.primary_address === 1) {
    const other = await db
      .selectFrom('addresses')
      .select('id')
      .where('owner_id', '=', ownerId)
      .where('id', '<>', current.id)
      .executeTakeFirst();
    if (other) throw new HttpError(409, 'Make another address primary before deleting this one.');
  }
  await db.deleteFrom('addresses').where('id', '=', current.id).where('owner_id', '=', ownerId).execute();
  const primary = await db
    .selectFrom('addresses')
    .select('id')
    .where('owner_id', '=', ownerId)
    .where('primary_address', '=', 1)
    .executeTakeFirst();
  return { deleted_id: current.id, primary_address_id: primary?.id ?? null };
}

/**
 * Adds an address with the billing form's rules (the schema checks the required fields' presence; blank ones
 * are refused here). Made primary when asked, or when it is the owner's first: the others lose it in the same
 * transaction (the partial unique index holds one primary per owner).
 */
export async function addAddress(db: Db, ownerId: number, input: AddressInput, now: Date): Promise<Address> {
  const text = (v: string | undefined) => v?.trim() ?? '';
  const blank = (['first_name', 'last_name', 'email', 'address', 'zip_code'] as const).filter(
    (f) => text(input[f]) === '',
  );
  if (blank.length > 0) {
    throw new HttpError(
      422,
      MESSAGES.validation,
      blank.map((f) => ({ path: `/body/${f}`, message: 'must not be empty' })),
    );
  }
  await checkPlace(db, input.country_id, input.city_id);
  await lockAddressBook(db, ownerId);
  const others = await db
    .selectFrom('addresses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  const primary = input.primary_address === 1 || Number(others.n) === 0 ? 1 : 0;
  if (primary === 1) {
    await db
      .updateTable('addresses')
      .set({ primary_address: 0 })
      .where('owner_id', '=', ownerId)
      .where('primary_address', '=', 1)
      .execute();
  }
  const row = await db
    .insertInto('addresses')
    .values({
      owner_id: ownerId,
      first_name: text(input.first_name),
      last_name: text(input.last_name),
      email: text(input.email),
      country_code: text(input.country_code) || null,
      mobile_number: text(input.mobile_number) || null,
      country_id: input.country_id,
      city_id: input.city_id ?? null,
      address: text(input.address),
      zip_code: text(input.zip_code),
      address_type: input.address_type ?? 'billing',
      primary_address: primary,
      created_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const made = await addressQuery(db).where('addresses.id', '=', row.id).executeTakeFirstOrThrow();
  return addressOf(made as AddressRow);
}

/** The owner's stored cards (never a card number: brand, last four, expiry, the gateway's reference). */
export async function storedCards(db: Db, ownerId: number): Promise<LinkedCard[]> {
  const rows = await db.selectFrom('stored_cards').selectAll().where('owner_id', '=', ownerId).orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    card_id: r.id,
    brand: r.brand,
    last4: r.last4,
    exp_month: r.exp_month,
    exp_year: r.exp_year,
    holder_name: r.holder_name,
    recurringDetailReference: r.recurring_reference,
    variant: r.variant,
    number: `**** ${r.last4}`,
    gateway: r.gateway as LinkedCard['gateway'],
  }));
}

/** Marks an event viewed now (once per event: again moves it to the top). 404 for no such event. */
export async function markViewed(db: Db, buyerId: number, eventId: number, now: Date) {
  const event = await db.selectFrom('events').select('id').where('id', '=', eventId).executeTakeFirst();
  if (!event) throw new HttpError(404, 'Event not found.');
  await db
    .insertInto('recently_viewed')
    .values({ user_id: buyerId, event_id: eventId, viewed_at: now.toISOString() })
    .onConflict((oc) => oc.columns(['user_id', 'event_id']).doUpdateSet({ viewed_at: now.toISOString() }))
    .execute();
  // only the last 10 are kept
  await db
    .deleteFrom('recently_viewed')
    .where('user_id', '=', buyerId)
    .where(
      'event_id',
      'not in',
      db
        .selectFrom('recently_viewed as r')
        .select('r.event_id')
        .where('r.user_id', '=', buyerId)
        .orderBy('r.viewed_at', 'desc')
        .orderBy('r.event_id', 'desc')
        .limit(10),
    )
    .execute();
}

const trackingOf = (r: {
  id: number;
  step: string;
  event_id: number | null;
  booking_id: number | null;
  detail: string | null;
  created_at: string;
}): TrackingRow => ({
  tracking_id: r.id,
  step: r.step as TrackingStep,
  match_id: r.event_id,
  booking_id: r.booking_id,
  detail: r.detail,
  created_at: r.created_at,
});

/** Records a step of the purchase flow; the booking must be the caller's and the match must exist (404). */
export async function addTracking(
  db: Db,
  buyerId: number,
  input: { step: TrackingStep; match_id?: number; booking_id?: number; detail?: string },
  now: Date,
): Promise<TrackingRow> {
  if (input.booking_id !== undefined) {
    const own = await db
      .selectFrom('bookings')
      .select('id')
      .where('id', '=', input.booking_id)
      .where('buyer_id', '=', buyerId)
      .executeTakeFirst();
    if (!own) throw new HttpError(404, 'Booking not found.');
  }
  if (input.match_id !== undefined) {
    const event = await db.selectFrom('events').select('id').where('id', '=', input.match_id).executeTakeFirst();
    if (!event) throw new HttpError(404, 'Event not found.');
  }
  const row = await db
    .insertInto('trade_tracking')
    .values({
      user_id: buyerId,
      step: input.step,
      event_id: input.match_id ?? null,
      booking_id: input.booking_id ?? null,
      detail: input.detail?.trim() ? input.detail.trim() : null,
      created_at: now.toISOString(),
    })
    .returning(['id', 'step', 'event_id', 'booking_id', 'detail', 'created_at'])
    .executeTakeFirstOrThrow();
  return trackingOf(row);
}

export async function trackingPage(db: Db, buyerId: number, page: { limit: number; offset: number }) {
  const [count, rows] = await Promise.all([
    db
      .selectFrom('trade_tracking')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', buyerId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('trade_tracking')
      .select(['id', 'step', 'event_id', 'booking_id', 'detail', 'created_at'])
      .where('user_id', '=', buyerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return { rows: rows.map(trackingOf), total: Number(count.n) };
}
