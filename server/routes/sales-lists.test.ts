import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { orderStatusValues } from '../../openapi/schema';
import { mintToken } from '../harness/principals';
import {
  counts,
  member,
  openSalesServer,
  orderOf,
  PDF,
  PDF_JS,
  PDF_JS_HEX,
  pdf,
  pdfOfPages,
  rivalId,
  s,
  sale,
  seller,
  sellerId,
  tickets,
  upload,
} from './sales-testing';
import { call } from './trade-testing';

describe('sales and fulfilment (server): who may act, hostile uploads, exports and lists', () => {
  openSalesServer();

  it("answers 404 for another seller's order and 403 to a team member without sales", async () => {
    const theirs = await s.db
      .selectFrom('orders')
      .select('id')
      .where('seller_id', '=', rivalId)
      .where('status', '=', 'confirmed')
      .executeTakeFirstOrThrow();
    const before = await orderOf(theirs.id);
    for (const path of [
      `/sales/order-details?booking_id=${theirs.id}`,
      `/sales/order-logs?booking_id=${theirs.id}`,
      `/sales/inventory-logs?booking_id=${theirs.id}`,
      `/sales/ticket-details?booking_id=${theirs.id}`,
      `/sales/download-all-tickets/${theirs.id}`,
    ]) {
      expect((await call(s, 'GET', path, seller)).status, path).toBe(404);
    }
    expect(
      (await call(s, 'POST', '/sales/order-action', seller, { booking_id: theirs.id, action: 'accept' })).status,
    ).toBe(404);
    expect((await call(s, 'POST', '/sales/save-notes', seller, { booking_id: theirs.id, notes: 'x' })).status).toBe(
      404,
    );
    expect((await upload(`/api/sales/upload-tickets?booking_id=${theirs.id}`, seller, {}, [pdf()])).status).toBe(404);
    expect(await orderOf(theirs.id)).toEqual(before);

    const { id } = await s.db
      .insertInto('users')
      .values({
        email: 'nosales@e2e.test',
        password_hash: 'x',
        first_name: 'No',
        last_name: 'Sales',
        user_type: 'team_members',
        kyc_status: 1,
        kyc_rejection_reason: null,
        team_owner_id: sellerId,
        currency: 'GBP',
        user_token: 'nosales-token',
        created_at: s.clock.now().toISOString(),
        deleted_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.db
      .insertInto('user_permissions')
      .values(
        ['dashboard', 'sales', 'notification'].map((p) => ({
          user_id: id,
          permission_name: p,
          is_can_access: p === 'sales' ? 0 : 1,
        })),
      )
      .execute();
    const token = await mintToken(s.db, s.clock, id);
    const own = await s.db
      .selectFrom('orders')
      .select('id')
      .where('seller_id', '=', sellerId)
      .executeTakeFirstOrThrow();
    expect((await call(s, 'GET', '/sales/history-all-currency?status=pending', token)).status).toBe(403);
    expect((await call(s, 'GET', `/sales/order-details?booking_id=${own.id}`, token)).status).toBe(403);
    expect((await upload(`/api/sales/upload-tickets?booking_id=${own.id}`, token, {}, [pdf()])).status).toBe(403);
  });

  it('refuses hostile uploads and keeps nothing of them', async () => {
    const { orderId } = await sale(2);
    await call(s, 'POST', '/sales/order-action', seller, { booking_id: orderId, action: 'accept' });
    const uploads = join(s.dataDir, 'uploads');
    const filesBefore = existsSync(uploads) ? readdirSync(uploads).length : 0;
    const to = `/api/sales/upload-tickets?booking_id=${orderId}`;
    const html = await upload(to, seller, {}, [
      pdf(Buffer.from('<!doctype html><html><script>alert(1)</script></html>'), 'ticket.pdf'),
    ]);
    expect(html.status).toBe(415);
    expect(html.body.message).toBe('Invalid file type. Allowed types: pdf');
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 + 1 - PDF.length, 0x20)]);
    const tooBig = await upload(to, seller, {}, [pdf(big)]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.message).toBe('File size exceeds 5MB limit');
    const exact = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 - PDF.length, 0x20)]);
    const empty = await upload(to, seller, {}, [pdf(Buffer.alloc(0))]);
    expect(empty.status).toBe(422);
    const js = await upload(to, seller, {}, [pdf(PDF_JS)]);
    expect(js.status).toBe(422);
    expect(js.body.message).toBe('The PDF contains JavaScript; upload a copy without it.');
    expect((await upload(to, seller, {}, [pdf(PDF_JS_HEX)])).status).toBe(422);
    const traversal = await upload(to, seller, {}, [pdf(PDF, '../../etc/passwd.pdf')]);
    expect(traversal.status).toBe(422);
    expect(traversal.body.message).toBe('The file name must not contain a path.');
    expect((await orderOf(orderId)).delivered).toBe(0);
    expect(await s.db.selectFrom('order_deliveries').select('id').where('order_id', '=', orderId).execute()).toEqual(
      [],
    );
    expect(existsSync(uploads) ? readdirSync(uploads).length : 0).toBe(filesBefore);
    // exactly 5 MB is fine; a split PDF needs a page per ticket
    expect((await upload(to, seller, { ticket_nos: '1' }, [pdf(exact)])).status).toBe(200);
    const short = await upload(to, seller, { mode: 'split', ticket_nos: '2' }, [pdf(pdfOfPages(0))]);
    expect(short.status).toBe(422);
    const split = await upload(to, seller, { mode: 'split', ticket_nos: '2' }, [pdf(pdfOfPages(1))]);
    expect(tickets(split)).toMatchObject({ status: 'delivered', delivered: 2 });
  });

  it('delivers one ticket once when two uploads race for it', async () => {
    const { orderId } = await sale(2);
    await call(s, 'POST', '/sales/order-action', seller, { booking_id: orderId, action: 'accept' });
    const to = `/api/sales/upload-tickets?booking_id=${orderId}`;
    const answers = await Promise.all([
      upload(to, seller, { ticket_nos: '1' }, [pdf()]),
      upload(to, member, { ticket_nos: '1' }, [pdf(PDF, 'other.pdf')]),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.body.message).toBe('Ticket 1 is already delivered: remove it first.');
    const rows = await s.db
      .selectFrom('order_deliveries')
      .select('ticket_no')
      .where('order_id', '=', orderId)
      .execute();
    expect(rows).toEqual([{ ticket_no: 1 }]);
    expect((await orderOf(orderId)).delivered).toBe(1);
  });

  it('exports exactly the filtered list as XLSX and CSV, typed and without formulas', async () => {
    const listed = await call(
      s,
      'GET',
      '/sales/history-all-currency?status=confirmed&per_page=100&sort=deadline',
      seller,
    );
    const { orders, meta } = listed.body.data as unknown as {
      orders: { booking_no: string; listing_id: number; quantity: number; amount: number }[];
      meta: { total: number };
    };
    expect(orders.length).toBe(meta.total);
    const hostile = orders[0];
    if (!hostile) throw new Error('the seller has confirmed orders');
    // the block the order was sold with (kept on the order: migration 0033)
    await s.db
      .updateTable('orders')
      .set({ ticket_block: '=HYPERLINK("http://evil.example","x")' })
      .where('booking_no', '=', hostile.booking_no)
      .execute();

    const xlsx = await call(s, 'GET', '/sales/export-reports?status=confirmed&sort=deadline', seller);
    expect(xlsx.status).toBe(200);
    const file = xlsx.body.data as { rows: number; name: string; content_base64: string };
    expect(file.rows).toBe(meta.total);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(file.content_base64, 'base64') as never);
    const sheet = book.getWorksheet('Sales');
    expect(sheet?.rowCount).toBe(meta.total + 1);
    expect(sheet?.getRow(1).getCell(1).value).toBe('Order number');
    const numbers = (sheet?.getColumn(1).values ?? []).slice(2);
    expect(numbers).toEqual(orders.map((o) => o.booking_no));
    const first = sheet?.getRow(2);
    expect(typeof first?.getCell(15).value).toBe('number');
    expect(first?.getCell(19).value).toBe(hostile.amount / 100);
    expect(first?.getCell(3).value).toBeInstanceOf(Date);
    expect(first?.getCell(11).value).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(first?.getCell(11).formula).toBeUndefined();

    const csv = await call(s, 'GET', '/sales/export-reports?status=confirmed&sort=deadline&format=csv', seller);
    const text = Buffer.from((csv.body.data as { content_base64: string }).content_base64, 'base64').toString('utf8');
    const lines = text
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(meta.total + 1);
    expect(lines[1]).toContain('"\'=HYPERLINK(""http://evil.example"",""x"")"');

    // the filters narrow the export the same way
    const one = await call(
      s,
      'GET',
      `/sales/export-reports?status=confirmed&format=csv&booking_no=${hostile.booking_no}`,
      seller,
    );
    expect((one.body.data as { rows: number }).rows).toBe(1);
  });

  it('pages, filters and sorts the lists, with the overview per currency', async () => {
    const overview = await call(s, 'GET', '/sales/overview-all-currency', member);
    const currencies = (
      overview.body.data as unknown as {
        currencies: { currency: string; statuses: { status: string; orders: number }[] }[];
      }
    ).currencies;
    expect(currencies.map((c) => c.currency)).toEqual(['GBP', 'EUR', 'USD', 'AED']);
    const countsNow = await counts();
    for (const status of orderStatusValues) {
      const sum = currencies.reduce((n, c) => n + (c.statuses.find((x) => x.status === status)?.orders ?? 0), 0);
      expect(sum, status).toBe(countsNow[status]);
      const page = await call(s, 'GET', `/sales/history-all-currency?status=${status}&per_page=5`, seller);
      expect((page.body.data as unknown as { meta: { total: number } }).meta.total).toBe(countsNow[status]);
    }
    const bad = await call(
      s,
      'GET',
      '/sales/history-all-currency?status=pending&date_from=2026-02-02&date_to=2026-02-01',
      seller,
    );
    expect(bad.status).toBe(422);
    const gbp = await call(s, 'GET', '/sales/history-all-currency?status=delivered&currency=EUR&per_page=100', seller);
    for (const o of (gbp.body.data as unknown as { orders: { currency: string }[] }).orders)
      expect(o.currency).toBe('EUR');
    const byAmount = await call(
      s,
      'GET',
      '/sales/history-all-currency?status=completed&sort=amount_desc&per_page=100',
      seller,
    );
    const amounts = (byAmount.body.data as unknown as { orders: { amount: number }[] }).orders.map((o) => o.amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    const saved = await call(s, 'POST', '/sales/save-notes', member, {
      booking_id: (
        await s.db.selectFrom('orders').select('id').where('seller_id', '=', sellerId).executeTakeFirstOrThrow()
      ).id,
      notes: 'Call the buyer',
    });
    expect(saved.status).toBe(200);
  });
});
