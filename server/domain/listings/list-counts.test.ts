import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshSeededDatabase, userIdOf } from '../../test-support';
import { recordOrder } from '../sales/totals';
import { type ListFilters, listMyListings } from './queries';

const NOW = new Date('2026-11-01T10:00:00.000Z');
const AT = NOW.toISOString();

/**
 * Inventory's page reads each listing's sold, held, files and templates counts in its own statement (correlated
 * subqueries): here every listing of several pages and sorts against the tables, read apart, with listings of
 * the first page given orders (one cancelled), holding and released carts, files and templates.
 */
describe('Inventory page: each listing’s sold, held, files and templates', () => {
  let d: FreshDatabase;
  let seller: number;

  beforeAll(async () => {
    d = await freshSeededDatabase();
    const db = d.db;
    seller = await userIdOf(db, 'seller@demo.test');
    const buyer = await userIdOf(db, 'rival@demo.test');
    const page = (await listMyListings(db, seller, {}, { per_page: 50 }, NOW)).tickets;
    const [a, b, c, e] = page as [(typeof page)[0], (typeof page)[0], (typeof page)[0], (typeof page)[0]];
    // orders: two kept, one cancelled (not sold)
    for (const [n, status, quantity] of [
      [1, 'confirmed', 2],
      [2, 'completed', 1],
      [3, 'cancelled', 4],
    ] as const) {
      await recordOrder(db, {
        booking_no: `COUNTS-${n}`,
        listing_id: a.id,
        seller_id: seller,
        event_id: a.match_id,
        quantity,
        amount: 1000 * quantity,
        currency: a.currency,
        status,
        created_at: AT,
      });
    }
    // carts: one holding tickets, one released (not held)
    for (const [hold_state, quantity] of [
      ['holding', 3],
      ['released', 5],
    ] as const) {
      await db
        .insertInto('carts')
        .values({
          buyer_id: buyer,
          user_id: buyer,
          listing_id: b.id,
          event_id: b.match_id,
          quantity,
          currency: b.currency,
          unit_price: 1000,
          payment_method: 1,
          status: hold_state === 'holding' ? 'held' : 'expired',
          hold_state,
          expires_at: AT,
          created_at: AT,
          updated_at: AT,
        })
        .execute();
    }
    // files: two on one listing
    for (const id of ['counts-file-1', 'counts-file-2']) {
      await db
        .insertInto('files')
        .values({
          id,
          owner_id: seller,
          operation_id: 'test',
          field: 'files',
          kind: 'pdf',
          mime: 'application/pdf',
          size: 10,
          sha256: id,
          original_name: `${id}.pdf`,
          created_at: AT,
        })
        .execute();
      await db.insertInto('listing_files').values({ listing_id: c.id, file_id: id, created_at: AT }).execute();
    }
    // templates: two on one listing, one on another
    const templates: number[] = [];
    for (const name of ['Counts one', 'Counts two']) {
      const t = await db
        .insertInto('additional_templates')
        .values({
          seller_id: seller,
          name,
          name_key: name.toLowerCase(),
          content: name,
          file_id: null,
          created_at: AT,
          updated_at: AT,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      templates.push(t.id);
    }
    await db
      .insertInto('listing_templates')
      .values([
        { listing_id: e.id, template_id: templates[1] as number },
        { listing_id: e.id, template_id: templates[0] as number },
        { listing_id: c.id, template_id: templates[0] as number },
      ])
      .execute();
  });
  afterAll(async () => {
    await d?.close();
  });

  /** The four values of each listing of `ids`, read from their tables one listing at a time. */
  async function fromTables(ids: number[]) {
    const out = new Map<
      number,
      { sold: number; held: number; files_count: number; additional_template_ids: number[] }
    >();
    for (const id of ids) {
      const orders = await d.db
        .selectFrom('orders')
        .select(['quantity', 'status'])
        .where('listing_id', '=', id)
        .execute();
      const carts = await d.db
        .selectFrom('carts')
        .select(['quantity', 'hold_state'])
        .where('listing_id', '=', id)
        .execute();
      const files = await d.db.selectFrom('listing_files').select('file_id').where('listing_id', '=', id).execute();
      const templates = await d.db
        .selectFrom('listing_templates')
        .select('template_id')
        .where('listing_id', '=', id)
        .execute();
      out.set(id, {
        sold: orders.filter((o) => o.status !== 'cancelled').reduce((n, o) => n + o.quantity, 0),
        held: carts.filter((c) => c.hold_state === 'holding').reduce((n, c) => n + c.quantity, 0),
        files_count: files.length,
        additional_template_ids: templates.map((t) => t.template_id).sort((x, y) => x - y),
      });
    }
    return out;
  }

  it('gives every listing of the pages and sorts the values its tables hold', async () => {
    const seen = { sold: 0, held: 0, files: 0, templates: 0 };
    for (const filters of [{}, { sort: 'price_desc' }, { status: 'published' }, { q: 'a' }] as ListFilters[]) {
      for (const page of [1, 2]) {
        const got = (await listMyListings(d.db, seller, filters, { page, per_page: 50 }, NOW)).tickets;
        expect(got.length, JSON.stringify(filters)).toBeGreaterThan(0);
        const want = await fromTables(got.map((l) => l.id));
        for (const l of got) {
          const { sold, held, files_count, additional_template_ids } = l;
          expect({ sold, held, files_count, additional_template_ids }, `listing ${l.id}`).toEqual(want.get(l.id));
          seen.sold += sold;
          seen.held += held;
          seen.files += files_count;
          seen.templates += additional_template_ids.length;
        }
      }
    }
    // the first page (the default order) carries the rows written above: none of the four was always zero
    expect(Math.min(seen.sold, seen.held, seen.files, seen.templates)).toBeGreaterThan(0);
  });
});
