import { afterAll, beforeAll, expect } from 'vitest';
import { freshServer } from '../test-support';
import { type FilePart, multipart } from './listings-testing';
import { type Answer, book, call, newKey, openListing, type Server, userId } from './trade-testing';

// The setup the sales test files share (sales*.test.ts): a server with the demo users logged in, the sale the
// rival makes of the seller's tickets, ticket files (hostile ones too) and the calls the tests make.

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
export const pdfOfPages = (n: number) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count ${n}>>endobj\n${Array.from(
      { length: n },
      (_, i) => `${i + 3} 0 obj<</Type /Page /Parent 2 0 R>>endobj\n`,
    ).join('')}trailer<</Root 1 0 R>>\n%%EOF\n`,
  );
export const PDF_JS = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R/OpenAction 4 0 R>>endobj\n3 0 obj<</Type/Page>>endobj\n4 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
export const PDF_JS_HEX = Buffer.from(
  '%PDF-1.4\n1 0 obj<</S/J#61vaScript/J#53(x)>>endobj\n3 0 obj<</Type/Page>>endobj\n%%EOF\n',
);

// the multipart builder of the listings tests: one for every upload test
export { type FilePart, multipart };
export const pdf = (bytes = PDF, name = 'ticket.pdf'): FilePart => ({
  field: 'files',
  name,
  type: 'application/pdf',
  bytes,
});

export type Tickets = {
  status: string;
  delivered: number;
  quantity: number;
  tickets: { ticket_no: number; delivered: boolean }[];
};

export let s: Server;
export let seller: string;
export let rival: string;
export let member: string;
export let admin: string;
export let sellerId: number;
export let rivalId: number;

/** A fresh server with the demo users logged in; closed after the file. */
export function openSalesServer() {
  beforeAll(async () => {
    s = await freshServer();
    [seller, rival, member, admin] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
      s.loginAs('admin@demo.test'),
    ]);
    sellerId = await userId(s, 'seller@demo.test');
    rivalId = await userId(s, 'rival@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });
}

export const upload = async (path: string, token: string, fields: Record<string, string>, files: FilePart[] = []) => {
  const { body, type } = multipart(fields, files);
  const res = await s.app.request(`/api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': newKey() },
    body,
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
};
export const tickets = (a: { body: Answer['body'] }) => a.body.data as unknown as Tickets;
export const counts = async (token = seller): Promise<Record<string, number>> =>
  Object.fromEntries(
    (
      (await call(s, 'GET', '/sales/sales-count', token)).body.data as unknown as { status: string; orders: number }[]
    ).map((c) => [c.status, c.orders]),
  );
export const orderOf = async (id: number) =>
  s.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** The newest notification of a kind, as its user reads it through the notifications panel's call. */
export const latestNotification = async (token: string, name: string) =>
  (
    (await call(s, 'GET', '/notification/history?page=1', token)).body.data as unknown as {
      notification_list: { name: string; link: string | null }[];
    }
  ).notification_list.find((n) => n.name === name);

/** The rival buys `quantity` tickets of one of the seller's listings with SB Pay; answers the sale's id. */
export async function sale(quantity = 2, ticketTypes = [1, 5]) {
  const listing = await s.db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .select(['listings.id', 'listings.event_id', 'listings.available'])
    .where('listings.seller_id', '=', sellerId)
    .where('listings.available', '>=', quantity + 1)
    .where('listings.split_type', '=', 'any')
    .where('listings.status', '=', 'published')
    .where('listings.ticket_type_id', 'in', ticketTypes)
    .where('events.guest_fields', '=', '')
    .where('events.event_date', '>', s.clock.now().toISOString().slice(0, 10))
    .orderBy('listings.id', 'desc')
    .executeTakeFirstOrThrow();
  void openListing;
  const booking = await book(s, rival, listing, quantity, 1);
  const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', rival, {
    booking_id: booking.booking_id,
    payment_method: 1,
  });
  expect(paid.status).toBe(200);
  const row = await s.db
    .selectFrom('bookings')
    .select(['order_id'])
    .where('id', '=', booking.booking_id)
    .executeTakeFirstOrThrow();
  return { orderId: row.order_id as number, booking, listing };
}
