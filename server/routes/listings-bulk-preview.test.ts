import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { HEADERS, xlsx } from './bulk-testing';
import { call, newKey, type Server, userId } from './trade-testing';

type Reason = { row: number; column: string; value: string; message: string };
type PreviewRow = { row: number; action: string; reasons: Reason[]; listing_id?: number; match?: string };
type Preview = { sha256: string; to_create: number; to_skip: number; to_refuse: number; rows: PreviewRow[] };
type Body = { success: boolean; message: string; data?: Record<string, unknown>; report?: Reason[] };

describe('bulk upload: the preview, then the confirm (server)', () => {
  let s: Server;
  let seller: string;
  let sellerId: number;
  let match: { id: number; name: string; event_date: string };

  beforeAll(async () => {
    s = await freshServer();
    seller = await s.loginAs('seller@demo.test');
    sellerId = await userId(s, 'seller@demo.test');
    const today = s.clock.now().toISOString().slice(0, 10);
    match = (await s.db
      .selectFrom('events')
      .select(['id', 'name', 'event_date'])
      .where('event_date', '>', today)
      .orderBy('id')
      .executeTakeFirstOrThrow()) as typeof match;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const good = (over: Partial<Record<(typeof HEADERS)[number], unknown>> = {}) => {
    const row: Record<string, unknown> = {
      Match: `${match.id} | ${match.name} | ${match.event_date}`,
      Category: 'Longside Upper Tier',
      Block: 'Block 41',
      Row: 3,
      'Ticket Type': 'E-ticket',
      Quantity: 2,
      Split: 'Pairs',
      Price: 99,
      Currency: 'GBP',
      ...over,
    };
    return HEADERS.map((h) => row[h] ?? null);
  };
  const post = async (path: string, bytes: Buffer, fields: Record<string, string> = {}, key = newKey()) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(bytes)]), 'listings.xlsx');
    const res = await s.app.request(`/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seller}`, 'idempotency-key': key },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
  const preview = (bytes: Buffer) => post('/bulk-listing/preview', bytes);
  const confirm = (bytes: Buffer, fields: Record<string, string>, key?: string) =>
    post('/bulk-listing/upload-excel-tickets', bytes, fields, key);
  /** What a preview must leave as it found: listings, their logs, the files' records and the files on disk. */
  const written = async () => {
    const count = async (table: 'listings' | 'listing_logs' | 'files') =>
      Number(
        (
          await s.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return [
      await count('listings'),
      await count('listing_logs'),
      await count('files'),
      existsSync(join(s.dataDir, 'uploads')) ? readdirSync(join(s.dataDir, 'uploads')).length : 0,
    ];
  };
  const template = async () => {
    const r = await call(s, 'GET', '/bulk-listing/template', seller);
    return Buffer.from((r.body.data as unknown as { content_base64: string }).content_base64, 'base64');
  };

  it('marks every row create, skip or refuse with its reasons and writes nothing', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await template()) as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Listings') as ExcelJS.Worksheet;
    // row 2: the first example as it came; row 3: the second example with its price changed
    sheet.getRow(3).getCell(9).value = 81;
    sheet.addRow(good());
    sheet.addRow(good({ Row: 4, Price: 0, Currency: 'JPY' }));
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const before = await written();
    const r = await preview(bytes);
    expect(r.status, JSON.stringify(r.body).slice(0, 500)).toBe(200);
    expect(await written()).toEqual(before);
    const data = r.body.data as unknown as Preview;
    expect(data.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect([data.to_create, data.to_skip, data.to_refuse]).toEqual([2, 1, 1]);
    expect(data.rows.map((x) => [x.row, x.action])).toEqual([
      [2, 'skip'],
      [3, 'create'],
      [4, 'create'],
      [5, 'refuse'],
    ]);
    expect(data.rows[0]?.reasons[0]?.message).toBe(
      "The template's example row 1, unchanged: it is skipped. Replace it with your tickets, or delete it.",
    );
    expect(data.rows[2]?.match).toBe(`${match.name}, ${match.event_date}`);
    expect(data.rows[3]?.reasons.map((x) => [x.column, x.value])).toEqual([
      ['Price', '0'],
      ['Currency', 'JPY'],
    ]);
    expect(r.body.message).toBe('2 listings to create, 1 row skipped, 1 row refused.');
  });

  it('confirms the previewed file: creates the rows marked create, leaves the refused out, once', async () => {
    const bytes = await xlsx([good({ Row: 21 }), good({ Row: 22, Quantity: 3 }), good({ Row: 23 })]);
    const p = (await preview(bytes)).body.data as unknown as Preview;
    expect([p.to_create, p.to_refuse]).toEqual([2, 1]);
    // without leave_refused the whole file is refused, as before the preview existed
    const before = await written();
    const all = await confirm(bytes, { preview_sha256: p.sha256 });
    expect(all.status).toBe(422);
    expect(await written()).toEqual(before);

    const key = newKey();
    const ok = await confirm(bytes, { preview_sha256: p.sha256, leave_refused: 'true' }, key);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ created: 2, skipped: 0, left_out: 1 });
    expect(ok.body.message).toBe('2 listings created (1 refused row left out).');
    const ids = ok.body.data?.ticket_ids as number[];
    const rows = await s.db
      .selectFrom('listings')
      .select(['id', 'row', 'seller_id'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute();
    expect(rows.map((x) => [x.row, x.seller_id])).toEqual([
      ['21', sellerId],
      ['23', sellerId],
    ]);
    // the same confirm again (a retry) replays; a new confirm of the same file lists nothing twice
    const replay = await confirm(bytes, { preview_sha256: p.sha256, leave_refused: 'true' }, key);
    expect(replay.body.data).toMatchObject({ created: 2, ticket_ids: ids });
    const again = await confirm(bytes, { preview_sha256: p.sha256, leave_refused: 'true' });
    expect(again.body.data).toMatchObject({ created: 0, skipped: 2, left_out: 1 });
    const after = (await preview(bytes)).body.data as unknown as Preview;
    expect(after.rows.map((x) => [x.action, x.listing_id])).toEqual([
      ['skip', ids[0]],
      ['refuse', undefined],
      ['skip', ids[1]],
    ]);
  });

  it('refuses a confirm whose file changed since its preview (409), creating nothing', async () => {
    const p = (await preview(await xlsx([good({ Row: 31 })]))).body.data as unknown as Preview;
    const before = await written();
    const changed = await confirm(await xlsx([good({ Row: 31, Price: 100 })]), { preview_sha256: p.sha256 });
    expect(changed.status).toBe(409);
    expect(changed.body.message).toBe(
      'The file has changed since its preview: check it again, then confirm what the new preview shows.',
    );
    expect(await written()).toEqual(before);
  });

  it('answers hostile files and strings plainly, and writes nothing', async () => {
    const before = await written();
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    expect((await preview(png)).status).toBe(415);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 0x41);
    expect((await preview(big)).status).toBe(413);
    // a zip bomb: the template with 60 MB of zeros that compress to a few kilobytes
    const zip = await JSZip.loadAsync(await template());
    zip.file('xl/media/zeros.bin', Buffer.alloc(60 * 1024 * 1024));
    const bomb = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const b = await preview(bomb);
    expect(b.status).toBe(422);
    expect(b.body.report?.[0]?.message).toMatch(/unpacks to more than 50 MB/);
    const broken = await preview(Buffer.concat([bomb.subarray(0, 2000), Buffer.alloc(100)]));
    expect(broken.status).toBe(422);
    expect(broken.body.report?.[0]?.message).toBe('The file is not a readable .xlsx workbook.');
    const hostile = '<script>alert(1)</script>\u202e\u0000';
    const h = await preview(
      await xlsx([
        good({ Row: 41, Notes: '=HYPERLINK("http://evil.example","x")' }),
        good({ Row: hostile, Block: 'x'.repeat(500), Category: '\uD83D\uDCA9' }),
      ]),
    );
    expect(h.status).toBe(200);
    const rows = (h.body.data as unknown as Preview).rows;
    expect(rows[0]?.action).toBe('create');
    expect(rows[1]?.action).toBe('refuse');
    expect(rows[1]?.reasons.find((x) => x.column === 'Block')?.value).toHaveLength(200);
    expect(await written()).toEqual(before);
  }, 60_000);
});
