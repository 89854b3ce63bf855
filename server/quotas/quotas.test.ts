import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { peekWithin, spendWithin } from '../auth/request-limit';
import { PAYOUT_MINIMUM } from '../domain/payouts';
import { call, type Server, userId } from '../routes/trade-testing';
import { freshServer } from '../test-support';
import { QUOTAS } from './limits';

// The caps of server/quotas/limits.ts, each at its real number, through the HTTP calls that spend them: the answer
// beyond the cap (409 or 429 with Retry-After, a message that says the limit), nothing kept of a refused call, and
// calls at once taking no more than the cap (the count and the insert are one decision).

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const MB = 1024 * 1024;

describe('quotas', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let sellerId: number;
  let rivalId: number;
  let keys = 0;

  beforeAll(async () => {
    s = await freshServer();
    [seller, rival] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
    sellerId = await userId(s, 'seller@demo.test');
    rivalId = await userId(s, 'rival@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  /** A deposit request, with a proof of `bytes` bytes (a PDF padded) when given. */
  const deposit = async (token: string, bytes?: number) => {
    const form = new FormData();
    form.set('deposit_amount', '2500');
    form.set('currency', 'GBP');
    form.set('payment_transfer_by', 'ONLINE');
    if (bytes !== undefined) {
      const file = Buffer.concat([PDF, Buffer.alloc(Math.max(0, bytes - PDF.length), 0x20)]);
      form.set('proof', new Blob([file], { type: 'application/pdf' }), 'proof.pdf');
    }
    const res = await s.app.request('/api/api/send-deposit-request', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': `quota-${++keys}-${Date.now()}` },
      body: form,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as { message: string } };
  };
  const count = async (table: 'deposits' | 'files' | 'event_requests' | 'payouts' | 'addresses') =>
    Number(
      (
        await s.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const pendingOf = async (id: number) =>
    Number(
      (
        await s.db
          .selectFrom('deposits')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', id)
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow()
      ).n,
    );
  const uploads = () => {
    const dir = join(s.dataDir, 'uploads');
    return existsSync(dir) ? readdirSync(dir).length : 0;
  };

  it('keeps at most 5 deposit requests pending per seller: the next is 409 and stores neither row nor file', async () => {
    const cap = QUOTAS['pending-deposits'].max;
    expect(cap).toBe(5);
    // the demo seller has one pending already; twenty in a row with 1 MB proofs (the report sent 10 MB each)
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await deposit(seller, MB));
    const free = cap - 1;
    expect(answers.slice(0, free).map((a) => a.status)).toEqual(Array(free).fill(200));
    const refused = answers.slice(free);
    expect(new Set(refused.map((a) => a.status))).toEqual(new Set([409]));
    expect(refused[0]?.body.message).toBe(
      'You have 5 deposit requests waiting for review, the most at one time. You can send another once one is decided.',
    );
    expect(await pendingOf(sellerId)).toBe(cap);
    // nothing of a refused one was kept: files and uploads are those of the accepted four
    const [files, kept] = [await count('files'), uploads()];
    expect((await deposit(seller, MB)).status).toBe(409);
    expect([await count('files'), uploads()]).toEqual([files, kept]);
    // once one is decided, another may be sent
    await s.db
      .updateTable('deposits')
      .set({ status: 'rejected', rejection_reason: 'test' })
      .where('user_id', '=', sellerId)
      .where('status', '=', 'pending')
      .where('id', '=', (eb) =>
        eb
          .selectFrom('deposits')
          .select((e) => e.fn.max('id').as('m'))
          .where('user_id', '=', sellerId),
      )
      .execute();
    expect((await deposit(seller)).status).toBe(200);
  });

  it('ten deposit requests at once take only the free places', async () => {
    const free = QUOTAS['pending-deposits'].max - (await pendingOf(rivalId));
    expect(free).toBeGreaterThan(1);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deposit(rival)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(free);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(10 - free);
    expect(await pendingOf(rivalId)).toBe(QUOTAS['pending-deposits'].max);
  });

  it('counts every byte a seller uploads in a day: past 200 MB the upload is 429 and its file is not kept', async () => {
    const cap = QUOTAS['upload-bytes'];
    expect(cap.max).toBe(200 * MB);
    const tickets4u = await s.loginAs('tickets4u@demo.test');
    const id = await userId(s, 'tickets4u@demo.test');
    // the day so far: all but 1 MB spent (as if 199 MB of proofs, tickets and documents had been uploaded)
    expect((await spendWithin(s.db, cap, String(id), cap.max - MB, s.clock.now())).allowed).toBe(true);
    const [files, kept] = [await count('files'), uploads()];
    const over = await deposit(tickets4u, MB + 1);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(over.body.message).toBe(
      'Your account may upload 200 MB of files a day, and this upload would go past it. You can upload more in 24 hours.',
    );
    expect([await count('files'), uploads()]).toEqual([files, kept]);
    // a file that fits is kept, and counted to the byte
    const fits = await deposit(tickets4u, 1000);
    expect(fits.status).toBe(200);
    expect((await peekWithin(s.db, cap, String(id), s.clock.now())).used).toBe(cap.max - MB + 1000);
    // a request without a file costs nothing of it
    expect((await deposit(tickets4u)).status).toBe(200);
    expect((await peekWithin(s.db, cap, String(id), s.clock.now())).used).toBe(cap.max - MB + 1000);
    // the day spent: refused before the body is read; a day later the seller may upload again
    await spendWithin(s.db, cap, String(id), MB - 1000, s.clock.now());
    expect((await deposit(tickets4u, 10)).status).toBe(429);
    s.clock.advance(cap.windowMs + 1000);
    await s.db
      .updateTable('deposits')
      .set({ status: 'rejected', rejection_reason: 'test' })
      .where('user_id', '=', id)
      .execute();
    expect((await deposit(await s.loginAs('tickets4u@demo.test'), MB)).status).toBe(200);
    // the day that passed ended the other sessions too
    [seller, rival] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('rival@demo.test')]);
  });

  const eventRequest = (token: string, i: number) =>
    call(s, 'POST', '/match/request-event', token, {
      match_name: `Requested match ${i}`,
      stadium_name: 'Somewhere Park',
      match_date: new Date(s.clock.now().getTime() + 30 * 86_400_000).toISOString().slice(0, 10),
    });

  it('keeps at most 10 event requests pending (409) and 20 a day (429) per seller', async () => {
    const fanzone = await s.loginAs('fanzone@demo.test');
    const id = await userId(s, 'fanzone@demo.test');
    const before = await count('event_requests');
    for (let i = 0; i < 10; i++) expect((await eventRequest(fanzone, i)).status).toBe(200);
    const pending = await eventRequest(fanzone, 10);
    expect(pending.status).toBe(409);
    expect(pending.body.message).toBe(
      'You have 10 event requests waiting for review, the most at one time. You can send another once one is decided.',
    );
    // the back office decides them; ten more may wait, but the day's twentieth is the last
    const decide = () =>
      s.db.updateTable('event_requests').set({ status: 'rejected' }).where('seller_id', '=', id).execute();
    await decide();
    for (let i = 10; i < 20; i++) expect((await eventRequest(fanzone, i)).status).toBe(200);
    await decide();
    const daily = await eventRequest(fanzone, 20);
    expect(daily.status).toBe(429);
    expect(Number(daily.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(daily.body.message).toMatch(
      /^You have sent 20 event requests today, the most a day\. You can send another in \d+ (hours|minutes)\.$/,
    );
    expect(await count('event_requests')).toBe(before + 20);
  });

  it('keeps at most 3 payout requests in progress per seller (409); a sent one frees a place', async () => {
    await s.db
      .insertInto('bank_accounts')
      .values({
        seller_id: sellerId,
        holder_name: 'Sam Seller',
        iban: 'GB82WEST12345698765432',
        bic: 'NWBKGB2L',
        is_default: 1,
        created_by: sellerId,
        created_at: s.clock.now().toISOString(),
        deleted_at: null,
      })
      .execute();
    const summary = await call(s, 'GET', '/payouts/summary', seller);
    const balances = (summary.body.data as unknown as { balances: { currency: string; available: number }[] }).balances;
    const best = [...balances].sort((a, b) => b.available - a.available)[0];
    expect(best?.available).toBeGreaterThan(PAYOUT_MINIMUM * 4);
    const ask = () => call(s, 'POST', '/payouts/request', seller, { currency: best?.currency, amount: PAYOUT_MINIMUM });
    for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(200);
    const before = await count('payouts');
    const refused = await ask();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'You have 3 payout requests in progress, the most at one time. You can request another once one is sent.',
    );
    expect(await count('payouts')).toBe(before);
    await s.db
      .updateTable('payouts')
      .set({ status: 'sent' })
      .where('seller_id', '=', sellerId)
      .where('status', '=', 'requested')
      .where('id', '=', (eb) =>
        eb
          .selectFrom('payouts')
          .select((e) => e.fn.max('id').as('m'))
          .where('seller_id', '=', sellerId),
      )
      .execute();
    expect((await ask()).status).toBe(200);
  });

  it('keeps at most 50 addresses in an address book (409)', async () => {
    const city = await s.db.selectFrom('cities').select(['id', 'country_id']).orderBy('id').executeTakeFirstOrThrow();
    const add = () =>
      call(s, 'POST', '/settings/address-book/add', rival, {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        country_id: city.country_id,
        address: '12 Analytical Row',
        zip_code: 'AE1 1AA',
      });
    const have = Number(
      (
        await s.db
          .selectFrom('addresses')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('owner_id', '=', rivalId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    for (let i = have; i < 50; i++) expect((await add()).status).toBe(200);
    const refused = await add();
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Your address book holds 50 addresses, the most it keeps. Delete one to add another.',
    );
    expect(await count('addresses')).toBeGreaterThanOrEqual(50);
  });

  it('records at most 1,000 purchase steps a day per buyer (429 with Retry-After), and keeps no row beyond', async () => {
    const cap = QUOTAS['tracking-steps-daily'];
    expect(cap.max).toBe(1000);
    const track = (token: string) =>
      call(s, 'POST', '/purchase/lmt-trade/add-tracking', token, { step: 'search', detail: 'x'.repeat(200) });
    const rows = async () =>
      Number(
        (
          await s.db
            .selectFrom('trade_tracking')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', sellerId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // the day's first 999 steps, spent as the calls would
    await spendWithin(s.db, cap, String(sellerId), cap.max - 1, s.clock.now());
    expect((await track(seller)).status).toBe(200);
    const before = await rows();
    const refused = await track(seller);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(
      /^Your account has recorded 1000 purchase steps today, the most a day\. You can record more in \d+ hours\.$/,
    );
    expect(await rows()).toBe(before);
    // another buyer is not held by it; the next day this one records again
    expect((await track(rival)).status).toBe(200);
    s.clock.advance(cap.windowMs);
    expect((await track(await s.loginAs('seller@demo.test'))).status).toBe(200);
  });
});
