import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMyListings } from '../../domain/listings/queries';
import { type FreshDatabase, freshSeededDatabase, writeConcurrently } from '../../test-support';
import type { Db } from '../database';

/** listing_counts as the listings say it should be: the listings grouped by seller and status. */
async function recomputed(db: Db) {
  const rows = await db
    .selectFrom('listings')
    .select(['seller_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['seller_id', 'status'])
    .execute();
  return rows.map((r) => `${r.seller_id}:${r.status} ${Number(r.n)}`).sort();
}

/** What the triggers kept (a row left at zero is no listing). */
async function kept(db: Db) {
  const rows = await db.selectFrom('listing_counts').selectAll().where('listings', '<>', 0).execute();
  return rows.map((r) => `${r.seller_id}:${r.status} ${Number(r.listings)}`).sort();
}

type Op =
  | { kind: 'insert'; seller: number; status: number; available: number; rows?: number }
  | { kind: 'sell'; pick: number }
  | { kind: 'status'; pick: number; status: number }
  | { kind: 'edit'; pick: number; price: number }
  | { kind: 'move'; pick: number; seller: number }
  | { kind: 'delete'; pick: number };

const STATUSES = ['published', 'unpublished', 'deleted'] as const;

describe('listing_counts (migration 0025): kept by triggers on listings', () => {
  let d: FreshDatabase;
  let sellers: number[] = [];
  let event = 0;

  beforeAll(async () => {
    d = await freshSeededDatabase();
    const ids = await d.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('email', 'in', ['seller@demo.test', 'rival@demo.test'])
      .orderBy('email', 'desc')
      .execute();
    sellers = ids.map((u) => u.id);
    event = (await d.db.selectFrom('events').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await d?.close();
  });

  it('matches the seeded listings, and is what Inventory says its total is', async () => {
    expect(await kept(d.db)).toEqual(await recomputed(d.db));
    expect((await kept(d.db)).length).toBeGreaterThan(2);
    const seller = sellers[0] as number;
    const now = new Date();
    const count = async (status?: 'published' | 'unpublished') =>
      Number(
        (
          await d.db
            .selectFrom('listings')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('seller_id', '=', seller)
            .where('status', status ? '=' : '<>', status ?? 'deleted')
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect((await listMyListings(d.db, seller, {}, { per_page: 1 }, now)).meta.total).toBe(await count());
    for (const status of ['published', 'unpublished'] as const) {
      expect((await listMyListings(d.db, seller, { status }, { per_page: 1 }, now)).meta.total).toBe(
        await count(status),
      );
    }
  });

  const opArb = fc.oneof(
    fc.record({
      kind: fc.constant('insert' as const),
      seller: fc.nat(1),
      status: fc.nat(1),
      available: fc.nat(4),
      // several rows in one statement, of both sellers and statuses (Postgres counts an insert per statement)
      rows: fc.integer({ min: 1, max: 3 }),
    }),
    fc.record({ kind: fc.constant('sell' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('status' as const), pick: fc.nat(), status: fc.nat(2) }),
    fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), price: fc.integer({ min: 1, max: 9_000 }) }),
    fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), seller: fc.nat(1) }),
    fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  );

  async function apply(db: Db, op: Op) {
    if (op.kind === 'insert') {
      const rows = Array.from({ length: op.rows ?? 1 }, (_, k) => {
        const status = STATUSES[(op.status + k) % 2] as string;
        return {
          seller_id: sellers[(op.seller + k) % 2] as number,
          event_id: event,
          category: 'Count test',
          ticket_block: 'A',
          row: '1',
          ticket_type_id: 1,
          quantity: op.available,
          available: status === 'published' ? op.available : 0,
          withheld: status === 'published' ? 0 : op.available,
          price: 1000,
          currency: 'GBP',
          status,
          created_at: '2026-01-01T00:00:00.000Z',
        };
      });
      await db.insertInto('listings').values(rows).execute();
      return;
    }
    const mine = await db
      .selectFrom('listings')
      .select('id')
      .where('category', '=', 'Count test')
      .orderBy('id')
      .execute();
    if (mine.length === 0) return;
    const id = (mine[op.pick % mine.length] as { id: number }).id;
    const row = db.updateTable('listings').where('id', '=', id);
    if (op.kind === 'sell')
      await row.set({ available: sql<number>`available - 1` }).where('available', '>', 0).execute();
    else if (op.kind === 'status') await row.set({ status: STATUSES[op.status] as string }).execute();
    // an edit sets the status to what it is (a PUT of the same fields): no change of count
    else if (op.kind === 'edit') await row.set({ price: op.price, status: sql<string>`status` }).execute();
    else if (op.kind === 'move') await row.set({ seller_id: sellers[op.seller] as number }).execute();
    else await db.deleteFrom('listings').where('id', '=', id).execute();
  }

  it('stays equal to the listings through any series of inserts, sales, status changes, edits, moves and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), async (ops) => {
        for (const op of ops) await apply(d.db, op);
        expect(await kept(d.db)).toEqual(await recomputed(d.db));
      }),
      { numRuns: 40 },
    );
  });

  it('stays equal when many transactions change one seller’s listings at once with no deadlock (row locks on Postgres)', async () => {
    const ops = fc.sample(opArb, { numRuns: 120, seed: 25 }) as Op[];
    for (let i = 0; i < 12; i++) await apply(d.db, { kind: 'insert', seller: i % 2, status: i % 2, available: 3 });
    expect(await writeConcurrently(d.db, ops, apply)).toBe(0);
    expect(await kept(d.db)).toEqual(await recomputed(d.db));
  });
});
