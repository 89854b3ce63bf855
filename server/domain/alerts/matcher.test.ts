import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, inlineBilling, makeBuyers, makeListing, type Server } from '../../routes/trade-testing';
import { freshServer } from '../../test-support';
import { releaseDueHolds } from '../purchase/holds';
import { createAlert, listAlerts } from './alerts';
import { matchAlerts } from './matcher';
import { ALERT_HOLD_MS, leastAllIn } from './rules';

/**
 * Seat alerts on both engines: the oldest alert that fits gets the seats held, the next waits with its place in
 * the queue; a hold that ends gives the seats back exactly once and they go to the next in line; listings whose
 * split, quantity, block or price do not fit alert nobody; a purchase from the hold counts as a conversion.
 */
describe('seat alerts: matching and holds', () => {
  let s: Server;
  beforeAll(async () => {
    s = await freshServer();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const available = async (id: number) =>
    (await s.db.selectFrom('listings').select('available').where('id', '=', id).executeTakeFirstOrThrow()).available;
  const notes = async (userId: number) =>
    s.db.selectFrom('notifications').select(['name', 'description', 'link']).where('user_id', '=', userId).execute();
  /** A listing in a block of its own, so that the demo's listings of the same match stay out of the test. */
  let blockSeq = 0;
  const ownListing = async (opts: Parameters<typeof makeListing>[2]) => {
    const listing = await makeListing(s.db, s.clock.now(), opts);
    const block = `Alert block ${++blockSeq}`;
    await s.db.updateTable('listings').set({ ticket_block: block }).where('id', '=', listing.id).execute();
    return { ...listing, block };
  };
  const wish = (eventId: number, buyer: { id: number }, over: Partial<Parameters<typeof createAlert>[1]> = {}) => ({
    buyerId: buyer.id,
    userId: buyer.id,
    eventId,
    quantity: 2,
    category: null,
    blocks: [],
    maxPrice: 10_000,
    currency: 'GBP' as const,
    byMail: false,
    ...over,
  });

  it('holds for the first alert, queues the second, hands the seats on once when the hold ends, counts the sale', async () => {
    const now = s.clock.now();
    const [first, second, third] = await makeBuyers(s.db, 3, now);
    if (!first || !second || !third) throw new Error('no buyers');
    // two tickets that sit together, 50.00 each: 50.00 + 10% fee + 20% tax on the fee = 56.00 all-in
    const listing = await ownListing({ tickets: 2, price: 5_000 });
    const blocks = [listing.block];
    const a = await createAlert(s.db, wish(listing.event_id, first, { blocks }), now);
    s.clock.advance(1_000);
    const b = await createAlert(s.db, wish(listing.event_id, second, { blocks }), s.clock.now());
    // a ceiling under 56.00 a ticket: never alerted
    await createAlert(s.db, wish(listing.event_id, third, { blocks, maxPrice: 5_599 }), s.clock.now());

    expect(await matchAlerts(s.db, null, s.clock.now())).toBe(1);
    expect(await available(listing.id)).toBe(0);
    const [mine] = await listAlerts(s.db, first.id, s.clock.now(), a.id);
    expect(mine?.findings).toMatchObject([{ listing_id: listing.id, state: 'held', unit_all_in: 5_600 }]);
    expect(Date.parse(mine?.findings[0]?.held_until ?? '')).toBe(s.clock.now().getTime() + ALERT_HOLD_MS);
    expect(await notes(first.id)).toEqual([
      expect.objectContaining({ name: 'seat_alert_held', link: `/trade/events/${listing.event_id}` }),
    ]);
    const [theirs] = await listAlerts(s.db, second.id, s.clock.now(), b.id);
    expect(theirs?.findings).toMatchObject([{ listing_id: listing.id, state: 'waiting', queue_place: 1 }]);
    expect(await notes(second.id)).toEqual([]);
    expect((await listAlerts(s.db, third.id, s.clock.now()))[0]?.findings).toEqual([]);

    // a second sweep changes nothing: one hold an alert, one word a listing
    expect(await matchAlerts(s.db, null, s.clock.now())).toBe(0);
    expect(await notes(first.id)).toHaveLength(1);

    // the hold ends unpaid: the sweeps of two processes at once give the seats back once
    s.clock.advance(ALERT_HOLD_MS + 1_000);
    const freed = await Promise.all([releaseDueHolds(s.db, s.clock.now()), releaseDueHolds(s.db, s.clock.now())]);
    expect(freed[0] + freed[1]).toBe(1);
    expect(await available(listing.id)).toBe(2);

    // and they go to the next in line
    expect(await matchAlerts(s.db, null, s.clock.now())).toBe(1);
    expect(await available(listing.id)).toBe(0);
    expect((await listAlerts(s.db, first.id, s.clock.now()))[0]?.findings[0]?.state).toBe('lapsed');
    const [next] = await listAlerts(s.db, second.id, s.clock.now(), b.id);
    expect(next?.findings).toMatchObject([{ state: 'held', queue_place: null }]);
    expect(await notes(second.id)).toHaveLength(1);

    // the second buyer pays from the hold: the alert records the purchase
    const cartId = next?.findings[0]?.cart_id as number;
    const booking = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, second.token, {
      cart_id: cartId,
      lang: 'en',
      client_country: 'IN',
      payment_method: 1,
      ...(await inlineBilling(s.db)),
    });
    expect(booking.status).toBe(200);
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', second.token, {
      booking_id: (booking.body.data as { booking_id: number }).booking_id,
      payment_method: 1,
    });
    expect(paid.status).toBe(200);
    await matchAlerts(s.db, null, s.clock.now());
    const [done] = await listAlerts(s.db, second.id, s.clock.now(), b.id);
    expect(done).toMatchObject({ holds: 1, bought: 1, findings: [{ state: 'bought' }] });
    expect(await available(listing.id)).toBe(0);
  });

  it('alerts nobody for a listing whose split, quantity or blocks do not fit', async () => {
    const now = s.clock.now();
    const [buyer] = await makeBuyers(s.db, 1, now);
    if (!buyer) throw new Error('no buyer');
    const pairs = await ownListing({ tickets: 4, price: 5_000 });
    await s.db.updateTable('listings').set({ split_type: 'pairs' }).where('id', '=', pairs.id).execute();
    const three = await createAlert(s.db, wish(pairs.event_id, buyer, { quantity: 3, blocks: [pairs.block] }), now);
    const [other] = await makeBuyers(s.db, 1, now);
    if (!other) throw new Error('no buyer');
    const elsewhere = await createAlert(s.db, wish(pairs.event_id, other, { blocks: ['Block 9', 'Block 12'] }), now);
    await matchAlerts(s.db, null, now);
    expect((await listAlerts(s.db, buyer.id, now, three.id))[0]?.findings).toEqual([]);
    expect((await listAlerts(s.db, other.id, now, elsewhere.id))[0]?.findings).toEqual([]);
    expect(await available(pairs.id)).toBe(4);
    expect(await notes(buyer.id)).toEqual([]);
  });

  it('refuses a ceiling below any possible price, saying the least', async () => {
    const now = s.clock.now();
    const [buyer] = await makeBuyers(s.db, 1, now);
    if (!buyer) throw new Error('no buyer');
    const listing = await makeListing(s.db, now, { tickets: 2 });
    expect(leastAllIn('GBP')).toBe(560);
    await expect(createAlert(s.db, wish(listing.event_id, buyer, { maxPrice: 559 }), now)).rejects.toMatchObject({
      status: 422,
      errors: [{ path: '/body/max_price', message: expect.stringContaining('is below any possible price') }],
    });
  });
});
