import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { call, type Server } from './trade-testing';

type Request = {
  request_id: number;
  status: string;
  status_reason: string | null;
  match_id: number | null;
  home_team: string | null;
  tournament: string | null;
  match_time: string | null;
  notes: string | null;
};

describe('event requests: the seller asks, the back office decides (server)', () => {
  let s: Server;
  let seller: string;
  let admin: string;
  let city: { id: number; name: string; country_id: number };
  let later: string;

  beforeAll(async () => {
    s = await freshServer();
    [seller, admin] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('admin@demo.test')]);
    city = await s.db.selectFrom('cities').select(['id', 'name', 'country_id']).orderBy('id').executeTakeFirstOrThrow();
    later = new Date(s.clock.now().getTime() + 40 * 86_400_000).toISOString().slice(0, 10);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const ask = async (over: Record<string, unknown> = {}) => {
    const r = await call(s, 'POST', '/match/request-event', seller, {
      match_name: 'Northbridge vs Southport',
      match_date: later,
      stadium_name: 'Harbour Park',
      city_name: city.name,
      home_team: 'Northbridge',
      away_team: 'Southport',
      tournament: 'Coastal Cup',
      match_time: '19:45',
      notes: 'Final, tickets from the club.',
      ...over,
    });
    expect(r.status).toBe(200);
    return r.body.data as unknown as Request;
  };
  const mine = async () =>
    ((await call(s, 'GET', '/match/requested-events', seller)).body.data as unknown as { requests: Request[] })
      .requests;

  it('keeps the teams, competition, time and notes; approving adds the event to the catalogue, once', async () => {
    const req = await ask();
    expect(req).toMatchObject({
      status: 'pending',
      home_team: 'Northbridge',
      tournament: 'Coastal Cup',
      match_time: '19:45',
    });
    const queue = await call(s, 'GET', '/admin/event-requests', admin);
    const listed = (queue.body.data as unknown as { requests: (Request & { seller_name: string })[] }).requests;
    expect(listed.find((r) => r.request_id === req.request_id)?.seller_name).toBe('Sam Seller');

    const ok = await call(s, 'POST', `/admin/event-requests/${req.request_id}/approve`, admin, {});
    expect(ok.status).toBe(200);
    const approved = ok.body.data as unknown as Request;
    expect(approved.status).toBe('approved');
    const event = await s.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', approved.match_id as number)
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({
      name: 'Northbridge vs Southport',
      home_team: 'Northbridge',
      away_team: 'Southport',
      tournament: 'Coastal Cup',
      event_date: later,
      event_time: '19:45',
      stadium_name: 'Harbour Park',
      city_id: city.id,
      country_id: city.country_id,
    });
    const events = async () =>
      Number(
        (
          await s.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const n = await events();
    const again = await call(s, 'POST', `/admin/event-requests/${req.request_id}/approve`, admin, {});
    expect(again.status).toBe(200);
    expect((again.body.data as unknown as Request).match_id).toBe(approved.match_id);
    expect(await events()).toBe(n);
    expect((await mine()).find((r) => r.request_id === req.request_id)).toMatchObject({
      status: 'approved',
      match_id: approved.match_id,
    });
    // the seller finds it in Add Inventory's match search and can list for it
    const found = await call(s, 'GET', '/my-listings/events-search?q=Northbridge', seller);
    expect((found.body.data as unknown as { events: { match_id: number }[] }).events.map((e) => e.match_id)).toContain(
      approved.match_id,
    );
    const reject = await call(s, 'POST', `/admin/event-requests/${req.request_id}/reject`, admin, { reason: 'late' });
    expect(reject.status).toBe(409);
  });

  it('rejects with a reason the seller reads; a rejected request cannot be approved', async () => {
    const req = await ask({ match_name: 'Test vs Test' });
    const blank = await call(s, 'POST', `/admin/event-requests/${req.request_id}/reject`, admin, { reason: '  ' });
    expect(blank.status).toBe(422);
    const no = await call(s, 'POST', `/admin/event-requests/${req.request_id}/reject`, admin, {
      reason: 'This fixture does not exist.',
    });
    expect(no.status).toBe(200);
    expect((await mine()).find((r) => r.request_id === req.request_id)).toMatchObject({
      status: 'rejected',
      status_reason: 'This fixture does not exist.',
      match_id: null,
    });
    const note = await s.db
      .selectFrom('notifications')
      .select('description')
      .where('name', '=', 'event_request_rejected')
      .executeTakeFirstOrThrow();
    expect(note.description).toContain('This fixture does not exist.');
    expect((await call(s, 'POST', `/admin/event-requests/${req.request_id}/approve`, admin, {})).status).toBe(409);
  });

  it('needs a known city and a kick-off time to approve; the body may give them', async () => {
    const req = await ask({ match_name: 'Far vs Away', city_name: 'Atlantis', match_time: undefined });
    const refused = await call(s, 'POST', `/admin/event-requests/${req.request_id}/approve`, admin, {});
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.map((e) => e.path).sort()).toEqual(['/body/city_id', '/body/match_time']);
    expect((await mine()).find((r) => r.request_id === req.request_id)?.status).toBe('pending');
    const ok = await call(s, 'POST', `/admin/event-requests/${req.request_id}/approve`, admin, {
      city_id: city.id,
      match_time: '15:00',
    });
    expect(ok.status).toBe(200);
  });

  it('is the back office’s only: a seller is refused, an unknown request answers 404', async () => {
    expect((await call(s, 'GET', '/admin/event-requests', seller)).status).toBe(403);
    const req = await ask({ match_name: 'Mine vs Yours' });
    expect((await call(s, 'POST', `/admin/event-requests/${req.request_id}/approve`, seller, {})).status).toBe(403);
    expect((await call(s, 'POST', '/admin/event-requests/999999/approve', admin, {})).status).toBe(404);
  });
});
