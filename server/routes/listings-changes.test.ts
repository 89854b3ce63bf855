import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer, userIdOf } from '../test-support';
import { type Answer, book, call, makeListing, type Server } from './trade-testing';

type PriceAnswer = {
  updated: number;
  change_id: string | null;
  tickets: { ticket_id: number; previous_price: number; price: number }[];
};

describe('changes of a selection of Inventory (server)', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;
  let eventId: number;
  let mine: number[];
  let rivals: number;

  const row = (id: number) => s.db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const prices = async (ids: number[]) => Promise.all(ids.map(async (id) => (await row(id)).price));
  const listing = async (price: number, email = 'seller@demo.test') =>
    (await makeListing(s.db, s.clock.now(), { sellerEmail: email, eventId, tickets: 10, price })).id;
  const data = <T>(a: Answer) => a.body.data as unknown as T;

  beforeAll(async () => {
    s = await freshServer();
    // the seller's team member, here with `event`: it acts for its seller
    const memberId = await userIdOf(s.db, 'member@demo.test');
    await s.db
      .deleteFrom('user_permissions')
      .where('user_id', '=', memberId)
      .where('permission_name', '=', 'event')
      .execute();
    await s.db
      .insertInto('user_permissions')
      .values({ user_id: memberId, permission_name: 'event', is_can_access: 1 })
      .execute();
    [seller, rival, member] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
    ]);
    // a match whose demo listings of the seller are gone, so that a filter by it selects these listings alone
    const sellerId = await userIdOf(s.db, 'seller@demo.test');
    eventId = (
      await s.db
        .selectFrom('events')
        .select('id')
        .where('event_date', '>', s.clock.now().toISOString().slice(0, 10))
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    await s.db
      .updateTable('listings')
      .set({ status: 'deleted' })
      .where('seller_id', '=', sellerId)
      .where('event_id', '=', eventId)
      .execute();
    mine = [await listing(10_000), await listing(12_000), await listing(15_000)];
    rivals = await listing(9_000, 'rival@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('raises prices by an amount, and Undo puts back each one it changed', async () => {
    const raised = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: mine,
      change_amount: 250,
    });
    expect(raised.status).toBe(200);
    const answer = data<PriceAnswer>(raised);
    expect(answer.updated).toBe(3);
    expect(answer.change_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await prices(mine)).toEqual([10_250, 12_250, 15_250]);

    // another seller cannot undo it, nor learn that it exists
    expect((await call(s, 'POST', '/my-listings/undo-change', rival, { change_id: answer.change_id })).status).toBe(
      404,
    );
    const undo = await call(s, 'POST', '/my-listings/undo-change', seller, { change_id: answer.change_id });
    expect(undo.status).toBe(200);
    expect(undo.body.data).toEqual({ restored: 3, skipped: 0 });
    expect(await prices(mine)).toEqual([10_000, 12_000, 15_000]);
    expect((await call(s, 'POST', '/my-listings/undo-change', seller, { change_id: answer.change_id })).status).toBe(
      409,
    );
    const logs = await s.db
      .selectFrom('listing_logs')
      .select(['action', 'old_value', 'new_value'])
      .where('listing_id', '=', mine[0] as number)
      .orderBy('id')
      .execute();
    expect(logs.slice(-2)).toEqual([
      { action: 'price_changed', old_value: '10000', new_value: '10250' },
      { action: 'price_changed', old_value: '10250', new_value: '10000' },
    ]);
  });

  it('leaves a listing repriced since the change as it is when undoing', async () => {
    const cut = data<PriceAnswer>(
      await call(s, 'POST', '/my-listings/update-ticket-price', seller, { ticket_ids: mine, change_percent: -10 }),
    );
    expect(await prices(mine)).toEqual([9_000, 10_800, 13_500]);
    await call(s, 'POST', '/my-listings/update-ticket-price', seller, { ticket_ids: [mine[2]], price: 20_000 });
    const undo = await call(s, 'POST', '/my-listings/undo-change', seller, { change_id: cut.change_id });
    expect(undo.body.data).toEqual({ restored: 2, skipped: 1 });
    expect(await prices(mine)).toEqual([10_000, 12_000, 20_000]);
    await call(s, 'POST', '/my-listings/update-ticket-price', seller, { ticket_ids: [mine[2]], price: 15_000 });
  });

  it('changes every listing a filter matches, and only the caller’s', async () => {
    const filter = { match_id: eventId };
    const raised = await call(s, 'POST', '/my-listings/update-ticket-price', member, { filter, change_amount: 100 });
    expect(raised.status).toBe(200);
    const answer = data<PriceAnswer>(raised);
    expect(answer.tickets.map((t) => t.ticket_id).sort()).toEqual([...mine].sort());
    expect(await prices(mine)).toEqual([10_100, 12_100, 15_100]);
    expect((await row(rivals)).price).toBe(9_000);
    await call(s, 'POST', '/my-listings/undo-change', seller, { change_id: answer.change_id });

    const off = await call(s, 'POST', '/my-listings/update-ticket-status', seller, { filter, status: 'unpublished' });
    expect(off.status).toBe(200);
    expect((await row(mine[0] as number)).status).toBe('unpublished');
    expect((await row(rivals)).status).toBe('published');
    const back = await call(s, 'POST', '/my-listings/undo-change', seller, {
      change_id: (off.body.data as { change_id: string }).change_id,
    });
    expect(back.body.data).toEqual({ restored: 3, skipped: 0 });
    for (const id of mine) expect((await row(id)).status).toBe('published');
  });

  it('refuses another seller’s id, a price out of bounds, and a selection named twice, changing nothing', async () => {
    const theirs = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [...mine, rivals],
      change_amount: 100,
    });
    expect(theirs.status).toBe(404);
    const below = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: mine,
      change_amount: -10_000,
    });
    expect(below.status).toBe(422);
    expect(below.body.errors?.[0]?.path).toBe('/body/change_amount');
    // both: the listings of the ids that the filter matches; another seller's id is 404 whatever the filter
    const both = await call(s, 'POST', '/my-listings/update-ticket-status', seller, {
      ticket_ids: [rivals],
      filter: { match_id: eventId },
      status: 'unpublished',
    });
    expect(both.status).toBe(404);
    const neither = await call(s, 'POST', '/my-listings/delete-tickets', seller, {});
    expect(neither.status).toBe(422);
    const zero = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: mine,
      change_amount: 0,
    });
    expect(zero.status).toBe(422);
    expect(await prices(mine)).toEqual([10_000, 12_000, 15_000]);
    expect((await row(rivals)).price).toBe(9_000);
  });

  it('deletes a selection at once, or nothing when one of it was sold or is another seller’s', async () => {
    const extra = [await listing(8_000), await listing(8_500)];
    const sold = await listing(7_000);
    await book(s, rival, { id: sold, event_id: eventId }, 1);

    const withSold = await call(s, 'POST', '/my-listings/delete-tickets', seller, { ticket_ids: [...extra, sold] });
    expect(withSold.status).toBe(409);
    expect(withSold.body.message).toMatch(
      /^Nothing was deleted: tickets of 1 listing of these (were sold|are in a buyer's cart)/,
    );
    const withTheirs = await call(s, 'POST', '/my-listings/delete-tickets', seller, { ticket_ids: [...extra, rivals] });
    expect(withTheirs.status).toBe(404);
    for (const id of extra) expect((await row(id)).status).toBe('published');

    const done = await call(s, 'POST', '/my-listings/delete-tickets', seller, { ticket_ids: extra });
    expect(done.status).toBe(200);
    expect(done.body.data).toEqual({ deleted: 2 });
    for (const id of extra) expect((await row(id)).status).toBe('deleted');
    expect((await row(rivals)).status).toBe('published');
  });

  it('saves views per seller: its team shares them, a name is replaced whatever its case, others’ are 404', async () => {
    const view = { name: 'Cheap stock', filters: { status: 'published' }, sort: 'price_asc', hidden: ['face_value'] };
    const saved = await call(s, 'POST', '/my-listings/views', seller, view);
    expect(saved.status).toBe(200);
    const again = await call(s, 'POST', '/my-listings/views', member, {
      ...view,
      name: 'cheap STOCK',
      sort: 'price_desc',
    });
    expect((again.body.data as { id: number }).id).toBe((saved.body.data as { id: number }).id);
    const listed = (await call(s, 'GET', '/my-listings/views', seller)).body.data as { views: { name: string }[] };
    expect(listed.views).toContainEqual(
      expect.objectContaining({
        name: 'cheap STOCK',
        sort: 'price_desc',
        filters: { status: 'published' },
        hidden: ['face_value'],
      }),
    );
    const theirs = (await call(s, 'GET', '/my-listings/views', rival)).body.data as { views: { name: string }[] };
    expect(theirs.views.map((v) => v.name)).not.toContain('cheap STOCK');
    const id = (saved.body.data as { id: number }).id;
    expect((await call(s, 'DELETE', `/my-listings/views/${id}`, rival)).status).toBe(404);
    expect((await call(s, 'DELETE', `/my-listings/views/${id}`, seller)).status).toBe(200);
    for (let i = 0; i < 20; i++) await call(s, 'POST', '/my-listings/views', seller, { ...view, name: `View ${i}` });
    const over = await call(s, 'POST', '/my-listings/views', seller, { ...view, name: 'One more' });
    expect(over.status).toBe(422);
    expect(over.body.errors?.[0]?.path).toBe('/body/name');
  });
});
