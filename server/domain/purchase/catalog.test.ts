import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshSeededDatabase, userIdOf } from '../../test-support';
import { type EventSearch, findEvent, findListing, purchaseListingOf, searchEvents } from './catalog';
import { eventListings, type ListingFilters } from './event-listings';
import { type CurrencyCode, convert, priceBreakdown, RATES_PER_GBP, splitList } from './pricing';

const CURRENCIES = Object.keys(RATES_PER_GBP) as CurrencyCode[];
const SPLITS = ['any', 'pairs', 'avoid_single', 'all_together'];
/** Prices that are equal in GBP terms across the currencies (1,000 and 2,500 GBP), so that ties must be broken. */
const TIED: Record<CurrencyCode, number[]> = {
  GBP: [1000, 2500],
  EUR: [1170, 2925],
  USD: [1270, 3175],
  AED: [4660, 11650],
};

/**
 * The event page orders and filters by the all-in price per ticket; its answers must be those of the plain
 * definition: every listing of the event with tickets left that is not the buyer's, of the ticket type, selling
 * the quantity by its split rule, priced as the booking prices it (priceBreakdown's total to pay, for the quantity
 * or the least the listing sells), at most max_price a ticket, by that price per ticket, then by id; the total
 * counts them all.
 */
describe('the event page (catalog.eventListings)', () => {
  let d: FreshDatabase;
  let eventId = 0;
  let buyers: number[] = [];

  beforeAll(async () => {
    d = await freshSeededDatabase();
    const users = await d.db
      .selectFrom('users')
      .select('id')
      .where('email', 'in', ['seller@demo.test', 'rival@demo.test', 'tickets4u@demo.test'])
      .orderBy('id')
      .execute();
    buyers = users.map((u) => u.id);
    eventId = (await d.db.selectFrom('events').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
    let x = 7;
    const rnd = (n: number) => {
      x = (x * 48271) % 2147483647;
      return x % n;
    };
    const rows = Array.from({ length: 400 }, (_, i) => {
      const currency = CURRENCIES[rnd(4)] as CurrencyCode;
      const available = rnd(7);
      return {
        seller_id: buyers[rnd(buyers.length)] as number,
        event_id: eventId,
        category: `Category ${rnd(3)}`,
        ticket_block: `Block ${i}`,
        row: String(rnd(20)),
        ticket_type_id: 1 + rnd(6),
        quantity: Math.max(available, 1),
        available,
        split_type: SPLITS[rnd(SPLITS.length)] as string,
        price: rnd(3) === 0 ? (TIED[currency][rnd(2)] as number) : 500 + rnd(40) * 250,
        currency,
        created_at: new Date().toISOString(),
      };
    });
    await d.db.insertInto('listings').values(rows).execute();
  });
  afterAll(async () => {
    await d?.close();
  });

  /** The definition, in code: every listing of the event read, priced, filtered and sorted here. */
  async function expected(buyer: number, currency: CurrencyCode, f: ListingFilters) {
    const all = await d.db
      .selectFrom('listings')
      .select(['id', 'seller_id', 'available', 'split_type', 'ticket_type_id', 'price', 'currency'])
      .where('event_id', '=', eventId)
      .execute();
    const sign = f.sort === 'price_desc' ? -1 : 1;
    return all
      .filter((l) => l.available > 0 && l.seller_id !== buyer)
      .filter((l) => !f.ticket_type_id || l.ticket_type_id === f.ticket_type_id)
      .filter((l) => !f.quantity || splitList(l.split_type, l.available).includes(f.quantity))
      .map((l) => {
        const quantity = f.quantity ?? splitList(l.split_type, l.available)[0] ?? l.available;
        const total = priceBreakdown({
          currency,
          unitPrice: convert(l.price, l.currency as CurrencyCode, currency),
          quantity,
          ticketTypeId: l.ticket_type_id,
          method: 2,
        }).total_with_payment_fee;
        return { id: l.id, perTicket: total / quantity, total, quantity };
      })
      .filter((l) => f.max_price === undefined || l.total <= f.max_price * l.quantity)
      .sort((a, b) => (a.perTicket === b.perTicket ? a.id - b.id : sign * (a.perTicket - b.perTicket)))
      .map((l) => l.id);
  }

  it('answers every filter, order and page as the definition does, ties in GBP terms broken by id', async () => {
    const filters = [
      {},
      { sort: 'price_desc' as const },
      { ticket_type_id: 3 },
      { quantity: 1 },
      { quantity: 2, sort: 'price_desc' as const },
      { quantity: 3 },
      { quantity: 4, ticket_type_id: 2 },
      { quantity: 5, sort: 'price_desc' as const },
      { max_price: 3000 },
      { quantity: 2, max_price: 2500, sort: 'price_desc' as const },
    ];
    let compared = 0;
    for (const buyer of buyers) {
      for (const currency of ['GBP', 'AED'] as const) {
        const found = await findEvent(d.db, buyer, eventId, currency);
        if (!found) throw new Error('no event');
        for (const f of filters) {
          const want = await expected(buyer, currency, f);
          for (const page of [
            { limit: 20, offset: 0 },
            { limit: 7, offset: 7 },
            { limit: 25, offset: 50 },
            { limit: 20, offset: Math.max(0, want.length - 5) },
            { limit: 20, offset: want.length + 20 },
          ]) {
            const got = await eventListings(d.db, buyer, found, f, currency, page);
            expect(got.total).toBe(want.length);
            expect(got.tickets.map((t) => t.sell_ticket_id)).toEqual(want.slice(page.offset, page.offset + page.limit));
            compared += got.tickets.length;
          }
        }
        // each ticket as the listing's own read shows it
        const first = await eventListings(d.db, buyer, found, {}, currency, { limit: 10, offset: 0 });
        for (const t of first.tickets) {
          const listing = await findListing(d.db, buyer, t.sell_ticket_id);
          if (!listing) throw new Error('no listing');
          expect(t).toEqual(purchaseListingOf(listing, currency));
          // the first price shown is the total the booking would ask for that quantity
          const priced = priceBreakdown({
            currency,
            unitPrice: t.price,
            quantity: t.all_in_quantity,
            ticketTypeId: t.ticket_type_id,
            method: 3,
          });
          expect(t.all_in_price).toBe(priced.total_with_payment_fee);
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});

/**
 * The search is prepared per shape (which text filters are given, migration-free): every combination of the four
 * text filters, with and without dates, must give the events and total of the plain definition: upcoming (from
 * today or the later date_from), up to date_to, each given text contained (case-insensitively) in its field.
 */
describe('the trade search (catalog.searchEvents)', () => {
  let d: FreshDatabase;
  const NOW = new Date('2026-11-01T10:00:00.000Z');

  beforeAll(async () => {
    d = await freshSeededDatabase();
  });
  afterAll(async () => {
    await d?.close();
  });

  it('answers every combination of name, team, competition, city and dates as the definition does', async () => {
    const buyer = await userIdOf(d.db, 'rival@demo.test');
    const events = await d.db
      .selectFrom('events')
      .innerJoin('cities', 'cities.id', 'events.city_id')
      .select([
        'events.id',
        'events.name',
        'events.home_team',
        'events.away_team',
        'events.tournament',
        'events.event_date',
        'events.event_time',
        'cities.name as city',
      ])
      .execute();
    const today = NOW.toISOString().slice(0, 10);
    const texts = { name: 'united', team: 'CITY', competition: 'league', city: 'o' } as const;
    const has = (field: string, text: string) => field.toLowerCase().includes(text.toLowerCase());
    let compared = 0;
    for (let mask = 0; mask < 16; mask++) {
      for (const dates of [{}, { date_from: '2026-12-01', date_to: '2027-03-31' }] as const) {
        const filters: EventSearch = { ...dates };
        (['name', 'team', 'competition', 'city'] as const).forEach((f, i) => {
          if (mask & (1 << i)) filters[f] = texts[f];
        });
        const want = events
          .filter(
            (e) =>
              e.event_date >= (filters.date_from && filters.date_from > today ? filters.date_from : today) &&
              e.event_date <= (filters.date_to ?? '9999-12-31') &&
              (!filters.name || has(e.name, filters.name)) &&
              (!filters.team || has(e.home_team, filters.team) || has(e.away_team, filters.team)) &&
              (!filters.competition || has(e.tournament, filters.competition)) &&
              (!filters.city || has(e.city, filters.city)),
          )
          .sort((a, b) =>
            a.event_date !== b.event_date
              ? a.event_date < b.event_date
                ? -1
                : 1
              : a.event_time !== b.event_time
                ? a.event_time < b.event_time
                  ? -1
                  : 1
                : a.id - b.id,
          )
          .map((e) => e.id);
        const got = await searchEvents(d.db, buyer, filters, 'GBP', { limit: 5, offset: 2 }, NOW);
        expect(got.total, JSON.stringify(filters)).toBe(want.length);
        expect(
          got.events.map((e) => e.match_id),
          JSON.stringify(filters),
        ).toEqual(want.slice(2, 7));
        compared += want.length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('each event\'s "from" price is one ticket of its cheapest offer all in, as the booking prices it', async () => {
    const buyer = await userIdOf(d.db, 'rival@demo.test');
    const got = await searchEvents(d.db, buyer, {}, 'EUR', { limit: 20, offset: 0 }, NOW);
    const offers = await d.db
      .selectFrom('listings')
      .select(['event_id', 'price', 'currency', 'ticket_type_id'])
      .where('available', '>', 0)
      .where('seller_id', '<>', buyer)
      .execute();
    for (const e of got.events) {
      const totals = offers
        .filter((o) => o.event_id === e.match_id)
        .map((o) => ({
          total: priceBreakdown({
            currency: 'EUR',
            unitPrice: convert(o.price, o.currency as CurrencyCode, 'EUR'),
            quantity: 1,
            ticketTypeId: o.ticket_type_id,
            method: 2,
          }).total_with_payment_fee,
        }));
      const least = totals.length ? Math.min(...totals.map((t) => t.total)) : null;
      expect(e.min_price, e.match_name).toBe(least);
    }
    expect(got.events.length).toBeGreaterThan(5);
  });
});
