import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdEnded, releaseDueListingHolds } from '../domain/seller-api/holds';
import { freshServer, userIdOf } from '../test-support';
import { call, makeListing, newKey, type Server } from './trade-testing';

/** The hold API: another channel holds a listing's seats, then releases them or confirms them sold elsewhere. */
describe('seller API holds', () => {
  let s: Server;
  let token: string;
  beforeAll(async () => {
    s = await freshServer();
    const session = await s.loginAs('tickets4u@demo.test');
    const made = await call(s, 'POST', '/settings/api-tokens', session, {
      name: 'Channel manager',
      scopes: ['listings'],
      expires_in_days: 30,
    });
    token = (made.body.data as { token: string }).token;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const available = async (id: number) =>
    (await s.db.selectFrom('listings').select('available').where('id', '=', id).executeTakeFirstOrThrow()).available;
  const hold = (listing_id: number, quantity: number, minutes = 5, key = newKey()) =>
    call(s, 'POST', '/my-listings/holds', token, { listing_id, quantity, minutes, reference: 'TX-1' }, key);
  const holdId = (answer: { body: { data?: Record<string, unknown> } }) => (answer.body.data as { id: number }).id;

  it('takes the seats off sale, and a release gives them back once', async () => {
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 10 });
    const held = await hold(listing.id, 4);
    expect(held.status).toBe(200);
    expect(held.body.data).toMatchObject({ state: 'holding', quantity: 4, reference: 'TX-1', seconds_left: 300 });
    expect(await available(listing.id)).toBe(6);
    const id = holdId(held);
    expect((await call(s, 'GET', `/my-listings/holds/${id}`, token)).body.data).toMatchObject({ state: 'holding' });
    const released = await call(s, 'POST', `/my-listings/holds/${id}/release`, token);
    expect(released.body.data).toMatchObject({ state: 'released', seconds_left: 0 });
    expect(await available(listing.id)).toBe(10);
    expect((await call(s, 'POST', `/my-listings/holds/${id}/release`, token)).status).toBe(200);
    expect(await available(listing.id)).toBe(10);
  });

  it('a confirmed hold stays sold: stock down for good, no release', async () => {
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 10 });
    const id = holdId(await hold(listing.id, 3));
    const sold = await call(s, 'POST', `/my-listings/holds/${id}/confirm`, token);
    expect(sold.body.data).toMatchObject({ state: 'sold' });
    expect((await call(s, 'POST', `/my-listings/holds/${id}/confirm`, token)).status).toBe(200);
    const release = await call(s, 'POST', `/my-listings/holds/${id}/release`, token);
    expect(release.status).toBe(409);
    expect(await available(listing.id)).toBe(7);
  });

  it('an ended hold cannot be confirmed: its seats went back, once', async () => {
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 10 });
    const held = await hold(listing.id, 2, 1);
    s.clock.advance(61_000);
    const late = await call(s, 'POST', `/my-listings/holds/${holdId(held)}/confirm`, token);
    expect([late.status, late.body.message]).toEqual([
      409,
      holdEnded((held.body.data as { expires_at: string }).expires_at),
    ]);
    expect(await available(listing.id)).toBe(10);
    expect(await releaseDueListingHolds(s.db, s.clock.now())).toBe(0);
    expect((await call(s, 'GET', `/my-listings/holds/${holdId(held)}`, token)).body.data).toMatchObject({
      state: 'expired',
    });
  });

  it('the housekeeping releases ended holds exactly once', async () => {
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 10 });
    await hold(listing.id, 2, 1);
    await hold(listing.id, 3, 2);
    expect(await available(listing.id)).toBe(5);
    s.clock.advance(61_000);
    expect(await releaseDueListingHolds(s.db, s.clock.now())).toBe(1);
    expect(await available(listing.id)).toBe(7);
    const twice = await Promise.all([
      releaseDueListingHolds(s.db, new Date(s.clock.now().getTime() + 60_000)),
      releaseDueListingHolds(s.db, new Date(s.clock.now().getTime() + 60_000)),
    ]);
    expect(twice[0] + twice[1]).toBe(1);
    expect(await available(listing.id)).toBe(10);
  });

  it('an Idempotency-Key replayed holds nothing twice', async () => {
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 10 });
    const key = newKey();
    const first = await hold(listing.id, 2, 5, key);
    const again = await hold(listing.id, 2, 5, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(holdId(again)).toBe(holdId(first));
    expect(await available(listing.id)).toBe(8);
  });

  it('refuses what cannot be held, with clear answers', async () => {
    const listing = await makeListing(s.db, s.clock.now(), { tickets: 3 });
    const long = await hold(listing.id, 1, 16);
    expect([long.status, long.body.errors?.[0]?.path]).toEqual([422, '/body/minutes']);
    const many = await hold(listing.id, 4);
    expect([many.status, many.body.message]).toEqual([409, 'Only 3 seats of this listing are on sale.']);
    const rivals = await makeListing(s.db, s.clock.now(), { tickets: 3, sellerEmail: 'fanzone@demo.test' });
    expect((await hold(rivals.id, 1)).status).toBe(404);
    const rivalHold = await s.db
      .insertInto('listing_holds')
      .values({
        seller_id: await userIdOf(s.db, 'fanzone@demo.test'),
        listing_id: rivals.id,
        quantity: 1,
        reference: null,
        state: 'holding',
        expires_at: s.clock.now().toISOString(),
        created_at: s.clock.now().toISOString(),
        updated_at: s.clock.now().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const path of ['', '/release', '/confirm'])
      expect((await call(s, path ? 'POST' : 'GET', `/my-listings/holds/${rivalHold.id}${path}`, token)).status).toBe(
        404,
      );
  });
});
