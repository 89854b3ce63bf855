import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderStatusValues } from '../../../openapi/schema';
import type { OrderStatus } from '../../db/schema';
import { type FreshDatabase, freshSeededDatabase, userIdOf } from '../../test-support';
import { deadlinesFor } from './deadlines';
import { type SalesFilters, salesPage, salesRows } from './lists';
import type { SalesSort } from './orders';
import { recountOrderTotals } from './totals';

const SORTS: SalesSort[] = [
  'created_desc',
  'created_asc',
  'match_date',
  'match_date_desc',
  'deadline',
  'amount_desc',
  'amount_asc',
];

/**
 * The sales lists' pages (prepared queries for the unfiltered lists, kept totals) and their counts (a filtered
 * count reads `orders` alone, the match search through orders_seller_status_event, migration 0027) against the
 * whole filtered list built as the export builds it, and the match search against its definition in code.
 */
describe('the sales lists (salesPage)', () => {
  let d: FreshDatabase;
  let seller = 0;

  beforeAll(async () => {
    d = await freshSeededDatabase();
    seller = await userIdOf(d.db, 'seller@demo.test');
    const listings = await d.db
      .selectFrom('listings')
      .innerJoin('events', 'events.id', 'listings.event_id')
      .select([
        'listings.id',
        'listings.event_id',
        'listings.ticket_type_id',
        'listings.price',
        'listings.currency',
        'events.event_date',
        'events.event_time',
      ])
      .where('listings.seller_id', '=', seller)
      .orderBy('listings.id')
      .execute();
    const start = Date.parse('2026-03-01T00:00:00.000Z');
    const rows = Array.from({ length: 600 }, (_, n) => {
      const status = orderStatusValues[(n * 7) % orderStatusValues.length] as OrderStatus;
      const l = listings[(n * 13) % listings.length] as (typeof listings)[number];
      // a few orders share a placing time and an amount, so that the sorts' last term (the id) decides
      const created = new Date(start + (n % 250) * 3_600_000).toISOString();
      const quantity = 1 + (n % 4);
      return {
        booking_no: `LT${String(n).padStart(8, '0')}`,
        listing_id: l.id,
        seller_id: seller,
        event_id: l.event_id,
        quantity,
        amount: l.price * quantity,
        currency: l.currency,
        status,
        created_at: created,
        updated_at: created,
        event_date: l.event_date,
        event_time: l.event_time,
        ticket_type_id: l.ticket_type_id,
        delivered: status === 'delivered' || status === 'completed' ? quantity : 0,
        ...deadlinesFor(status, { created_at: created, event_date: l.event_date, event_time: l.event_time }),
      };
    });
    for (let i = 0; i < rows.length; i += 200)
      await d.db
        .insertInto('orders')
        .values(rows.slice(i, i + 200))
        .execute();
    await recountOrderTotals(d.db, seller);
  });
  afterAll(async () => {
    await d?.close();
  });

  it('gives every status, sort and page of the unfiltered lists as the whole list has them, and its total', async () => {
    let compared = 0;
    for (const status of [undefined, ...orderStatusValues]) {
      for (const sort of SORTS) {
        const f: SalesFilters = { ...(status ? { status } : {}), sort };
        const all = (await salesRows(d.db, seller, f, 100_000)).map((o) => o.booking_id);
        for (const page of [1, 2, 7]) {
          const got = await salesPage(d.db, seller, f, { page, perPage: 15 });
          expect(got.total, `${status} ${sort}`).toBe(all.length);
          expect(got.orders.map((o) => o.booking_id)).toEqual(all.slice((page - 1) * 15, page * 15));
          compared += got.orders.length;
        }
      }
    }
    expect(compared).toBeGreaterThan(2_000);
  });

  it('counts a match search and other filters as the list holds them; the search finds what its texts contain', async () => {
    const events = await d.db
      .selectFrom('events')
      .select(['id', 'name', 'home_team', 'away_team', 'tournament'])
      .execute();
    const orders = await d.db
      .selectFrom('orders')
      .select(['id', 'event_id', 'status', 'currency'])
      .where('seller_id', '=', seller)
      .execute();
    for (const q of ['united', 'a', 'LEAGUE', 'zzz', '%']) {
      const matching = new Set(
        events
          .filter((e) =>
            [e.name, e.home_team, e.away_team, e.tournament].some((t) => t.toLowerCase().includes(q.toLowerCase())),
          )
          .map((e) => e.id),
      );
      // status, currency and match: the kept totals per match (migration 0030) answer the total
      for (const [status, currency] of [
        [undefined, undefined],
        ['delivered', undefined],
        ['pending', undefined],
        [undefined, 'EUR'],
        ['confirmed', 'GBP'],
      ] as const) {
        const f: SalesFilters = { q, ...(status ? { status } : {}), ...(currency ? { currency } : {}) };
        const want = orders.filter(
          (o) => matching.has(o.event_id) && (!status || o.status === status) && (!currency || o.currency === currency),
        ).length;
        const got = await salesPage(d.db, seller, f, { page: 1, perPage: 10 });
        expect(got.total, JSON.stringify(f)).toBe(want);
        expect(got.orders.map((o) => o.booking_id)).toEqual(
          (await salesRows(d.db, seller, f, 10)).map((o) => o.booking_id),
        );
      }
    }
    for (const f of [
      { status: 'confirmed', currency: 'EUR' },
      { ticket_type_id: 2 },
      { booking_no: 'lt0000012' },
      { status: 'completed', date_from: '2026-03-03', date_to: '2026-03-05' },
      { date_field: 'match_date', date_from: '2026-01-01', date_to: '2099-01-01', sort: 'amount_desc' },
    ] as SalesFilters[]) {
      const got = await salesPage(d.db, seller, f, { page: 2, perPage: 10 });
      const all = await salesRows(d.db, seller, f, 100_000);
      expect(got.total, JSON.stringify(f)).toBe(all.length);
      expect(got.orders.map((o) => o.booking_id)).toEqual(all.slice(10, 20).map((o) => o.booking_id));
    }
    // the filters against their definitions in code (the page and the export share the SQL above)
    const rows = await d.db
      .selectFrom('orders')
      .select(['booking_no', 'status', 'currency', 'ticket_type_id', 'created_at', 'event_date'])
      .where('seller_id', '=', seller)
      .execute();
    const definitions: [SalesFilters, (o: (typeof rows)[number]) => boolean][] = [
      [{ status: 'confirmed', currency: 'EUR' }, (o) => o.status === 'confirmed' && o.currency === 'EUR'],
      [{ ticket_type_id: 2 }, (o) => o.ticket_type_id === 2],
      [{ booking_no: 'lt0000012' }, (o) => o.booking_no.toLowerCase().startsWith('lt0000012')],
      // the order's date: the whole of the last day
      [
        { status: 'completed', date_from: '2026-03-03', date_to: '2026-03-05' },
        (o) => o.status === 'completed' && o.created_at >= '2026-03-03' && o.created_at < '2026-03-06',
      ],
      [
        { date_field: 'match_date', date_from: '2026-01-01', date_to: '2026-12-31' },
        (o) => o.event_date >= '2026-01-01' && o.event_date <= '2026-12-31',
      ],
    ];
    for (const [f, keep] of definitions) {
      const want = rows.filter(keep).length;
      expect(want, JSON.stringify(f)).toBeGreaterThan(0);
      expect((await salesPage(d.db, seller, f, { page: 1, perPage: 10 })).total, JSON.stringify(f)).toBe(want);
    }
  });
});
