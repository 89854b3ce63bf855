import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database';
import { idList, inIdList, prepared } from '../../db/prepared';
import { type FoundEvent, offeredListingOf, type PurchaseListing } from './catalog';
import { allInPrice, type CurrencyCode, convert, splitList } from './pricing';

export type ListingFilters = {
  quantity?: number;
  ticket_type_id?: number;
  sort?: 'price_asc' | 'price_desc';
  /** The most a ticket costs all in (all_in_price / all_in_quantity), minor units of the page's currency. */
  max_price?: number;
};
type OfferArgs = { event: number; buyer: number; type: number; n: number; pairs: string; single: number };

/**
 * The event's listings a buyer is offered: other sellers' with tickets left, of one ticket type when `type` is
 * not 0, and, for a quantity, those that sell exactly `n` by their split rule (pricing.ts's splitList in SQL:
 * `pairs` is 'pairs' for an even `n`, `single` is n + 1). `available > 0` is written as is, so that both engines
 * see the partial index listings_event_price (migration 0026) serves the query: it carries every column read here.
 */
function offered(db: Db, $: OfferArgs, quantity: boolean) {
  const q = db
    .selectFrom('listings')
    .select(['id', 'price', 'currency', 'ticket_type_id', 'available', 'split_type'])
    .where('event_id', '=', $.event)
    .where(sql<SqlBool>`available > 0`)
    .where('seller_id', '<>', $.buyer)
    .where((eb) => eb.or([sql<SqlBool>`CAST(${$.type} AS integer) = 0`, eb('ticket_type_id', '=', $.type)]));
  if (!quantity) return q;
  return q
    .where('available', '>=', $.n)
    .where((eb) =>
      eb.or([
        eb('split_type', '=', 'any'),
        eb('split_type', '=', $.pairs),
        eb.and([eb('split_type', '=', 'all_together'), eb('available', '=', $.n)]),
        eb.and([eb('split_type', '=', 'avoid_single'), eb('available', '<>', $.single)]),
      ]),
    );
}

const offeredAny = prepared((db, $: OfferArgs) => offered(db, $, false));
const offeredFor = prepared((db, $: OfferArgs) => offered(db, $, true));

/** The page's listings with what the buyer sees of them (the event's own columns come from the event's row). */
const pageRows = prepared((db, $: { ids: unknown }) =>
  db
    .selectFrom('listings')
    .select([
      'id',
      'seller_id',
      'event_id',
      'category',
      'ticket_block',
      'row',
      'ticket_type_id',
      'available',
      'split_type',
      'price',
      'currency',
      'seats',
      'face_value',
      'restrictions',
      'in_hand_date',
    ])
    .where(inIdList(db, 'id', $.ids)),
);

/** An offer keyed by its all-in price: `total` for `quantity` tickets. */
type Keyed = { id: number; total: number; quantity: number };

/** Cheaper per ticket first (a/qa < b/qb as a*qb < b*qa: integers, no rounding), then by listing id. */
const cheaperFirst = (a: Keyed, b: Keyed) => a.total * b.quantity - b.total * a.quantity || a.id - b.id;

/**
 * A page of the tickets other sellers offer for an event (only those with some left), by the all-in price per
 * ticket, cheapest first (or dearest first; equal prices by listing id), and at most `max_price` a ticket all in.
 * Each listing is priced by allInPrice, the booking's own pricing, for the page's quantity or else the least it
 * sells: the order, the filter and the price shown are the total the buyer pays, fees and delivery included,
 * which no index holds (delivery is per booking, the fees rounded per booking). So the page reads the key columns
 * of the event's offered listings from the index listings_event_price alone, prices and orders them here, and
 * reads the page's rows only.
 */
export async function eventListings(
  db: Db,
  buyerId: number,
  found: FoundEvent,
  filters: ListingFilters,
  currency: CurrencyCode,
  page: { limit: number; offset: number },
): Promise<{ tickets: PurchaseListing[]; total: number }> {
  const n = filters.quantity ?? 0;
  const args: OfferArgs = {
    event: found.row.id,
    buyer: buyerId,
    type: filters.ticket_type_id ?? 0,
    n,
    pairs: n % 2 === 0 ? 'pairs' : 'any',
    single: n + 1,
  };
  const offers = await (n > 0 ? offeredFor : offeredAny).execute(db, args);
  const keyed: Keyed[] = [];
  for (const o of offers) {
    const quantity = n > 0 ? n : (splitList(o.split_type, o.available)[0] ?? Math.max(1, o.available));
    const unitPrice = convert(o.price, o.currency as CurrencyCode, currency);
    const total = allInPrice({ currency, unitPrice, quantity, ticketTypeId: o.ticket_type_id });
    if (filters.max_price !== undefined && total > filters.max_price * quantity) continue;
    keyed.push({ id: o.id, total, quantity });
  }
  const dearerFirst = (a: Keyed, b: Keyed) => b.total * a.quantity - a.total * b.quantity || a.id - b.id;
  keyed.sort(filters.sort === 'price_desc' ? dearerFirst : cheaperFirst);
  const shown = keyed.slice(page.offset, page.offset + page.limit);
  const rows = shown.length
    ? await pageRows.execute(db, {
        ids: idList(
          db,
          shown.map((k) => k.id),
        ),
      })
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const tickets: PurchaseListing[] = [];
  for (const k of shown) {
    const row = byId.get(k.id);
    if (row) tickets.push(offeredListingOf(row, found.row, currency, n > 0 ? n : undefined));
  }
  return { tickets, total: keyed.length };
}
