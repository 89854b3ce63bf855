import { randomUUID } from 'node:crypto';
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { FieldError } from '../../contract/contract';
import { type Db, engineOf } from '../../db/database';
import { type IdList, idList, inIdList, prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import { HttpError, MESSAGES } from '../../http/errors';
import { matchIdListOf } from '../match-search';
import type { PageMeta } from '../paging';
import { eventsQuery } from '../purchase/catalog';
import { splitList, TICKET_TYPE_NAMES } from '../purchase/pricing';
import { capProblems, capsOfEvents, checkCaps, refuseOverCap } from './price-caps';
import {
  type CurrencyCode,
  type ListingInput,
  type ListingRestriction,
  listingProblems,
  MAX_FILES_PER_LISTING,
  PAST_MATCH,
  restrictionsOf,
  type SplitType,
  todayOf,
} from './rules';
import { listingTemplateChange, setListingTemplates } from './templates';

export type MyListing = components['schemas']['MyListing'];
export type ListingEvent = components['schemas']['ListingEvent'];
export type ListingLog = components['schemas']['ListingLog'];
export type ListingFile = components['schemas']['ListingFile'];
export type ListingSale = components['schemas']['ListingSale'];
export type ListingUpdate = components['schemas']['ListingUpdate'];
export type ListingSort = components['schemas']['ListingSort'];
export type ListingStatus = components['schemas']['ListingStatus'];
type LogAction = components['schemas']['ListingLogAction'];

/** Who acts: the seller whose listings they are, and the user (the seller or a team member) who does it. */
export interface Actor {
  sellerId: number;
  userId: number;
}

export const LISTING_NOT_FOUND = 'Listing not found.';
export const MATCH_NOT_FOUND = 'Match not found.';
const notFound = () => new HttpError(404, LISTING_NOT_FOUND);
const invalid = (errors: FieldError[]) => new HttpError(422, MESSAGES.validation, errors);

const iso = (d: Date) => d.toISOString();

const eventColumns = [
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
const ownColumns = [
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

const listingColumns = [...ownColumns, ...eventColumns] as const;

/** A listing's own columns (ownColumns). */
interface OwnRow {
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
interface MatchRow {
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
const ownListings = (db: Db, sellerId: number) =>
  db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .where('listings.seller_id', '=', sellerId)
    .where('listings.status', '<>', 'deleted');

/** The same with the match's city and country, for whole rows (listingColumns). */
const ownListingsWithPlace = (db: Db, sellerId: number) =>
  ownListings(db, sellerId)
    .innerJoin('cities', 'cities.id', 'events.city_id')
    .innerJoin('countries', 'countries.id', 'events.country_id');

interface Extras {
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
const countsOfListing = (eb: ExpressionBuilder<Database, 'listings'>) => [
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
interface CountedRow extends OwnRow {
  sold_count: number | string | null;
  held_count: number | string | null;
  files_count: number | string;
  templates_count: number | string;
}
type CountName = 'sold_count' | 'held_count' | 'files_count' | 'templates_count';

/** A page's extras from its rows' counts, and the templates of those that have some. */
async function extrasOfPage(db: Db, rows: Pick<CountedRow, 'id' | CountName>[]): Promise<Extras> {
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
async function matchesOf(db: Db, rows: OwnRow[]): Promise<Map<number, MatchRow>> {
  const ids = [...new Set(rows.map((r) => r.event_id))];
  const matches = ids.length === 0 ? [] : await matchesById.execute(db, { ids: idList(db, ids) });
  return new Map(matches.map((m) => [m.id, m as MatchRow]));
}

/** A listing as the API gives it: its own row `r`, its match `m` (for a full ListingRow, the same row). */
function toMyListing(r: OwnRow, m: MatchRow, x: Extras, today: string): MyListing {
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

// ---------------------------------------------------------------------------------------------------------------
// The list read, with its keyset cursor

type SortSpec = { columns: string[]; desc: boolean };
// by match: its date, time and id (two matches at one date and time keep their listings together), which
// SQLite reads in order from events_date_time and listings_event_seller (migration 0028) without sorting
const SORTS: Record<ListingSort, SortSpec> = {
  match_date: { columns: ['events.event_date', 'events.event_time', 'events.id'], desc: false },
  match_date_desc: { columns: ['events.event_date', 'events.event_time', 'events.id'], desc: true },
  created_desc: { columns: ['listings.created_at'], desc: true },
  price_asc: { columns: ['listings.price'], desc: false },
  price_desc: { columns: ['listings.price'], desc: true },
  quantity_desc: { columns: ['listings.quantity'], desc: true },
};
/** A row's value of a sort column: the listing's own, or its match's (events.*). */
const sortValue = (r: OwnRow, m: MatchRow, column: string): string | number => {
  if (column === 'events.id') return r.event_id;
  const [table, key] = column.split('.') as [string, string];
  return (table === 'events' ? m[key as keyof MatchRow] : r[key as keyof OwnRow]) as string | number;
};

/** A list cursor: the sort it belongs to, the next page's number, and the last row's sort values and id. */
export class BadListCursor extends Error {}
const encodeCursor = (sort: ListingSort, page: number, values: (string | number)[], id: number) =>
  Buffer.from(JSON.stringify([sort, page, ...values, id]), 'utf8').toString('base64url');
function decodeCursor(cursor: string, sort: ListingSort): { page: number; values: (string | number)[]; id: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadListCursor('is not a cursor this list gave');
  }
  const spec = SORTS[sort];
  if (
    !Array.isArray(parsed) ||
    parsed.length !== spec.columns.length + 3 ||
    parsed[0] !== sort ||
    !Number.isInteger(parsed[1]) ||
    parsed[1] < 2 ||
    parsed[1] > 100_000 ||
    !Number.isInteger(parsed.at(-1)) ||
    parsed.at(-1) < 1 ||
    parsed.at(-1) > 2 ** 31 - 1
  ) {
    throw new BadListCursor('is not a cursor this list gave (for this sort)');
  }
  const values = parsed.slice(2, -1) as unknown[];
  for (const [i, v] of values.entries()) {
    const column = spec.columns[i] as string;
    const numeric = column.endsWith('price') || column.endsWith('quantity') || column.endsWith('.id');
    if (numeric ? !Number.isSafeInteger(v) : typeof v !== 'string' || v.length > 40) {
      throw new BadListCursor('is not a cursor this list gave');
    }
  }
  return { page: parsed[1] as number, values: values as (string | number)[], id: parsed.at(-1) as number };
}

export interface ListFilters {
  q?: string;
  date_from?: string;
  date_to?: string;
  match_id?: number;
  status?: ListingStatus;
  ticket_type_id?: number;
  sort?: ListingSort;
}

const keptCountOf = prepared((db, $: { seller: number }) =>
  db
    .selectFrom('listing_counts')
    .select((eb) => eb.fn.sum<number>('listings').as('n'))
    .where('seller_id', '=', $.seller)
    .where('status', '<>', 'deleted'),
);
const keptCountOfStatus = prepared((db, $: { seller: number; status: string }) =>
  db
    .selectFrom('listing_counts')
    .select((eb) => eb.fn.sum<number>('listings').as('n'))
    .where('seller_id', '=', $.seller)
    .where('status', '=', $.status),
);

/** The seller's listings of `status`, or not deleted, from the kept counts (migration 0025): one or two rows. */
async function keptListingCount(db: Db, sellerId: number, status?: ListingStatus): Promise<number> {
  const row = status
    ? await keptCountOfStatus.takeFirst(db, { seller: sellerId, status })
    : await keptCountOf.takeFirst(db, { seller: sellerId });
  return Number(row?.n ?? 0);
}

/** Where a page starts: after a cursor's row (its sort values and id), or at an offset. */
type PageStart = { after: { values: (string | number)[]; id: number } } | { offset: number };

/** The seller's listings (not deleted) that pass `filters` (`q` as the matches it found), with their match. */
function filteredListings(
  db: Db,
  sellerId: number,
  filters: ListFilters,
  matchIds: IdList | undefined,
  sort?: ListingSort,
) {
  // the match is joined only when a date filter or the sort reads it: joined, SQLite read the matches first and
  // sorted the seller's every listing for a page by price, quantity or date listed (4 to 12 ms over 10,000,
  // against at most 1.4 from migration 0032's indexes alone). Every listing has its match (a foreign key), so
  // the join removes no row; without it the builder's type still names the match, and nothing here reads it.
  const needsMatch =
    filters.date_from !== undefined ||
    filters.date_to !== undefined ||
    (sort !== undefined && SORTS[sort].columns.some((c) => c.startsWith('events.')));
  let q = needsMatch
    ? ownListings(db, sellerId)
    : (db
        .selectFrom('listings')
        .where('listings.seller_id', '=', sellerId)
        .where('listings.status', '<>', 'deleted') as unknown as ReturnType<typeof ownListings>);
  if (filters.status) q = q.where('listings.status', '=', filters.status);
  if (filters.match_id) q = q.where('listings.event_id', '=', filters.match_id);
  if (filters.ticket_type_id) q = q.where('listings.ticket_type_id', '=', filters.ticket_type_id);
  if (filters.date_from) q = q.where('events.event_date', '>=', filters.date_from);
  if (filters.date_to) q = q.where('events.event_date', '<=', filters.date_to);
  if (matchIds !== undefined) q = q.where(inIdList(db, 'listings.event_id', matchIds));
  return q;
}

/** The ids of the seller's listings that pass `filters` ('select all that match'), smallest first. */
export async function listingIdsMatching(db: Db, sellerId: number, filters: ListFilters): Promise<number[]> {
  const matchIds = await matchIdListOf(db, filters.q);
  const rows = await filteredListings(db, sellerId, filters, matchIds)
    .select('listings.id')
    .orderBy('listings.id')
    .execute();
  return rows.map((r) => r.id);
}

/** The listings of a page (their own columns), in the order of `sort`, from `start`. */
function pageQuery(
  db: Db,
  sellerId: number,
  filters: ListFilters,
  matchIds: IdList | undefined,
  sort: ListingSort,
  start: PageStart,
  limit: number,
) {
  const spec = SORTS[sort];
  let rows = filteredListings(db, sellerId, filters, matchIds, sort).select(ownColumns).select(countsOfListing);
  const direction = spec.desc ? 'desc' : 'asc';
  if ('after' in start) {
    const left = sql.join([...spec.columns.map((c) => sql.ref(c)), sql.ref('listings.id')]);
    const right = sql.join([...start.after.values, start.after.id]);
    rows = rows.where(spec.desc ? sql<SqlBool>`(${left}) < (${right})` : sql<SqlBool>`(${left}) > (${right})`);
  } else {
    rows = rows.offset(start.offset);
  }
  for (const c of spec.columns) rows = rows.orderBy(sql.ref(c), direction);
  return rows.orderBy('listings.id', direction).limit(limit);
}

type PageArgs = {
  seller: number;
  status: string;
  limit: number;
  offset: number;
  after: number;
  v0: string | number;
  v1: string | number;
  v2: string | number;
};
type PreparedPage = ReturnType<typeof preparePage>;
const preparePage = (sort: ListingSort, byStatus: boolean, byCursor: boolean) =>
  prepared((db, $: PageArgs) =>
    pageQuery(
      db,
      $.seller,
      byStatus ? { status: $.status as ListingStatus } : {},
      undefined,
      sort,
      byCursor
        ? {
            after: {
              values: SORTS[sort].columns.map((_, i) => (i === 0 ? $.v0 : i === 1 ? $.v1 : $.v2)),
              id: $.after,
            },
          }
        : { offset: $.offset },
      $.limit,
    ),
  );
/** The pages of a list filtered by its status at most (Inventory as it opens, and scrolled): prepared per sort. */
const preparedPages = new Map<string, PreparedPage>();
function preparedPageOf(sort: ListingSort, byStatus: boolean, byCursor: boolean): PreparedPage {
  const key = `${sort} ${byStatus} ${byCursor}`;
  let page = preparedPages.get(key);
  if (!page) {
    page = preparePage(sort, byStatus, byCursor);
    preparedPages.set(key, page);
  }
  return page;
}

export async function listMyListings(
  db: Db,
  sellerId: number,
  filters: ListFilters,
  paging: { page?: number; per_page?: number; cursor?: string },
  now: Date,
): Promise<{ tickets: MyListing[]; meta: PageMeta }> {
  const sort = filters.sort ?? 'match_date';
  const spec = SORTS[sort];
  const perPage = paging.per_page ?? 50;
  // no filter but the status: the total is the kept count (migration 0025), not a count of the seller's rows;
  // the count needs the match only for the match's filters: otherwise it is read from the seller's index alone
  const keptCount =
    !filters.match_id && !filters.ticket_type_id && !filters.q && !filters.date_from && !filters.date_to;
  const matchIds = await matchIdListOf(db, filters.q);
  let total: number;
  if (keptCount) {
    total = await keptListingCount(db, sellerId, filters.status);
  } else if (filters.q !== undefined || filters.date_from !== undefined || filters.date_to !== undefined) {
    const counted = filteredListings(db, sellerId, filters, matchIds);
    total = Number((await counted.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  } else {
    let counted = db
      .selectFrom('listings')
      .where('listings.seller_id', '=', sellerId)
      .where('listings.status', filters.status ? '=' : '<>', filters.status ?? 'deleted');
    if (filters.match_id) counted = counted.where('listings.event_id', '=', filters.match_id);
    if (filters.ticket_type_id) counted = counted.where('listings.ticket_type_id', '=', filters.ticket_type_id);
    total = Number((await counted.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  }
  let page = paging.page ?? 1;
  let start: PageStart = { offset: (page - 1) * perPage };
  if (paging.cursor !== undefined) {
    const after = decodeCursor(paging.cursor, sort);
    page = after.page;
    start = { after: { values: after.values, id: after.id } };
  }
  let rows: CountedRow[];
  if (keptCount) {
    const values = 'after' in start ? start.after.values : [];
    rows = (await preparedPageOf(sort, filters.status !== undefined, 'after' in start).execute(db, {
      seller: sellerId,
      status: filters.status ?? 'deleted',
      limit: perPage + 1,
      offset: 'offset' in start ? start.offset : 0,
      after: 'after' in start ? start.after.id : 0,
      v0: values[0] ?? '',
      v1: values[1] ?? '',
      v2: values[2] ?? '',
    })) as CountedRow[];
  } else {
    rows = (await pageQuery(db, sellerId, filters, matchIds, sort, start, perPage + 1).execute()) as CountedRow[];
  }
  // one row past the page says whether another follows (pages of a cursor need not be of one size: Inventory's
  // first is 50 rows, the next 200, so the page's number times its size does not say how many were read)
  const more = rows.length > perPage;
  rows = rows.slice(0, perPage);
  const last = rows.at(-1);
  const [extras, matches] = await Promise.all([extrasOfPage(db, rows), matchesOf(db, rows)]);
  const today = todayOf(now);
  return {
    tickets: rows.map((r) => toMyListing(r, matches.get(r.event_id) as MatchRow, extras, today)),
    meta: {
      current_page: page,
      last_page: Math.max(1, Math.ceil(total / perPage)),
      per_page: perPage,
      total,
      next_cursor:
        more && last && page < 100_000
          ? encodeCursor(
              sort,
              page + 1,
              spec.columns.map((c) => sortValue(last, matches.get(last.event_id) as MatchRow, c)),
              last.id,
            )
          : null,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Matches

type EventRow = {
  id: number;
  match_name: string;
  home_team: string;
  away_team: string;
  tournament: string;
  event_date: string;
  event_time: string;
  stadium_name: string;
  city_name: string;
  country_name: string;
};

async function toListingEvents(db: Db, sellerId: number, rows: EventRow[]): Promise<ListingEvent[]> {
  const ids = rows.map((r) => r.id);
  const mine = new Map<number, { listings: number; tickets: number }>();
  if (ids.length > 0) {
    for (const r of await db
      .selectFrom('listings')
      .select([
        'event_id',
        (eb) => eb.fn.countAll<number>().as('listings'),
        (eb) => eb.fn.sum<number>('available').as('tickets'),
      ])
      .where('seller_id', '=', sellerId)
      .where('status', '<>', 'deleted')
      .where('event_id', 'in', ids)
      .groupBy('event_id')
      .execute()) {
      mine.set(r.event_id, { listings: Number(r.listings), tickets: Number(r.tickets ?? 0) });
    }
  }
  return rows.map((r) => ({
    match_id: r.id,
    match_name: r.match_name,
    home_team: r.home_team,
    away_team: r.away_team,
    tournament: r.tournament,
    match_date: r.event_date,
    match_time: r.event_time,
    stadium_name: r.stadium_name,
    city_name: r.city_name,
    country_name: r.country_name,
    my_listings: mine.get(r.id)?.listings ?? 0,
    my_tickets: mine.get(r.id)?.tickets ?? 0,
  }));
}

const eventSelect = ['events.id', ...eventColumns] as const;

export async function searchListingEvents(
  db: Db,
  sellerId: number,
  filters: { q?: string; date_from?: string; date_to?: string; only_mine?: boolean },
  page: { page: number; perPage: number },
  now: Date,
): Promise<{ events: ListingEvent[]; total: number }> {
  const matchIds = await matchIdListOf(db, filters.q);
  let q = eventsQuery(db).where('events.event_date', '>=', todayOf(now));
  if (matchIds !== undefined) q = q.where(inIdList(db, 'events.id', matchIds));
  if (filters.date_from) q = q.where('events.event_date', '>=', filters.date_from);
  if (filters.date_to) q = q.where('events.event_date', '<=', filters.date_to);
  if (filters.only_mine) {
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('listings')
          .select('listings.id')
          .whereRef('listings.event_id', '=', 'events.id')
          .where('listings.seller_id', '=', sellerId)
          .where('listings.status', '<>', 'deleted'),
      ),
    );
  }
  const [count, rows] = await Promise.all([
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    q
      .select(eventSelect)
      .orderBy('events.event_date')
      .orderBy('events.event_time')
      .orderBy('events.id')
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
  ]);
  return { events: await toListingEvents(db, sellerId, rows as EventRow[]), total: Number(count.n) };
}

export async function findListingEvent(db: Db, sellerId: number, matchId: number): Promise<ListingEvent | undefined> {
  const row = await eventsQuery(db).select(eventSelect).where('events.id', '=', matchId).executeTakeFirst();
  if (!row) return undefined;
  return (await toListingEvents(db, sellerId, [row as EventRow]))[0];
}

// ---------------------------------------------------------------------------------------------------------------
// Logs

interface LogRow {
  listing_id: number;
  action: LogAction;
  field?: string | null;
  old_value?: string | null;
  new_value?: string | null;
}

export async function writeLogs(db: Db, actor: Actor, rows: LogRow[], now: Date, changeId: string | null = null) {
  const at = iso(now);
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('listing_logs')
      .values(
        rows.slice(i, i + 500).map((r) => ({
          listing_id: r.listing_id,
          seller_id: actor.sellerId,
          user_id: actor.userId,
          action: r.action,
          field: r.field ?? null,
          old_value: r.old_value ?? null,
          new_value: r.new_value ?? null,
          change_id: changeId,
          created_at: at,
        })),
      )
      .execute();
  }
}

export async function logPage(
  db: Db,
  sellerId: number,
  ticketId: number | undefined,
  paging: { page?: number; per_page?: number; cursor?: string },
): Promise<{ logs: ListingLog[]; meta: PageMeta }> {
  if (ticketId !== undefined) {
    // a deleted listing's log stays readable by its seller
    const owned = await db
      .selectFrom('listings')
      .select('id')
      .where('id', '=', ticketId)
      .where('seller_id', '=', sellerId)
      .executeTakeFirst();
    if (!owned) throw notFound();
  }
  const perPage = paging.per_page ?? 50;
  let q = db.selectFrom('listing_logs').innerJoin('users', 'users.id', 'listing_logs.user_id');
  q = ticketId !== undefined ? q.where('listing_logs.listing_id', '=', ticketId) : q;
  q = q.where('listing_logs.seller_id', '=', sellerId);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  let page = paging.page ?? 1;
  let rowsQuery = q.select([
    'listing_logs.id',
    'listing_logs.listing_id',
    'listing_logs.action',
    'listing_logs.field',
    'listing_logs.old_value',
    'listing_logs.new_value',
    'listing_logs.user_id',
    'users.first_name',
    'users.last_name',
    'listing_logs.created_at',
  ]);
  if (paging.cursor !== undefined) {
    const match = /^(\d{1,6})\|([0-9T:.Z-]{10,32})\|(\d{1,10})$/.exec(
      Buffer.from(paging.cursor, 'base64url').toString('utf8'),
    );
    const id = Number(match?.[3]);
    page = Number(match?.[1]);
    if (!match || page < 2 || page > 100_000 || id < 1 || id > 2 ** 31 - 1) {
      throw new BadListCursor('is not a cursor this list gave');
    }
    rowsQuery = rowsQuery.where(
      sql<SqlBool>`(listing_logs.created_at, listing_logs.id) < (${match[2] as string}, ${id})`,
    );
  } else rowsQuery = rowsQuery.offset((page - 1) * perPage);
  const rows = await rowsQuery
    .orderBy('listing_logs.created_at', 'desc')
    .orderBy('listing_logs.id', 'desc')
    .limit(perPage)
    .execute();
  const last = rows.at(-1);
  const more = last !== undefined && rows.length === perPage && page * perPage < total;
  return {
    logs: rows.map((r) => ({
      log_id: r.id,
      ticket_id: r.listing_id,
      action: r.action as LogAction,
      field: r.field,
      old_value: r.old_value,
      new_value: r.new_value,
      user_id: r.user_id,
      user_name: `${r.first_name} ${r.last_name}`.trim(),
      created_at: r.created_at,
    })),
    meta: {
      current_page: page,
      last_page: Math.max(1, Math.ceil(total / perPage)),
      per_page: perPage,
      total,
      next_cursor:
        more && last ? Buffer.from(`${page + 1}|${last.created_at}|${last.id}`, 'utf8').toString('base64url') : null,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Creating

export interface NewListing extends Omit<ListingInput, 'restrictions' | 'publish'> {
  restrictions?: ListingRestriction[];
  publish?: boolean;
}

/** A listing's text fields as stored: trimmed of the spaces around them, otherwise exactly as written. */
const text = (s: string | undefined | null) => (s === undefined || s === null ? null : s.trim() === '' ? null : s);

/**
 * The problems of new listings that need the database: the match (unknown: `unknownMatch`; past: a field error).
 * Answers the field errors (paths from `pathOf(index, field)`) and the indexes whose match is unknown.
 */
export async function checkNewListings(
  db: Db,
  inputs: readonly NewListing[],
  now: Date,
  pathOf: (index: number, field: string) => string,
): Promise<{ errors: FieldError[]; unknownMatch: number[] }> {
  const ids = [...new Set(inputs.map((l) => l.match_id))];
  const dates = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const e of await db
      .selectFrom('events')
      .select(['id', 'event_date'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute()) {
      dates.set(e.id, e.event_date);
    }
  }
  const today = todayOf(now);
  const errors: FieldError[] = [];
  const unknownMatch: number[] = [];
  for (const [i, l] of inputs.entries()) {
    const date = dates.get(l.match_id);
    if (date === undefined) unknownMatch.push(i);
    else if (date < today) errors.push({ path: pathOf(i, 'match_id'), message: PAST_MATCH });
    for (const p of listingProblems({ ...l, restrictions: l.restrictions, match_date: date }, '')) {
      errors.push({ path: pathOf(i, p.path.slice(1)), message: p.message });
    }
  }
  // the resale caps of each match's market and of the match itself
  const caps = await capsOfEvents(db, ids);
  for (const [i, l] of inputs.entries()) {
    const applied = caps.get(l.match_id);
    if (applied) errors.push(...capProblems(checkCaps(applied, l), (field) => pathOf(i, field)));
  }
  return { errors, unknownMatch };
}

const summary = (l: NewListing) =>
  `${l.quantity} x ${l.category}, ${l.ticket_block}, row ${l.row} at ${l.price} ${l.currency}`;

/** Creates checked listings in the caller's transaction, with their 'created' log rows; answers their ids. */
export async function createListings(db: Db, actor: Actor, inputs: readonly NewListing[], now: Date) {
  const at = iso(now);
  const ids: number[] = [];
  for (let i = 0; i < inputs.length; i += 200) {
    const batch = inputs.slice(i, i + 200);
    const rows = await db
      .insertInto('listings')
      .values(
        batch.map((l) => {
          const publish = l.publish ?? true;
          return {
            seller_id: actor.sellerId,
            event_id: l.match_id,
            category: l.category,
            ticket_block: l.ticket_block,
            row: l.row,
            seats: text(l.seats),
            ticket_type_id: l.ticket_type_id,
            quantity: l.quantity,
            available: publish ? l.quantity : 0,
            withheld: publish ? 0 : l.quantity,
            status: publish ? 'published' : 'unpublished',
            split_type: l.split_type,
            price: l.price,
            face_value: l.face_value ?? null,
            currency: l.currency,
            restrictions: (l.restrictions ?? []).join(','),
            notes: text(l.notes),
            in_hand_date: l.in_hand_date ?? null,
            created_at: at,
            updated_at: at,
          };
        }),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  const links = inputs.flatMap((l, i) =>
    (l.additional_template_ids ?? []).map((t) => ({ listing_id: ids[i] as number, template_id: t })),
  );
  for (let i = 0; i < links.length; i += 500) {
    await db
      .insertInto('listing_templates')
      .values(links.slice(i, i + 500))
      .execute();
  }
  await writeLogs(
    db,
    actor,
    inputs.map((l, i) => ({
      listing_id: ids[i] as number,
      action: 'created' as const,
      new_value: `${summary(l)}${(l.publish ?? true) ? '' : ' (unpublished)'}`,
    })),
    now,
  );
  return ids;
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

// ---------------------------------------------------------------------------------------------------------------
// Changing

export const PAST_CHANGE = "This listing's match has already taken place; the listing can no longer be changed.";

const asText = (v: unknown): string | null =>
  v === null || v === undefined ? null : Array.isArray(v) ? v.join(',') : String(v);

/** The fields of an edit that are columns of the listing's row (its templates are rows of their own). */
type ColumnUpdate = Omit<ListingUpdate, 'template_ids'>;

/**
 * Edits one listing (PUT update-ticket): each changed field logged; the quantity moves the tickets on sale;
 * `template_ids` replaces the templates it carries (another seller's template: 404, before anything else is judged).
 */
export async function updateListing(db: Db, actor: Actor, id: number, update: ListingUpdate, now: Date) {
  const { template_ids: templateIds, ...changes } = update;
  const fields = Object.keys(changes) as (keyof ColumnUpdate)[];
  if (fields.length === 0 && templateIds === undefined) {
    throw invalid([{ path: '/body', message: 'must change at least one field' }]);
  }
  await lockListings(db, [id]);
  const row = await findListingRow(db, actor.sellerId, id);
  if (!row) throw notFound();
  const templates = templateIds === undefined ? null : await listingTemplateChange(db, actor.sellerId, id, templateIds);
  if (row.event_date < todayOf(now)) throw new HttpError(409, PAST_CHANGE);
  const templatesChanged = templates !== null && asText(templates.before) !== asText(templates.after);

  const current: Record<keyof ColumnUpdate, unknown> = {
    category: row.category,
    ticket_block: row.ticket_block,
    row: row.row,
    seats: row.seats,
    ticket_type_id: row.ticket_type_id,
    quantity: row.quantity,
    split_type: row.split_type,
    price: row.price,
    face_value: row.face_value,
    currency: row.currency,
    restrictions: restrictionsOf(row.restrictions),
    notes: row.notes,
    in_hand_date: row.in_hand_date,
  };
  const next = { ...current } as Record<keyof ColumnUpdate, unknown>;
  for (const f of fields) {
    const v = changes[f];
    next[f] = f === 'seats' || f === 'notes' ? text(v as string | null) : v;
  }
  const changed = fields.filter((f) => asText(next[f]) !== asText(current[f]));

  const errors = listingProblems(
    {
      category: next.category as string,
      quantity: next.quantity as number,
      split_type: next.split_type as string,
      restrictions: changes.restrictions,
      ticket_block: changes.ticket_block,
      row: changes.row,
      in_hand_date: next.in_hand_date as string | null,
      match_date: row.event_date,
    },
    '/body',
  ).filter((e) => {
    // a rule is checked where this change touches it (a listing made before a rule keeps what it has)
    const field = e.path.split('/')[2] as string;
    if (field === 'split_type') return changed.includes('split_type') || changed.includes('quantity');
    return changed.includes(field as keyof ColumnUpdate) || field === 'restrictions';
  });
  if (errors.length > 0) throw invalid(errors);
  // a changed price, face value or currency is checked against the resale caps of the match
  if (changed.some((f) => f === 'price' || f === 'face_value' || f === 'currency')) {
    const caps = (await capsOfEvents(db, [row.event_id])).get(row.event_id) ?? [];
    const asked = {
      price: next.price as number,
      face_value: next.face_value as number | null,
      currency: `${next.currency}`,
    };
    refuseOverCap(capProblems(checkCaps(caps, asked), (field) => `/body/${field}`));
  }
  if (changed.length === 0 && !templatesChanged) return findMyListing(db, actor.sellerId, id, now);

  const set: Record<string, unknown> = { updated_at: iso(now) };
  for (const f of changed) {
    if (f === 'quantity') continue;
    set[f] = f === 'restrictions' ? (next.restrictions as string[]).join(',') : next[f];
  }
  if (changed.includes('quantity')) {
    const quantity = next.quantity as number;
    const { sold, held } = await soldAndHeld(db, id);
    const unsold = row.available + row.withheld;
    const least = Math.max(sold + held, row.quantity - unsold);
    if (quantity < least) {
      throw invalid([
        {
          path: '/body/quantity',
          message: `must be at least ${least} (${sold} sold, ${held} in buyers' carts)`,
        },
      ]);
    }
    const delta = quantity - row.quantity;
    const column = row.status === 'published' ? 'available' : 'withheld';
    const done = await db
      .updateTable('listings')
      .set({ ...set, quantity, [column]: sql<number>`${sql.ref(column)} + ${delta}` })
      .where('id', '=', id)
      .where('quantity', '=', row.quantity)
      .where(sql<SqlBool>`${sql.ref(column)} + ${delta} >= 0`)
      .executeTakeFirst();
    if (done.numUpdatedRows !== 1n) {
      throw new HttpError(409, 'Tickets of this listing were just bought or held; reload it and try again.');
    }
  } else {
    await db.updateTable('listings').set(set).where('id', '=', id).execute();
  }
  const logs: LogRow[] = changed.map((f) => ({
    listing_id: id,
    action: f === 'price' ? ('price_changed' as const) : ('updated' as const),
    field: f,
    old_value: asText(current[f]),
    new_value: asText(next[f]),
  }));
  if (templates && templatesChanged) {
    await setListingTemplates(db, id, templates.after);
    logs.push({
      listing_id: id,
      action: 'updated',
      field: 'template_ids',
      old_value: templates.before.length > 0 ? asText(templates.before) : null,
      new_value: templates.after.length > 0 ? asText(templates.after) : null,
    });
  }
  await writeLogs(db, actor, logs, now);
  return findMyListing(db, actor.sellerId, id, now);
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

/** Publishes or unpublishes the seller's listings of `ids` (all or nothing). */
export async function setStatus(db: Db, actor: Actor, ids: number[], status: ListingStatus, now: Date) {
  const changeId = randomUUID();
  const errors = duplicates(ids, '/body/ticket_ids');
  if (errors.length > 0) throw invalid(errors);
  const rows = await ownedRows(db, actor.sellerId, ids);
  const today = todayOf(now);
  const toChange = rows.filter((r) => r.status !== status);
  if (status === 'published' && toChange.some((r) => r.event_date < today)) {
    throw new HttpError(409, 'A listing of a match that has taken place cannot be published.');
  }
  const changeIds = toChange.map((r) => r.id);
  const at = iso(now);
  for (let i = 0; i < changeIds.length; i += 500) {
    const batch = changeIds.slice(i, i + 500);
    if (status === 'published') {
      await db
        .updateTable('listings')
        .set({
          status: 'published',
          available: sql<number>`available + withheld`,
          withheld: 0,
          updated_at: at,
        })
        .where('id', 'in', batch)
        .where('status', '=', 'unpublished')
        .execute();
    } else {
      await db
        .updateTable('listings')
        .set({
          status: 'unpublished',
          withheld: sql<number>`withheld + available`,
          available: 0,
          updated_at: at,
        })
        .where('id', 'in', batch)
        .where('status', '=', 'published')
        .execute();
    }
  }
  await writeLogs(
    db,
    actor,
    toChange.map((r) => ({
      listing_id: r.id,
      action: status,
      field: 'status',
      old_value: r.status,
      new_value: status,
    })),
    now,
    changeId,
  );
  const after = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of await db
      .selectFrom('listings')
      .select(['id', 'available'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute()) {
      after.set(r.id, r.available);
    }
  }
  return {
    updated: toChange.length,
    change_id: toChange.length > 0 ? changeId : null,
    tickets: ids.map((id) => ({ ticket_id: id, status, available: after.get(id) ?? 0 })),
  };
}

/** Deletes a listing none of whose tickets were sold or are held. */
export async function deleteListing(db: Db, actor: Actor, id: number, now: Date) {
  await lockListings(db, [id]);
  const row = await findListingRow(db, actor.sellerId, id);
  if (!row) throw notFound();
  const { sold, held } = await soldAndHeld(db, id);
  if (sold > 0) {
    throw new HttpError(
      409,
      `This listing cannot be deleted: ${sold} ticket${sold === 1 ? ' of it was' : 's of it were'} sold. Unpublish it instead.`,
    );
  }
  if (held > 0) {
    throw new HttpError(
      409,
      "This listing cannot be deleted now: tickets of it are in a buyer's cart. Unpublish it, or try again when the hold ends (at most 15 minutes).",
    );
  }
  const at = iso(now);
  const done = await db
    .updateTable('listings')
    .set({ status: 'deleted', withheld: sql<number>`withheld + available`, available: 0, updated_at: at })
    .where('id', '=', id)
    .where('status', '<>', 'deleted')
    .executeTakeFirst();
  if (done.numUpdatedRows !== 1n) throw notFound();
  await writeLogs(db, actor, [{ listing_id: id, action: 'deleted', old_value: row.status, new_value: 'deleted' }], now);
  return { ticket_id: id };
}

export { invalid, notFound };
