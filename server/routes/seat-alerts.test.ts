import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { call, makeBuyers, makeListing, type Server } from './trade-testing';

/** The seat alerts' calls as a buyer makes them: save, list, delete; bad input and another buyer's alert. */
describe('seat alerts API', () => {
  let s: Server;
  let mine: { id: number; token: string };
  let theirs: { id: number; token: string };
  let eventId: number;
  beforeAll(async () => {
    s = await freshServer();
    const [a, b] = await makeBuyers(s.db, 2, s.clock.now());
    if (!a || !b) throw new Error('no buyers');
    mine = a;
    theirs = b;
    eventId = (await makeListing(s.db, s.clock.now(), { tickets: 2 })).event_id;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const save = (token: string, body: Record<string, unknown>) =>
    call(s, 'POST', '/purchase/alerts', token, {
      event_id: eventId,
      quantity: 2,
      max_price: 9_000,
      currency: 'GBP',
      ...body,
    });

  it('saves an alert, lists it with nothing found yet, deletes it once', async () => {
    const saved = await save(mine.token, { blocks: [' Block 7 ', 'block 7', 'Block 8'], category: 'Longside' });
    expect(saved.status).toBe(200);
    const alert = saved.body.data as { id: number; blocks: string[]; findings: unknown[]; holds: number };
    expect(alert).toMatchObject({ blocks: ['Block 7', 'Block 8'], findings: [], holds: 0 });
    const list = await call(s, 'GET', '/purchase/alerts', mine.token);
    expect((list.body.data as { alerts: { id: number }[] }).alerts.map((a) => a.id)).toEqual([alert.id]);

    // another buyer neither sees nor deletes it
    expect((await call(s, 'GET', '/purchase/alerts', theirs.token)).body.data).toEqual({ alerts: [] });
    expect((await call(s, 'POST', `/purchase/alerts/${alert.id}/delete`, theirs.token)).status).toBe(404);

    expect((await call(s, 'POST', `/purchase/alerts/${alert.id}/delete`, mine.token)).status).toBe(200);
    expect((await call(s, 'POST', `/purchase/alerts/${alert.id}/delete`, mine.token)).status).toBe(404);
    expect((await call(s, 'GET', '/purchase/alerts', mine.token)).body.data).toEqual({ alerts: [] });
  });

  it('answers bad input clearly and saves nothing', async () => {
    const low = await save(mine.token, { max_price: 100 });
    expect(low.status).toBe(422);
    expect(low.body.errors).toEqual([
      {
        path: '/body/max_price',
        message: 'is below any possible price: the least a ticket costs all-in is 5.60 GBP',
      },
    ]);
    expect((await save(mine.token, { quantity: 0 })).status).toBe(422);
    expect((await save(mine.token, { quantity: '2' })).status).toBe(422);
    expect((await save(mine.token, { blocks: ['x'.repeat(51)] })).status).toBe(422);
    expect((await save(mine.token, { currency: 'XYZ' })).status).toBe(422);
    expect((await save(mine.token, { event_id: 999_999 })).status).toBe(404);
    const past = await s.db
      .selectFrom('events')
      .select('id')
      .where('event_date', '<', s.clock.now().toISOString().slice(0, 10))
      .executeTakeFirst();
    if (past) expect((await save(mine.token, { event_id: past.id })).status).toBe(404);
    expect((await call(s, 'GET', '/purchase/alerts', mine.token)).body.data).toEqual({ alerts: [] });
  });

  it('keeps at most 20 live alerts a buyer', async () => {
    for (let i = 0; i < 20; i++) expect((await save(theirs.token, {})).status).toBe(200);
    const more = await save(theirs.token, {});
    expect(more.status).toBe(409);
    expect(more.body.message).toBe('You can keep at most 20 seat alerts. Delete one first.');
  });
});
