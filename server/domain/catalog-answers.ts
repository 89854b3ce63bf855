import { type SqlBool, sql } from 'kysely';
import { type Db, directSqlite } from '../db/database';
import { idList, inIdList, prepared } from '../db/prepared';
import {
  type Cheapest,
  cheapestOf,
  containsPattern,
  type EventRow,
  type EventSearch,
  eventById,
  type FoundEvent,
  fromPrice,
  guestFieldsOf,
  lower,
  type PurchaseListing,
  recentlyViewed,
  recentRows,
  type SearchArgs,
  type Stock,
  searchEvents,
  searchQueriesOf,
  stockOf,
  stockRows,
  TEXT_FILTERS,
  type TradeEvent,
  todayOf,
  tradeEventOf,
} from './purchase/catalog';
import { eventListings, type ListingFilters } from './purchase/event-listings';
import type { CurrencyCode } from './purchase/pricing';

/**
 * The trade search and the event page from answers shared by every buyer, kept per database in this process
 * while the versions they were read at are current (migration 0040: an event's version moves with any write of
 * its row or its listings, in the writer's transaction; event 0's with any write of `events`).
 *
 * - the search's events (the page and the total of a filter, a date and a page) are kept at the catalogue's
 *   version; each event's stock (all sellers, per listing currency) at that event's version;
 * - an event page (event, currency, filters, page) is kept at the event's version.
 *
 * A request reads the versions of the events it shows, and whether the caller sells any of them, in one query,
 * before any data it then reads: a kept part read at an older version is read again, and a part read now is kept
 * at the version read before it (a write that commits in between moves the version past it; the next request
 * reads the part again). So no answer shows a listing as it was before a committed sale, in any process.
 *
 * Each caller's own parts are merged per request: their recently viewed events (read per call, with the shared
 * stock), and their own listings, which a buyer is never offered: for an event the caller sells, the figures
 * and the event page are read for them alone, as before.
 */

/** No seller: the shared answers count every seller's listings. */
const NOBODY = 0;
/** A kept part is read again after this long whatever the versions say (a rename of a city moves none). */
const KEPT_MS = 60_000;
const LIMIT = 2_000;

const sellerEvents = (db: Db, buyer: unknown) =>
  db
    .selectFrom('event_stock')
    .select(['event_id', sql<string>`'0'`.as('version'), sql<number>`1`.as('own')])
    .where('seller_id', '=', buyer as number)
    .where(sql<SqlBool>`listings > 0`);
/** SQLite: every event's version (a few rows an event), read again only once the database has changed. */
const allVersions = prepared((db) =>
  db
    .selectFrom('event_versions')
    .select(['event_id', (eb) => eb.fn.sum<string>('version').as('version')])
    .groupBy('event_id'),
);
const ownEvents = prepared((db, $: { buyer: number }) => sellerEvents(db, $.buyer));
const snapshots = new WeakMap<Db, { at: string; versions: Map<number, string> }>();
/** Postgres: the versions of the events asked and the events the buyer sells, in one round trip. */
const versionRows = prepared((db, $: { events: unknown; buyer: number }) =>
  db
    .selectFrom('event_versions')
    .select(['event_id', (eb) => eb.fn.sum<string>('version').as('version'), sql<number>`0`.as('own')])
    .where(inIdList(db, 'event_id', $.events))
    .groupBy('event_id')
    .unionAll(sellerEvents(db, $.buyer)),
);

interface Versions {
  of(eventId: number): string;
  /** Its version was read (the catalogue's answer kept for another request may show other events). */
  read(eventId: number): boolean;
  /** The caller sells tickets of this event. */
  sells(eventId: number): boolean;
}

async function versionsOf(db: Db, eventIds: number[], buyer: number): Promise<Versions> {
  let versions = new Map<number, string>();
  const own = new Set<number>();
  let read: { has(id: number): boolean } = new Set(eventIds);
  const sqlite = directSqlite(db);
  if (sqlite) {
    // the database's version first: a write after it moves it, and the next call reads the versions again
    const at = sqlite.version();
    let snapshot = snapshots.get(db);
    if (snapshot?.at !== at) {
      const rows = await allVersions.execute(db, {});
      snapshot = { at, versions: new Map(rows.map((r) => [r.event_id, String(r.version)])) };
      snapshots.set(db, snapshot);
    }
    versions = snapshot.versions;
    read = { has: () => true };
    for (const r of await ownEvents.execute(db, { buyer })) own.add(r.event_id);
  } else if (eventIds.length > 0)
    for (const r of await versionRows.execute(db, { events: idList(db, [...new Set(eventIds)]), buyer })) {
      if (Number(r.own) === 1) own.add(r.event_id);
      else versions.set(r.event_id, String(r.version));
    }
  return { of: (id) => versions.get(id) ?? '0', read: (id) => read.has(id), sells: (id) => own.has(id) };
}

/** A map bounded by entries, oldest out first, whose entries end after KEPT_MS. */
class Kept<T> {
  readonly #map = new Map<string, { version: string; until: number; value: T }>();
  get(key: string, version: string): T | undefined {
    const kept = this.#map.get(key);
    if (kept && kept.version === version && performance.now() < kept.until) return kept.value;
    return undefined;
  }
  /** The kept value whatever its version (to know which versions to read). */
  peek(key: string): T | undefined {
    return this.#map.get(key)?.value;
  }
  set(key: string, version: string, value: T) {
    this.#map.delete(key);
    this.#map.set(key, { version, until: performance.now() + KEPT_MS, value });
    if (this.#map.size > LIMIT) this.#map.delete(this.#map.keys().next().value as string);
  }
}

type StockRow = Cheapest & { tickets: number; listings: number };
interface Shared {
  searches: Kept<{ rows: EventRow[]; total: number }>;
  stock: Kept<StockRow[]>;
  pages: Kept<{ found: FoundEvent; tickets: PurchaseListing[]; total: number }>;
  /** Parts served from what was kept, and parts read again (tests and benches). */
  stats: { hits: number; misses: number };
}
const shared = new WeakMap<Db, Shared>();
function sharedOf(db: Db): Shared {
  let s = shared.get(db);
  if (!s) {
    s = { searches: new Kept(), stock: new Kept(), pages: new Kept(), stats: { hits: 0, misses: 0 } };
    shared.set(db, s);
  }
  return s;
}

/** How many kept parts were served and read again on `db` in this process. */
export const sharedAnswerStats = (db: Db) => ({ ...sharedOf(db).stats });

/** Every seller's stock of `ids`, kept per event at the versions read before it. */
async function allSellersStock(db: Db, ids: number[], versions: Versions) {
  const s = sharedOf(db);
  const stock = new Map<number, StockRow[]>();
  const stale: number[] = [];
  for (const id of new Set(ids)) {
    const kept = s.stock.get(String(id), versions.of(id));
    if (kept) stock.set(id, kept);
    else stale.push(id);
  }
  s.stats.hits += stock.size;
  if (stale.length === 0) return stock;
  s.stats.misses += stale.length;
  for (const id of stale) stock.set(id, []);
  const rows = await stockRows.execute(db, { events: idList(db, stale), buyer: NOBODY });
  for (const r of rows)
    stock.get(r.event_id)?.push({ ...cheapestOf(r), tickets: Number(r.tickets), listings: Number(r.listings) });
  for (const id of stale) s.stock.set(String(id), versions.of(id), stock.get(id) ?? []);
  return stock;
}

const inCurrency = (rows: StockRow[], currency: CurrencyCode): Stock =>
  rows.reduce<Stock>(
    (s, r) => ({
      tickets: s.tickets + r.tickets,
      listings: s.listings + r.listings,
      min: lower(s.min, fromPrice(r, currency)),
    }),
    { tickets: 0, listings: 0, min: null },
  );

/** Events with what other sellers offer: the shared stock, or the caller's own figures for events it sells. */
async function tradeEventsOf(db: Db, rows: EventRow[], buyer: number, currency: CurrencyCode, versions: Versions) {
  const ids = rows.map((r) => r.id);
  const all = await allSellersStock(db, ids, versions);
  const selling = ids.filter((id) => versions.sells(id));
  const own = selling.length > 0 ? await stockOf(db, selling, buyer, currency) : new Map<number, Stock>();
  return rows.map((r) =>
    tradeEventOf(r, versions.sells(r.id) ? own.get(r.id) : inCurrency(all.get(r.id) ?? [], currency), currency),
  );
}

/**
 * The trade search (upcoming events by the filters, soonest first, a page of them with what other sellers
 * offer) and the caller's recently viewed events, from the shared parts.
 */
export async function searchWithRecent(
  db: Db,
  buyer: number,
  filters: EventSearch,
  currency: CurrencyCode,
  page: { limit: number; offset: number },
  now: Date,
  shared = true,
): Promise<{ events: TradeEvent[]; total: number; recent: TradeEvent[] }> {
  if (!shared) {
    const [{ events, total }, recent] = await Promise.all([
      searchEvents(db, buyer, filters, currency, page, now),
      recentlyViewed(db, buyer, currency),
    ]);
    return { events, total, recent };
  }
  const s = sharedOf(db);
  const today = todayOf(now);
  const args: SearchArgs = {
    from: filters.date_from && filters.date_from > today ? filters.date_from : today,
    to: filters.date_to ?? '9999-12-31',
  };
  for (const f of TEXT_FILTERS) if (filters[f]) args[f] = containsPattern(filters[f]);
  const key = JSON.stringify([args, page.limit, page.offset]);
  const recent = (await recentRows.execute(db, { user: buyer })) as EventRow[];
  // the catalogue's version (0) read with the events' before any of them is read again
  const shown = (c?: { rows: EventRow[] }) => [...(c?.rows ?? []), ...recent].map((r) => r.id);
  let versions = await versionsOf(db, [0, ...shown(s.searches.peek(key))], buyer);
  let catalogue = s.searches.get(key, versions.of(0));
  if (catalogue) {
    s.stats.hits += 1;
    // replaced by another request's meanwhile, at the same catalogue version: its events' versions now
    if (!shown(catalogue).every(versions.read)) versions = await versionsOf(db, shown(catalogue), buyer);
  } else {
    s.stats.misses += 1;
    const { count, page: rowsOf } = searchQueriesOf(args);
    const [n, rows] = await Promise.all([
      count.takeFirst(db, args),
      rowsOf.execute(db, { ...args, limit: page.limit, offset: page.offset }),
    ]);
    catalogue = { rows: rows as EventRow[], total: Number(n?.n ?? 0) };
    s.searches.set(key, versions.of(0), catalogue);
    // the page's events' versions, read before their stock
    versions = await versionsOf(db, shown(catalogue), buyer);
  }
  const [events, recentEvents] = [
    await tradeEventsOf(db, catalogue.rows, buyer, currency, versions),
    await tradeEventsOf(db, recent, buyer, currency, versions),
  ];
  return { events, total: catalogue.total, recent: recentEvents };
}

export interface EventPage {
  found: FoundEvent;
  tickets: PurchaseListing[];
  total: number;
}

/**
 * The event page (the event, what other sellers offer, a page of their listings), shared by every buyer who
 * sells none of it; for one who does, read for them alone. Undefined when there is no such event.
 */
export async function eventPage(
  db: Db,
  buyer: number,
  eventId: number,
  filters: ListingFilters,
  currency: CurrencyCode,
  page: { limit: number; offset: number },
  shared = true,
): Promise<EventPage | undefined> {
  const s = sharedOf(db);
  const versions = shared ? await versionsOf(db, [eventId], buyer) : undefined;
  const reader = !versions || versions.sells(eventId) ? buyer : NOBODY;
  const key = JSON.stringify([
    eventId,
    currency,
    filters.quantity,
    filters.ticket_type_id,
    filters.sort,
    filters.max_price,
    page,
  ]);
  const version = versions?.of(eventId) ?? '';
  const kept = reader === NOBODY ? s.pages.get(key, version) : undefined;
  if (kept) {
    s.stats.hits += 1;
    return kept;
  }
  if (versions) s.stats.misses += 1;
  const row = (await eventById.takeFirst(db, { id: eventId })) as EventRow | undefined;
  if (!row) return undefined;
  const stock = await stockOf(db, [row.id], reader, currency);
  const found: FoundEvent = {
    event: tradeEventOf(row, stock.get(row.id), currency),
    guestFields: guestFieldsOf(row.guest_fields),
    row,
  };
  const listings = await eventListings(db, reader, found, filters, currency, page);
  const answer = { found, ...listings };
  if (reader === NOBODY) s.pages.set(key, version, answer);
  return answer;
}
