import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortalClient, type PortalClient, unwrap } from '../../openapi/client';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;

/**
 * The back office's home (what waits in each queue), its orders needing action, and its audit log: every
 * decision writes one row in its own transaction, which the back office reads and filters; the log refuses to
 * be rewritten.
 */
describe('the back office home and its audit log (server)', () => {
  let s: Server;
  const tokens = { admin: '', seller: '' };
  let keys = 0;

  const clientFor = (who: keyof typeof tokens): PortalClient =>
    createPortalClient({
      baseUrl: 'http://portal.test/api',
      fetch: async (request) => s.app.fetch(request),
      getToken: () => tokens[who],
    });
  const admin = clientFor('admin');
  const seller = clientFor('seller');
  const logIn = async () => {
    [tokens.admin, tokens.seller] = await Promise.all([s.loginAs('admin@demo.test'), s.loginAs('seller@demo.test')]);
  };

  /** The seller asks for a top-up, as the wallet's form sends it (multipart, an idempotency key). */
  const requestDeposit = async (minor: number) => {
    const form = new FormData();
    form.set('deposit_amount', String(minor));
    form.set('currency', 'GBP');
    form.set('payment_transfer_by', 'ONLINE');
    const res = await s.app.request('/api/api/send-deposit-request', {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens.seller}`, 'idempotency-key': `home-key-${++keys}` },
      body: form,
    });
    expect(res.status).toBe(200);
    const pending = unwrap(await admin.GET('/admin/deposits', { params: { query: { per_page: 50 } } }));
    const mine = pending.deposit_list.filter((d) => d.amount === minor);
    return mine[mine.length - 1] as (typeof mine)[number];
  };
  const queues = async () =>
    Object.fromEntries(unwrap(await admin.GET('/admin/queues')).queues.map((q) => [q.queue, q] as const));

  beforeAll(async () => {
    s = await freshServer();
    await logIn();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('counts what waits in each queue, the one waiting longest first, and follows a new request', async () => {
    const before = await queues();
    expect(Object.keys(before).sort()).toEqual([
      'bank_lines',
      'deposits',
      'disputes',
      'erasures',
      'event_requests',
      'kyc',
      'orders',
      'payouts',
    ]);
    const deposit = await requestDeposit(31_500);
    const after = await queues();
    expect(after.deposits?.count).toBe((before.deposits?.count ?? 0) + 1);
    expect(after.deposits?.oldest_at).not.toBeNull();
    expect(after.kyc?.count).toBe(before.kyc?.count);

    const order = unwrap(await admin.GET('/admin/queues')).queues;
    const waiting = order.filter((q) => q.oldest_at !== null).map((q) => q.oldest_at as string);
    expect(waiting).toEqual([...waiting].sort());
    expect(order.slice(waiting.length).every((q) => q.count === 0)).toBe(true);

    // approved: the count goes back down
    unwrap(await admin.POST('/admin/deposits/{id}/approve', { params: { path: { id: deposit.id } } }));
    expect((await queues()).deposits?.count).toBe(before.deposits?.count);
  });

  it('writes each decision to the log once, with who, what, which record, the amount and when', async () => {
    const deposit = await requestDeposit(25_000);
    s.clock.advance(60_000);
    const approved = await admin.POST('/admin/deposits/{id}/approve', { params: { path: { id: deposit.id } } });
    expect(approved.response.status).toBe(200);
    // a second click changes nothing, and logs nothing
    await admin.POST('/admin/deposits/{id}/approve', { params: { path: { id: deposit.id } } });
    const log = unwrap(await admin.GET('/admin/audit-log', { params: { query: { action: 'deposit.approved' } } }));
    const rows = log.entries.filter((e) => e.record_id === deposit.id);
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        created_at: s.clock.now().toISOString(),
        operator_id: expect.any(Number),
        operator_email: 'admin@demo.test',
        action: 'deposit.approved',
        record_type: 'deposit',
        record_id: deposit.id,
        amount: 25_000,
        currency: 'GBP',
        detail: null,
      },
    ]);

    const refused = await requestDeposit(12_300);
    await admin.POST('/admin/deposits/{id}/reject', {
      params: { path: { id: refused.id } },
      body: { reason: 'No transfer arrived' },
    });
    // the opposite decision is refused (409) and logs nothing
    const conflict = await admin.POST('/admin/deposits/{id}/approve', { params: { path: { id: refused.id } } });
    expect(conflict.response.status).toBe(409);
    const all = unwrap(await admin.GET('/admin/audit-log')).entries.filter((e) => e.record_id === refused.id);
    expect(all.map((e) => [e.action, e.amount, e.detail])).toEqual([
      ['deposit.rejected', 12_300, 'No transfer arrived'],
    ]);
  });

  it('filters the log by action, operator and day, newest first, paged', async () => {
    const first = await requestDeposit(1_000);
    unwrap(await admin.POST('/admin/deposits/{id}/approve', { params: { path: { id: first.id } } }));
    s.clock.advance(2 * 86_400_000);
    // a session lasts a day
    await logIn();
    const second = await requestDeposit(2_000);
    unwrap(await admin.POST('/admin/deposits/{id}/approve', { params: { path: { id: second.id } } }));
    const today = s.clock.now().toISOString().slice(0, 10);

    const newest = unwrap(await admin.GET('/admin/audit-log', { params: { query: { per_page: 1 } } }));
    expect(newest.entries.map((e) => e.record_id)).toEqual([second.id]);
    expect(newest.meta.total).toBeGreaterThan(1);
    const page2 = unwrap(await admin.GET('/admin/audit-log', { params: { query: { per_page: 1, page: 2 } } }));
    expect(page2.entries[0]?.id).toBeLessThan(newest.entries[0]?.id ?? 0);

    const onDay = unwrap(
      await admin.GET('/admin/audit-log', { params: { query: { date_from: today, date_to: today } } }),
    );
    expect(onDay.entries.map((e) => e.record_id)).toEqual([second.id]);
    const byOperator = unwrap(
      await admin.GET('/admin/audit-log', { params: { query: { operator: 'ADMIN@demo.test' } } }),
    );
    expect(byOperator.entries.length).toBe(byOperator.meta.total > 50 ? 50 : byOperator.meta.total);
    expect(byOperator.entries.every((e) => e.operator_email === 'admin@demo.test')).toBe(true);
    const nobody = unwrap(await admin.GET('/admin/audit-log', { params: { query: { operator: 'x@demo.test' } } }));
    expect(nobody.entries).toEqual([]);
    const rejections = unwrap(
      await admin.GET('/admin/audit-log', { params: { query: { action: 'deposit.rejected' } } }),
    );
    expect(rejections.entries.every((e) => e.action === 'deposit.rejected')).toBe(true);
  });

  it('lists the orders past their delivery deadline; cancelling one refunds it and logs the amount', async () => {
    const order = await s.db
      .selectFrom('orders')
      .select(['id', 'amount', 'currency', 'booking_no'])
      .where('status', '=', 'confirmed')
      .where('delivered', '=', 0)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const before = (await queues()).orders?.count ?? 0;
    await s.db
      .updateTable('orders')
      .set({ deliver_by: new Date(s.clock.now().getTime() - 3_600_000).toISOString() })
      .where('id', '=', order.id)
      .execute();
    expect((await queues()).orders?.count).toBe(before + 1);
    const listed = unwrap(await admin.GET('/admin/orders')).orders.find((o) => o.id === order.id);
    expect(listed).toMatchObject({ booking_no: order.booking_no, amount: Number(order.amount), delivered: 0 });

    unwrap(
      await admin.POST('/admin/sales/order-action', {
        params: { header: { 'Idempotency-Key': 'home-cancel-1' } },
        body: { booking_id: order.id, action: 'cancel', reason: 'Not delivered in time' },
      }),
    );
    expect((await queues()).orders?.count).toBe(before);
    const log = unwrap(await admin.GET('/admin/audit-log', { params: { query: { action: 'order.cancelled' } } }));
    expect(log.entries.map((e) => [e.record_type, e.record_id, e.amount, e.currency, e.detail])).toEqual([
      ['order', order.id, Number(order.amount), order.currency, 'Not delivered in time'],
    ]);
  });

  it('logs the other queues’ decisions: an event request refused with its reason', async () => {
    const city = await s.db.selectFrom('cities').select('name').orderBy('id').executeTakeFirstOrThrow();
    const later = new Date(s.clock.now().getTime() + 40 * 86_400_000).toISOString().slice(0, 10);
    const answer = await seller.POST('/match/request-event', {
      params: { header: { 'Idempotency-Key': 'home-event-1' } },
      body: {
        match_name: 'Northbridge vs Southport',
        match_date: later,
        stadium_name: 'Harbour Park',
        city_name: city.name,
      },
    });
    const asked = unwrap(answer);
    unwrap(
      await admin.POST('/admin/event-requests/{id}/reject', {
        params: { path: { id: asked.request_id } },
        body: { reason: 'Already listed' },
      }),
    );
    const log = unwrap(
      await admin.GET('/admin/audit-log', { params: { query: { action: 'event_request.rejected' } } }),
    );
    expect(log.entries.map((e) => [e.record_id, e.detail])).toEqual([[asked.request_id, 'Already listed']]);
  });

  it('refuses every change to the log: it is append-only on the engine itself', async () => {
    const before = await s.db.selectFrom('admin_audit_log').select(['id', 'action']).execute();
    expect(before.length).toBeGreaterThan(0);
    await expect(s.db.updateTable('admin_audit_log').set({ action: 'kyc.approved' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(s.db.deleteFrom('admin_audit_log').execute()).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM admin_audit_log WHERE id = ${before[0]?.id}`.execute(s.db)).rejects.toThrow(
      /append-only/,
    );
    expect(await s.db.selectFrom('admin_audit_log').select(['id', 'action']).execute()).toEqual(before);
  });

  it('answers 403 to an ordinary seller on every back-office read', async () => {
    expect((await seller.GET('/admin/queues')).response.status).toBe(403);
    expect((await seller.GET('/admin/orders')).response.status).toBe(403);
    expect((await seller.GET('/admin/audit-log')).response.status).toBe(403);
  });
});
