import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { type Answer, call, newKey, type Server } from './trade-testing';

type Cap = { id: number; scope: string; market: string; markup_bps: number; rule: string; active: number };
type Check = { scope: string; market: string; limit: number | null; within: boolean | null; message: string };

/** Save-listing takes a multipart form: its fields only here (no files). */
function multipart(fields: Record<string, string>) {
  const boundary = `----sbcaps${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return { body: `${parts.join('')}--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

describe('resale price caps: the operator sets them, the server refuses a listing over one (server)', () => {
  let s: Server;
  let seller: string;
  let admin: string;
  let event: { id: number; country_id: number; name: string };
  let other: { id: number };
  let country: string;

  beforeAll(async () => {
    s = await freshServer();
    [seller, admin] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('admin@demo.test')]);
    const upcoming = await s.db
      .selectFrom('events')
      .select(['id', 'country_id', 'name'])
      .where('event_date', '>', s.clock.now().toISOString().slice(0, 10))
      .orderBy('id')
      .execute();
    event = upcoming[0] as typeof event;
    other = upcoming.find((e) => e.country_id !== event.country_id) as typeof other;
    country = (
      await s.db.selectFrom('countries').select('name').where('id', '=', event.country_id).executeTakeFirstOrThrow()
    ).name;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const save = async (fields: Record<string, string>) => {
    const { body, type } = multipart({
      match_id: String(event.id),
      category: 'Longside Lower Tier',
      ticket_block: 'Block 7',
      row: '12',
      ticket_type_id: '1',
      quantity: '2',
      split_type: 'any',
      price: '6000',
      currency: 'GBP',
      ...fields,
    });
    const res = await s.app.request('/api/api/save-listing', {
      method: 'POST',
      headers: { authorization: `Bearer ${seller}`, 'content-type': type, 'idempotency-key': newKey() },
      body,
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const insights = async (query: string) =>
    (
      (
        await call(
          s,
          'GET',
          `/my-listings/market-insights?match_id=${event.id}&category=Longside%20Lower%20Tier&${query}`,
          seller,
        )
      ).body.data as unknown as { price_caps: Check[] }
    ).price_caps;

  it('no cap: a listing at any price within the bounds is saved, and the seller sees no cap', async () => {
    expect((await save({ price: '9000', face_value: '5000' })).status).toBe(200);
    expect(await insights('price=9000&face_value=5000&currency=GBP')).toEqual([]);
  });

  it('only the back office sets caps; a cap names one country or one event', async () => {
    expect((await call(s, 'GET', '/admin/price-caps', seller)).status).toBe(403);
    expect(
      (await call(s, 'PUT', '/admin/price-caps', seller, { country_id: event.country_id, markup_bps: 0 })).status,
    ).toBe(403);
    const both = await call(s, 'PUT', '/admin/price-caps', admin, {
      country_id: event.country_id,
      event_id: event.id,
      markup_bps: 0,
    });
    expect(both.status).toBe(422);
    expect((await call(s, 'PUT', '/admin/price-caps', admin, { markup_bps: 0 })).status).toBe(422);
    expect((await call(s, 'PUT', '/admin/price-caps', admin, { event_id: 999_999, markup_bps: 0 })).status).toBe(404);
  });

  it("a country's cap at face value plus 10%: the seller sees it while pricing; over it is refused with the cap's words", async () => {
    const set = await call(s, 'PUT', '/admin/price-caps', admin, { country_id: event.country_id, markup_bps: 1000 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ scope: 'country', market: country, rule: 'face value plus 10%', active: 1 });
    // the back office's audit log holds who set it, with the cap in words
    const log = await call(s, 'GET', '/admin/audit-log?action=price_cap.saved', admin);
    expect((log.body.data?.entries as unknown[] | undefined)?.[0]).toMatchObject({
      operator_email: 'admin@demo.test',
      record_type: 'price_cap',
      detail: `${country} (country): face value plus 10%, active`,
    });

    const checks = await insights('price=5600&face_value=5000&currency=GBP');
    expect(checks).toEqual([
      expect.objectContaining({ scope: 'country', market: country, limit: 5500, within: false }),
    ]);
    expect(checks[0]?.message).toBe(
      `Over the resale cap in ${country}: at most GBP 55.00 a ticket (face value plus 10%).`,
    );
    expect((await insights('price=5500&face_value=5000&currency=GBP'))[0]?.within).toBe(true);

    const over = await save({ price: '5600', face_value: '5000' });
    expect(over.status).toBe(422);
    expect(over.body.message).toBe(
      `Over the resale cap in ${country}: at most GBP 55.00 a ticket (face value plus 10%).`,
    );
    expect(over.body.errors).toEqual([{ path: '/body/price', message: over.body.message }]);
    const noFace = await save({ price: '5000' });
    expect(noFace.status).toBe(422);
    expect(noFace.body.errors?.[0]?.path).toBe('/body/face_value');
    expect((await save({ price: '5500', face_value: '5000' })).status).toBe(200);
    // another country's event is not capped
    expect((await save({ match_id: String(other.id), price: '9000' })).status).toBe(200);
  });

  it('an edit or a price change over an active cap is refused, and changes nothing', async () => {
    const made = await save({ price: '5000', face_value: '5000' });
    const id = (made.body.data as unknown as { id: number }).id;
    const edit = await call(s, 'PUT', `/my-listings/update-ticket/${id}`, seller, { price: 5600 });
    expect(edit.status).toBe(422);
    expect(edit.body.message).toContain('Over the resale cap');
    const bulk = await call(s, 'POST', '/my-listings/update-ticket-price', seller, { ticket_ids: [id], price: 7000 });
    expect(bulk.status).toBe(422);
    expect(bulk.body.errors?.[0]?.message).toContain('at most GBP 55.00');
    const byPercent = await call(s, 'POST', '/my-listings/update-ticket-price', seller, {
      ticket_ids: [id],
      change_percent: 20,
    });
    expect(byPercent.status).toBe(422);
    const row = await s.db.selectFrom('listings').select('price').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.price).toBe(5000);
    expect((await call(s, 'PUT', `/my-listings/update-ticket/${id}`, seller, { price: 5500 })).status).toBe(200);
  });

  it("an event's own cap at face value applies beside its country's; switched off, neither refuses", async () => {
    await call(s, 'PUT', '/admin/price-caps', admin, { event_id: event.id, markup_bps: 0 });
    const checks = await insights('price=5200&face_value=5000&currency=GBP');
    expect(checks.map((c) => [c.scope, c.within])).toEqual([
      ['country', true],
      ['event', false],
    ]);
    expect((await save({ price: '5200', face_value: '5000' })).status).toBe(422);
    const list = (await call(s, 'GET', '/admin/price-caps', admin)).body.data as unknown as { caps: Cap[] };
    expect(list.caps.map((c) => [c.scope, c.rule, c.active])).toEqual([
      ['country', 'face value plus 10%', 1],
      ['event', 'face value', 1],
    ]);
    await call(s, 'PUT', '/admin/price-caps', admin, { event_id: event.id, markup_bps: 0, active: 0 });
    await call(s, 'PUT', '/admin/price-caps', admin, { country_id: event.country_id, markup_bps: 1000, active: 0 });
    expect(await insights('price=9000&face_value=5000&currency=GBP')).toEqual([]);
    expect((await save({ price: '9000', face_value: '5000' })).status).toBe(200);
  });
});
