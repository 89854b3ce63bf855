import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { freshServer } from '../test-support';
import { SUPPORT_INFO } from './ui-settings';

type Server = Awaited<ReturnType<typeof freshServer>>;
type Schemas = components['schemas'];
type Overview = Schemas['DashboardSalesOverviewResponse']['data'];
type Awaiting = Schemas['DashboardAwaitingDeliveryResponse']['data'];
type TopEvents = Schemas['DashboardTopSellingEventsResponse']['data'];
type SalesCount = Schemas['SalesCountResponse']['data'];
interface Answer<D = unknown> {
  status: number;
  body: { success: boolean; message?: string; data: D; errors?: { path: string; message: string }[] };
}

const STATUSES = ['pending', 'confirmed', 'delivered', 'completed', 'cancelled', 'replaced'];
const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);

/**
 * The expected figures are computed here, in plain code from the raw rows, never by the server's queries.
 */
describe('sales counts, the dashboard and the support popup', () => {
  let s: Server;
  let seller: string;
  let member: string;
  let newseller: string;
  let ids: Record<'seller' | 'member' | 'newseller', number>;

  beforeAll(async () => {
    s = await freshServer();
    [seller, member, newseller] = (await Promise.all(
      ['seller@demo.test', 'member@demo.test', 'newseller@demo.test'].map((e) => s.loginAs(e)),
    )) as [string, string, string];
    const users = await s.db.selectFrom('users').select(['id', 'email']).execute();
    const id = (email: string) => users.find((u) => u.email === email)?.id ?? -1;
    ids = { seller: id('seller@demo.test'), member: id('member@demo.test'), newseller: id('newseller@demo.test') };
    // here newseller stands for an approved seller with no sales (the KYC gate has its own tests)
    await s.db.updateTable('users').set({ kyc_status: 1 }).where('email', '=', 'newseller@demo.test').execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  const get = async <D = unknown>(path: string, token?: string) => {
    const res = await s.json('GET', path, undefined, token);
    return { status: res.status, body: await res.json() } as Answer<D>;
  };
  /** Every order of a seller with its event, listing and city, straight from the tables. */
  const ordersOf = (sellerId: number) =>
    s.db
      .selectFrom('orders')
      .innerJoin('events', 'events.id', 'orders.event_id')
      .innerJoin('listings', 'listings.id', 'orders.listing_id')
      .innerJoin('cities', 'cities.id', 'events.city_id')
      .select([
        'orders.id',
        'orders.booking_no',
        'orders.quantity',
        'orders.amount',
        'orders.currency',
        'orders.status',
        'orders.deliver_by',
        'events.id as event_id',
        'events.name as event_name',
        'events.event_date',
        'events.event_time',
        'events.stadium_name',
        'cities.name as city_name',
        'listings.ticket_type_id',
      ])
      .where('orders.seller_id', '=', sellerId)
      .execute();
  type Order = Awaited<ReturnType<typeof ordersOf>>[number];

  const expectedOverview = (orders: Order[], currency: string): Overview => {
    const mine = orders.filter((o) => o.currency === currency);
    const sold = mine.filter((o) => o.status !== 'cancelled');
    return {
      currency: currency as Overview['currency'],
      total_sales: sum(sold.map((o) => o.amount)),
      orders: sold.length,
      tickets_sold: sum(sold.map((o) => o.quantity)),
      statuses: STATUSES.map((status) => {
        const these = mine.filter((o) => o.status === status);
        return {
          status: status as Overview['statuses'][number]['status'],
          orders: these.length,
          amount: sum(these.map((o) => o.amount)),
        };
      }),
    };
  };

  describe('GET /sales/sales-count', () => {
    it('answers all six statuses in order with the seller’s order counts (every currency)', async () => {
      const orders = await ordersOf(ids.seller);
      const res = await get<SalesCount>('/sales/sales-count', seller);
      expect(res).toEqual({
        status: 200,
        body: {
          success: true,
          data: STATUSES.map((status) => ({ status, orders: orders.filter((o) => o.status === status).length })),
        },
      });
      expect(res.body.data.every((c) => c.orders >= 2)).toBe(true);
      expect(sum(res.body.data.map((c) => c.orders))).toBe(orders.length);
    });

    it("answers the team member its owner's counts", async () => {
      const own = await get('/sales/sales-count', seller);
      expect(await get('/sales/sales-count', member)).toEqual(own);
    });

    it('answers a seller with no sales six zeros', async () => {
      const res = await get<SalesCount>('/sales/sales-count', newseller);
      expect(res.body.data).toEqual(STATUSES.map((status) => ({ status, orders: 0 })));
    });
  });

  describe('GET /dashboard/sales-overview', () => {
    it('counts the GBP orders by default (the caller’s currency), leaving cancelled ones out of the totals', async () => {
      const orders = await ordersOf(ids.seller);
      const res = await get<Overview>('/dashboard/sales-overview', seller);
      expect(res).toEqual({ status: 200, body: { success: true, data: expectedOverview(orders, 'GBP') } });
      expect(res.body.data.total_sales).toBeGreaterThan(0);
      expect(Number.isInteger(res.body.data.total_sales)).toBe(true);
    });

    it('counts only the orders priced in the currency asked for', async () => {
      const orders = await ordersOf(ids.seller);
      for (const currency of ['EUR', 'USD', 'AED']) {
        const res = await get<Overview>(`/dashboard/sales-overview?currency=${currency}`, seller);
        expect(res.body.data, currency).toEqual(expectedOverview(orders, currency));
        expect(res.body.data.orders, currency).toBeGreaterThan(0);
      }
      const gbp = await get<Overview>('/dashboard/sales-overview?currency=GBP', seller);
      const eur = await get<Overview>('/dashboard/sales-overview?currency=EUR', seller);
      expect(eur.body.data.orders).toBeLessThan(gbp.body.data.orders);
    });

    it("answers the member its owner's figures, in the member's own currency by default", async () => {
      const orders = await ordersOf(ids.seller);
      expect((await get('/dashboard/sales-overview', member)).body.data).toEqual(expectedOverview(orders, 'GBP'));
      await s.db.updateTable('users').set({ currency: 'EUR' }).where('id', '=', ids.member).execute();
      try {
        expect((await get('/dashboard/sales-overview', member)).body.data).toEqual(expectedOverview(orders, 'EUR'));
        // the owner's default does not follow
        expect((await get<Overview>('/dashboard/sales-overview', seller)).body.data.currency).toBe('GBP');
      } finally {
        await s.db.updateTable('users').set({ currency: 'GBP' }).where('id', '=', ids.member).execute();
      }
    });

    it('answers an unknown currency with 422 and the path', async () => {
      for (const currency of ['XYZ', 'gbp', '', 'GBP,EUR']) {
        const res = await get(`/dashboard/sales-overview?currency=${currency}`, seller);
        expect(res.status, currency).toBe(422);
        expect(
          res.body.errors?.map((e) => e.path),
          currency,
        ).toEqual(['/query/currency']);
      }
    });
  });

  describe('GET /dashboard/awaiting-delivery', () => {
    it('lists at most 10 confirmed orders in the currency, the soonest event first, and counts them all', async () => {
      const confirmed = (await ordersOf(ids.seller))
        .filter((o) => o.status === 'confirmed' && o.currency === 'GBP')
        .sort(
          (a, b) => a.event_date.localeCompare(b.event_date) || a.event_time.localeCompare(b.event_time) || a.id - b.id,
        );
      expect(confirmed.length).toBeGreaterThan(10); // the seed makes the limit real
      const res = await get<Awaiting>('/dashboard/awaiting-delivery', seller);
      expect(res).toEqual({
        status: 200,
        body: {
          success: true,
          data: {
            total: confirmed.length,
            orders: confirmed.slice(0, 10).map((o) => ({
              order_id: o.id,
              booking_no: o.booking_no,
              event_name: o.event_name,
              event_date: o.event_date,
              quantity: o.quantity,
              amount: o.amount,
              currency: o.currency,
              ticket_type_id: o.ticket_type_id,
              deliver_by: o.deliver_by,
            })),
          },
        },
      });
    });

    it('lists only the orders priced in the currency asked for', async () => {
      const eur = (await ordersOf(ids.seller)).filter((o) => o.status === 'confirmed' && o.currency === 'EUR');
      const res = await get<Awaiting>('/dashboard/awaiting-delivery?currency=EUR', seller);
      expect(res.body.data.total).toBe(eur.length);
      expect(res.body.data.orders.map((o) => o.order_id).sort()).toEqual(eur.map((o) => o.id).sort());
      expect(res.body.data.orders.every((o) => o.currency === 'EUR')).toBe(true);
    });
  });

  describe('GET /dashboard/top-selling-events', () => {
    const expectedTop = (orders: Order[], currency: string) => {
      const byEvent = new Map<number, TopEvents['events'][number]>();
      for (const o of orders.filter((o) => o.currency === currency && o.status !== 'cancelled')) {
        const e = byEvent.get(o.event_id) ?? {
          event_id: o.event_id,
          event_name: o.event_name,
          event_date: o.event_date,
          stadium_name: o.stadium_name,
          city_name: o.city_name,
          tickets_sold: 0,
          revenue: 0,
        };
        e.tickets_sold += o.quantity;
        e.revenue += o.amount;
        byEvent.set(o.event_id, e);
      }
      return [...byEvent.values()]
        .sort((a, b) => b.tickets_sold - a.tickets_sold || b.revenue - a.revenue || a.event_id - b.event_id)
        .slice(0, 5);
    };

    it('answers the 5 events with the most tickets sold in the currency, cancelled orders left out', async () => {
      const orders = await ordersOf(ids.seller);
      const res = await get<TopEvents>('/dashboard/top-selling-events', seller);
      expect(res).toEqual({ status: 200, body: { success: true, data: { events: expectedTop(orders, 'GBP') } } });
      expect(res.body.data.events).toHaveLength(5);
      const eur = await get<TopEvents>('/dashboard/top-selling-events?currency=EUR', seller);
      expect(eur.body.data.events).toEqual(expectedTop(orders, 'EUR'));
    });

    it("answers the member its owner's events", async () => {
      expect(await get('/dashboard/top-selling-events', member)).toEqual(
        await get('/dashboard/top-selling-events', seller),
      );
    });
  });

  describe('GET /dashboard/notifications and /dashboard/activity', () => {
    it("answer the caller's own 5 latest notifications with the unread count, and 5 latest activity rows", async () => {
      for (const [token, userId] of [
        [seller, ids.seller],
        [member, ids.member],
      ] as const) {
        const notifications = await s.db
          .selectFrom('notifications')
          .select(['id', 'name', 'description', 'viewed', 'created_at', 'link'])
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        const activity = await s.db
          .selectFrom('activity_log')
          .select(['id', 'type', 'description', 'created_at'])
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        expect(await get('/dashboard/notifications', token)).toEqual({
          status: 200,
          body: {
            success: true,
            data: {
              notification_list: notifications.slice(0, 5),
              unread_count: notifications.filter((n) => n.viewed === 0).length,
            },
          },
        });
        expect(await get('/dashboard/activity?currency=EUR', token)).toEqual({
          status: 200,
          body: { success: true, data: { activity_list: activity.slice(0, 5) } },
        });
      }
    });
  });

  describe('a seller with no sales', () => {
    it('gets zeros and empty lists on every widget', async () => {
      expect((await get('/dashboard/sales-overview', newseller)).body.data).toEqual(expectedOverview([], 'GBP'));
      expect((await get('/dashboard/awaiting-delivery', newseller)).body.data).toEqual({ total: 0, orders: [] });
      expect((await get('/dashboard/top-selling-events', newseller)).body.data).toEqual({ events: [] });
      expect((await get('/dashboard/notifications', newseller)).body.data).toEqual({
        notification_list: [],
        unread_count: 0,
      });
      // its activity is only its own logins of this test
      const activity = await get<{ activity_list: { type: string }[] }>('/dashboard/activity', newseller);
      expect(activity.body.data.activity_list.map((a) => a.type)).toEqual(['logged_in']);
      const admin = await s.loginAs('admin@demo.test');
      expect((await get('/dashboard/sales-overview?currency=EUR', admin)).body.data).toEqual(
        expectedOverview([], 'EUR'),
      );
      expect((await get('/sales/sales-count', admin)).body.data).toEqual(
        STATUSES.map((status) => ({ status, orders: 0 })),
      );
    });
  });

  describe('GET /ui-settings/support-info', () => {
    it('answers every logged-in caller the support details, whatever its permissions', async () => {
      const expected = { status: 200, body: { success: true, data: SUPPORT_INFO } };
      expect(await get('/ui-settings/support-info', seller)).toEqual(expected);
      expect(await get('/ui-settings/support-info', member)).toEqual(expected);
      expect(SUPPORT_INFO).toEqual({
        title: 'Need help?',
        sub_title: expect.stringMatching(/\w/),
        phone: expect.stringMatching(/^\+[\d ]+$/),
        email: expect.stringMatching(/^[^@\s]+@[^@\s]+\.\w+$/),
      });
      expect((await get('/ui-settings/support-info')).status).toBe(401);
    });
  });

  describe('permissions', () => {
    const dashboard = [
      '/dashboard/sales-overview',
      '/dashboard/awaiting-delivery',
      '/dashboard/notifications',
      '/dashboard/top-selling-events',
      '/dashboard/activity',
    ];
    const setAccess = (permission_name: string, is_can_access: number) =>
      s.db
        .updateTable('user_permissions')
        .set({ is_can_access })
        .where('user_id', '=', ids.newseller)
        .where('permission_name', '=', permission_name)
        .execute();
    const forbidden = { status: 403, body: { success: false, message: "You don't have permission to access this." } };

    it('answers 403 on the dashboard without the dashboard permission, and on sales-count without sales', async () => {
      await setAccess('dashboard', 0);
      for (const path of dashboard) expect(await get(path, newseller), path).toEqual(forbidden);
      expect(await get('/dashboard/sales-overview?currency=nope', newseller)).toEqual(forbidden);
      expect((await get('/sales/sales-count', newseller)).status).toBe(200);
      await setAccess('sales', 0);
      expect(await get('/sales/sales-count', newseller)).toEqual(forbidden);
      expect((await get('/ui-settings/support-info', newseller)).status).toBe(200);
      await setAccess('dashboard', 1);
      await setAccess('sales', 1);
      for (const path of [...dashboard, '/sales/sales-count']) expect((await get(path, newseller)).status).toBe(200);
    });

    it('answers 401 without a token', async () => {
      for (const path of [...dashboard, '/sales/sales-count']) expect((await get(path)).status, path).toBe(401);
    });
  });
});
