import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { lastEndedPeriod, SCHEDULE_OFF, SCHEDULE_SAVED, sendDueReports } from '../domain/report-schedules';
import { recordOrder } from '../domain/sales/totals';
import { outboxMailer, readOutbox, readOutboxAttachment } from '../mail/outbox';
import type { Mailer } from '../mail/port';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
type Schedule = components['schemas']['ReportSchedule'];
type ExportFile = components['schemas']['SalesExportResponse']['data'];
interface Answer<D = unknown> {
  status: number;
  body: { success: boolean; message?: string; data: D; errors?: { path: string; message: string }[] };
}

/** The cell values of a workbook's first sheet, row by row (what a spreadsheet shows). */
async function sheetRows(content: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  const rows: unknown[][] = [];
  sheet.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

/**
 * Scheduled reports (issue 14, item 4): the schedule's CRUD through the contract, and the emails the housekeeping
 * task sends: once per period, only once it is over, with the period's export attached, whatever the concurrency.
 */
describe('scheduled reports', () => {
  let s: Server;
  const token: Record<string, string> = {};
  const userId: Record<string, number> = {};
  const at = (iso: string) => s.clock.advance(Date.parse(iso) - s.clock.now().getTime());
  const tick = (mailer: Mailer = outboxMailer(s.clock)) => sendDueReports(s.db, mailer, s.clock.now());
  const mailsTo = (email: string) => readOutbox(s.db, { to: email });

  const call = async <D = Schedule>(method: string, path: string, who: string | undefined, body?: unknown) => {
    const res = await s.json(method, path, body, who === undefined ? undefined : token[who]);
    return { status: res.status, body: await res.json() } as Answer<D>;
  };
  const put = (who: string, body: unknown) => call('PUT', '/reports/schedule', who, body);
  const scheduleRows = () => s.db.selectFrom('report_schedules').selectAll().orderBy('seller_id').execute();

  async function exported(who: string, from: string, to: string) {
    token[who] = await s.loginAs(`${who}@demo.test`); // the clock has moved past the first session
    const r = await call<ExportFile>(
      'GET',
      `/reports/export?date_from=${from}&date_to=${to}&currency=GBP&format=xlsx`,
      who,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return sheetRows(Buffer.from(r.body.data.content_base64, 'base64'));
  }

  async function attachmentRows(email: string) {
    const [mail] = await mailsTo(email);
    if (!mail) throw new Error(`no mail to ${email}`);
    const files = await s.db
      .selectFrom('mail_outbox_attachments')
      .select('id')
      .where('mail_id', '=', mail.id)
      .execute();
    expect(files).toHaveLength(1);
    const file = await readOutboxAttachment(s.db, files[0]?.id ?? 0);
    expect(file?.mime).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    return { mail, file, rows: await sheetRows(file?.content ?? Buffer.alloc(0)) };
  }

  beforeAll(async () => {
    s = await freshServer();
    await s.db.updateTable('users').set({ kyc_status: 1 }).where('email', '=', 'newseller@demo.test').execute();
    for (const who of ['seller', 'newseller', 'rival', 'member']) {
      token[who] = await s.loginAs(`${who}@demo.test`);
      const row = await s.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', `${who}@demo.test`)
        .executeTakeFirstOrThrow();
      userId[who] = row.id;
    }
    const event = await s.db.selectFrom('events').select('id').orderBy('id').executeTakeFirstOrThrow();
    const template = await s.db
      .selectFrom('listings')
      .selectAll()
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    const { id: _drop, ...copy } = template;
    const fixture = [
      // newseller's week of Monday 16 to Sunday 22 November 2026: W1 and W2 in it, the others just outside
      ['newseller', 'W0', '2026-11-15T23:59:59.999Z', 'GBP'],
      ['newseller', 'W1', '2026-11-16T00:00:00.000Z', 'GBP'],
      ['newseller', 'W2', '2026-11-22T23:59:59.999Z', 'GBP'],
      ['newseller', 'WE', '2026-11-18T12:00:00.000Z', 'EUR'],
      ['newseller', 'W3', '2026-11-23T00:00:00.000Z', 'GBP'],
      // rival's November
      ['rival', 'M1', '2026-11-01T00:00:00.000Z', 'GBP'],
      ['rival', 'M2', '2026-11-30T23:59:59.999Z', 'GBP'],
      ['rival', 'M3', '2026-12-01T00:00:00.000Z', 'GBP'],
    ] as const;
    const listings: Record<string, number> = {};
    for (const [who, name, created, currency] of fixture) {
      listings[who] ??= (
        await s.db
          .insertInto('listings')
          .values({ ...copy, seller_id: userId[who] as number })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      await recordOrder(s.db, {
        booking_no: `SCH-${name}`,
        listing_id: listings[who] as number,
        seller_id: userId[who] as number,
        event_id: event.id,
        quantity: 1,
        amount: 12345,
        currency,
        status: 'confirmed',
        created_at: created,
      });
    }
    at('2026-11-18T10:00:00.000Z'); // a Wednesday
  });
  afterAll(async () => {
    await s?.close();
  });

  it('periods: the last Monday to Sunday and the last calendar month that are over (UTC)', () => {
    const p = (f: 'weekly' | 'monthly', iso: string) => {
      const { from, to } = lastEndedPeriod(f, new Date(iso));
      return [from, to];
    };
    expect(p('weekly', '2026-11-22T23:59:59.999Z')).toEqual(['2026-11-09', '2026-11-15']);
    expect(p('weekly', '2026-11-23T00:00:00.000Z')).toEqual(['2026-11-16', '2026-11-22']);
    expect(p('weekly', '2027-01-03T12:00:00.000Z')).toEqual(['2026-12-21', '2026-12-27']);
    expect(p('monthly', '2026-11-30T23:59:59.999Z')).toEqual(['2026-10-01', '2026-10-31']);
    expect(p('monthly', '2026-12-01T00:00:00.000Z')).toEqual(['2026-11-01', '2026-11-30']);
    expect(p('monthly', '2026-03-15T00:00:00.000Z')).toEqual(['2026-02-01', '2026-02-28']);
    expect(p('monthly', '2026-01-01T00:00:00.000Z')).toEqual(['2025-12-01', '2025-12-31']);
  });

  it('is off until set; 401 without a session, 403 without the reports permission', async () => {
    const r = await call('GET', '/reports/schedule', 'newseller');
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({
      frequency: 'off',
      currency: 'GBP',
      recipient: null,
      next_period: null,
      updated_at: null,
    });
    expect((await call('GET', '/reports/schedule', undefined)).status).toBe(401);
    expect((await call('GET', '/reports/schedule', 'member')).status).toBe(403);
    expect((await put('member', { frequency: 'weekly' })).status).toBe(403);
    expect(await scheduleRows()).toEqual([]);
  });

  it('refuses an unknown frequency or currency, a missing frequency and an unknown field (422)', async () => {
    const cases: [unknown, string][] = [
      [{ frequency: 'daily' }, '/body/frequency'],
      [{ frequency: 'weekly', currency: 'JPY' }, '/body/currency'],
      [{ currency: 'GBP' }, '/body/frequency'],
      [{ frequency: 'weekly', email: 'x@example.test' }, '/body/email'],
      [{ frequency: 7 }, '/body/frequency'],
    ];
    for (const [body, path] of cases) {
      const r = await put('newseller', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(
        r.body.errors?.map((e) => e.path),
        JSON.stringify(r.body),
      ).toContain(path);
    }
    expect(await scheduleRows()).toEqual([]);
  });

  it('saves a weekly and a monthly schedule; the next period is the one in progress', async () => {
    const weekly = await put('newseller', { frequency: 'weekly', currency: 'GBP' });
    expect(weekly.status, JSON.stringify(weekly.body)).toBe(200);
    expect(weekly.body.message).toBe(SCHEDULE_SAVED);
    expect(weekly.body.data).toEqual({
      frequency: 'weekly',
      currency: 'GBP',
      recipient: 'newseller@demo.test',
      next_period: { date_from: '2026-11-16', date_to: '2026-11-22' },
      updated_at: '2026-11-18T10:00:00.000Z',
    });
    expect((await call('GET', '/reports/schedule', 'newseller')).body.data).toEqual(weekly.body.data);
    const monthly = await put('rival', { frequency: 'monthly' });
    expect(monthly.status).toBe(200);
    expect(monthly.body.data).toMatchObject({
      frequency: 'monthly',
      currency: 'GBP',
      recipient: 'rival@demo.test',
      next_period: { date_from: '2026-11-01', date_to: '2026-11-30' },
    });
  });

  it("one seller's changes leave another seller's schedule untouched", async () => {
    const before = await scheduleRows();
    expect(before).toHaveLength(2);
    const on = await put('seller', { frequency: 'monthly', currency: 'EUR' });
    expect(on.body.data).toMatchObject({ frequency: 'monthly', currency: 'EUR', recipient: 'seller@demo.test' });
    const off = await put('seller', { frequency: 'off' });
    expect(off.status).toBe(200);
    expect(off.body.message).toBe(SCHEDULE_OFF);
    expect(off.body.data).toMatchObject({ frequency: 'off', recipient: null, next_period: null });
    expect(await scheduleRows()).toEqual(before);
    // sending the same again changes nothing but updated_at
    const again = await put('newseller', { frequency: 'weekly', currency: 'GBP' });
    expect(again.body.data.next_period).toEqual({ date_from: '2026-11-16', date_to: '2026-11-22' });
  });

  it('sends nothing before the period is over', async () => {
    at('2026-11-22T23:59:59.999Z');
    expect(await tick()).toBe(0);
    expect(await mailsTo('newseller@demo.test')).toEqual([]);
    expect(await mailsTo('rival@demo.test')).toEqual([]);
  });

  it('sends the week once it is over, once, even from two processes at the same time, with its export attached', async () => {
    at('2026-11-23T00:00:00.000Z');
    const sent = await Promise.all([tick(), tick()]);
    expect(sent[0] + sent[1]).toBe(1);
    expect(await tick()).toBe(0);
    const mails = await mailsTo('newseller@demo.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('Your weekly report: 2026-11-16 to 2026-11-22');
    expect(mails[0]?.body).toContain('Orders: 2');
    expect(mails[0]?.body).toContain('Gross sales: 246.90 GBP');
    const { rows } = await attachmentRows('newseller@demo.test');
    expect(rows).toEqual(await exported('newseller', '2026-11-16', '2026-11-22'));
    const bookings = rows.slice(1).map((r) => r.find((c) => typeof c === 'string' && c.startsWith('SCH-')));
    expect(bookings.sort()).toEqual(['SCH-W1', 'SCH-W2']);
    expect(await mailsTo('rival@demo.test')).toEqual([]);
    const after = await call('GET', '/reports/schedule', 'newseller');
    expect(after.body.data.next_period).toEqual({ date_from: '2026-11-23', date_to: '2026-11-29' });
  });

  it('a failed send is tried again on the next run, and sent once', async () => {
    at('2026-11-30T00:00:00.000Z');
    let attempts = 0;
    const failing: Mailer = {
      kind: 'smtp',
      send: async () => {},
      deliver: async () => {
        attempts++;
        throw new Error('421 try later');
      },
    };
    expect(await tick(failing)).toBe(0);
    expect(attempts).toBe(1);
    expect(await mailsTo('newseller@demo.test')).toHaveLength(1);
    const row = await s.db
      .selectFrom('report_schedules')
      .select('last_sent_period')
      .where('seller_id', '=', userId.newseller as number)
      .executeTakeFirstOrThrow();
    expect(row.last_sent_period).toBe('2026-11-16');
    expect(await tick()).toBe(1);
    expect(await tick()).toBe(0);
    const mails = await mailsTo('newseller@demo.test');
    expect(mails.map((m) => m.subject)).toEqual([
      'Your weekly report: 2026-11-23 to 2026-11-29',
      'Your weekly report: 2026-11-16 to 2026-11-22',
    ]);
    expect((await attachmentRows('newseller@demo.test')).rows).toEqual(
      await exported('newseller', '2026-11-23', '2026-11-29'),
    );
  });

  it('sends the month once it is over, with its export attached', async () => {
    at('2026-11-30T23:59:59.999Z');
    expect(await tick()).toBe(0);
    at('2026-12-01T00:00:00.000Z');
    const [a, b] = await Promise.all([tick(), tick()]);
    expect(a + b).toBe(1);
    const mails = await mailsTo('rival@demo.test');
    expect(mails.map((m) => m.subject)).toEqual(['Your monthly report: 2026-11-01 to 2026-11-30']);
    const { rows } = await attachmentRows('rival@demo.test');
    expect(rows).toEqual(await exported('rival', '2026-11-01', '2026-11-30'));
    const bookings = rows.slice(1).flatMap((r) => r.filter((c) => typeof c === 'string' && c.startsWith('SCH-')));
    expect(bookings.sort()).toEqual(['SCH-M1', 'SCH-M2']);
    expect(await mailsTo('newseller@demo.test')).toHaveLength(2);
    expect(await mailsTo('seller@demo.test')).toEqual([]);
  });

  it("a team member's schedule stops while the member may not read reports, and goes on once it may again", async () => {
    const reports = (on: 0 | 1) =>
      s.db
        .updateTable('user_permissions')
        .set({ is_can_access: on })
        .where('user_id', '=', userId.member as number)
        .where('permission_name', '=', 'reports')
        .execute();
    const [row] = await s.db
      .selectFrom('user_permissions')
      .select('is_can_access')
      .where('user_id', '=', userId.member as number)
      .where('permission_name', '=', 'reports')
      .execute();
    if (!row) {
      await s.db
        .insertInto('user_permissions')
        .values({ user_id: userId.member as number, permission_name: 'reports', is_can_access: 0 })
        .execute();
    }
    await reports(1);
    token.member = await s.loginAs('member@demo.test');
    const saved = await put('member', { frequency: 'weekly' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.recipient).toBe('member@demo.test');
    await reports(0);
    at('2026-12-07T00:00:00.000Z');
    await tick(); // newseller's weekly schedule sends its week too
    expect(await mailsTo('member@demo.test')).toEqual([]);
    await reports(1);
    expect(await tick()).toBe(1);
    expect(await tick()).toBe(0);
    expect((await mailsTo('member@demo.test')).map((m) => m.subject)).toEqual([
      'Your weekly report: 2026-11-30 to 2026-12-06',
    ]);
  });
});
