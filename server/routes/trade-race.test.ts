import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../domain/ledger';
import { freshServer } from '../test-support';
import { book, call, newKey, type Server, userId } from './trade-testing';

/**
 * Two hundred buyers' attempts at once against a listing with 10 tickets: exactly 10 are sold, every other
 * attempt hears that the tickets are gone, no ticket is held or sold twice, and the ledger stays whole. Run on
 * SQLite and on Postgres (TEST_ENGINE=postgres), where the attempts really run side by side on a pool.
 */
describe('the race for the last tickets', () => {
  let s: Server;
  let tokens: string[];
  let listing: { id: number; event_id: number };

  beforeAll(async () => {
    s = await freshServer();
    tokens = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
    const seller = await userId(s, 'tickets4u@demo.test');
    const event = await s.db
      .selectFrom('events')
      .select('id')
      .where('guest_fields', '=', '')
      .where('event_date', '>=', s.clock.now().toISOString().slice(0, 10))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const made = await s.db
      .insertInto('listings')
      .values({
        seller_id: seller,
        event_id: event.id,
        category: 'Race Stand',
        ticket_block: 'Block 1',
        row: '1',
        ticket_type_id: 1,
        quantity: 10,
        available: 10,
        split_type: 'any',
        price: 5_000,
        currency: 'GBP',
        created_at: s.clock.now().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    listing = { id: made.id, event_id: event.id };
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('sells exactly 10 of 10 tickets to 200 concurrent purchase attempts', async () => {
    const attempts = Array.from({ length: 200 }, async (_, i) => {
      const token = tokens[i % 2] as string;
      try {
        const booking = await book(s, token, listing, 1);
        const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', token, {
          booking_id: booking.booking_id,
          payment_method: 1,
        });
        return (paid.body.data as { result: { booking_status: string } }).result.booking_status;
      } catch (error) {
        const message = String((error as Error).message);
        if (message.startsWith('add-to-cart answered 409')) return 'sold out';
        // a buyer holding 5 carts at once waits for one to end (MAX_OPEN_HOLDS): two buyers still take all 10
        return message.startsWith('add-to-cart answered 429') ? 'sold out' : String(error);
      }
    });
    const outcomes = await Promise.all(attempts);
    const counts: Record<string, number> = {};
    for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
    expect(counts).toEqual({ Success: 10, 'sold out': 190 });
    const row = await s.db
      .selectFrom('listings')
      .select('available')
      .where('id', '=', listing.id)
      .executeTakeFirstOrThrow();
    expect(row.available).toBe(0);
    const sold = await s.db
      .selectFrom('carts')
      .select((eb) => eb.fn.sum<number>('quantity').as('n'))
      .where('listing_id', '=', listing.id)
      .where('hold_state', '=', 'sold')
      .executeTakeFirstOrThrow();
    expect(Number(sold.n)).toBe(10);
    const orders = await s.db.selectFrom('orders').select('id').where('listing_id', '=', listing.id).execute();
    expect(orders).toHaveLength(10);
    expect(await auditLedger(s.db)).toEqual([]);
  }, 120_000);

  it('makes one booking and one charge of a double submit, whatever the keys', async () => {
    const token = tokens[0] as string;
    const other = await s.db
      .selectFrom('listings')
      .innerJoin('events', 'events.id', 'listings.event_id')
      .select(['listings.id', 'listings.event_id'])
      .where('listings.seller_id', '<>', await userId(s, 'seller@demo.test'))
      .where('listings.available', '>=', 2)
      .where('listings.split_type', '=', 'any')
      .where('events.guest_fields', '=', '')
      .where('events.event_date', '>=', s.clock.now().toISOString().slice(0, 10))
      .orderBy('listings.id')
      .executeTakeFirstOrThrow();
    const booking = await book(s, token, other, 1);
    const entries = async () =>
      (
        await s.db
          .selectFrom('ledger_entries')
          .select('id')
          .where('reference', '=', `booking:${booking.booking_id}`)
          .execute()
      ).length;
    // the same click twice (one key) and two clicks (two keys), all at once
    const key = newKey();
    const body = { booking_id: booking.booking_id, payment_method: 1 };
    const answers = await Promise.all([
      call(s, 'POST', '/purchase/lmt-trade/confirmation', token, body, key),
      call(s, 'POST', '/purchase/lmt-trade/confirmation', token, body, key),
      call(s, 'POST', '/purchase/lmt-trade/confirmation', token, body),
      call(s, 'POST', '/purchase/lmt-trade/confirmation', token, body),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect((a.body.data as { result: { booking_status: string } }).result.booking_status).toBe('Success');
    }
    expect(await entries()).toBe(1);
    expect(
      await s.db.selectFrom('orders').select('id').where('booking_no', '=', booking.booking_no).execute(),
    ).toHaveLength(1);
    expect(await auditLedger(s.db)).toEqual([]);
  }, 60_000);
});
