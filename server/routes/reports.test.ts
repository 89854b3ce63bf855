import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { recordOrder } from '../domain/sales/totals';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
type Schemas = components['schemas'];
type Overview = Schemas['ReportOverviewResponse']['data'];
type History = Schemas['SalesHistoryResponse']['data'];
type Dashboard = Schemas['DashboardReportResponse']['data'];
type ExportFile = Schemas['SalesExportResponse']['data'];
interface Answer<D = unknown> {
  status: number;
  body: { success: boolean; message?: string; data: D; errors?: { path: string; message: string }[] };
}

/**
 * The report's figures against a fixture computed by hand (the numbers below are written out, never derived from
 * the server's queries): newseller's orders around the end of March and of the first quarter 2026, UTC.
 */
describe('reports: overview, history, export, the dashboard report', () => {
  let s: Server;
  let seller: string;
  let member: string;
  let mine: string;
  let otherOrderId: number;
  const ids: Record<string, number> = {};
  let events: [number, number, number];

  const at = (iso: string) => s.clock.advance(Date.parse(iso) - s.clock.now().getTime());

  beforeAll(async () => {
    s = await freshServer();
    await s.db.updateTable('users').set({ kyc_status: 1 }).where('email', '=', 'newseller@demo.test').execute();
    [seller, member, mine] = (await Promise.all(
      ['seller@demo.test', 'member@demo.test', 'newseller@demo.test'].map((e) => s.loginAs(e)),
    )) as [string, string, string];
    const me = await s.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'newseller@demo.test')
      .executeTakeFirstOrThrow();
    const sellerRow = await s.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'seller@demo.test')
      .executeTakeFirstOrThrow();
    const other = await s.db
      .selectFrom('orders')
      .select('id')
      .where('seller_id', '=', sellerRow.id)
      .executeTakeFirstOrThrow();
    otherOrderId = other.id;
    const evs = await s.db.selectFrom('events').select('id').orderBy('id').limit(3).execute();
    events = evs.map((e) => e.id) as [number, number, number];
    const [X, Y, Z] = events;
    const template = await s.db.selectFrom('listings').selectAll().where('event_id', '=', X).executeTakeFirstOrThrow();
    const { id: _drop, ...copy } = template;
    const listing = await s.db
      .insertInto('listings')
      .values({ ...copy, seller_id: me.id })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fixture = [
      ['A', '2026-03-31T23:59:59.999Z', 2, 20000, 'confirmed', X, 'GBP'],
      ['B', '2026-04-01T00:00:00.000Z', 1, 9999, 'completed', X, 'GBP'],
      ['C', '2026-03-01T00:00:00.000Z', 3, 30001, 'delivered', X, 'GBP'],
      ['D', '2026-02-28T23:59:59.999Z', 4, 40000, 'pending', Z, 'GBP'],
      ['E', '2026-03-15T12:00:00.000Z', 2, 5000, 'cancelled', X, 'GBP'],
      ['F', '2026-03-16T12:00:00.000Z', 1, 7000, 'replaced', Y, 'GBP'],
      ['G', '2026-01-01T00:00:00.000Z', 1, 1000, 'completed', Y, 'GBP'],
      ['H', '2025-12-31T23:59:59.999Z', 5, 50000, 'completed', X, 'GBP'],
      ['I', '2026-03-10T10:00:00.000Z', 1, 3333, 'completed', X, 'EUR'],
    ] as const;
    for (const [name, created, quantity, amount, status, event, currency] of fixture) {
      const { id } = await recordOrder(s.db, {
        booking_no: `RPT-${name}`,
        listing_id: listing.id,
        seller_id: me.id,
        event_id: event,
        quantity,
        amount,
        currency,
        status,
        created_at: created,
      });
      ids[name] = id;
    }
    at('2026-04-01T00:30:00.000Z');
  });
  afterAll(async () => {
    await s?.close();
  });

  const get = async <D = unknown>(path: string, token = mine) => {
    const res = await s.json('GET', path, undefined, token);
    return { status: res.status, body: await res.json() } as Answer<D>;
  };
  const overview = async (query: string) => {
    const r = await get<Overview>(`/reports/overview?${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  };
  const history = async (query: string) => {
    const r = await get<History>(`/reports/history?${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.data;
  };

  it('last month: March 1 00:00 to March 31 23:59:59.999 UTC, cancelled and replaced out of the gross', async () => {
    const o = await overview('period=last_month');
    expect(o).toMatchObject({ currency: 'GBP', period: 'last_month', date_from: '2026-03-01', date_to: '2026-03-31' });
    expect(o.granularity).toBe('day');
    // A + C
    expect(o.figures).toEqual({
      gross_sales: 50001,
      tickets: 5,
      orders: 2,
      average_price: 10000,
      fees: 0,
      net_earnings: 50001,
      cancellations: 2,
      cancelled_amount: 12000,
    });
    expect(o.series).toHaveLength(31);
    expect(o.series[0]).toEqual({ date: '2026-03-01', gross_sales: 30001, orders: 1, tickets: 3 });
    expect(o.series[30]).toEqual({ date: '2026-03-31', gross_sales: 20000, orders: 1, tickets: 2 });
    expect(o.series.reduce((n, p) => n + p.gross_sales, 0)).toBe(50001);
    expect(o.top_matches.map((m) => [m.match_id, m.gross_sales, m.tickets])).toEqual([[events[0], 50001, 5]]);
  });

  it('this month and this quarter start on April 1 00:00 UTC; year to date from January 1', async () => {
    expect((await overview('period=this_month')).figures.gross_sales).toBe(9999);
    const q = await overview('period=this_quarter');
    expect([q.date_from, q.date_to, q.figures.gross_sales, q.figures.orders]).toEqual([
      '2026-04-01',
      '2026-04-01',
      9999,
      1,
    ]);
    const ytd = await overview('period=year_to_date');
    // G + D + C + A + B
    expect(ytd.figures).toMatchObject({ gross_sales: 101000, tickets: 11, orders: 5, average_price: 9182 });
    expect((await overview('')).period).toBe('this_month');
  });

  it('the last instant of a quarter: this quarter is January to March, with the top matches in order', async () => {
    at('2026-03-31T23:59:59.999Z');
    try {
      const q = await overview('period=this_quarter');
      expect([q.date_from, q.date_to]).toEqual(['2026-01-01', '2026-03-31']);
      expect(q.figures).toMatchObject({
        gross_sales: 91001,
        tickets: 10,
        orders: 4,
        average_price: 9100,
        cancellations: 2,
      });
      expect(q.top_matches.map((m) => [m.match_id, m.gross_sales])).toEqual([
        [events[0], 50001],
        [events[2], 40000],
        [events[1], 1000],
      ]);
      expect((await overview('period=this_month')).figures.gross_sales).toBe(50001);
    } finally {
      at('2026-04-01T00:30:00.000Z');
    }
  });

  it('a custom period longer than 92 days is charted by week from Monday, the first bucket at the period start', async () => {
    const o = await overview('date_from=2025-12-01&date_to=2026-04-01');
    expect(o.period).toBe('custom');
    expect(o.granularity).toBe('week');
    expect(o.series).toHaveLength(18);
    const by = Object.fromEntries(o.series.map((p) => [p.date, p.gross_sales]));
    expect(by['2025-12-01']).toBe(0);
    expect(by['2025-12-29']).toBe(51000); // H (Wed 31 Dec) + G (Thu 1 Jan)
    expect(by['2026-02-23']).toBe(70001); // D (Sat 28 Feb) + C (Sun 1 Mar)
    expect(by['2026-03-30']).toBe(29999); // A (Tue 31 Mar) + B (Wed 1 Apr)
    const eur = await overview('date_from=2025-12-01&date_to=2026-04-01&currency=EUR');
    expect(eur.figures.gross_sales).toBe(3333);
  });

  it('refuses a period that ends before it starts, is too long, or has an end without a start', async () => {
    for (const q of [
      'date_from=2026-03-02&date_to=2026-03-01',
      'date_from=2020-01-01&date_to=2026-01-01',
      'date_to=2026-01-01',
    ]) {
      const r = await get(`/reports/overview?${q}`);
      expect(r.status, q).toBe(422);
      expect(r.body.errors?.[0]?.path).toMatch(/^\/query\/date_(from|to)$/);
    }
  });

  it('the history lists every status of the period, filtered and paged', async () => {
    const q1 = 'date_from=2026-01-01&date_to=2026-03-31';
    const all = await history(q1);
    expect(all.orders.map((o) => o.booking_no)).toEqual(['RPT-A', 'RPT-F', 'RPT-E', 'RPT-C', 'RPT-D', 'RPT-G']);
    expect(all.meta.total).toBe(6);
    expect((await history(`${q1}&status=cancelled`)).orders.map((o) => o.booking_no)).toEqual(['RPT-E']);
    expect((await history(`${q1}&match_id=${events[0]}&sort=amount_desc`)).orders.map((o) => o.booking_no)).toEqual([
      'RPT-C',
      'RPT-A',
      'RPT-E',
    ]);
    const page2 = await history(`${q1}&per_page=4&page=2`);
    expect(page2.orders.map((o) => o.booking_no)).toEqual(['RPT-D', 'RPT-G']);
    expect(page2.meta).toMatchObject({ current_page: 2, last_page: 2, total: 6 });
    // the count (read from the orders alone when there is no text) is the filtered list's length
    for (const f of [
      'status=cancelled',
      `match_id=${events[0]}`,
      `match_id=${events[1]}&status=confirmed`,
      'currency=EUR',
    ]) {
      const h = await history(`${q1}&${f}&per_page=100`);
      expect(h.meta.total, f).toBe(h.orders.length);
    }
    // the match search: the text in a match's name, teams or competition, in any case; its count as well
    const name = (await s.db.selectFrom('events').select('name').where('id', '=', events[0]).executeTakeFirstOrThrow())
      .name;
    const byMatch = (await history(`${q1}&match_id=${events[0]}&per_page=100`)).orders.map((o) => o.booking_no);
    const byText = await history(`${q1}&q=${encodeURIComponent(name.toUpperCase())}&per_page=100`);
    expect(byText.meta.total).toBe(byText.orders.length);
    expect(byText.orders.map((o) => o.booking_no)).toEqual(expect.arrayContaining(byMatch));
    for (const o of byText.orders)
      expect(`${o.match_name}\n${o.tournament}`.toUpperCase()).toContain(name.toUpperCase());
    expect((await history(`${q1}&q=${encodeURIComponent('%_no such match_%')}`)).meta.total).toBe(0);
  });

  it('the export holds exactly the filtered history, typed cells (XLSX read back) and CSV', async () => {
    const q = `date_from=2026-01-01&date_to=2026-03-31&match_id=${events[0]}&sort=created_asc`;
    const list = (await history(`${q}&per_page=100`)).orders;
    const xlsx = await get<ExportFile>(`/reports/export?${q}`);
    expect(xlsx.status).toBe(200);
    expect(xlsx.body.data.rows).toBe(list.length);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(xlsx.body.data.content_base64, 'base64') as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet).toBeDefined();
    const rows: unknown[][] = [];
    sheet?.eachRow((row, n) => {
      if (n > 1) rows.push((row.values as unknown[]).slice(1));
    });
    expect(rows.map((r) => r[0])).toEqual(list.map((o) => o.booking_no));
    expect(rows.map((r) => r[18])).toEqual(list.map((o) => o.amount / 100));
    expect(rows[0]?.[2]).toBeInstanceOf(Date);
    expect(typeof rows[0]?.[14]).toBe('number');

    const csv = await get<ExportFile>(`/reports/export?${q}&format=csv`);
    const lines = Buffer.from(csv.body.data.content_base64, 'base64').toString('utf8').trim().split('\r\n');
    expect(lines).toHaveLength(list.length + 1);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(list.map((o) => o.booking_no));
  });

  it('the dashboard report: the last 30 days against the 30 before, in GBP, a point a day', async () => {
    const r = await get<Dashboard>('/dashboard/reports');
    expect(r.status).toBe(200);
    const d = r.body.data;
    expect(d.currency).toBe('GBP');
    expect(d.current).toMatchObject({ date_from: '2026-03-03', date_to: '2026-04-01' });
    expect(d.previous).toMatchObject({ date_from: '2026-02-01', date_to: '2026-03-02' });
    expect(d.current.figures).toMatchObject({ gross_sales: 29999, orders: 2, tickets: 3, cancellations: 2 }); // A + B
    expect(d.previous.figures).toMatchObject({ gross_sales: 70001, orders: 2, tickets: 7 }); // D + C
    expect(d.change_pct).toEqual({ gross_sales: -57.1, orders: 0, tickets: -57.1 });
    expect(d.points).toHaveLength(30);
    expect(d.points.at(-1)).toEqual({ date: '2026-04-01', gross_sales: 9999, orders: 1, tickets: 1 });
  });

  it('match search reads the seller own matches', async () => {
    const r = await get<Schemas['ReportEventsResponse']['data']>('/reports/events-search');
    expect(r.status).toBe(200);
    expect(r.body.data.events.map((e) => e.match_id).sort()).toEqual([...events].sort());
    const first = r.body.data.events.find((e) => e.match_id === events[0]);
    const text = first?.match_name.split(' ')[0]?.toLowerCase() as string;
    const found = await get<Schemas['ReportEventsResponse']['data']>(`/reports/events-search?q=${text}`);
    expect(found.body.data.events.map((e) => e.match_id)).toContain(events[0]);
    for (const e of found.body.data.events) expect(`${e.match_name}\n${e.tournament}`.toLowerCase()).toContain(text);
  });

  it('order details, logs and notes for the seller own orders; another seller order is 404', async () => {
    const own = await get<Schemas['SalesOrderDetailsResponse']['data']>(`/reports/order-details?order_id=${ids.A}`);
    expect(own.status).toBe(200);
    expect(own.body.data.order.booking_no).toBe('RPT-A');
    expect((await get(`/reports/order-logs?order_id=${ids.A}`)).status).toBe(200);
    expect((await get(`/reports/inventory-logs?order_id=${ids.A}`)).status).toBe(200);
    const saved = await s.json('POST', '/reports/save-notes', { order_id: ids.A, notes: 'Call the buyer' }, mine);
    expect(saved.status).toBe(200);
    expect(
      (await get<Schemas['SalesOrderDetailsResponse']['data']>(`/reports/order-details?order_id=${ids.A}`)).body.data
        .notes,
    ).toBe('Call the buyer');
    for (const path of ['order-details', 'order-logs', 'inventory-logs']) {
      const r = await get(`/reports/${path}?order_id=${otherOrderId}`);
      expect(r.status, path).toBe(404);
      expect(r.body.message).toBe('Order not found.');
    }
    const foreign = await s.json('POST', '/reports/save-notes', { order_id: otherOrderId, notes: 'x' }, mine);
    expect(foreign.status).toBe(404);
    // the owner reads it
    expect((await get(`/reports/order-details?order_id=${otherOrderId}`, seller)).status).toBe(200);
  });

  it('a team member without `reports` is refused (403); the dashboard report needs only `dashboard`', async () => {
    for (const path of [
      '/reports/overview',
      '/reports/history',
      '/reports/export',
      `/reports/order-details?order_id=${otherOrderId}`,
    ]) {
      const r = await get(path, member);
      expect(r.status, path).toBe(403);
      expect(r.body.message).toBe("You don't have permission to access this.");
    }
    expect((await get('/dashboard/reports', member)).status).toBe(200);
  });
});
