import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedAnswerStats } from '../domain/catalog-answers';
import { HOLD_MS } from '../domain/purchase/pricing';
import { freshServer } from '../test-support';
import { book, call, makeBuyers, makeListing, type Server } from './trade-testing';

type Page = { event: { tickets_available: number; match_name: string }; tickets: { sNo: number; quantity: number }[] };
type Search = { events: { match_id: number; tickets_available: number; min_price: number | null }[] };

/**
 * The trade search and the event page are answers shared by every buyer, kept per event at the event's version
 * (server/domain/catalog-answers.ts): a second buyer reads none of it again, a write on one match ends the kept
 * answers of that match only, and no buyer is shown tickets as they were before a committed sale.
 */
describe('shared answers of the trade search and the event page', () => {
  let s: Server;
  let buyers: { id: number; token: string }[];
  let listing: { id: number; event_id: number };
  let other: number;

  beforeAll(async () => {
    s = await freshServer();
    buyers = await makeBuyers(s.db, 3, s.clock.now());
    // the cheapest listing of its match, so that it leads the event page and sets the lowest price
    listing = await makeListing(s.db, s.clock.now(), { tickets: 2, price: 500 });
    const next = await s.db
      .selectFrom('events')
      .select('id')
      .where('id', '<>', listing.event_id)
      .where('event_date', '>=', s.clock.now().toISOString().slice(0, 10))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    other = next.id;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const eventPage = async (token: string, eventId = listing.event_id) => {
    const a = await call(s, 'GET', `/purchase/lmt-trade/events/${eventId}?per_page=10`, token);
    expect(a.status).toBe(200);
    return a.body.data as unknown as Page;
  };
  const search = async (token: string) => {
    const a = await call(s, 'GET', '/purchase/lmt-trade/events-search?per_page=50', token);
    expect(a.status).toBe(200);
    return (a.body.data as unknown as Search).events.find((e) => e.match_id === listing.event_id);
  };
  const offered = (page: Page) => page.tickets.find((t) => t.sNo === listing.id)?.quantity;
  const misses = () => sharedAnswerStats(s.db).misses;

  it('serves a second buyer from what the first one read', async () => {
    const [a, b] = buyers as unknown as [{ token: string }, { token: string }];
    expect(offered(await eventPage(a.token))).toBe(2);
    await eventPage(a.token, other);
    await search(a.token);
    const before = misses();
    expect(offered(await eventPage(b.token))).toBe(2);
    await eventPage(b.token, other);
    // all in: 5.00 + 10% service fee + 20% VAT on it
    expect((await search(b.token))?.min_price).toBe(560);
    expect(misses()).toBe(before);
  });

  it('a hold, a sale, a price change, an event edit and a release end the answers of their match only', async () => {
    const [a, b, c] = buyers as unknown as [{ token: string }, { token: string }, { token: string }];
    const tickets = (await search(a.token))?.tickets_available ?? 0;
    // a hold of one ticket
    const cart = await call(
      s,
      'POST',
      `/purchase/lmt-trade/add-to-cart?match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=1`,
      c.token,
    );
    expect(cart.status).toBe(200);
    let before = misses();
    await eventPage(a.token, other);
    expect(misses()).toBe(before);
    expect(offered(await eventPage(b.token))).toBe(1);
    expect((await search(b.token))?.tickets_available).toBe(tickets - 1);
    // the hold ends: the next read releases it, and shows the ticket again
    s.clock.advance(HOLD_MS + 1000);
    expect(offered(await eventPage(a.token))).toBe(2);
    // a price change by the seller
    const seller = await s.loginAs('tickets4u@demo.test');
    const priced = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [listing.id],
      price: 600,
    });
    expect(priced.status).toBe(200);
    expect((await search(b.token))?.min_price).toBe(672);
    // an admin's edit of the event
    await s.db.updateTable('events').set({ name: 'Renamed match' }).where('id', '=', listing.event_id).execute();
    expect((await eventPage(b.token)).event.match_name).toBe('Renamed match');
    before = misses();
    await eventPage(b.token, other);
    expect(misses()).toBe(before);
  });

  it('never shows a sold-out listing as available once its sale is confirmed', async () => {
    const [a, b, c] = buyers as unknown as [{ token: string }, { token: string }, { token: string }];
    expect(offered(await eventPage(a.token))).toBe(2);
    const tickets = (await search(a.token))?.tickets_available ?? 0;
    const booking = await book(s, c.token, listing, 2);
    const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', c.token, {
      booking_id: booking.booking_id,
      payment_method: 1,
    });
    expect(paid.status).toBe(200);
    for (const buyer of [a, b]) {
      expect(offered(await eventPage(buyer.token))).toBeUndefined();
      expect((await search(buyer.token))?.tickets_available).toBe(tickets - 2);
    }
  });
});
