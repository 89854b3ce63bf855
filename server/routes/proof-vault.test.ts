import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../db/migrate';
import { proofsOf } from '../domain/disputes/proofs';
import { freshServer } from '../test-support';
import { acceptedSale, deliverForm, futureEvent, pdfOfPages } from './dispute-testing';
import { call, type Server, userId } from './trade-testing';

/**
 * The proof vault: every delivery keeps its proof in its own transaction (a PDF's sha256 and pages, the transfer
 * link and the buyer's acceptance, the courier's reference, the buyer's downloads), and every delivered order of
 * a database migrated from before the vault carries the proof that can be derived. On the test engine.
 */
describe('the proof vault (server)', () => {
  let s: Server;
  let seller: string;
  let buyer: string;
  let sellerId: number;
  let eventId: number;

  beforeAll(async () => {
    s = await freshServer();
    [seller, buyer] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
    sellerId = await userId(s, 'seller@demo.test');
    eventId = (await futureEvent(s)).id;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  /** Delivered or completed orders without a single proof row. */
  const unproved = async () =>
    Number(
      (
        await s.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['delivered', 'completed'])
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('delivery_proofs').select('id').whereRef('order_id', '=', 'orders.id'))),
          )
          .executeTakeFirstOrThrow()
      ).n,
    );
  const delivered = async () =>
    Number(
      (
        await s.db
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('status', 'in', ['delivered', 'completed'])
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('keeps a split PDF’s sha256 and pages with the tickets it delivered, and each download of the buyer', async () => {
    const sale = await acceptedSale(s, { buyer, seller }, sellerId, eventId, 1, 2);
    const bytes = pdfOfPages(3);
    const sent = await deliverForm(
      s,
      seller,
      `/api/sales/upload-tickets?booking_id=${sale.orderId}`,
      { mode: 'split' },
      [['files', 'tickets.pdf', 'application/pdf', bytes]],
    );
    expect(sent.status).toBe(200);
    const [proof] = await proofsOf(s.db, sale.orderId);
    expect(proof).toMatchObject({
      kind: 'pdf_page',
      ticket_nos: '1,2',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      pages: 3,
      source: 'recorded',
    });
    const got = await call(s, 'GET', `/purchase/lmt-trade/bookings/${sale.bookingId}/tickets`, buyer);
    expect(got.status).toBe(200);
    await call(s, 'GET', `/purchase/lmt-trade/bookings/${sale.bookingId}/tickets`, buyer);
    const downloads = (await proofsOf(s.db, sale.orderId)).filter((p) => p.kind === 'download');
    expect(downloads).toHaveLength(2);
    expect(downloads[0]?.user_id).toBe(await userId(s, 'rival@demo.test'));
  });

  it('keeps a whole-order transfer link, then the buyer’s acceptance of it', async () => {
    const sale = await acceptedSale(s, { buyer, seller }, sellerId, eventId, 2, 3);
    const link = 'https://club.example.com/transfer/abc';
    const sent = await deliverForm(s, seller, `/api/sales/upload-mobile-ticket?booking_id=${sale.orderId}`, {
      link_mode: 'whole_order',
      transfer_links: link,
    });
    expect(sent.status).toBe(200);
    expect(
      (await call(s, 'POST', `/purchase/lmt-trade/bookings/${sale.bookingId}/transfer-accepted`, buyer)).status,
    ).toBe(200);
    const proofs = await proofsOf(s.db, sale.orderId);
    expect(proofs.map((p) => [p.kind, p.ticket_nos, p.reference])).toEqual([
      ['transfer_link', '1,2,3', link],
      ['transfer_accepted', null, link],
    ]);
  });

  it('keeps a paper delivery’s courier and tracking number', async () => {
    const sale = await acceptedSale(s, { buyer, seller }, sellerId, eventId, 3, 1);
    const sent = await deliverForm(s, seller, `/api/sales/paper-ticket-upload?booking_id=${sale.orderId}`, {
      courier: 'DHL',
      tracking_number: 'JD0001',
    });
    expect(sent.status).toBe(200);
    expect((await proofsOf(s.db, sale.orderId)).map((p) => [p.kind, p.reference])).toEqual([['courier', 'DHL JD0001']]);
  });

  it('gives every delivered order of the demo proof, and derives it when migrating a database made before', async () => {
    expect(await delivered()).toBeGreaterThan(10);
    expect(await unproved()).toBe(0);
    // the database as it was before the vault: no proof tables, the migration not applied
    await s.db.schema.dropTable('order_disputes').ifExists().execute();
    await s.db.schema.dropTable('delivery_proofs').execute();
    await sql`DELETE FROM kysely_migration WHERE name = ${'0051-proof-vault'}`.execute(s.db);
    expect(await migrateToLatest(s.db)).toEqual(['0051-proof-vault']);
    expect(await unproved()).toBe(0);
    const derived = await s.db
      .selectFrom('delivery_proofs')
      .select(['kind', 'source', 'reference'])
      .where('kind', '=', 'courier')
      .executeTakeFirstOrThrow();
    expect(derived.source).toBe('backfill');
    expect(derived.reference).toMatch(/ TRK\d+|JD0001/);
  });
});
