import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshSeededDatabase, userIdOf } from '../../test-support';
import { type EventSearch, eventListings, findEvent, findListing, purchaseListingOf, searchEvents } from './catalog';
import { type CurrencyCode, RATES_PER_GBP, splitList } from './pricing';

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
 * The event page reads each currency's first listings from an index and merges them (migration 0026); these
 * answers must be those of the plain definition: every listing of the event with tickets left that is not the
 * buyer's, of the ticket type, selling the quantity by its split rule, by price in GBP terms (exactly: price over
 * rate), then by id; the total counts them all.
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

  /** The definition, in code: every listing of the event read, filtered and sorted here. */
  async function expected(buyer: number, f: { quantity?: number; ticket_type_id?: number; sort?: 'price_desc' }) {
    const all = await d.db
      .selectFrom('listings')
      .select(['id', 'seller_id', 'available', 'split_type', 'ticket_type_id', 'price', 'currency'])
      .where('event_id', '=', eventId)
      .execute();
    const sign = f.sort === 'price_desc' ? -1 : 1;
    const gbp = (l: { price: number; currency: string }) => BigInt(l.price) * 10n ** 12n;
    const rate = (l: { currency: string }) => BigInt(RATES_PER_GBP[l.currency as CurrencyCode]);
    return all
      .filter((l) => l.available > 0 && l.seller_id !== buyer)
      .filter((l) => !f.ticket_type_id || l.ticket_type_id === f.ticket_type_id)
      .filter((l) => !f.quantity || splitList(l.split_type, l.available).includes(f.quantity))
      .sort((a, b) => {
        const left = gbp(a) * rate(b);
        const right = gbp(b) * rate(a);
        return left === right ? a.id - b.id : sign * (left < right ? -1 : 1);
      })
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
    ];
    let compared = 0;
    for (const buyer of buyers) {
      for (const currency of ['GBP', 'AED'] as const) {
        const found = await findEvent(d.db, buyer, eventId, currency);
        if (!found) throw new Error('no event');
        for (const f of filters) {
          const want = await expected(buyer, f);
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
});
