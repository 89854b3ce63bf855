import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextOrderStatus, type OrderEvent } from '../../machines/order.machine';
import { orderStatusValues } from '../../openapi/schema';
import type { OrderStatus } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { auditLedger, walletBalances } from '../domain/ledger';
import { expireUnaccepted, settleFinished } from '../domain/sales/clock';
import { applyOrderEvent } from '../domain/sales/lifecycle';
import { sellerEarningsKey } from '../domain/sales/money';
import { lockOrder } from '../domain/sales/orders';
import { recordOrder } from '../domain/sales/totals';
import { mintToken } from '../harness/principals';
import { freshServer } from '../test-support';
import { type Answer, book, call, newKey, openListing, type Server, userId } from './trade-testing';

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const pdfOfPages = (n: number) =>
  Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count ${n}>>endobj\n${Array.from(
      { length: n },
      (_, i) => `${i + 3} 0 obj<</Type /Page /Parent 2 0 R>>endobj\n`,
    ).join('')}trailer<</Root 1 0 R>>\n%%EOF\n`,
  );
const PDF_JS = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R/OpenAction 4 0 R>>endobj\n3 0 obj<</Type/Page>>endobj\n4 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const PDF_JS_HEX = Buffer.from(
  '%PDF-1.4\n1 0 obj<</S/J#61vaScript/J#53(x)>>endobj\n3 0 obj<</Type/Page>>endobj\n%%EOF\n',
);

interface FilePart {
  field: string;
  name: string;
  type: string;
  bytes: Buffer;
}
function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const boundary = `----sbsales${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${f.field}"; filename="${f.name}"\r\ncontent-type: ${f.type}\r\n\r\n`,
      ),
      f.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}
const pdf = (bytes = PDF, name = 'ticket.pdf'): FilePart => ({ field: 'files', name, type: 'application/pdf', bytes });

type Tickets = {
  status: string;
  delivered: number;
  quantity: number;
  tickets: { ticket_no: number; delivered: boolean }[];
};

describe('sales and fulfilment (server)', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;
  let admin: string;
  let sellerId: number;
  let rivalId: number;

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

  const upload = async (path: string, token: string, fields: Record<string, string>, files: FilePart[] = []) => {
    const { body, type } = multipart(fields, files);
    const res = await s.app.request(`/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': newKey() },
      body,
    });
    return { status: res.status, body: (await res.json()) as Answer['body'] };
  };
  const tickets = (a: { body: Answer['body'] }) => a.body.data as unknown as Tickets;
  const counts = async (token = seller): Promise<Record<string, number>> =>
    Object.fromEntries(
      (
        (await call(s, 'GET', '/sales/sales-count', token)).body.data as unknown as { status: string; orders: number }[]
      ).map((c) => [c.status, c.orders]),
    );
  const orderOf = async (id: number) =>
    s.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** The newest notification of a kind, as its user reads it through the notifications panel's call. */
  const latestNotification = async (token: string, name: string) =>
    (
      (await call(s, 'GET', '/notification/history?page=1', token)).body.data as unknown as {
        notification_list: { name: string; link: string | null }[];
      }
    ).notification_list.find((n) => n.name === name);

  /** The rival buys `quantity` tickets of one of the seller's listings with SB Pay; answers the sale's id. */
  async function sale(quantity = 2, ticketTypes = [1, 5]) {
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

  it('takes a sale from pending to completed: accept, deliver, the buyer downloads, earnings credited', async () => {
    const before = await counts();
    const { orderId, booking, listing } = await sale(2);
    const list = await call(s, 'GET', '/sales/history-all-currency?status=pending&per_page=100', seller);
    const row = (
      list.body.data as unknown as { orders: { booking_id: number; accept_by: string; deliver_by: string }[] }
    ).orders.find((o) => o.booking_id === orderId);
    expect(row?.accept_by).toBe(new Date(s.clock.now().getTime() + 48 * 3_600_000).toISOString());
    expect(row?.deliver_by).toBeTruthy();
    expect((await counts()).pending).toBe((before.pending ?? 0) + 1);
    // the seller's notification of the sale opens that order in its list (actionable notifications)
    expect(await latestNotification(seller, 'new_order')).toMatchObject({
      link: `/sales/pending?order=${orderId}`,
    });

    const details = await call(s, 'GET', `/sales/order-details?booking_id=${orderId}`, member);
    expect(details.status).toBe(200);
    const d = details.body.data as unknown as { guests: { first_name: string }[]; actions: Record<string, boolean> };
    expect(d.guests).toHaveLength(2);
    expect(d.actions).toMatchObject({ accept: true, decline: true, deliver: false, cancel: false });

    // deliver before accepting: the lifecycle refuses
    const early = await upload(`/api/sales/upload-tickets?booking_id=${orderId}`, seller, {}, [pdf()]);
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Accept the order before delivering its tickets.');

    const accepted = await call(s, 'POST', '/sales/order-action', member, { booking_id: orderId, action: 'accept' });
    expect(accepted.status).toBe(200);
    expect((await counts()).confirmed).toBe((before.confirmed ?? 0) + 1);
    expect((await counts()).pending).toBe(before.pending);

    const first = await upload(`/api/sales/upload-tickets?booking_id=${orderId}`, seller, {}, [pdf()]);
    expect(first.status).toBe(200);
    expect(tickets(first)).toMatchObject({ status: 'confirmed', delivered: 1 });
    expect(first.body.message).toBe('Tickets delivered: 1 of 2.');
    const second = await upload(`/api/sales/upload-tickets?booking_id=${orderId}`, seller, {}, [pdf(PDF, 'b.pdf')]);
    expect(tickets(second)).toMatchObject({ status: 'delivered', delivered: 2 });
    expect((await counts()).delivered).toBe((before.delivered ?? 0) + 1);

    // the buyer is told and finds the tickets in its purchase history
    const note = await s.db
      .selectFrom('notifications')
      .select('description')
      .where('user_id', '=', rivalId)
      .where('name', '=', 'tickets_delivered')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(note.description).toContain(booking.booking_no);
    expect(await latestNotification(rival, 'tickets_delivered')).toMatchObject({
      link: `/trade/purchase?booking_no=${booking.booking_no}`,
    });
    const history = await call(s, 'GET', `/purchase/lmt-trade/history?booking_no=${booking.booking_no}`, rival);
    const delivery = (
      history.body.data as unknown as {
        booking_list: { delivery: { order_status: string; tickets: unknown[]; download_available: boolean } }[];
      }
    ).booking_list[0]?.delivery;
    expect(delivery).toMatchObject({ order_status: 'delivered', download_available: true });
    expect(delivery?.tickets).toHaveLength(2);
    const zip = await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}/tickets`, rival);
    expect(zip.status).toBe(200);
    const opened = await JSZip.loadAsync(
      Buffer.from((zip.body.data as { content_base64: string }).content_base64, 'base64'),
    );
    expect(Object.keys(opened.files).sort()).toEqual(['ticket-1-ticket.pdf', 'ticket-2-b.pdf', 'tickets.txt']);
    // only the buyer and the seller's team: the seller reads its own zip, nobody else's booking
    expect((await call(s, 'GET', `/sales/download-all-tickets/${orderId}`, member)).status).toBe(200);
    expect((await call(s, 'GET', `/purchase/lmt-trade/bookings/${booking.booking_id}/tickets`, seller)).status).toBe(
      404,
    );
    expect((await call(s, 'GET', `/sales/download-all-tickets/${orderId}`, rival)).status).toBe(404);

    // a wrong ticket removed: back to Awaiting Delivery until delivered again
    const removed = await call(s, 'POST', '/sales/delete-ticket', seller, { booking_id: orderId, ticket_no: 2 });
    expect(tickets(removed)).toMatchObject({ status: 'confirmed', delivered: 1 });
    const again = await upload(`/api/sales/upload-tickets?booking_id=${orderId}`, seller, { ticket_nos: '2' }, [pdf()]);
    expect(tickets(again)).toMatchObject({ status: 'delivered', delivered: 2 });

    // two days after the match the clock completes it and credits the seller's earnings
    const o = await orderOf(orderId);
    expect(await settleFinished(s.db, s.clock.now())).toBe(0);
    const after = new Date(Date.parse(`${o.event_date}T${o.event_time}:00.000Z`) + 48 * 3_600_000 + 1000);
    expect(await settleFinished(s.db, after)).toBeGreaterThanOrEqual(1);
    expect((await orderOf(orderId)).status).toBe('completed');
    const earnings = await s.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('account_key', '=', sellerEarningsKey(sellerId, o.currency))
      .executeTakeFirstOrThrow();
    expect(Number(earnings.balance)).toBeGreaterThanOrEqual(Number(o.amount));
    // the clock completes every finished sale at once (the demo's too), so look for this sale's among them
    const completedLinks = await s.db
      .selectFrom('notifications')
      .select('link')
      .where('user_id', '=', sellerId)
      .where('name', '=', 'sale_completed')
      .execute();
    expect(completedLinks.map((n) => n.link)).toContain(`/sales/completed?order=${orderId}`);
    expect(
      (await call(s, 'POST', '/sales/delete-ticket', seller, { booking_id: orderId, ticket_no: 1 })).body.message,
    ).toBe('This order is completed: its tickets cannot be removed.');
    expect(await auditLedger(s.db)).toEqual([]);

    const logs = await call(s, 'GET', `/sales/order-logs?booking_id=${orderId}&per_page=100`, seller);
    const actions = (logs.body.data as unknown as { logs: { action: string; actor: string }[] }).logs.map(
      (l) => l.action,
    );
    expect(actions).toEqual([
      'completed',
      'delivered',
      'ticket_delivered',
      'ticket_removed',
      'delivered',
      'ticket_delivered',
      'ticket_delivered',
      'accepted',
      'created',
    ]);
    void listing;
  });

  it('refunds the buyer through the ledger and releases the stock when the seller declines', async () => {
    const { orderId, booking, listing } = await sale(2);
    const wallet = (await walletBalances(s.db, rivalId)).get(booking.price_breakdown.currency) ?? 0;
    const stock = (
      await s.db.selectFrom('listings').select('available').where('id', '=', listing.id).executeTakeFirstOrThrow()
    ).available;
    const noReason = await call(s, 'POST', '/sales/order-action', seller, { booking_id: orderId, action: 'decline' });
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors?.[0]?.path).toBe('/body/reason');
    const declined = await call(s, 'POST', '/sales/order-action', seller, {
      booking_id: orderId,
      action: 'decline',
      reason: 'Sold elsewhere',
    });
    expect(declined.status).toBe(200);
    expect((await orderOf(orderId)).status).toBe('cancelled');
    expect((await walletBalances(s.db, rivalId)).get(booking.price_breakdown.currency)).toBe(
      wallet + booking.price_breakdown.total_with_payment_fee,
    );
    const left = await s.db
      .selectFrom('listings')
      .select('available')
      .where('id', '=', listing.id)
      .executeTakeFirstOrThrow();
    expect(left.available).toBe(stock + 2);
    expect(await auditLedger(s.db)).toEqual([]);
    // a second decline is refused by the lifecycle and moves no money
    const twice = await call(s, 'POST', '/sales/order-action', seller, {
      booking_id: orderId,
      action: 'decline',
      reason: 'again',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('This order is cancelled: it cannot be declined.');
    expect((await walletBalances(s.db, rivalId)).get(booking.price_breakdown.currency)).toBe(
      wallet + booking.price_breakdown.total_with_payment_fee,
    );
  });

  it('cancels unanswered orders after 48 hours with a refund, and the back office cancels and replaces', async () => {
    const { orderId, booking } = await sale(1);
    const wallet = (await walletBalances(s.db, rivalId)).get(booking.price_breakdown.currency) ?? 0;
    await expireUnaccepted(s.db, null, s.clock.now());
    expect((await orderOf(orderId)).status).toBe('pending');
    const later = new Date(s.clock.now().getTime() + 48 * 3_600_000 + 1);
    expect(await expireUnaccepted(s.db, null, later)).toBeGreaterThanOrEqual(1);
    expect((await orderOf(orderId)).status).toBe('cancelled');
    // its own refund entry gave the buyer back what it paid (other unanswered orders were cancelled too)
    const refund = await s.db
      .selectFrom('ledger_entries')
      .innerJoin('ledger_lines', 'ledger_lines.entry_id', 'ledger_entries.id')
      .select(['ledger_lines.amount'])
      .where('ledger_entries.kind', '=', 'sale_refund')
      .where('ledger_entries.reference', '=', `order:${orderId}`)
      .where('ledger_lines.amount', '>', 0)
      .executeTakeFirstOrThrow();
    expect(Number(refund.amount)).toBe(booking.price_breakdown.total_with_payment_fee);
    expect((await walletBalances(s.db, rivalId)).get(booking.price_breakdown.currency)).toBeGreaterThanOrEqual(
      wallet + booking.price_breakdown.total_with_payment_fee,
    );

    const other = await sale(1);
    expect(
      (
        await call(s, 'POST', '/admin/sales/order-action', seller, {
          booking_id: other.orderId,
          action: 'cancel',
          reason: 'x',
        })
      ).status,
    ).toBe(403);
    expect(
      (await call(s, 'POST', '/sales/order-action', seller, { booking_id: other.orderId, action: 'accept' })).status,
    ).toBe(200);
    const replaced = await call(s, 'POST', '/admin/sales/order-action', admin, {
      booking_id: other.orderId,
      action: 'replace',
      reason: 'Seller could not deliver',
    });
    expect(replaced.status).toBe(200);
    expect((await orderOf(other.orderId)).status).toBe('replaced');
    const cancel = await call(s, 'POST', '/admin/sales/order-action', admin, {
      booking_id: other.orderId,
      action: 'cancel',
      reason: 'late',
    });
    expect(cancel.status).toBe(409);
    expect(cancel.body.message).toBe('This order is replaced: it cannot be cancelled.');
    expect(await auditLedger(s.db)).toEqual([]);
  });

  it('refuses every transition the order machine refuses, from every status (table over all pairs)', async () => {
    const listing = await s.db
      .selectFrom('listings')
      .select(['id', 'event_id', 'price', 'currency'])
      .where('seller_id', '=', sellerId)
      .where('ticket_type_id', 'in', [1, 5])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    let n = 0;
    /** An order of the seller in `status` with 2 tickets, one delivered when confirmed, both when delivered. */
    async function orderIn(status: OrderStatus) {
      const { id } = await recordOrder(s.db, {
        booking_no: `TT${String(++n).padStart(6, '0')}`,
        listing_id: listing.id,
        seller_id: sellerId,
        event_id: listing.event_id,
        quantity: 2,
        amount: listing.price * 2,
        currency: listing.currency as 'GBP',
        status,
        created_at: s.clock.now().toISOString(),
      });
      const delivered = status === 'confirmed' ? 1 : status === 'pending' || status === 'cancelled' ? 0 : 2;
      for (let t = 1; t <= delivered; t++) {
        await s.db
          .insertInto('order_deliveries')
          .values({
            order_id: id,
            ticket_no: t,
            type: 'transfer_link',
            transfer_link: 'https://t.example/x',
            delivered_at: s.clock.now().toISOString(),
          })
          .execute();
      }
      await s.db.updateTable('orders').set({ delivered }).where('id', '=', id).execute();
      return { id, delivered };
    }
    type Action = {
      name: string;
      event: (delivered: number) => OrderEvent;
      run: (id: number) => Promise<{ status: number }>;
    };
    const actions: Action[] = [
      {
        name: 'accept',
        event: () => ({ type: 'order.accept', by: 'seller' }),
        run: (id) => call(s, 'POST', '/sales/order-action', seller, { booking_id: id, action: 'accept' }),
      },
      {
        name: 'decline',
        event: () => ({ type: 'order.decline', by: 'seller', reason: 'r' }),
        run: (id) => call(s, 'POST', '/sales/order-action', seller, { booking_id: id, action: 'decline', reason: 'r' }),
      },
      {
        name: 'cancel',
        event: () => ({ type: 'order.cancel', by: 'admin', reason: 'r' }),
        run: (id) =>
          call(s, 'POST', '/admin/sales/order-action', admin, { booking_id: id, action: 'cancel', reason: 'r' }),
      },
      {
        name: 'replace',
        event: () => ({ type: 'order.replace', by: 'admin', reason: 'r' }),
        run: (id) =>
          call(s, 'POST', '/admin/sales/order-action', admin, { booking_id: id, action: 'replace', reason: 'r' }),
      },
      {
        name: 'deliver',
        event: (d) => ({ type: 'ticket.delivered', by: 'seller', delivered: d + 1 }),
        run: (id) =>
          upload(`/api/sales/upload-mobile-ticket?booking_id=${id}`, seller, {
            transfer_links: 'https://t.example/y',
            ticket_nos: '2',
          }),
      },
      {
        name: 'remove',
        event: (d) => ({ type: 'ticket.removed', by: 'seller', delivered: Math.max(0, d - 1) }),
        run: (id) => call(s, 'POST', '/sales/delete-ticket', seller, { booking_id: id, ticket_no: 1 }),
      },
    ];
    // the mobile upload needs a mobile order
    await s.db.updateTable('listings').set({ ticket_type_id: 2 }).where('id', '=', listing.id).execute();
    const table: string[] = [];
    for (const from of orderStatusValues) {
      for (const action of actions) {
        const { id, delivered } = await orderIn(from);
        const expected = nextOrderStatus(from, { tickets: 2, delivered }, action.event(delivered));
        const answer = await action.run(id);
        const after = (await orderOf(id)).status;
        table.push(`${from} ${action.name}: ${answer.status} ${after}`);
        if (expected) {
          expect(answer.status, `${from} ${action.name}`).toBe(200);
          expect(after, `${from} ${action.name}`).toBe(expected.status);
        } else {
          expect(answer.status, `${from} ${action.name}`).toBe(409);
          expect(after, `${from} ${action.name}`).toBe(from);
        }
      }
      // the clock's events, through the same function the housekeeping uses
      for (const event of [
        { type: 'order.acceptanceExpired', by: 'system' },
        { type: 'event.settled', by: 'system' },
      ] as OrderEvent[]) {
        const { id, delivered } = await orderIn(from);
        const expected = nextOrderStatus(from, { tickets: 2, delivered }, event);
        const outcome = await inTransaction(s.db, async (trx) => {
          const o = await lockOrder(trx, null, id, s.clock.now());
          return applyOrderEvent(trx, o, event, { actor: 'system', userId: null }, s.clock.now(), null).catch(
            (e: { status?: number }) => e.status ?? 500,
          );
        });
        expect(outcome, `${from} ${event.type}`).toBe(expected ? expected.status : 409);
      }
    }
    expect(table).toHaveLength(36);
    expect(await auditLedger(s.db)).toEqual([]);
  });

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
