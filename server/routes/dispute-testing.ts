import { expect } from 'vitest';
import { book, call, newKey, type Server } from './trade-testing';

// What the proof vault's and the claims' tests share: a sale of the demo seller to another account, accepted.

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A PDF of `n` pages (page objects only: what the delivery counts). */
export const pdfOfPages = (n: number) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count ${n}>>endobj\n${Array.from(
      { length: n },
      (_, i) => `${i + 3} 0 obj<</Type/Page/Parent 2 0 R>>endobj\n`,
    ).join('')}trailer<</Root 1 0 R>>\n%%EOF\n`,
  );

/** An event at least `days` ahead without guest details: its id and kick-off. */
export async function futureEvent(s: Server, days = 14) {
  const event = await s.db
    .selectFrom('events')
    .select(['id', 'event_date', 'event_time'])
    .where('guest_fields', '=', '')
    .where('event_date', '>', new Date(s.clock.now().getTime() + days * DAY).toISOString().slice(0, 10))
    .orderBy('event_date')
    .executeTakeFirstOrThrow();
  return { id: event.id, kickOff: Date.parse(`${event.event_date}T${event.event_time}:00.000Z`) };
}

/** A listing of `sellerId` bought by `buyer` with SB Pay and accepted by `seller`: the booking and its order. */
export async function acceptedSale(
  s: Server,
  tokens: { buyer: string; seller: string },
  sellerId: number,
  eventId: number,
  ticketTypeId: number,
  quantity = 2,
) {
  const listing = await s.db
    .insertInto('listings')
    .values({
      seller_id: sellerId,
      event_id: eventId,
      category: 'Longside Lower Tier',
      ticket_block: 'Block 1',
      row: '1',
      ticket_type_id: ticketTypeId,
      quantity: 10,
      available: 10,
      split_type: 'any',
      price: 5_000,
      currency: 'GBP',
      created_at: s.clock.now().toISOString(),
    })
    .returning(['id', 'event_id'])
    .executeTakeFirstOrThrow();
  const booking = await book(s, tokens.buyer, listing, quantity, 1);
  const paid = await call(s, 'POST', '/purchase/lmt-trade/confirmation', tokens.buyer, {
    booking_id: booking.booking_id,
    payment_method: 1,
  });
  expect(paid.status).toBe(200);
  const row = await s.db
    .selectFrom('bookings')
    .select('order_id')
    .where('id', '=', booking.booking_id)
    .executeTakeFirstOrThrow();
  const orderId = row.order_id as number;
  const accepted = await call(s, 'POST', '/sales/order-action', tokens.seller, {
    booking_id: orderId,
    action: 'accept',
  });
  expect(accepted.status).toBe(200);
  return { bookingId: booking.booking_id, bookingNo: booking.booking_no, orderId };
}

/** A multipart delivery call of the seller: `fields` and files as [field, name, type, bytes]. */
export async function deliverForm(
  s: Server,
  token: string,
  path: string,
  fields: Record<string, string>,
  files: [string, string, string, Buffer][] = [],
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [field, name, type, bytes] of files) form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await s.app.request(`/api${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': newKey() },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as { message?: string } };
}
