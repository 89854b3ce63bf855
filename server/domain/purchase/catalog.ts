import { type Expression, type SqlBool, sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { idList, inIdList, prepared } from '../../db/prepared';
import { restrictionsOf } from '../listings/rules';
import {
  allInPrice,
  type CurrencyCode,
  convert,
  SHIPPED_TICKET_TYPES,
  type SplitType,
  splitList,
  TICKET_TYPE_NAMES,
} from './pricing';

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
export const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** `column` (lowered) is like `pattern`, a value or a prepared query's parameter. */
export const like = (column: string, pattern: unknown): Expression<SqlBool> =>
  sql<SqlBool>`lower(${sql.ref(column)}) LIKE ${pattern} ESCAPE '\\'`;

export const todayOf = (now: Date) => now.toISOString().slice(0, 10);

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

export type EventRow = {
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

const SHIPPED = [...SHIPPED_TICKET_TYPES];

export const stockRows = prepared((db, $: { events: unknown; buyer: number }) => {
  /** The cheapest offer of the row's event and currency that travels by post (or not): one index seek. */
  const cheapest = (shipped: boolean) =>
    db
      .selectFrom('listings')
      .select('listings.price')
      .where(sql<SqlBool>`listings.event_id = event_stock.event_id AND listings.currency = event_stock.currency`)
      .where(sql<SqlBool>`available > 0`)
      .where('listings.seller_id', '<>', $.buyer)
      .where('listings.ticket_type_id', shipped ? 'in' : 'not in', SHIPPED)
      .orderBy('listings.price')
      .limit(1);
  return db
    .selectFrom('event_stock')
    .select([
      'event_id',
      'currency',
      (eb) => eb.fn.sum<number>('tickets').as('tickets'),
      (eb) => eb.fn.sum<number>('listings').as('listings'),
      (eb) => eb.fn.min<number>('min_price').as('min_price'),
      // read once per event and currency: they name only the grouped columns
      cheapest(false).as('plain'),
      cheapest(true).as('shipped'),
    ])
    .where(inIdList(db, 'event_id', $.events))
    .where('seller_id', '<>', $.buyer)
    .where(sql<SqlBool>`listings > 0`)
    .groupBy(['event_id', 'currency']);
});

export type Stock = { tickets: number; listings: number; min: number | null };

/**
 * What other sellers offer for each event: tickets, listings and the "from" price in `currency`, all in: the
 * least one ticket costs with its fees (allInPrice, the booking's own pricing) over the cheapest offer of each
 * listing currency that travels by post and the cheapest that does not (delivery is per booking, so either may be
 * the cheaper all in; inside one currency and one kind the all-in price follows the ticket's price).
 *
 * Read from the kept `event_stock` (migration 0009), one row per event, currency and seller, less the buyer's
 * own rows: a buyer never sees its own listings offered, and the figures stay exact however many it has.
 */
export async function stockOf(db: Db, eventIds: number[], buyerId: number, currency: CurrencyCode) {
  const stock = new Map<number, Stock>();
  if (eventIds.length === 0) return stock;
  const rows = await stockRows.execute(db, { events: idList(db, eventIds), buyer: buyerId });
  for (const r of rows) {
    const s = stock.get(r.event_id) ?? { tickets: 0, listings: 0, min: null };
    s.tickets += Number(r.tickets);
    s.listings += Number(r.listings);
    s.min = lower(s.min, fromPrice(cheapestOf(r), currency));
    stock.set(r.event_id, s);
  }
  return stock;
}

/** The cheapest offers of one listing currency, in it: one that travels by post, one that does not. */
export type Cheapest = { currency: CurrencyCode; plain: number | null; shipped: number | null };

export const cheapestOf = (r: { currency: string; plain: unknown; shipped: unknown }): Cheapest => ({
  currency: r.currency as CurrencyCode,
  plain: r.plain === null || r.plain === undefined ? null : Number(r.plain),
  shipped: r.shipped === null || r.shipped === undefined ? null : Number(r.shipped),
});

export const lower = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** The "from" price of one listing currency's cheapest offers in `currency`: one ticket, all in. */
export function fromPrice(c: Cheapest, currency: CurrencyCode): number | null {
  const oneTicket = (price: number | null, ticketTypeId: number) =>
    price === null
      ? null
      : allInPrice({ currency, unitPrice: convert(price, c.currency, currency), quantity: 1, ticketTypeId });
  return lower(oneTicket(c.plain, 1), oneTicket(c.shipped, SHIPPED[0] ?? 3));
}

export function tradeEventOf(e: EventRow, stock: Stock | undefined, currency: CurrencyCode): TradeEvent {
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

/** The search's filters: the dates always (today and the far future when not given), the texts given. */
export type SearchArgs = {
  from: string;
  to: string;
  name?: string;
  team?: string;
  competition?: string;
  city?: string;
};
type TextFilter = 'name' | 'team' | 'competition' | 'city';
export const TEXT_FILTERS: readonly TextFilter[] = ['name', 'team', 'competition', 'city'];

/** The events of the dates and of the text filters of `shape` (its own parameter for each). */
const searched = (db: Db, $: SearchArgs, shape: ReadonlySet<TextFilter>) => {
  let q = eventsQuery(db).where('events.event_date', '>=', $.from).where('events.event_date', '<=', $.to);
  if (shape.has('name')) q = q.where(like('events.name', $.name));
  if (shape.has('team'))
    q = q.where((eb) => eb.or([like('events.home_team', $.team), like('events.away_team', $.team)]));
  if (shape.has('competition')) q = q.where(like('events.tournament', $.competition));
  if (shape.has('city')) q = q.where(like('cities.name', $.city));
  return q;
};

/**
 * The count and the page, prepared once per shape (which text filters are given): the search as it opens (no
 * text) compares only dates, where one fixed shape with `%` for an absent filter lowered and matched the four
 * texts of every upcoming event, twice.
 */
const searchShapes = new Map<string, ReturnType<typeof searchQueries>>();
const searchQueries = (shape: ReadonlySet<TextFilter>) => ({
  count: prepared((db, $: SearchArgs) => searched(db, $, shape).select((eb) => eb.fn.countAll<number>().as('n'))),
  page: prepared((db, $: SearchArgs & { limit: number; offset: number }) =>
    searched(db, $, shape)
      .select(eventColumns)
      .orderBy('events.event_date')
      .orderBy('events.event_time')
      .orderBy('events.id')
      .limit($.limit)
      .offset($.offset),
  ),
});
export function searchQueriesOf(args: SearchArgs) {
  const given = TEXT_FILTERS.filter((f) => args[f] !== undefined);
  const key = given.join(',');
  let queries = searchShapes.get(key);
  if (!queries) {
    queries = searchQueries(new Set(given));
    searchShapes.set(key, queries);
  }
  return queries;
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
  const args: SearchArgs = {
    from: filters.date_from && filters.date_from > today ? filters.date_from : today,
    to: filters.date_to ?? '9999-12-31',
  };
  for (const f of TEXT_FILTERS) if (filters[f]) args[f] = containsPattern(filters[f]);
  const { count: searchCount, page: searchPage } = searchQueriesOf(args);
  const [count, rows] = await Promise.all([
    searchCount.takeFirst(db, args),
    searchPage.execute(db, { ...args, limit: page.limit, offset: page.offset }),
  ]);
  const stock = await stockOf(
    db,
    rows.map((r) => r.id),
    buyerId,
    currency,
  );
  return { events: rows.map((r) => tradeEventOf(r, stock.get(r.id), currency)), total: Number(count?.n ?? 0) };
}

export const eventById = prepared((db, $: { id: number }) =>
  eventsQuery(db).select(eventColumns).where('events.id', '=', $.id),
);

/** An event found for a buyer: what the event page shows of it, and its row for the page's listings. */
export interface FoundEvent {
  event: TradeEvent;
  guestFields: GuestField[];
  row: EventRow;
}

/** One event with what other sellers offer, or undefined when there is no such event. */
export async function findEvent(
  db: Db,
  buyerId: number,
  eventId: number,
  currency: CurrencyCode,
): Promise<FoundEvent | undefined> {
  const row = await eventById.takeFirst(db, { id: eventId });
  if (!row) return undefined;
  const stock = await stockOf(db, [row.id], buyerId, currency);
  return { event: tradeEventOf(row, stock.get(row.id), currency), guestFields: guestFieldsOf(row.guest_fields), row };
}

export const recentRows = prepared((db, $: { user: number }) =>
  eventsQuery(db)
    .innerJoin('recently_viewed', 'recently_viewed.event_id', 'events.id')
    .select(eventColumns)
    .where('recently_viewed.user_id', '=', $.user)
    .orderBy('recently_viewed.viewed_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(10),
);

/** The caller's recently viewed events, newest first (at most 10). */
export async function recentlyViewed(db: Db, buyerId: number, currency: CurrencyCode): Promise<TradeEvent[]> {
  const rows = await recentRows.execute(db, { user: buyerId });
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
  'listings.in_hand_date',
  'listings.seats',
  'listings.face_value',
  'listings.restrictions',
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
  in_hand_date: string | null;
  seats: string | null;
  face_value: number | null;
  restrictions: string;
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

const listingById = prepared((db, $: { id: number; buyer: number }) =>
  listingsQuery(db).select(listingColumns).where('listings.id', '=', $.id).where('listings.seller_id', '<>', $.buyer),
);

/** The listing as a buyer may see it: not its own, or undefined. */
export async function findListing(db: Db, buyerId: number, listingId: number): Promise<ListingRow | undefined> {
  return (await listingById.takeFirst(db, { id: listingId, buyer: buyerId })) as ListingRow | undefined;
}

export const unitPriceOf = (l: Pick<ListingRow, 'price' | 'currency'>, currency: CurrencyCode) =>
  convert(l.price, l.currency as CurrencyCode, currency);

export type OwnListing = Pick<
  ListingRow,
  | 'id'
  | 'event_id'
  | 'available'
  | 'split_type'
  | 'category'
  | 'ticket_block'
  | 'row'
  | 'ticket_type_id'
  | 'price'
  | 'currency'
  | 'in_hand_date'
  | 'seats'
  | 'face_value'
  | 'restrictions'
>;
export type ListingEvent = Pick<
  ListingRow,
  'name' | 'event_date' | 'event_time' | 'stadium_name' | 'country_name' | 'city_name'
>;

/** The listing as the buyer sees it, its all-in price for `quantity` (or the least it sells). */
export const purchaseListingOf = (l: ListingRow, currency: CurrencyCode, quantity?: number) =>
  offeredListingOf(l, l, currency, quantity);

/**
 * A listing `l` of event `e` as the buyer sees it (the two as separate rows: no merged copy of them is made): the
 * all-in price of `quantity` tickets (or of the least it sells) and of each quantity it sells, by allInPrice, the
 * booking's own pricing; the face value, seats and restrictions the seller gave.
 */
export function offeredListingOf(
  l: OwnListing,
  e: ListingEvent,
  currency: CurrencyCode,
  quantity?: number,
): PurchaseListing {
  const split = splitList(l.split_type, l.available);
  const unitPrice = unitPriceOf(l, currency);
  const allIn = (n: number) => allInPrice({ currency, unitPrice, quantity: n, ticketTypeId: l.ticket_type_id });
  const allInQuantity = quantity ?? split[0] ?? Math.max(1, l.available);
  return {
    sNo: l.id,
    sell_ticket_id: l.id,
    matchId: l.event_id,
    match_id: l.event_id,
    quantity: l.available,
    split_type: l.split_type as SplitType,
    split_list: splitList(l.split_type, l.available),
    match_name: e.name,
    match_date: e.event_date,
    match_time: e.event_time,
    stadium_name: e.stadium_name,
    country_name: e.country_name,
    city_name: e.city_name,
    Category: l.category,
    ticket_block: l.ticket_block,
    row: l.row,
    Ticket_type: TICKET_TYPE_NAMES[l.ticket_type_id] ?? 'Ticket',
    ticket_type_id: l.ticket_type_id as PurchaseListing['ticket_type_id'],
    price: unitPrice,
    currency,
    in_hand_date: l.in_hand_date,
    all_in_quantity: allInQuantity,
    all_in_price: allIn(allInQuantity),
    all_in_prices: split.map(allIn),
    face_value: l.face_value,
    face_value_currency: l.currency as CurrencyCode,
    seats: l.seats,
    restrictions: restrictionsOf(l.restrictions),
  };
}
