import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
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
import {
  admin,
  counts,
  latestNotification,
  member,
  openSalesServer,
  orderOf,
  PDF,
  pdf,
  rival,
  rivalId,
  s,
  sale,
  seller,
  sellerId,
  tickets,
  upload,
} from './sales-testing';
import { call } from './trade-testing';

describe('sales and fulfilment (server): the life of an order', () => {
  openSalesServer();

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
});
