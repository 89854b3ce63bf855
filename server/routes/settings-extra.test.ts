import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peekWithin } from '../auth/request-limit';
import { DEMO_REFERRAL_CODE } from '../db/seed/demo-referrals';
import { bookingEarning, earningUntil, REFERRAL_PAGE_SIZE } from '../domain/referrals';
import { QUOTAS } from '../quotas/limits';
import { freshServer } from '../test-support';
import { FEATURE_REQUEST_SENT, isWebhookUrl, PARTNER_SAVED } from './settings-extra';
import { call, newKey, type Server, userId } from './trade-testing';

// Settings › Referrals, Seller Contacts, Partner Settings, Request a Feature (issue 13, item 3).

type Earning = { currency: string; amount: number };
type History = {
  referral_code: string;
  signup_path: string;
  earned: Earning[];
  referrals: { id: number; name: string; bookings_count: number; earned: Earning[]; earning_until: string }[];
  meta: { current_page: number; last_page: number; total: number };
};
type Bookings = {
  bookings: {
    id: number;
    currency: string;
    service_fee: number;
    earned: number;
    earning: boolean;
    referred_name: string;
  }[];
  meta: { total: number; last_page: number };
};

const history = async (s: Server, token: string, page = 1) => {
  const answer = await call(s, 'GET', `/settings/referral-history?page=${page}`, token);
  expect(answer.status).toBe(200);
  return answer.body.data as unknown as History;
};
const bookings = async (s: Server, token: string, page = 1) => {
  const answer = await call(s, 'GET', `/settings/referral-bookings?page=${page}`, token);
  expect(answer.status).toBe(200);
  return answer.body.data as unknown as Bookings;
};
const feature = {
  title: 'Bulk price change',
  description: 'Change the price of many listings at once.',
  category: 'listings',
};

describe('settings: referrals, contacts, partner settings, feature requests', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;

  beforeAll(async () => {
    s = await freshServer();
    [seller, rival, member] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  describe('referrals', () => {
    it("the demo seller sees its code, the three people it referred and what the rival's bookings earned", async () => {
      const data = await history(s, seller);
      expect(data.referral_code).toBe(DEMO_REFERRAL_CODE);
      expect(data.signup_path).toBe(`/signup?ref=${DEMO_REFERRAL_CODE}`);
      expect(data.referrals.map((r) => r.name)).toEqual(['Tia T.', 'Rory R.', 'Finn F.']);
      expect(data.meta.total).toBe(3);
      const rivalRow = data.referrals.find((r) => r.name.startsWith('Rory')) as History['referrals'][number];
      expect(rivalRow.bookings_count).toBe(8);

      // the totals are the rule applied to the rival's confirmed bookings as they are in the database
      const rivalId = await userId(s, 'rival@demo.test');
      const referral = await s.db
        .selectFrom('referrals')
        .select('created_at')
        .where('referred_id', '=', rivalId)
        .executeTakeFirstOrThrow();
      const rows = await s.db
        .selectFrom('bookings')
        .leftJoin('orders', 'orders.id', 'bookings.order_id')
        .select([
          'bookings.currency',
          'bookings.unit_price',
          'bookings.quantity',
          'bookings.confirmed_at',
          'orders.status',
        ])
        .where('bookings.buyer_id', '=', rivalId)
        .where('bookings.status', '=', 'confirmed')
        .execute();
      expect(rows).toHaveLength(8);
      const expected = rows.reduce(
        (sum, r) =>
          sum +
          Math.round((Math.round((r.unit_price * r.quantity) / 10) * 2000) / 10_000) *
            (r.status === 'cancelled' ? 0 : 1),
        0,
      );
      expect(expected).toBeGreaterThan(0);
      expect(data.earned).toEqual([{ currency: 'GBP', amount: expected }]);
      expect(rivalRow.earned).toEqual([{ currency: 'GBP', amount: expected }]);
      expect(rivalRow.earning_until).toBe(earningUntil(referral.created_at));

      const list = await bookings(s, seller);
      expect(list.meta.total).toBe(8);
      expect(list.bookings.every((b) => b.referred_name === 'Rory R.')).toBe(true);
      expect(list.bookings.reduce((sum, b) => sum + b.earned, 0)).toBe(expected);
      expect(list.bookings.every((b) => b.earned === Math.round((b.service_fee * 2000) / 10_000))).toBe(true);
    });

    it('a cancelled sale and a booking after the 12 months earn nothing; a booking before the referral is not listed', () => {
      const base = {
        unit_price: 10_000,
        quantity: 2,
        order_status: 'confirmed',
        referred_at: '2025-01-15T00:00:00.000Z',
      };
      expect(bookingEarning({ ...base, confirmed_at: '2025-06-01T00:00:00.000Z' })).toEqual({
        subTotal: 20_000,
        serviceFee: 2_000,
        earned: 400,
        earning: true,
      });
      expect(
        bookingEarning({ ...base, confirmed_at: '2025-06-01T00:00:00.000Z', order_status: 'cancelled' }),
      ).toMatchObject({ earned: 0, earning: false });
      expect(bookingEarning({ ...base, confirmed_at: '2026-01-15T00:00:00.000Z' })).toMatchObject({ earned: 0 });
      expect(bookingEarning({ ...base, confirmed_at: '2026-01-14T23:59:59.999Z' })).toMatchObject({ earned: 400 });
      expect(bookingEarning({ ...base, confirmed_at: '2025-01-14T00:00:00.000Z' })).toMatchObject({ earned: 0 });
    });

    it("another seller never sees the seller's referrals; a team member sees its seller's", async () => {
      const theirs = await history(s, rival);
      expect(theirs.referral_code).not.toBe(DEMO_REFERRAL_CODE);
      expect(theirs.referral_code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
      expect(theirs.referrals).toEqual([]);
      expect(theirs.earned).toEqual([]);
      expect(theirs.meta).toMatchObject({ total: 0, last_page: 1 });
      expect((await bookings(s, rival)).bookings).toEqual([]);
      // asked twice, the code stays
      expect((await history(s, rival)).referral_code).toBe(theirs.referral_code);
      // the member has no settings permission: 403
      expect((await call(s, 'GET', '/settings/referral-history', member)).status).toBe(403);
      expect((await call(s, 'GET', '/settings/referral-bookings', member)).status).toBe(403);
    });

    it('a sign-up with the code makes a referral; an unknown code signs up all the same and records nothing', async () => {
      const before = (await history(s, rival)).meta.total;
      const code = (await history(s, rival)).referral_code;
      const signUp = (email: string, referral_code: string) =>
        call(s, 'POST', '/auth/register', '', {
          first_name: 'Newt',
          last_name: 'Scamander',
          email,
          password: 'Correct-horse-9',
          password_confirmation: 'Correct-horse-9',
          referral_code,
        });
      const known = await signUp('newt.referred@example.com', code);
      const unknown = await signUp('newt.unknown@example.com', 'ZZZZZZZZ');
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(unknown.body.message).toBe(known.body.message?.replace('newt.referred', 'newt.unknown'));
      const after = await history(s, rival);
      expect(after.meta.total).toBe(before + 1);
      expect(after.referrals[0]).toMatchObject({ name: 'Newt S.', bookings_count: 0, earned: [] });
      const unknownId = await userId(s, 'newt.unknown@example.com');
      expect(await s.db.selectFrom('referrals').where('referred_id', '=', unknownId).selectAll().execute()).toEqual([]);
      // a malformed code is refused by the contract
      expect((await signUp('newt.bad@example.com', 'abc')).status).toBe(422);
    });

    it('pages 10 a page; a bad page is 422', async () => {
      const sellerId = await userId(s, 'seller@demo.test');
      const extra = REFERRAL_PAGE_SIZE + 2 - 3;
      // make the seller's referrals span two pages with made-up sign-ups
      for (let i = 0; i < extra; i++) {
        const { id } = await s.db
          .insertInto('users')
          .values({
            email: `paged-${i}@example.com`,
            password_hash: 'x',
            first_name: `Paged${i}`,
            last_name: 'Person',
            user_type: 'sellers',
            kyc_status: 0,
            kyc_rejection_reason: null,
            team_owner_id: null,
            currency: 'GBP',
            user_token: `paged-token-${i}`,
            created_at: s.clock.now().toISOString(),
            deleted_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await s.db
          .insertInto('referrals')
          .values({ referrer_id: sellerId, referred_id: id, created_at: s.clock.now().toISOString() })
          .execute();
      }
      const first = await history(s, seller, 1);
      const second = await history(s, seller, 2);
      expect(first.referrals).toHaveLength(REFERRAL_PAGE_SIZE);
      expect(second.referrals).toHaveLength(2);
      expect(first.meta).toMatchObject({ total: REFERRAL_PAGE_SIZE + 2, last_page: 2 });
      expect(new Set([...first.referrals, ...second.referrals].map((r) => r.id)).size).toBe(REFERRAL_PAGE_SIZE + 2);
      for (const page of ['0', '-1', 'x', '100001']) {
        expect((await call(s, 'GET', `/settings/referral-history?page=${page}`, seller)).status, page).toBe(422);
        expect((await call(s, 'GET', `/settings/referral-bookings?page=${page}`, seller)).status, page).toBe(422);
      }
    });
  });

  describe('seller contacts', () => {
    it('the seller sees its account manager first; another seller the defaults, never the seller’s manager', async () => {
      const mine = (await call(s, 'GET', '/settings/seller-contacts', seller)).body.data as unknown as {
        name: string;
        role: string;
      }[];
      expect(mine[0]).toMatchObject({ name: 'Priya Shah', role: 'Account manager' });
      const theirs = (await call(s, 'GET', '/settings/seller-contacts', rival)).body.data as unknown as {
        name: string;
      }[];
      expect(theirs.length).toBeGreaterThan(0);
      expect(theirs.map((c) => c.name)).not.toContain('Priya Shah');
      expect(theirs[0]).toMatchObject({ name: 'Seller Support' });
      expect((await call(s, 'GET', '/settings/seller-contacts', member)).status).toBe(403);
    });
  });

  describe('partner settings', () => {
    const update = (token: string, body: unknown, key = newKey()) =>
      call(s, 'POST', '/settings/partner-setting/update', token, body, key);

    it('reads the defaults, saves, and reads back what was saved; the rival’s stay its own', async () => {
      const defaults = await call(s, 'GET', '/settings/partner-setting', seller);
      expect(defaults.body.data).toEqual({
        api_access: false,
        webhook_url: null,
        notification_email: null,
        updated_at: null,
      });
      const saved = await update(seller, {
        api_access: true,
        webhook_url: 'https://hooks.example.com/sb',
        notification_email: 'Partners@Example.com',
      });
      expect(saved.status).toBe(200);
      expect(saved.body.message).toBe(PARTNER_SAVED);
      expect(saved.body.data).toMatchObject({
        api_access: true,
        webhook_url: 'https://hooks.example.com/sb',
        notification_email: 'partners@example.com',
      });
      expect((await call(s, 'GET', '/settings/partner-setting', seller)).body.data).toEqual(saved.body.data);
      expect((await call(s, 'GET', '/settings/partner-setting', rival)).body.data).toMatchObject({
        api_access: false,
        webhook_url: null,
      });
      const cleared = await update(seller, { api_access: false, webhook_url: null, notification_email: null });
      expect(cleared.body.data).toMatchObject({ api_access: false, webhook_url: null, notification_email: null });
    });

    it('refuses a webhook that is not https, has credentials or no host, and other bad input (422)', async () => {
      for (const webhook_url of [
        'http://hooks.example.com/sb',
        'https://user:pw@hooks.example.com/sb',
        'https://exa mple.com/x',
        'https://[::1/x',
        'ftp://example.com/x',
        'javascript:alert(1)',
        `https://example.com/${'a'.repeat(500)}`,
      ]) {
        const answer = await update(seller, { api_access: true, webhook_url, notification_email: null });
        expect(answer.status, webhook_url).toBe(422);
        expect(answer.body.errors?.[0]?.path, webhook_url).toBe('/body/webhook_url');
      }
      for (const body of [
        { api_access: 'yes', webhook_url: null, notification_email: null },
        { api_access: true, webhook_url: null, notification_email: 'not an email' },
        { api_access: true, webhook_url: null },
        { api_access: true, webhook_url: null, notification_email: null, extra: 1 },
      ]) {
        expect((await update(seller, body)).status, JSON.stringify(body)).toBe(422);
      }
      expect(isWebhookUrl('https://hooks.example.com:8443/a?b=c')).toBe(true);
      expect((await update(member, { api_access: true, webhook_url: null, notification_email: null })).status).toBe(
        403,
      );
    });
  });

  describe('request a feature', () => {
    const send = (token: string, body: unknown, key = newKey()) =>
      call(s, 'POST', '/settings/request-feature', token, body, key);

    it('stores the request with who asked and answers the confirmation', async () => {
      const answer = await send(seller, { ...feature, title: '  Bulk price change  ' });
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe(FEATURE_REQUEST_SENT);
      const id = (answer.body.data as { id: number }).id;
      const row = await s.db.selectFrom('feature_requests').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        title: 'Bulk price change',
        category: 'listings',
        seller_id: await userId(s, 'seller@demo.test'),
        user_id: await userId(s, 'seller@demo.test'),
      });
    });

    it('refuses bad input with the field (422), and nothing is stored', async () => {
      const before = (await s.db.selectFrom('feature_requests').select('id').execute()).length;
      const cases: Array<[unknown, string]> = [
        [{ ...feature, title: '   ' }, '/body/title'],
        [{ ...feature, title: 'ab' }, '/body/title'],
        [{ ...feature, title: 'x'.repeat(121) }, '/body/title'],
        [{ ...feature, description: '   short   ' }, '/body/description'],
        [{ ...feature, description: 'x'.repeat(2001) }, '/body/description'],
        [{ ...feature, category: 'weather' }, '/body/category'],
      ];
      for (const [body, path] of cases) {
        const answer = await send(rival, body);
        expect(answer.status, path).toBe(422);
        expect(
          answer.body.errors?.map((e) => e.path),
          path,
        ).toContain(path);
      }
      expect((await send(rival, { title: 'Only a title' })).status).toBe(422);
      expect((await s.db.selectFrom('feature_requests').select('id').execute()).length).toBe(before);
      expect((await send(member, feature)).status).toBe(403);
    });

    it('allows 5 a day per seller: the 6th is 429 with Retry-After; a replay is not counted; the next day works', async () => {
      const key = newKey();
      const first = await send(rival, feature, key);
      expect(first.status).toBe(200);
      // the same key again answers the first reply and neither stores nor counts
      const replay = await send(rival, feature, key);
      expect(replay.body.data).toEqual(first.body.data);
      for (let i = 0; i < 4; i++) expect((await send(rival, feature)).status).toBe(200);
      const refused = await send(rival, feature);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body.message).toMatch(
        /^You have sent 5 feature requests today, the most a day\. You can send another in \d+ hours\.$/,
      );
      const rivalId = await userId(s, 'rival@demo.test');
      const stored = await s.db.selectFrom('feature_requests').select('id').where('user_id', '=', rivalId).execute();
      expect(stored).toHaveLength(5);
      // another seller is not limited by the rival's count
      expect((await send(seller, feature)).status).toBe(200);
      s.clock.advance(QUOTAS['feature-requests-daily'].windowMs + 1000);
      // a day later (the session too has ended: log in again)
      expect((await send(await s.loginAs('rival@demo.test'), feature)).status).toBe(200);
      // the counter is the shared request_limits one, per seller, and a refused call counted nothing
      expect(await peekWithin(s.db, QUOTAS['feature-requests-daily'], String(rivalId), s.clock.now())).toMatchObject({
        used: 1,
      });
    });
  });
});
