import { type ExpressionBuilder, sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { FieldError } from '../../contract/contract';
import { type Db, engineOf } from '../../db/database';
import { type IdList, idList, inIdList, prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import { HttpError, MESSAGES } from '../../http/errors';
import { splitList, TICKET_TYPE_NAMES } from '../purchase/pricing';
import { type CurrencyCode, restrictionsOf, type SplitType, todayOf } from './rules';

// A listing as read: its row and its match, the counts beside it, and the answer's shape (MyListing).

export type MyListing = components['schemas']['MyListing'];
export type ListingEvent = components['schemas']['ListingEvent'];
export type ListingLog = components['schemas']['ListingLog'];
export type ListingFile = components['schemas']['ListingFile'];
export type ListingSale = components['schemas']['ListingSale'];
export type ListingUpdate = components['schemas']['ListingUpdate'];
export type ListingSort = components['schemas']['ListingSort'];
export type ListingStatus = components['schemas']['ListingStatus'];
export type LogAction = components['schemas']['ListingLogAction'];

/** Who acts: the seller whose listings they are, and the user (the seller or a team member) who does it. */
export interface Actor {
  sellerId: number;
  userId: number;
}

export const LISTING_NOT_FOUND = 'Listing not found.';
export const MATCH_NOT_FOUND = 'Match not found.';
const notFound = () => new HttpError(404, LISTING_NOT_FOUND);
const invalid = (errors: FieldError[]) => new HttpError(422, MESSAGES.validation, errors);

export const eventColumns = [
  'events.name as match_name',
  'events.home_team',
  'events.away_team',
  'events.tournament',
  'events.event_date',
  'events.event_time',
  'events.stadium_name',
  'cities.name as city_name',
  'countries.name as country_name',
] as const;

/** A listing's own columns; its match's are read once per match of a page (matchesOf). */
export const ownColumns = [
  'listings.id',
  'listings.event_id',
  'listings.category',
  'listings.ticket_block',
  'listings.row',
  'listings.seats',
  'listings.ticket_type_id',
  'listings.quantity',
  'listings.available',
  'listings.withheld',
  'listings.split_type',
  'listings.price',
  'listings.face_value',
  'listings.currency',
  'listings.restrictions',
  'listings.notes',
  'listings.in_hand_date',
  'listings.status',
  'listings.created_at',
  'listings.updated_at',
] as const;

export const listingColumns = [...ownColumns, ...eventColumns] as const;

/** A listing's own columns (ownColumns). */
export interface OwnRow {
  id: number;
  event_id: number;
  category: string;
  ticket_block: string;
  row: string;
  seats: string | null;
  ticket_type_id: number;
  quantity: number;
  available: number;
  withheld: number;
  split_type: string;
  price: number;
  face_value: number | null;
  currency: string;
  restrictions: string;
  notes: string | null;
  in_hand_date: string | null;
  status: string;
  created_at: string;
  updated_at: string | null;
}

/** A listing's match (eventColumns). */
export interface MatchRow {
  match_name: string;
  home_team: string;
  away_team: string;
  tournament: string;
  event_date: string;
  event_time: string;
  stadium_name: string;
  city_name: string;
  country_name: string;
}

export type ListingRow = OwnRow & MatchRow;

/**
 * The seller's listings that are not deleted, with their match (for its filters and sorts): a page reads its
 * matches' texts and places once a match (matchesOf), not once a listing.
 */
export const ownListings = (db: Db, sellerId: number) =>
  db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .where('listings.seller_id', '=', sellerId)
    .where('listings.status', '<>', 'deleted');

/** The same with the match's city and country, for whole rows (listingColumns). */
export const ownListingsWithPlace = (db: Db, sellerId: number) =>
  ownListings(db, sellerId)
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id');

export interface Extras {
  sold: Map<number, number>;
  held: Map<number, number>;
  files: Map<number, number>;
  templates: Map<number, number[]>;
}

const templatesOf = prepared((db, $: { ids: IdList }) =>
  db
    .selectFrom('listing_templates')
    .select(['listing_id', 'template_id'])
    .where(inIdList(db, 'listing_id', $.ids))
    .orderBy('listing_id')
    .orderBy('template_id'),
);

/**
 * A page's listings with their counts in the same statement (each an index seek a listing: orders_listing,
 * carts_listing, the primary keys of listing_files and listing_templates), instead of four more statements
 * over the page's ids; the templates themselves are read only for the listings that have some.
 */
export const countsOfListing = (eb: ExpressionBuilder<Database, 'listings'>) => [
  eb
    .selectFrom('orders')
    .select((o) => o.fn.sum<number>('orders.quantity').as('n'))
    .whereRef('orders.listing_id', '=', 'listings.id')
    .where('orders.status', '<>', 'cancelled')
    .as('sold_count'),
  eb
    .selectFrom('carts')
    .select((c) => c.fn.sum<number>('carts.quantity').as('n'))
    .whereRef('carts.listing_id', '=', 'listings.id')
    .where('carts.hold_state', '=', 'holding')
    .as('held_count'),
  eb
    .selectFrom('listing_files')
    .select((f) => f.fn.countAll<number>().as('n'))
    .whereRef('listing_files.listing_id', '=', 'listings.id')
    .as('files_count'),
  eb
    .selectFrom('listing_templates')
    .select((t) => t.fn.countAll<number>().as('n'))
    .whereRef('listing_templates.listing_id', '=', 'listings.id')
    .as('templates_count'),
];
export interface CountedRow extends OwnRow {
  sold_count: number | string | null;
  held_count: number | string | null;
  files_count: number | string;
  templates_count: number | string;
}
type CountName = 'sold_count' | 'held_count' | 'files_count' | 'templates_count';

/** A page's extras from its rows' counts, and the templates of those that have some. */
export async function extrasOfPage(db: Db, rows: Pick<CountedRow, 'id' | CountName>[]): Promise<Extras> {
  const out: Extras = { sold: new Map(), held: new Map(), files: new Map(), templates: new Map() };
  const withTemplates: number[] = [];
  for (const r of rows) {
    if (r.sold_count !== null) out.sold.set(r.id, Number(r.sold_count));
    if (r.held_count !== null) out.held.set(r.id, Number(r.held_count));
    out.files.set(r.id, Number(r.files_count));
    if (Number(r.templates_count) > 0) withTemplates.push(r.id);
  }
  if (withTemplates.length > 0) {
    for (const t of await templatesOf.execute(db, { ids: idList(db, withTemplates) })) {
      const kept = out.templates.get(t.listing_id);
      if (kept) kept.push(t.template_id);
      else out.templates.set(t.listing_id, [t.template_id]);
    }
  }
  return out;
}

/** The counts of each listing of `ids`, as a page reads them (countsOfListing). */
const countsOf = prepared((db, $: { ids: IdList }) =>
  db
    .selectFrom('listings')
    .select('listings.id')
    .select(countsOfListing)
    .where(inIdList(db, 'listings.id', $.ids)),
);

/** Tickets sold (orders not cancelled), held in carts, the files and the additional templates of each listing of `ids`. */
export async function extrasOf(db: Db, ids: number[]): Promise<Extras> {
  if (ids.length === 0) return { sold: new Map(), held: new Map(), files: new Map(), templates: new Map() };
  return extrasOfPage(
    db,
    (await countsOf.execute(db, { ids: idList(db, ids) })) as Pick<CountedRow, 'id' | CountName>[],
  );
}

/** The matches of `ids` with their city and country, by id. */
const matchesById = prepared((db, $: { ids: IdList }) =>
  db
    .selectFrom('events')
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id')
    .select(['events.id', ...eventColumns])
    .where(inIdList(db, 'events.id', $.ids)),
);

/** The match of each row (a page's listings are of a few matches: each is read once, not once a listing). */
export async function matchesOf(db: Db, rows: OwnRow[]): Promise<Map<number, MatchRow>> {
  const ids = [...new Set(rows.map((r) => r.event_id))];
  const matches = ids.length === 0 ? [] : await matchesById.execute(db, { ids: idList(db, ids) });
  return new Map(matches.map((m) => [m.id, m as MatchRow]));
}

/** A listing as the API gives it: its own row `r`, its match `m` (for a full ListingRow, the same row). */
export function toMyListing(r: OwnRow, m: MatchRow, x: Extras, today: string): MyListing {
  return {
    id: r.id,
    ticket_id: r.id,
    sNo: r.id,
    match_id: r.event_id,
    match_name: m.match_name,
    match_date: m.event_date,
    match_time: m.event_time,
    tournament: m.tournament,
    stadium_name: m.stadium_name,
    city_name: m.city_name,
    country_name: m.country_name,
    Category: r.category,
    ticket_block: r.ticket_block,
    row: r.row,
    seats: r.seats,
    Ticket_type: TICKET_TYPE_NAMES[r.ticket_type_id] ?? 'Ticket',
    ticket_type_id: r.ticket_type_id as MyListing['ticket_type_id'],
    quantity: r.quantity,
    sold: x.sold.get(r.id) ?? 0,
    held: x.held.get(r.id) ?? 0,
    available: r.available,
    split_type: r.split_type as SplitType,
    split_list: splitList(r.split_type, r.available),
    price: r.price,
    face_value: r.face_value,
    currency: r.currency as CurrencyCode,
    restrictions: restrictionsOf(r.restrictions),
    notes: r.notes,
    in_hand_date: r.in_hand_date,
    status: r.status === 'published' ? 'published' : 'unpublished',
    files_count: x.files.get(r.id) ?? 0,
    additional_template_ids: x.templates.get(r.id) ?? [],
    match_passed: m.event_date < today,
    created_at: r.created_at,
    updated_at: r.updated_at ?? r.created_at,
  };
}

async function toMyListings(db: Db, rows: ListingRow[], now: Date): Promise<MyListing[]> {
  const extras = await extrasOf(
    db,
    rows.map((r) => r.id),
  );
  const today = todayOf(now);
  return rows.map((r) => toMyListing(r, r, extras, today));
}

/** One of the seller's listings (not deleted), or undefined. */
export async function findListingRow(db: Db, sellerId: number, id: number): Promise<ListingRow | undefined> {
  return (await ownListingsWithPlace(db, sellerId)
    .select(listingColumns)
    .where('listings.id', '=', id)
    .executeTakeFirst()) as ListingRow | undefined;
}

export async function findMyListing(db: Db, sellerId: number, id: number, now: Date): Promise<MyListing> {
  const row = await findListingRow(db, sellerId, id);
  if (!row) throw notFound();
  return (await toMyListings(db, [row], now))[0] as MyListing;
}

/** Locks the listings' rows until the transaction ends (Postgres; SQLite's writer already holds the file). */
export async function lockListings(db: Db, ids: number[]) {
  if (ids.length === 0 || engineOf(db) !== 'postgres') return;
  await sql`SELECT id FROM listings WHERE id IN (${sql.join(ids)}) ORDER BY id FOR UPDATE`.execute(db);
}

export async function soldAndHeld(db: Db, id: number) {
  const x = await extrasOf(db, [id]);
  return { sold: x.sold.get(id) ?? 0, held: x.held.get(id) ?? 0 };
}

export async function myListingsByIds(db: Db, sellerId: number, ids: number[], now: Date): Promise<MyListing[]> {
  const rows: ListingRow[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...((await ownListingsWithPlace(db, sellerId)
        .select(listingColumns)
        .where('listings.id', 'in', ids.slice(i, i + 500))
        .execute()) as ListingRow[]),
    );
  }
  const order = new Map(ids.map((id, i) => [id, i]));
  rows.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  return toMyListings(db, rows, now);
}

/** The seller's listings of `ids` (not deleted), locked; 404 when any is not one of them. */
export async function ownedRows(db: Db, sellerId: number, ids: number[]): Promise<ListingRow[]> {
  await lockListings(db, ids);
  const rows: ListingRow[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    rows.push(
      ...((await ownListingsWithPlace(db, sellerId)
        .select(listingColumns)
        .where('listings.id', 'in', ids.slice(i, i + 500))
        .execute()) as ListingRow[]),
    );
  }
  if (rows.length !== ids.length) throw notFound();
  return rows;
}

export const duplicates = (ids: number[], path: string): FieldError[] =>
  new Set(ids).size === ids.length ? [] : [{ path, message: 'must not repeat an id' }];

export { invalid, notFound };
