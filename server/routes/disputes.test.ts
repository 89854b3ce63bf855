import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settleFinished } from '../domain/sales/clock';
import { freshServer } from '../test-support';
import { acceptedSale, DAY, deliverForm, futureEvent } from './dispute-testing';
import { call, type Server, userId } from './trade-testing';

type Claim = { id: number; status: string; reason: string; booking_id: number };

/**
 * Buyers' claims: opened from a booking within the window, seen by the seller, queued for the back office and
 * resolved with a refund, a replacement or a rejection (the ledger and the order moving through the lifecycle),
 * audited; the dispute pack for the seller and the back office. On the test engine.
 */
describe('claims and the dispute pack (server)', () => {
  let s: Server;
  let seller: string;
  let buyer: string;
  let other: string;
  let admin: string;
  let sellerId: number;
  let buyerId: number;
  let eventId: number;

  beforeAll(async () => {
    s = await freshServer();
    [seller, buyer, other, admin] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('tickets4u@demo.test'),
      s.loginAs('admin@demo.test'),
    ]);
    sellerId = await userId(s, 'seller@demo.test');
    buyerId = await userId(s, 'rival@demo.test');
    eventId = (await futureEvent(s)).id;
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  async function deliveredSale() {
    const sale = await acceptedSale(s, { buyer, seller }, sellerId, eventId, 3, 1);
    const sent = await deliverForm(s, seller, `/api/sales/paper-ticket-upload?booking_id=${sale.orderId}`, {
      courier: 'DHL',
      tracking_number: `JD${sale.orderId}`,
    });
    expect(sent.status).toBe(200);
    return sale;
  }
  const claimOn = (bookingId: number, token = buyer, reason = 'not_received') =>
    call(s, 'POST', `/purchase/lmt-trade/bookings/${bookingId}/claim`, token, {
      reason,
      description: 'The courier never came.',
    });
  const wallet = async (owner: number) =>
    Number(
      (
        await s.db
          .selectFrom('ledger_accounts')
          .select('balance')
          .where('owner_id', '=', owner)
          .where('kind', '=', 'wallet')
          .where('currency', '=', 'GBP')
          .executeTakeFirstOrThrow()
      ).balance,
    );
  const statusOf = async (orderId: number) =>
    (await s.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status;

  it('lets the buyer open one claim, shows it on the purchase and the sale, and refuses another buyer', async () => {
    const sale = await deliveredSale();
    const history = await call(s, 'GET', `/purchase/lmt-trade/history?booking_no=${sale.bookingNo}`, buyer);
    const before = (history.body.data as { booking_list: { delivery: { claim_until: string | null } }[] })
      .booking_list[0];
    expect(before?.delivery.claim_until).toMatch(/^\d{4}-/);
    expect((await claimOn(sale.bookingId, other)).status).toBe(404);
    const opened = await claimOn(sale.bookingId);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({ status: 'open', reason: 'not_received', booking_id: sale.orderId });
    const again = await claimOn(sale.bookingId, buyer, 'wrong_tickets');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('A claim was already opened on this booking.');
    const onSale = await call(s, 'GET', `/sales/order-dispute?booking_id=${sale.orderId}`, seller);
    expect((onSale.body.data as { claim: Claim }).claim.status).toBe('open');
    const logs = await call(s, 'GET', `/sales/order-logs?booking_id=${sale.orderId}`, seller);
    expect((logs.body.data as { logs: { action: string; actor: string }[] }).logs[0]).toMatchObject({
      action: 'claim_opened',
      actor: 'buyer',
    });
    const bad = await call(s, 'POST', `/purchase/lmt-trade/bookings/${sale.bookingId}/claim`, buyer, {
      reason: 'changed_mind',
      description: ' ',
    });
    expect(bad.status).toBe(422);
  });

  it('refuses a claim once 48 hours after the event have passed, saying until when it was open', async () => {
    const sale = await deliveredSale();
    const past = new Date(s.clock.now().getTime() - 3 * DAY);
    await s.db
      .updateTable('orders')
      .set({ event_date: past.toISOString().slice(0, 10), event_time: '15:00' })
      .where('id', '=', sale.orderId)
      .execute();
    const late = await claimOn(sale.bookingId);
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(
      /^Claims can be opened until 48 hours after the event; for this booking that was /,
    );
  });

  it('queues the claim for the back office; a refund cancels the sale and refunds the buyer, audited', async () => {
    const sale = await deliveredSale();
    const claim = (await claimOn(sale.bookingId)).body.data as unknown as Claim;
    const queues = await call(s, 'GET', '/admin/queues', admin);
    const disputes = (queues.body.data as { queues: { queue: string; count: number }[] }).queues.find(
      (q) => q.queue === 'disputes',
    );
    expect(disputes?.count).toBeGreaterThanOrEqual(1);
    const list = await call(s, 'GET', '/admin/disputes', admin);
    const row = (list.body.data as { disputes: (Claim & { proofs: number })[] }).disputes.find(
      (d) => d.id === claim.id,
    );
    expect(row?.proofs).toBe(1);
    expect((await call(s, 'GET', '/admin/disputes', seller)).status).toBe(403);
    const paid = await wallet(buyerId);
    const amount = Number(
      (await s.db.selectFrom('orders').select('amount').where('id', '=', sale.orderId).executeTakeFirstOrThrow())
        .amount,
    );
    const resolved = await call(s, 'POST', `/admin/disputes/${claim.id}/resolve`, admin, {
      outcome: 'refund',
      note: 'No delivery scan.',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ status: 'refunded', order_status: 'cancelled' });
    expect(await wallet(buyerId)).toBeGreaterThanOrEqual(paid + amount);
    const twice = await call(s, 'POST', `/admin/disputes/${claim.id}/reject`, admin, { reason: 'Late.' });
    expect(twice.status).toBe(409);
    const audit = await call(s, 'GET', '/admin/audit-log?action=dispute.refunded', admin);
    expect((audit.body.data as { entries: { record_id: number; amount: number }[] }).entries[0]).toMatchObject({
      record_id: claim.id,
      amount,
    });
  });

  it('holds the sale’s completion while the claim is open; a rejection lets it complete', async () => {
    const sale = await deliveredSale();
    const claim = (await claimOn(sale.bookingId, buyer, 'denied_entry')).body.data as unknown as Claim;
    const past = new Date(s.clock.now().getTime() - 3 * DAY);
    await s.db
      .updateTable('orders')
      .set({ event_date: past.toISOString().slice(0, 10), event_time: '15:00' })
      .where('id', '=', sale.orderId)
      .execute();
    await settleFinished(s.db, s.clock.now(), 10_000);
    expect(await statusOf(sale.orderId)).toBe('delivered');
    const rejected = await call(s, 'POST', `/admin/disputes/${claim.id}/reject`, admin, { reason: 'Scanned in.' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: 'rejected', resolution_note: 'Scanned in.' });
    await settleFinished(s.db, s.clock.now(), 10_000);
    expect(await statusOf(sale.orderId)).toBe('completed');
  });

  it('replaces the tickets when the back office resolves with a replacement', async () => {
    const sale = await deliveredSale();
    const claim = (await claimOn(sale.bookingId, buyer, 'wrong_tickets')).body.data as unknown as Claim;
    const resolved = await call(s, 'POST', `/admin/disputes/${claim.id}/resolve`, admin, {
      outcome: 'replacement',
      note: 'Wrong block.',
    });
    expect(resolved.body.data).toMatchObject({ status: 'replaced', order_status: 'replaced' });
  });

  it('builds the dispute pack for the seller and the back office, and not for another seller', async () => {
    const sale = await deliveredSale();
    const claim = (await claimOn(sale.bookingId)).body.data as unknown as Claim;
    await call(s, 'GET', `/purchase/lmt-trade/bookings/${sale.bookingId}/tickets`, buyer);
    const got = await call(s, 'GET', `/sales/dispute-pack/${sale.orderId}`, seller);
    expect(got.status).toBe(200);
    const file = got.body.data as { name: string; mime: string; content_base64: string };
    expect(file.mime).toBe('application/json');
    const pack = JSON.parse(Buffer.from(file.content_base64, 'base64').toString('utf8'));
    expect(pack.claim.id).toBe(claim.id);
    expect(pack.proof.map((p: { kind: string }) => p.kind)).toEqual(['courier', 'download']);
    expect(pack.log.map((l: { action: string }) => l.action)).toContain('claim_opened');
    expect(pack.timestamps.downloads).toHaveLength(1);
    expect(pack.timestamps.delivered_at).toMatch(/^\d{4}-/);
    expect((await call(s, 'GET', `/sales/dispute-pack/${sale.orderId}`, other)).status).toBe(404);
    const viaAdmin = await call(s, 'GET', `/admin/disputes/${claim.id}/pack`, admin);
    expect((viaAdmin.body.data as { name: string }).name).toBe(file.name);
  });
});
