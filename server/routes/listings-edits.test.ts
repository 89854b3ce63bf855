import { describe, expect, it } from 'vitest';
import { releaseDueHolds } from '../domain/purchase/holds';
import { HOLD_MS, priceBreakdown } from '../domain/purchase/pricing';
import {
  count,
  type Listing,
  listing,
  logsOf,
  member,
  openListingsServer,
  rival,
  rivalId,
  row,
  s,
  save,
  seller,
  sellerId,
  upcoming,
} from './listings-testing';
import { call } from './trade-testing';

describe('inventory (server): edits, deletion, prices, publishing, insights and the listing settings', () => {
  openListingsServer();

  it('edits a listing, logging each field from its old value to its new one; another seller’s id is 404', async () => {
    const l = listing(await save());
    const edit = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, {
      price: 15000,
      row: '14',
      notes: 'Aisle',
    });
    expect(edit.status).toBe(200);
    expect(edit.body.data).toMatchObject({ price: 15000, row: '14', notes: 'Aisle' });
    const logs = await logsOf(l.id);
    expect(
      logs.filter((x) => x.action !== 'created').map((x) => [x.action, x.field, x.old_value, x.new_value]),
    ).toEqual(
      expect.arrayContaining([
        ['price_changed', 'price', '12500', '15000'],
        ['updated', 'row', '12', '14'],
        ['updated', 'notes', null, 'Aisle'],
      ]),
    );
    // the same again changes and logs nothing
    await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, { price: 15000 });
    expect((await logsOf(l.id)).length).toBe(logs.length);
    // the rival: 404, nothing changed, no log row
    const logRows = await count('listing_logs');
    const foreign = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, rival, { price: 500 });
    expect(foreign.status).toBe(404);
    expect((await row(l.id)).price).toBe(15000);
    expect(await count('listing_logs')).toBe(logRows);
    expect((await call(s, 'GET', `/my-listings/ticket-logs?ticket_id=${l.id}`, rival)).status).toBe(404);
    expect((await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${l.id}`, rival)).status).toBe(404);
    // nothing to change, and bad values
    expect((await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, {})).status).toBe(422);
    for (const bad of [{ price: 0 }, { price: 2 ** 53 }, { price: '100' }, { quantity: 1.5 }, { match_id: 1 }]) {
      expect(
        (await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, bad)).status,
        JSON.stringify(bad),
      ).toBe(422);
    }
  });

  it('refuses a quantity below the tickets sold and held, and moves the tickets on sale with the quantity', async () => {
    const l = listing(await save(seller, { quantity: '6' }));
    // the rival buys 2 (a confirmed purchase through the flow)
    const cart = await call(
      s,
      'POST',
      `/purchase/lmt-trade/add-to-cart?match_id=${l.match_id}&sell_ticket_id=${l.id}&quantity=2&payment_method=1`,
      rival,
    );
    expect(cart.status).toBe(200);
    const addresses = await call(s, 'GET', '/settings/address-book', rival);
    const booking = await call(s, 'POST', `/purchase/lmt-trade/inventory/buy/${l.id}`, rival, {
      cart_id: (cart.body.data as { cart_id: number }).cart_id,
      lang: 'en',
      client_country: 'IN',
      payment_method: 1,
      address_id: (addresses.body.data as unknown as { address_id: number }[])[0]?.address_id,
    });
    const confirm = await call(s, 'POST', '/purchase/lmt-trade/confirmation', rival, {
      booking_id: (booking.body.data as { booking_id: number }).booking_id,
      payment_method: 1,
    });
    expect(confirm.status).toBe(200);
    const now = (await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${l.id}`, seller)).body
      .data as unknown as {
      ticket: Listing;
      sales: { quantity: number }[];
    };
    expect(now.ticket).toMatchObject({ quantity: 6, sold: 2, available: 4 });
    expect(now.sales.map((x) => x.quantity)).toEqual([2]);
    const low = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, { quantity: 1 });
    expect(low.status).toBe(422);
    expect(low.body.errors?.[0]).toEqual({
      path: '/body/quantity',
      message: "must be at least 2 (2 sold, 0 in buyers' carts)",
    });
    const up = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, { quantity: 10 });
    expect(up.body.data).toMatchObject({ quantity: 10, sold: 2, available: 8 });
    const down = await call(s, 'PUT', `/my-listings/update-ticket/${l.id}`, seller, { quantity: 2 });
    expect(down.body.data).toMatchObject({ quantity: 2, sold: 2, available: 0 });
    // sold tickets: the listing cannot be deleted, and its sale stays in the history
    const del = await call(s, 'DELETE', `/my-listings/ticket/delete/${l.id}`, seller);
    expect(del.status).toBe(409);
    expect(del.body.message).toBe('This listing cannot be deleted: 2 tickets of it were sold. Unpublish it instead.');
  });

  it('deletes a listing with nothing sold (its log keeps the deletion); the rival gets 404', async () => {
    const l = listing(await save());
    expect((await call(s, 'DELETE', `/my-listings/ticket/delete/${l.id}`, rival)).status).toBe(404);
    expect((await call(s, 'DELETE', `/my-listings/ticket/delete/${l.id}`, seller)).status).toBe(200);
    expect((await row(l.id)).available).toBe(0);
    expect((await call(s, 'DELETE', `/my-listings/ticket/delete/${l.id}`, seller)).status).toBe(404);
    expect((await call(s, 'GET', `/my-listings/ticket-history?ticket_id=${l.id}`, seller)).status).toBe(404);
    expect((await logsOf(l.id)).map((x) => x.action)).toEqual(['deleted', 'created']);
    const page = await call(s, 'GET', `/purchase/lmt-trade/events/${l.match_id}?per_page=100`, rival);
    expect((page.body.data as unknown as { tickets: { sNo: number }[] }).tickets.map((t) => t.sNo)).not.toContain(l.id);
  });

  it('changes the prices of a selection at once, or none when one id is another seller’s', async () => {
    const a = listing(await save(seller, { price: '10000' }));
    const b = listing(await save(seller, { price: '20000', currency: 'EUR' }));
    const c = listing(await save(seller, { price: '30000' }));
    // one price is an amount of one currency: not for a GBP and a EUR listing at once
    const across = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [a.id, b.id],
      price: 11111,
    });
    expect(across.status).toBe(422);
    expect(across.body.message).toBe(
      'These listings are priced in EUR, GBP: a new price is an amount in one currency. Choose listings of one currency to price them together.',
    );
    expect([(await row(a.id)).price, (await row(b.id)).price]).toEqual([10000, 20000]);
    const set = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [a.id, c.id],
      price: 11111,
    });
    expect(set.status).toBe(200);
    expect((await row(a.id)).price).toBe(11111);
    expect((await row(c.id)).price).toBe(11111);
    await call(s, 'POST', '/my-listings/update-ticket-price', seller, { ticket_ids: [b.id], price: 11111 });
    const pct = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [a.id, b.id],
      change_percent: -10,
    });
    expect((pct.body.data as unknown as { tickets: { price: number }[] }).tickets.map((t) => t.price)).toEqual([
      10000, 10000,
    ]);
    const theirs = await s.db
      .selectFrom('listings')
      .select('id')
      .where('seller_id', '=', rivalId)
      .executeTakeFirstOrThrow();
    const mixed = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [a.id, theirs.id],
      price: 500,
    });
    expect(mixed.status).toBe(404);
    expect((await row(a.id)).price).toBe(10000);
    for (const bad of [
      { ticket_ids: [a.id], price: 500, change_percent: 5 },
      { ticket_ids: [a.id] },
      { ticket_ids: [a.id, a.id], price: 500 },
      { ticket_ids: [], price: 500 },
      { ticket_ids: [a.id], change_percent: 1.234 },
      { ticket_ids: [a.id], change_percent: -95 },
      { ticket_ids: Array.from({ length: 1001 }, (_, i) => i + 1), price: 500 },
    ]) {
      expect(
        (await call(s, 'POST', '/my-listings/update-ticket-price', seller, bad)).status,
        JSON.stringify(bad).slice(0, 80),
      ).toBe(422);
    }
    const logs = await logsOf(a.id);
    expect(logs.filter((x) => x.action === 'price_changed').map((x) => [x.old_value, x.new_value])).toEqual([
      ['11111', '10000'],
      ['10000', '11111'],
    ]);
  });

  it('unpublishes (off sale, even for tickets a hold gives back later) and publishes again', async () => {
    const l = listing(await save(seller, { quantity: '5' }));
    const cart = await call(
      s,
      'POST',
      `/purchase/lmt-trade/add-to-cart?match_id=${l.match_id}&sell_ticket_id=${l.id}&quantity=2&payment_method=1`,
      rival,
    );
    expect(cart.status).toBe(200);
    const off = await call(s, 'POST', '/my-listings/update-ticket-status', seller, {
      ticket_ids: [l.id],
      status: 'unpublished',
    });
    expect(off.body.data).toMatchObject({
      updated: 1,
      tickets: [{ ticket_id: l.id, status: 'unpublished', available: 0 }],
    });
    expect((await call(s, 'GET', `/purchase/lmt-trade/tickets/${l.id}`, rival)).status).toBe(404);
    // the hold ends: its 2 tickets come back, off sale
    s.clock.advance(HOLD_MS + 1000);
    await releaseDueHolds(s.db, s.clock.now(), { listingId: l.id });
    expect(await row(l.id)).toMatchObject({ available: 0, withheld: 5 });
    const on = await call(s, 'POST', '/my-listings/update-ticket-status', seller, {
      ticket_ids: [l.id],
      status: 'published',
    });
    expect(on.body.data).toMatchObject({ tickets: [{ available: 5 }] });
    expect((await logsOf(l.id)).map((x) => x.action)).toEqual(['published', 'unpublished', 'created']);
    expect(
      (await call(s, 'POST', '/my-listings/update-ticket-status', rival, { ticket_ids: [l.id], status: 'unpublished' }))
        .status,
    ).toBe(404);
    expect((await row(l.id)).status).toBe('published');
  });

  it('answers market insights from the other sellers’ listings of the match and category, with the payout', async () => {
    const match = upcoming[1]?.id as number;
    const category = 'Shortside Upper Tier';
    for (const [who, price] of [
      [rival, '10000'],
      [rival, '30000'],
      [rival, '20000'],
    ] as const) {
      expect((await save(who, { match_id: String(match), category, price })).status).toBe(200);
    }
    const others = await s.db
      .selectFrom('listings')
      .select(['price', 'currency', 'available'])
      .where('event_id', '=', match)
      .where('category', '=', category)
      .where('seller_id', '<>', sellerId)
      .where('available', '>', 0)
      .where('currency', '=', 'GBP')
      .execute();
    const gbp = others.map((o) => o.price).sort((x, y) => x - y);
    const r = await call(
      s,
      'GET',
      `/my-listings/market-insights?match_id=${match}&category=${encodeURIComponent(category)}&price=15000&quantity=2&currency=GBP`,
      seller,
    );
    expect(r.status).toBe(200);
    const d = r.body.data as unknown as Record<string, unknown> & {
      your_price: { rank: number };
      payout: Record<string, unknown>;
    };
    expect(d.lowest_price).toBe(gbp[0]);
    expect(d.highest_price).toBe(gbp.at(-1));
    expect(d.your_price.rank).toBe(gbp.filter((p) => p < 15000).length + 1);
    expect(d.payout).toEqual({
      quantity: 2,
      seller_receives: 30000,
      buyer_pays: priceBreakdown({ currency: 'GBP', unitPrice: 15000, quantity: 2, ticketTypeId: 1, method: 1 }),
    });
    expect((await call(s, 'GET', '/my-listings/market-insights', seller)).status).toBe(422);
    expect(
      (await call(s, 'GET', `/my-listings/market-insights?match_id=2147483647&category=Away%20Section`, seller)).status,
    ).toBe(404);
  });

  it('saves several listings all or nothing (JSON), naming the wrong row', async () => {
    const good = {
      match_id: upcoming[2]?.id,
      category: 'Away Section',
      ticket_block: 'B',
      row: '1',
      ticket_type_id: 2,
      quantity: 2,
      split_type: 'pairs',
      price: 5000,
      currency: 'GBP',
    };
    const before = await count('listings');
    const bad = await call(s, 'POST', '/api/bulk-listing', seller, { listings: [good, { ...good, quantity: 3 }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ path: '/body/listings/1/split_type', message: 'Pairs need an even quantity.' }]);
    expect(await count('listings')).toBe(before);
    const ok = await call(s, 'POST', '/api/bulk-listing', seller, { listings: [good, good] });
    expect(ok.status).toBe(200);
    expect(await count('listings')).toBe(before + 2);
  });

  it('keeps event requests per seller, with their status; refuses a date in the past', async () => {
    const past = await call(s, 'POST', '/match/request-event', seller, {
      match_name: 'Old match',
      match_date: '2001-01-01',
      stadium_name: 'Somewhere',
    });
    expect(past.status).toBe(422);
    const made = await call(s, 'POST', '/match/request-event', seller, {
      match_name: 'Hearts vs Hibernian',
      match_date: upcoming[0]?.event_date,
      stadium_name: 'Tynecastle Park',
    });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ status: 'pending', match_id: null });
    const mine = await call(s, 'GET', '/match/requested-events', seller);
    expect((mine.body.data as unknown as { requests: { match_name: string }[] }).requests[0]?.match_name).toBe(
      'Hearts vs Hibernian',
    );
    const theirs = await call(s, 'GET', '/match/requested-events', rival);
    expect((theirs.body.data as unknown as { requests: unknown[] }).requests).toEqual([]);
  });

  it('saves field settings per user and page; a repeated key is refused', async () => {
    const empty = await call(s, 'GET', '/ui-settings/field-settings?page=my-listings', member);
    expect(empty.body.data).toEqual({ page: 'my-listings', columns: [], updated_at: null });
    const columns = [
      { key: 'price', visible: true },
      { key: 'row', visible: false },
    ];
    const saved = await call(s, 'POST', '/ui-settings/save-field-settings', seller, { page: 'my-listings', columns });
    expect(saved.status).toBe(200);
    expect((await call(s, 'GET', '/ui-settings/field-settings?page=my-listings', seller)).body.data).toMatchObject({
      columns,
    });
    expect((await call(s, 'GET', '/ui-settings/field-settings?page=my-listings', rival)).body.data).toMatchObject({
      columns: [],
    });
    const dup = await call(s, 'POST', '/ui-settings/save-field-settings', seller, {
      page: 'my-listings',
      columns: [...columns, columns[0]],
    });
    expect(dup.status).toBe(422);
  });

  it('answers the stadium plan of a match and the stadiums', async () => {
    const r = await call(s, 'GET', `/my-listings/get-block-details?match_id=${upcoming[0]?.id}`, seller);
    expect((r.body.data as unknown as { categories: { name: string }[] }).categories.map((c) => c.name)).toContain(
      'VIP Hospitality',
    );
    expect((await call(s, 'GET', '/my-listings/get-block-details?match_id=2147483647', seller)).status).toBe(404);
    const st = await call(s, 'GET', '/settings/stadium?q=anfield', seller);
    expect((st.body.data as unknown as { stadiums: { name: string }[] }).stadiums.map((x) => x.name)).toEqual([
      'Anfield',
    ]);
    const ev = await call(s, 'GET', '/my-listings/events-search?only_mine=true&per_page=50', seller);
    for (const e of (ev.body.data as unknown as { events: { my_listings: number }[] }).events)
      expect(e.my_listings).toBeGreaterThan(0);
  });
});
