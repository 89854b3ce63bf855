import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../openapi/schema';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
type Schemas = components['schemas'];
type History = Schemas['NotificationHistoryResponse']['data'];
type ActivityHistory = Schemas['ActivityHistoryResponse']['data'];
interface Answer<D = unknown> {
  status: number;
  body: { success: boolean; message?: string; data: D; errors?: { path: string; message: string }[] };
}

describe('notifications, activity and the menu count', () => {
  let s: Server;
  let seller: string;
  let member: string;
  let ids: { seller: number; member: number; newseller: number };

  beforeAll(async () => {
    s = await freshServer();
    seller = await s.loginAs('seller@demo.test');
    member = await s.loginAs('member@demo.test');
    const users = await s.db.selectFrom('users').select(['id', 'email']).execute();
    const id = (email: string) => users.find((u) => u.email === email)?.id ?? -1;
    ids = { seller: id('seller@demo.test'), member: id('member@demo.test'), newseller: id('newseller@demo.test') };
    // here newseller stands for an approved seller with nothing yet (the KYC gate has its own tests)
    await s.db.updateTable('users').set({ kyc_status: 1 }).where('email', '=', 'newseller@demo.test').execute();
  });
  afterAll(async () => {
    await s?.close();
  });

  const call = async <D = unknown>(method: string, path: string, token?: string, body?: unknown) => {
    const res = await s.json(method, path, body, token);
    return { status: res.status, body: await res.json() } as Answer<D>;
  };
  const get = <D = unknown>(path: string, token?: string) => call<D>('GET', path, token);
  const post = <D = unknown>(path: string, body: unknown, token: string) => call<D>('POST', path, token, body);

  /** The user's notifications straight from the table, newest first, as the API shows them. */
  const notificationsOf = (userId: number) =>
    s.db
      .selectFrom('notifications')
      .select(['id', 'name', 'description', 'viewed', 'created_at', 'link'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  const activityOf = (userId: number) =>
    s.db
      .selectFrom('activity_log')
      .select(['id', 'type', 'description', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  const unreadOf = async (userId: number) => (await notificationsOf(userId)).filter((n) => n.viewed === 0).length;
  const anyCursor = expect.stringMatching(/^[A-Za-z0-9_-]+$/);

  describe('GET /ui-settings/menu-notification', () => {
    it("counts the caller's notifications, activity rows and unread notifications", async () => {
      const rows = await notificationsOf(ids.seller);
      const activity = await activityOf(ids.seller);
      const res = await get('/ui-settings/menu-notification', seller);
      expect(res).toEqual({
        status: 200,
        body: {
          success: true,
          data: { notification: rows.length, activity: activity.length, unread_count: await unreadOf(ids.seller) },
        },
      });
      // the seed makes paging real
      expect(rows.length).toBeGreaterThanOrEqual(45);
      expect(activity.length).toBeGreaterThanOrEqual(45);
    });

    it("answers the member its own counts, not the owner's", async () => {
      const res = await get<{ notification: number; activity: number }>('/ui-settings/menu-notification', member);
      expect(res.body.data.notification).toBe((await notificationsOf(ids.member)).length);
      expect(res.body.data.activity).toBe((await activityOf(ids.member)).length);
      expect(res.body.data.notification).toBeLessThan(10);
    });
  });

  describe('GET /notification/history', () => {
    it('answers page 1 by default: the 10 newest, the unread count and the meta', async () => {
      const rows = await notificationsOf(ids.seller);
      const res = await get<History>('/notification/history', seller);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        notification_list: rows.slice(0, 10),
        unread_count: await unreadOf(ids.seller),
        meta: {
          current_page: 1,
          last_page: Math.ceil(rows.length / 10),
          per_page: 10,
          total: rows.length,
          next_cursor: anyCursor,
        },
      });
    });

    it('pages through every notification exactly once; the last page has the remainder', async () => {
      const rows = await notificationsOf(ids.seller);
      const lastPage = Math.ceil(rows.length / 10);
      const seen: number[] = [];
      for (let page = 1; page <= lastPage; page++) {
        const { body } = await get<History>(`/notification/history?page=${page}`, seller);
        expect(body.data.meta).toEqual({
          current_page: page,
          last_page: lastPage,
          per_page: 10,
          total: rows.length,
          next_cursor: page < lastPage ? anyCursor : null,
        });
        expect(body.data.notification_list).toHaveLength(page < lastPage ? 10 : rows.length - 10 * (lastPage - 1));
        seen.push(...body.data.notification_list.map((n) => n.id));
      }
      expect(seen).toEqual(rows.map((r) => r.id));
      expect(rows.length % 10).not.toBe(0); // so the last page really is a remainder
    });

    it('answers a page past the end with an empty list and the meta', async () => {
      const total = (await notificationsOf(ids.seller)).length;
      const lastPage = Math.ceil(total / 10);
      for (const page of [lastPage + 1, 100_000]) {
        const { status, body } = await get<History>(`/notification/history?page=${page}`, seller);
        expect(status).toBe(200);
        expect(body.data.notification_list).toEqual([]);
        expect(body.data.meta).toEqual({
          current_page: page,
          last_page: lastPage,
          per_page: 10,
          total,
          next_cursor: null,
        });
      }
    });

    it('takes per_page from 1 to 50', async () => {
      const rows = await notificationsOf(ids.seller);
      const one = await get<History>('/notification/history?page=3&per_page=1', seller);
      expect(one.body.data.notification_list).toEqual([rows[2]]);
      expect(one.body.data.meta.last_page).toBe(rows.length);
      const fifty = await get<History>('/notification/history?per_page=50', seller);
      expect(fifty.body.data.notification_list).toEqual(rows.slice(0, 50));
    });

    it('answers a user with no notifications an empty page 1', async () => {
      const token = await s.loginAs('newseller@demo.test');
      const res = await get<History>('/notification/history', token);
      expect(res.body.data).toEqual({
        notification_list: [],
        unread_count: 0,
        meta: { current_page: 1, last_page: 1, per_page: 10, total: 0, next_cursor: null },
      });
    });

    it("lists only the caller's own notifications", async () => {
      const own = new Set((await notificationsOf(ids.member)).map((n) => n.id));
      const res = await get<History>('/notification/history?per_page=50', member);
      expect(res.body.data.notification_list.map((n) => n.id)).toEqual([...own]);
      expect(own.size).toBeGreaterThan(0);
    });
  });

  describe('GET /notification/activity-history', () => {
    it('answers page 1 by default: the 10 newest rows, the activity count and the meta', async () => {
      const rows = await activityOf(ids.seller);
      const res = await get<ActivityHistory>('/notification/activity-history', seller);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        activity_list: rows.slice(0, 10),
        activity_count: rows.length,
        meta: {
          current_page: 1,
          last_page: Math.ceil(rows.length / 10),
          per_page: 10,
          total: rows.length,
          next_cursor: anyCursor,
        },
      });
      expect(rows.map((r) => r.type)).toEqual(expect.arrayContaining(['logged_in', 'logged_out', 'listing_created']));
    });

    it('pages through every row once, with the remainder last and an empty page past the end', async () => {
      const rows = await activityOf(ids.seller);
      const lastPage = Math.ceil(rows.length / 10);
      const seen: number[] = [];
      for (let page = 1; page <= lastPage + 1; page++) {
        const { body } = await get<ActivityHistory>(`/notification/activity-history?page=${page}`, seller);
        expect(body.data.meta).toEqual({
          current_page: page,
          last_page: lastPage,
          per_page: 10,
          total: rows.length,
          next_cursor: page < lastPage ? anyCursor : null,
        });
        const expected = page < lastPage ? 10 : page === lastPage ? rows.length - 10 * (lastPage - 1) : 0;
        expect(body.data.activity_list).toHaveLength(expected);
        seen.push(...body.data.activity_list.map((a) => a.id));
      }
      expect(seen).toEqual(rows.map((r) => r.id));
    });

    it("shows a new login at the top of the caller's own log", async () => {
      const token = await s.loginAs('member@demo.test');
      const res = await get<ActivityHistory>('/notification/activity-history?per_page=1', token);
      expect(res.body.data.activity_list[0]).toMatchObject({
        type: 'logged_in',
        created_at: s.clock.now().toISOString(),
      });
      expect(res.body.data.activity_count).toBe((await activityOf(ids.member)).length);
    });
  });

  describe('paging by cursor', () => {
    const lists = [
      ['/notification/history', 'notification_list', notificationsOf],
      ['/notification/activity-history', 'activity_list', activityOf],
    ] as const;
    type Listed = { data: Record<string, unknown> & { meta: History['meta'] } };
    /** Follows next_cursor from the first page to the last: every page's rows, and its meta. */
    const walk = async (path: string, key: string, token: string, perPage: number) => {
      const pages: { ids: number[]; meta: History['meta'] }[] = [];
      let url = `${path}?per_page=${perPage}`;
      for (;;) {
        const res = await get<Listed['data']>(url, token);
        expect(res.status, url).toBe(200);
        const meta = res.body.data.meta;
        pages.push({ ids: (res.body.data[key] as { id: number }[]).map((r) => r.id), meta });
        if (!meta.next_cursor) return pages;
        url = `${path}?per_page=${perPage}&cursor=${meta.next_cursor}`;
      }
    };

    it.each(lists)(
      '%s: following next_cursor gives every row once, in order, on numbered pages',
      async (path, key, of) => {
        const rows = await of(ids.seller);
        const pages = await walk(path, key, seller, 7);
        const lastPage = Math.ceil(rows.length / 7);
        expect(pages.map((p) => p.meta.current_page)).toEqual(Array.from({ length: lastPage }, (_, i) => i + 1));
        expect(pages.flatMap((p) => p.ids)).toEqual(rows.map((r) => r.id));
        for (const p of pages) {
          expect(p.meta).toMatchObject({ last_page: lastPage, per_page: 7, total: rows.length });
          // the same rows as the page asked for by number
          const byNumber = await get<Listed['data']>(`${path}?per_page=7&page=${p.meta.current_page}`, seller);
          expect((byNumber.body.data[key] as { id: number }[]).map((r) => r.id)).toEqual(p.ids);
        }
        expect(pages.at(-1)?.meta.next_cursor).toBeNull();
      },
    );

    it('neither skips nor repeats rows that share a created_at', async () => {
      const at = '2026-01-02T03:04:05.000Z';
      const inserted = await s.db
        .insertInto('notifications')
        .values(
          Array.from({ length: 9 }, (_, i) => ({
            user_id: ids.newseller,
            name: 'tie',
            description: `tie ${i}`,
            created_at: at,
          })),
        )
        .returning('id')
        .execute();
      await s.db
        .insertInto('activity_log')
        .values(
          Array.from({ length: 5 }, (_, i) => ({
            user_id: ids.newseller,
            type: 'tie',
            description: `tie ${i}`,
            created_at: at,
          })),
        )
        .execute();
      const token = await s.loginAs('newseller@demo.test');
      for (const [path, key, of] of lists) {
        const rows = await of(ids.newseller);
        expect(rows.filter((r) => r.created_at === at).length).toBeGreaterThanOrEqual(5);
        expect(
          (await walk(path, key, token, 2)).flatMap((p) => p.ids),
          path,
        ).toEqual(rows.map((r) => r.id));
      }
      expect(inserted).toHaveLength(9);
    });

    it('is not shifted by a row that arrives between two pages', async () => {
      const before = await notificationsOf(ids.seller);
      const first = await get<History>('/notification/history', seller);
      const { id } = await s.db
        .insertInto('notifications')
        .values({
          user_id: ids.seller,
          name: 'new_order',
          description: 'Arrived meanwhile.',
          created_at: s.clock.now().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      try {
        const next = await get<History>(`/notification/history?cursor=${first.body.data.meta.next_cursor}`, seller);
        expect(next.body.data.notification_list.map((n) => n.id)).toEqual(before.slice(10, 20).map((n) => n.id));
        expect(next.body.data.meta).toMatchObject({ current_page: 2, total: before.length + 1 });
        // by number, page 2 now starts one row earlier: the row the first page ended with shows again
        const byNumber = await get<History>('/notification/history?page=2', seller);
        expect(byNumber.body.data.notification_list[0]?.id).toBe(before[9]?.id);
      } finally {
        await s.db.deleteFrom('notifications').where('id', '=', id).execute();
      }
      expect((await get<History>('/notification/history', seller)).body.data.meta.total).toBe(before.length);
    });

    it("reads only the caller's rows, whoever's cursor it is given", async () => {
      const sellers = await get<History>('/notification/history?per_page=1', seller);
      const res = await get<History>(
        `/notification/history?per_page=50&cursor=${sellers.body.data.meta.next_cursor}`,
        member,
      );
      const own = new Set((await notificationsOf(ids.member)).map((n) => n.id));
      expect(res.body.data.notification_list.every((n) => own.has(n.id))).toBe(true);
    });

    const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    it.each(lists.map(([path]) => path))('%s answers a cursor it did not give with 422 and the path', async (path) => {
      const bad = [
        'not a cursor',
        '',
        'x'.repeat(201),
        encode('hello'),
        encode('1|2026-01-01T00:00:00.000Z|5'),
        encode('2|2026-01-01T00:00:00.000Z|0'),
        encode('2|yesterday|5'),
        encode('100001|2026-01-01T00:00:00.000Z|5'),
        encode('2|2026-01-01T00:00:00.000Z|99999999999999999999'),
        encode('2|2026-01-01T00:00:00.000Z|2147483648'),
      ];
      for (const cursor of bad) {
        const res = await get(`${path}?cursor=${encodeURIComponent(cursor)}`, seller);
        expect(res.status, cursor).toBe(422);
        expect(res.body.message).toBe('Some fields are missing or invalid.');
        // an empty cursor breaks two rules of the contract (minLength, pattern): each is said, at the same path
        expect([...new Set(res.body.errors?.map((e) => e.path))], cursor).toEqual(['/query/cursor']);
      }
      const good = await get(`${path}?cursor=${encode('2|2026-01-01T00:00:00.000Z|5')}`, seller);
      expect(good.status).toBe(200);
    });
  });

  describe('bad paging', () => {
    const bad: [string, string][] = [
      ['page=-1', '/query/page'],
      ['page=0', '/query/page'],
      ['page=abc', '/query/page'],
      ['page=99999999999', '/query/page'],
      ['page=100001', '/query/page'],
      ['page=1.5', '/query/page'],
      ['page=', '/query/page'],
      // written other than in decimals: JavaScript would read 2, 10, 2 and 16
      ['page=0x2', '/query/page'],
      ['page=1e1', '/query/page'],
      ['page=%202%20', '/query/page'],
      ['per_page=0x10', '/query/per_page'],
      ['per_page=0', '/query/per_page'],
      ['per_page=51', '/query/per_page'],
      ['per_page=ten', '/query/per_page'],
    ];
    it.each(['/notification/history', '/notification/activity-history'])(
      '%s answers 422 with the path',
      async (path) => {
        for (const [query, pointer] of bad) {
          const res = await get(`${path}?${query}`, seller);
          expect(res.status, query).toBe(422);
          expect(res.body.success).toBe(false);
          expect(res.body.message).toBe('Some fields are missing or invalid.');
          expect(
            res.body.errors?.map((e) => e.path),
            query,
          ).toEqual([pointer]);
        }
      },
    );
  });

  describe('POST /notification/update-notification', () => {
    it('marks a notification viewed, lowers the unread count by one, and is idempotent', async () => {
      const target = (await notificationsOf(ids.seller)).find((n) => n.viewed === 0);
      if (!target) throw new Error('the seed has unread notifications');
      const before = await unreadOf(ids.seller);
      const first = await post('/notification/update-notification', { id: target.id }, seller);
      expect(first).toEqual({
        status: 200,
        body: { success: true, data: { id: target.id, viewed: 1, unread_count: before - 1 } },
      });
      const row = await s.db.selectFrom('notifications').selectAll().where('id', '=', target.id).executeTakeFirst();
      expect(row?.viewed).toBe(1);
      const menu = await get<{ unread_count: number }>('/ui-settings/menu-notification', seller);
      expect(menu.body.data.unread_count).toBe(before - 1);
      // again: the same answer, nothing else changes
      const again = await post('/notification/update-notification', { id: target.id }, seller);
      expect(again).toEqual(first);
      expect(await unreadOf(ids.seller)).toBe(before - 1);
      const history = await get<History>('/notification/history?per_page=50', seller);
      expect(history.body.data.notification_list.find((n) => n.id === target.id)?.viewed).toBe(1);
    });

    it("answers another user's notification with 404 and changes nothing", async () => {
      const theirs = (await notificationsOf(ids.member)).find((n) => n.viewed === 0);
      if (!theirs) throw new Error('the seed has an unread notification for the member');
      const snapshot = await s.db.selectFrom('notifications').selectAll().orderBy('id').execute();
      const res = await post('/notification/update-notification', { id: theirs.id }, seller);
      expect(res).toEqual({ status: 404, body: { success: false, message: 'Notification not found.' } });
      expect(await s.db.selectFrom('notifications').selectAll().orderBy('id').execute()).toEqual(snapshot);
      // the owner of the notification can still mark it
      expect((await post('/notification/update-notification', { id: theirs.id }, member)).status).toBe(200);
    });

    it('answers an unknown id with 404', async () => {
      const res = await post('/notification/update-notification', { id: 987_654_321 }, seller);
      expect(res).toEqual({ status: 404, body: { success: false, message: 'Notification not found.' } });
    });
  });

  describe('POST /notification/details', () => {
    it("answers one of the caller's notifications without marking it viewed", async () => {
      const rows = await notificationsOf(ids.seller);
      const target = rows.find((n) => n.viewed === 0) ?? rows[0];
      if (!target) throw new Error('the seed has notifications');
      const res = await post('/notification/details', { id: target.id }, seller);
      expect(res).toEqual({ status: 200, body: { success: true, data: target } });
      expect(await notificationsOf(ids.seller)).toEqual(rows);
    });

    it("answers another user's or an unknown notification with 404", async () => {
      const theirs = (await notificationsOf(ids.seller))[0];
      for (const id of [theirs?.id, 987_654_321]) {
        const res = await post('/notification/details', { id }, member);
        expect(res).toEqual({ status: 404, body: { success: false, message: 'Notification not found.' } });
      }
    });
  });

  describe('malformed bodies', () => {
    const raw = (path: string, body: string, type = 'application/json') =>
      s.app.request(`/api${path}`, {
        method: 'POST',
        headers: { 'content-type': type, authorization: `Bearer ${seller}` },
        body,
      });

    it.each(['/notification/update-notification', '/notification/details'])(
      '%s answers 4xx envelopes and changes nothing',
      async (path) => {
        const snapshot = await s.db.selectFrom('notifications').selectAll().orderBy('id').execute();
        const some = snapshot.find((n) => n.user_id === ids.seller)?.id ?? 1;
        const cases: [string, number, string[]][] = [
          [JSON.stringify({ id: String(some) }), 422, ['/body/id']],
          [JSON.stringify({}), 422, ['/body/id']],
          [JSON.stringify({ id: null }), 422, ['/body/id']],
          ['{"id": 1e300}', 422, ['/body/id']],
          [JSON.stringify({ id: 0 }), 422, ['/body/id']],
          [JSON.stringify({ id: -1 }), 422, ['/body/id']],
          [JSON.stringify({ id: 1.5 }), 422, ['/body/id']],
          [JSON.stringify({ id: some, viewed: 0 }), 422, ['/body/viewed']],
          [JSON.stringify({ id: [some] }), 422, ['/body/id']],
          ['null', 422, ['/body']],
          ['[]', 422, ['/body']],
          ['{"id":', 400, []],
          ['', 400, []],
        ];
        for (const [text, status, paths] of cases) {
          const res = await raw(path, text);
          expect(res.status, text).toBe(status);
          expect(res.headers.get('content-type'), text).toMatch(/^application\/json/);
          const body = (await res.json()) as Answer['body'];
          expect(body.success, text).toBe(false);
          expect(body.message, text).toMatch(/\w{3}.*\w{3}/);
          if (status === 422)
            expect(
              body.errors?.map((e) => e.path),
              text,
            ).toEqual(paths);
        }
        expect((await raw(path, JSON.stringify({ id: some }), 'text/plain')).status).toBe(415);
        expect((await raw(path, JSON.stringify({ id: some, pad: 'x'.repeat(40_000) }))).status).toBe(413);
        expect(await s.db.selectFrom('notifications').selectAll().orderBy('id').execute()).toEqual(snapshot);
      },
    );
  });

  describe('permission and session', () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/ui-settings/menu-notification'],
      ['GET', '/notification/history'],
      ['GET', '/notification/history?page=abc'],
      ['GET', '/notification/activity-history'],
      ['POST', '/notification/update-notification', { id: 1 }],
      ['POST', '/notification/details', { id: 'not even valid' }],
    ];

    it('answers 401 without a token', async () => {
      for (const [method, path, body] of calls) {
        expect((await call(method, path, undefined, body)).status, path).toBe(401);
      }
    });

    it('answers 403 before validating when the notification permission is off, and 200 once it is back', async () => {
      const token = await s.loginAs('newseller@demo.test');
      const setAccess = (is_can_access: number) =>
        s.db
          .updateTable('user_permissions')
          .set({ is_can_access })
          .where('user_id', '=', ids.newseller)
          .where('permission_name', '=', 'notification')
          .execute();
      await setAccess(0);
      for (const [method, path, body] of calls) {
        expect(await call(method, path, token, body), path).toEqual({
          status: 403,
          body: { success: false, message: "You don't have permission to access this." },
        });
      }
      // the other permissions still work, and the check reads the database on every call
      expect((await get('/ui-settings/support-info', token)).status).toBe(200);
      await setAccess(1);
      expect((await get('/notification/history', token)).status).toBe(200);
    });
  });
});
