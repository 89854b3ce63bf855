import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database';
import { type IdList, inIdList, prepared } from '../../db/prepared';
import { matchIdListOf } from '../match-search';
import type { PageMeta } from '../paging';
import { eventsQuery } from '../purchase/catalog';
import {
  type CountedRow,
  countsOfListing,
  eventColumns,
  extrasOfPage,
  type ListingEvent,
  type ListingSort,
  type ListingStatus,
  type MatchRow,
  type MyListing,
  matchesOf,
  type OwnRow,
  ownColumns,
  ownListings,
  toMyListing,
} from './rows';
import { todayOf } from './rules';

// The reads of many listings: Inventory's list (its filters, sorts and keyset cursor), the ids a filter matches,
// and the matches a seller lists for.

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
