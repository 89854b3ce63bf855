import { type Expression, type SqlBool, sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { type CurrencyCode, convert, RATES_PER_GBP, type SplitType, splitList, TICKET_TYPE_NAMES } from './pricing';

export type TradeEvent = components['schemas']['TradeEvent'];
export type PurchaseListing = components['schemas']['PurchaseListing'];
export type GuestField = components['schemas']['GuestField'];

/** The guest fields an event may require, in the order the form shows them. */
export const GUEST_FIELDS: readonly GuestField[] = [
  'first_name',
  'last_name',
  'contact_email',
  'contact_phone',
  'date_of_birth',
  'passport_number',
  'gender',
  'country_of_residence',
  'street_name',
  'additional_street_name',
  'province',
  'city',
  'zip',
];

/** The required guest fields of an event's comma list (additional_street_name is never required). */
export function guestFieldsOf(list: string): GuestField[] {
  const asked = new Set(list.split(',').map((f) => f.trim()));
  return GUEST_FIELDS.filter((f) => asked.has(f) && f !== 'additional_street_name');
}

/** A LIKE pattern matching `text` anywhere, with the wildcards in it taken literally. */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** `column` contains `text`, case-insensitively (the trade search and the inventory's match search). */
export const contains = (column: string, text: string): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) LIKE ${containsPattern(text)} ESCAPE '\\'`;

const todayOf = (now: Date) => now.toISOString().slice(0, 10);

const eventColumns = [
  'events.id',
  'events.name',
  'events.home_team',
  'events.away_team',
  'events.tournament',
  'events.event_date',
  'events.event_time',
  'events.stadium_name',
  'events.guest_fields',
  'cities.name as city_name',
  'countries.name as country_name',
] as const;

/** Events with their city and country, for any page that lists matches. */
export const eventsQuery = (db: Db) =>
  db
    .selectFrom('events')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id');

type EventRow = {
  id: number;
  name: string;
  home_team: string;
  away_team: string;
  tournament: string;
  event_date: string;
  event_time: string;
  stadium_name: string;
  guest_fields: string;
  city_name: string;
  country_name: string;
};

/**
 * What other sellers offer for each event: tickets, listings and the lowest price in `currency` (min per
 * listing currency, converted: the rates are fixed, so the cheapest of a currency stays the cheapest).
 *
 * Read from the kept `event_stock` (migration 0009), one row per event, currency and seller, less the buyer's
 * own rows: a buyer never sees its own listings offered, and the figures stay exact however many it has.
 */
async function stockOf(db: Db, eventIds: number[], buyerId: number, currency: CurrencyCode) {
  const stock = new Map<number, { tickets: number; listings: number; min: number | null }>();
  if (eventIds.length === 0) return stock;
  const rows = await db
    .selectFrom('event_stock')
    .select([
      'event_id',
      'currency',
      (eb) => eb.fn.sum<number>('tickets').as('tickets'),
      (eb) => eb.fn.sum<number>('listings').as('listings'),
      (eb) => eb.fn.min<number>('min_price').as('min_price'),
    ])
    .where('event_id', 'in', eventIds)
    .where('seller_id', '<>', buyerId)
    .where('listings', '>', 0)
    .groupBy(['event_id', 'currency'])
    .execute();
  for (const r of rows) {
    const s = stock.get(r.event_id) ?? { tickets: 0, listings: 0, min: null };
    s.tickets += Number(r.tickets);
    s.listings += Number(r.listings);
    if (r.min_price !== null) {
      const price = convert(Number(r.min_price), r.currency as CurrencyCode, currency);
      s.min = s.min === null ? price : Math.min(s.min, price);
    }
    stock.set(r.event_id, s);
  }
  return stock;
}

function tradeEventOf(
  e: EventRow,
  stock: { tickets: number; listings: number; min: number | null } | undefined,
  currency: CurrencyCode,
): TradeEvent {
  return {
    match_id: e.id,
    match_name: e.name,
    home_team: e.home_team,
    away_team: e.away_team,
    tournament: e.tournament,
    match_date: e.event_date,
    match_time: e.event_time,
    stadium_name: e.stadium_name,
    city_name: e.city_name,
    country_name: e.country_name,
    tickets_available: stock?.tickets ?? 0,
    listings_count: stock?.listings ?? 0,
    min_price: stock?.min ?? null,
    currency,
  };
}

export interface EventSearch {
  name?: string;
  team?: string;
  competition?: string;
  city?: string;
  date_from?: string;
  date_to?: string;
}

/** Upcoming events by the filters, soonest first, a page of them with what other sellers offer. */
export async function searchEvents(
  db: Db,
  buyerId: number,
  filters: EventSearch,
  currency: CurrencyCode,
  page: { limit: number; offset: number },
  now: Date,
): Promise<{ events: TradeEvent[]; total: number }> {
  const today = todayOf(now);
  let q = eventsQuery(db).where('events.event_date', '>=', today);
  if (filters.name) q = q.where(contains('events.name', filters.name));
  if (filters.team) {
    const team = filters.team;
    q = q.where((eb) => eb.or([contains('events.home_team', team), contains('events.away_team', team)]));
  }
  if (filters.competition) q = q.where(contains('events.tournament', filters.competition));
  if (filters.city) q = q.where(contains('cities.name', filters.city));
  if (filters.date_from) q = q.where('events.event_date', '>=', filters.date_from);
  if (filters.date_to) q = q.where('events.event_date', '<=', filters.date_to);
  const [count, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    q
      .select(eventColumns)
      .orderBy('events.event_date')
      .orderBy('events.event_time')
      .orderBy('events.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  const stock = await stockOf(
    db,
    rows.map((r) => r.id),
    buyerId,
    currency,
  );
  return { events: rows.map((r) => tradeEventOf(r, stock.get(r.id), currency)), total: Number(count.n) };
}

/** One event with what other sellers offer, or undefined when there is no such event. */
export async function findEvent(db: Db, buyerId: number, eventId: number, currency: CurrencyCode) {
  const row = await eventsQuery(db).select(eventColumns).where('events.id', '=', eventId).executeTakeFirst();
  if (!row) return undefined;
  const stock = await stockOf(db, [row.id], buyerId, currency);
  return { event: tradeEventOf(row, stock.get(row.id), currency), guestFields: guestFieldsOf(row.guest_fields) };
}

/** The caller's recently viewed events, newest first (at most 10). */
export async function recentlyViewed(db: Db, buyerId: number, currency: CurrencyCode): Promise<TradeEvent[]> {
  const rows = await eventsQuery(db)
    .innerJoin('recently_viewed', 'recently_viewed.event_id', 'events.id')
    .select(eventColumns)
    .where('recently_viewed.user_id', '=', buyerId)
    .orderBy('recently_viewed.viewed_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(10)
    .execute();
  const stock = await stockOf(
    db,
    rows.map((r) => r.id),
    buyerId,
    currency,
  );
  return rows.map((r) => tradeEventOf(r, stock.get(r.id), currency));
}

const listingColumns = [
  'listings.id',
  'listings.seller_id',
  'listings.event_id',
  'listings.category',
  'listings.ticket_block',
  'listings.row',
  'listings.ticket_type_id',
  'listings.available',
  'listings.split_type',
  'listings.price',
  'listings.currency',
  ...eventColumns.filter((c) => c !== 'events.id'),
] as const;

export type ListingRow = {
  id: number;
  seller_id: number;
  event_id: number;
  category: string;
  ticket_block: string;
  row: string;
  ticket_type_id: number;
  available: number;
  split_type: string;
  price: number;
  currency: string;
  name: string;
  event_date: string;
  event_time: string;
  stadium_name: string;
  guest_fields: string;
  city_name: string;
  country_name: string;
};

const listingsQuery = (db: Db) =>
  db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id');

/** The listing as a buyer may see it: not its own, or undefined. */
export async function findListing(db: Db, buyerId: number, listingId: number): Promise<ListingRow | undefined> {
  return (await listingsQuery(db)
    .select(listingColumns)
    .where('listings.id', '=', listingId)
    .where('listings.seller_id', '<>', buyerId)
    .executeTakeFirst()) as ListingRow | undefined;
}

export const unitPriceOf = (l: Pick<ListingRow, 'price' | 'currency'>, currency: CurrencyCode) =>
  convert(l.price, l.currency as CurrencyCode, currency);

export function purchaseListingOf(l: ListingRow, currency: CurrencyCode): PurchaseListing {
  return {
    sNo: l.id,
    sell_ticket_id: l.id,
    matchId: l.event_id,
    match_id: l.event_id,
    quantity: l.available,
    split_type: l.split_type as SplitType,
    split_list: splitList(l.split_type, l.available),
    match_name: l.name,
    match_date: l.event_date,
    match_time: l.event_time,
    stadium_name: l.stadium_name,
    country_name: l.country_name,
    city_name: l.city_name,
    Category: l.category,
    ticket_block: l.ticket_block,
    row: l.row,
    Ticket_type: TICKET_TYPE_NAMES[l.ticket_type_id] ?? 'Ticket',
    ticket_type_id: l.ticket_type_id as PurchaseListing['ticket_type_id'],
    price: unitPriceOf(l, currency),
    currency,
  };
}

/** The price of a listing in GBP terms, for sorting listings of several currencies (SQL). */
const priceInGbp = sql<number>`(listings.price * 10000.0 / CASE listings.currency ${sql.join(
  Object.entries(RATES_PER_GBP).map(([code, rate]) => sql`WHEN ${code} THEN ${rate}`),
  sql` `,
)} ELSE 10000 END)`;

/** A page of the tickets other sellers offer for an event (only those with some left). */
export async function eventListings(
  db: Db,
  buyerId: number,
  eventId: number,
  filters: { quantity?: number; ticket_type_id?: number; sort?: 'price_asc' | 'price_desc' },
  currency: CurrencyCode,
  page: { limit: number; offset: number },
): Promise<{ tickets: PurchaseListing[]; total: number }> {
  let q = listingsQuery(db)
    .where('listings.event_id', '=', eventId)
    .where('listings.available', '>', 0)
    .where('listings.seller_id', '<>', buyerId);
  if (filters.ticket_type_id) q = q.where('listings.ticket_type_id', '=', filters.ticket_type_id);
  if (filters.quantity) {
    const n = filters.quantity;
    // the split rules of pricing.ts's splitList, in SQL
    q = q
      .where('listings.available', '>=', n)
      .where((eb) =>
        eb.or([
          eb('listings.split_type', '=', 'any'),
          ...(n % 2 === 0 ? [eb('listings.split_type', '=', 'pairs')] : []),
          eb.and([eb('listings.split_type', '=', 'all_together'), eb('listings.available', '=', n)]),
          eb.and([eb('listings.split_type', '=', 'avoid_single'), eb('listings.available', '<>', n + 1)]),
        ]),
      );
  }
  const desc = filters.sort === 'price_desc';
  const [count, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    q
      .select(listingColumns)
      .orderBy(priceInGbp, desc ? 'desc' : 'asc')
      .orderBy('listings.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return {
    tickets: (rows as ListingRow[]).map((r) => purchaseListingOf(r, currency)),
    total: Number(count.n),
  };
}
