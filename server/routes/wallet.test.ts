import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../db/transaction';
import { InsufficientFunds, payFromWallet } from '../domain/ledger';
import { topUpReference } from '../domain/wallet';
import { decidePending } from '../quotas/testing';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

interface FilePart {
  /** put in `filename="..."`, or as it stands when it starts with `filename*=` (RFC 5987, percent-encoded) */
  name: string;
  type: string;
  bytes: Buffer;
}

/** A multipart body built byte by byte, so that a file name can carry what a browser would never send. */
function multipart(fields: Record<string, string>, proof?: FilePart) {
  const boundary = `----sbtest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (proof) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="proof"; ${proof.name.startsWith('filename*=') ? proof.name : `filename="${proof.name}"`}\r\ncontent-type: ${proof.type}\r\n\r\n`,
        'latin1',
      ),
      proof.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

const VALID = { deposit_amount: '25000', currency: 'GBP', payment_transfer_by: 'ONLINE', notes: 'Sent today' };

describe('the SB Pay wallet', () => {
  let s: Server;
  let seller: string;
  let rival: string;
  let member: string;
  let admin: string;
  let admin2: string;
  const ids: Record<string, number> = {};
  let keySeq = 0;

  beforeAll(async () => {
    s = await freshServer();
    // a second back-office account (the demo has one), with the first's password hash
    const first = await s.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', 'admin@demo.test')
      .executeTakeFirstOrThrow();
    const { id: _id, ...rest } = first;
    const second = await s.db
      .insertInto('users')
      .values({ ...rest, email: 'admin2@demo.test', first_name: 'Otto', user_token: `${first.user_token}-2` })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.db
      .insertInto('user_permissions')
      .values(
        (await s.db.selectFrom('user_permissions').selectAll().where('user_id', '=', first.id).execute()).map((p) => ({
          ...p,
          user_id: second.id,
        })),
      )
      .execute();
    [seller, rival, member, admin, admin2] = await Promise.all([
      s.loginAs('seller@demo.test'),
      s.loginAs('rival@demo.test'),
      s.loginAs('member@demo.test'),
      s.loginAs('admin@demo.test'),
      s.loginAs('admin2@demo.test'),
    ]);
    for (const u of await s.db.selectFrom('users').select(['id', 'email']).execute()) {
      ids[u.email.split('@')[0] as string] = u.id;
    }
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const get = async <T = Record<string, unknown>>(path: string, token: string) => {
    const res = await s.json('GET', path, undefined, token);
    return { status: res.status, body: (await res.json()) as { success: boolean; message?: string; data: T } };
  };
  const post = async <T = Record<string, unknown>>(path: string, token: string, body?: unknown) => {
    const res = await s.json('POST', path, body, token);
    return { status: res.status, body: (await res.json()) as { success: boolean; message?: string; data: T } };
  };
  const deposit = async (
    token: string,
    fields: Record<string, string> = VALID,
    proof?: FilePart,
    key = `test-key-${++keySeq}-${Date.now()}`,
  ) => {
    const { body, type } = multipart(fields, proof);
    const res = await s.app.request('/api/api/send-deposit-request', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': key },
      body,
    });
    return {
      status: res.status,
      replayed: res.headers.get('idempotent-replayed'),
      body: (await res.json()) as {
        success: boolean;
        message?: string;
        data: { deposit_id: number; status: string; amount: number; proof: unknown };
        errors?: { path: string; message: string }[];
      },
    };
  };
  const uploads = () => {
    const dir = join(s.dataDir, 'uploads');
    return existsSync(dir) ? readdirSync(dir).sort() : [];
  };
  const counts = async () => ({
    deposits: Number(
      (
        await s.db
          .selectFrom('deposits')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    files: Number(
      (
        await s.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    uploads: uploads().length,
  });
  const balanceOf = async (token: string, currency: string) => {
    const { body } = await get<{ balances: { currency: string; balance: number; pending: number }[] }>(
      '/lmt-pay/details',
      token,
    );
    return body.data.balances.find((b) => b.currency === currency) ?? { balance: 0, pending: 0 };
  };

  it('lists the currencies with their decimals', async () => {
    const { status, body } = await get<{ code: string; minor_unit: number }[]>('/currencies', member);
    expect(status).toBe(200);
    expect(body.data.map((c) => c.code)).toEqual(['AED', 'EUR', 'GBP', 'USD']);
    expect(body.data.every((c) => c.minor_unit === 2)).toBe(true);
  });

  it('answers the seeded wallet: a balance per currency (approved deposits only), what is pending, the reference', async () => {
    const { status, body } = await get<{
      reference: string;
      balances: { currency: string; balance: number; pending: number }[];
    }>('/lmt-pay/details', seller);
    expect(status).toBe(200);
    expect(body.data.reference).toBe(topUpReference(ids.seller as number));
    // the wallet seed's deposits, plus the trade seed's float in four currencies less its eight purchases
    expect(body.data.balances).toEqual([
      { currency: 'AED', balance: 1_000_000, pending: 0 },
      { currency: 'EUR', balance: 325_000, pending: 0 },
      { currency: 'GBP', balance: 186_526, pending: 10_000 },
      { currency: 'USD', balance: 300_000, pending: 0 },
    ]);
  });

  it('gives the bank details of a top-up with a reference unique to the seller, swift null where there is none', async () => {
    const gbp = await get<{ bank_account_details: Record<string, unknown> }>('/lmt-pay/bank-account-details', seller);
    expect(gbp.status).toBe(200);
    expect(gbp.body.data.bank_account_details).toMatchObject({
      account_name: 'SB Portal Ltd',
      swiftcode: 'BUKBGB22',
      currency: 'GBP',
      reference: topUpReference(ids.seller as number),
    });
    const aed = await get<{ bank_account_details: Record<string, unknown> }>(
      '/lmt-pay/bank-account-details?currency=AED',
      seller,
    );
    expect(aed.body.data.bank_account_details.swiftcode).toBeNull();
    const theirs = await get<{ bank_account_details: { reference: string } }>('/lmt-pay/bank-account-details', rival);
    expect(theirs.body.data.bank_account_details.reference).not.toBe(gbp.body.data.bank_account_details.reference);
    expect(topUpReference(12)).toMatch(/^SBP000012-\d{2}$/);
  });

  it('stores a deposit request with its proof (type from its first bytes), pending admin approval', async () => {
    const before = await counts();
    const res = await deposit(seller, VALID, { name: 'receipt.png', type: 'image/png', bytes: PNG });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      amount: 25_000,
      status: 'pending',
      status_label: 'pending admin approval',
      proof: { name: 'receipt.png', kind: 'png', size: PNG.length },
    });
    expect(await counts()).toEqual({
      deposits: before.deposits + 1,
      files: before.files + 1,
      uploads: before.uploads + 1,
    });
    // the owner reads the proof back, byte for byte; the balance is untouched until an admin approves
    const proof = await get<{ content_base64: string; kind: string }>(
      `/lmt-pay/deposits/${res.body.data.deposit_id}/proof`,
      seller,
    );
    expect(proof.status).toBe(200);
    expect(Buffer.from(proof.body.data.content_base64, 'base64').equals(PNG)).toBe(true);
    expect((await balanceOf(seller, 'GBP')).pending).toBe(10_000 + 25_000);
  });

  it.each([
    [
      '10 MB and one byte',
      {
        name: 'big.pdf',
        type: 'application/pdf',
        bytes: Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024 + 1 - PDF.length)]),
      },
      413,
      'File size exceeds 10MB limit',
    ],
    [
      'a .png that is really HTML',
      {
        name: 'proof.png',
        type: 'image/png',
        bytes: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
      },
      415,
      'Invalid file type. Allowed types: pdf, jpg, jpeg, png',
    ],
    ['an empty file', { name: 'empty.pdf', type: 'application/pdf', bytes: Buffer.alloc(0) }, 422, null],
    ["a name with '../'", { name: '../../etc/receipt.png', type: 'image/png', bytes: PNG }, 422, null],
    ['a name with a NUL', { name: 'receipt\u0000.png', type: 'image/png', bytes: PNG }, 400, null],
    [
      'a name with an encoded NUL',
      { name: "filename*=UTF-8''receipt%00.png", type: 'image/png', bytes: PNG },
      422,
      null,
    ],
    [
      'a name with an encoded path',
      { name: "filename*=UTF-8''..%2F..%2Freceipt.png", type: 'image/png', bytes: PNG },
      422,
      null,
    ],
  ] as const)('refuses %s and stores nothing (no row, no file)', async (_label, file, status, message) => {
    const before = await counts();
    const res = await deposit(seller, VALID, { ...file, bytes: Buffer.from(file.bytes) });
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    if (message) expect(res.body.message).toBe(message);
    else if (status === 422) expect(res.body.errors?.[0]?.path).toBe('/body/proof');
    // a raw NUL in a part's header is not multipart busboy reads: the body is malformed
    else expect(res.body.message).toMatch(/^The multipart body is malformed/);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['zero', '0', 'must be >= 1'],
    ['negative', '-500', 'must be >= 1'],
    ['absurdly large', '100000001', 'must be <= 100000000'],
    ['huge', '1e300', 'must be <= 100000000'],
    ['not a number', 'ten pounds', 'must be integer'],
    ['fractional', '12.5', 'must be integer'],
    ['hexadecimal', '0x10', 'must be integer'],
    ['exponent', '1e3', 'must be integer'],
    ['padded', ' 12 ', 'must be integer'],
    ['empty', '', 'must be integer'],
  ])('refuses a %s amount with a 422 naming the field', async (_label, amount, message) => {
    const before = await counts();
    const res = await deposit(seller, { ...VALID, deposit_amount: amount });
    expect(res.status).toBe(422);
    expect(res.body.errors).toContainEqual({ path: '/body/deposit_amount', message });
    expect(await counts()).toEqual(before);
  });

  it('requires amount, currency and method; the proof and notes are optional', async () => {
    const missing = await deposit(seller, { notes: 'x' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.map((e) => e.path).sort()).toEqual([
      '/body/currency',
      '/body/deposit_amount',
      '/body/payment_transfer_by',
    ]);
    const bare = await deposit(seller, { deposit_amount: '100', currency: 'USD', payment_transfer_by: 'CHEQUE' });
    expect(bare.status).toBe(200);
    expect(bare.body.data.proof).toBeNull();
  });

  it('keeps one deposit for one Idempotency-Key: a retry answers the same request again', async () => {
    const before = await counts();
    const key = `retry-${Date.now()}`;
    const first = await deposit(seller, VALID, { name: 'r.pdf', type: 'application/pdf', bytes: PDF }, key);
    const again = await deposit(seller, VALID, { name: 'r.pdf', type: 'application/pdf', bytes: PDF }, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.replayed).toBe('true');
    expect(again.body.data.deposit_id).toBe(first.body.data.deposit_id);
    expect(await counts()).toEqual({
      deposits: before.deposits + 1,
      files: before.files + 1,
      uploads: before.uploads + 1,
    });
  });

  it('credits the wallet once when the approval is replayed 10 times, and tells the seller once', async () => {
    const made = await deposit(seller, { ...VALID, deposit_amount: '1234' });
    const id = made.body.data.deposit_id;
    const before = (await balanceOf(seller, 'GBP')).balance;
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await post(`/admin/deposits/${id}/approve`, i % 2 ? admin : admin2));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers[0]?.body.message).toBe('Deposit approved.');
    expect(answers.slice(1).every((a) => a.body.message === 'Deposit already approved.')).toBe(true);
    expect((await balanceOf(seller, 'GBP')).balance).toBe(before + 1234);
    const lines = await s.db
      .selectFrom('ledger_entries')
      .where('kind', '=', 'deposit')
      .where('reference', '=', String(id))
      .select('id')
      .execute();
    expect(lines).toHaveLength(1);
    const told = await s.db
      .selectFrom('notifications')
      .where('user_id', '=', ids.seller as number)
      .where('name', '=', 'deposit_approved')
      .where('created_at', '=', s.clock.now().toISOString())
      .select('description')
      .execute();
    expect(told).toEqual([{ description: 'Deposit approved' }]);
  });

  it('credits once when two admins approve at the same moment', async () => {
    const made = await deposit(seller, { ...VALID, deposit_amount: '777', currency: 'EUR' });
    const id = made.body.data.deposit_id;
    const before = (await balanceOf(seller, 'EUR')).balance;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(`/admin/deposits/${id}/approve`, i % 2 ? admin : admin2)),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((a) => a.body.message === 'Deposit approved.')).toHaveLength(1);
    expect((await balanceOf(seller, 'EUR')).balance).toBe(before + 777);
    const decided = await s.db
      .selectFrom('deposits')
      .select('decided_by')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect([ids.admin, ids.admin2]).toContain(decided.decided_by);
  });

  it('rejects with a reason the seller reads; a decided request cannot be decided the other way (409)', async () => {
    const made = await deposit(seller, { ...VALID, deposit_amount: '555' });
    const id = made.body.data.deposit_id;
    const before = await balanceOf(seller, 'GBP');
    const blank = await post(`/admin/deposits/${id}/reject`, admin, { reason: '   ' });
    expect(blank.status).toBe(422);
    const rejected = await post<{ status: string; rejection_reason: string }>(`/admin/deposits/${id}/reject`, admin, {
      reason: 'No transfer with this reference arrived.',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({
      status: 'rejected',
      rejection_reason: 'No transfer with this reference arrived.',
    });
    const again = await post(`/admin/deposits/${id}/reject`, admin, { reason: 'Another reason' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ rejection_reason: 'No transfer with this reference arrived.' });
    expect((await post(`/admin/deposits/${id}/approve`, admin)).status).toBe(409);
    const after = await balanceOf(seller, 'GBP');
    expect(after.balance).toBe(before.balance);
    expect(after.pending).toBe(before.pending - 555);
    const told = await s.db
      .selectFrom('notifications')
      .where('user_id', '=', ids.seller as number)
      .where('name', '=', 'deposit_rejected')
      .select('description')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(told.description).toBe('Deposit rejected: No transfer with this reference arrived.');
    const seen = await get<{ status: string; rejection_reason: string }>(`/lmt-pay/deposits/${id}`, seller);
    expect(seen.body.data).toMatchObject({
      status: 'rejected',
      rejection_reason: 'No transfer with this reference arrived.',
    });
    // and an approved one cannot be rejected
    const other = await deposit(seller, { ...VALID, deposit_amount: '556' });
    expect((await post(`/admin/deposits/${other.body.data.deposit_id}/approve`, admin)).status).toBe(200);
    expect((await post(`/admin/deposits/${other.body.data.deposit_id}/reject`, admin, { reason: 'late' })).status).toBe(
      409,
    );
    expect((await post('/admin/deposits/2147483647/approve', admin)).status).toBe(404);
  });

  it("answers 404 to another seller's deposit and proof ids; admins read any proof; sellers cannot reach the back office", async () => {
    await decidePending(s.db);
    const mine = await deposit(seller, VALID, { name: 'mine.pdf', type: 'application/pdf', bytes: PDF });
    const id = mine.body.data.deposit_id;
    expect((await get(`/lmt-pay/deposits/${id}`, rival)).status).toBe(404);
    expect((await get(`/lmt-pay/deposits/${id}/proof`, rival)).status).toBe(404);
    expect((await get(`/lmt-pay/deposits/${id}`, seller)).status).toBe(200);
    // the same id written other than in decimals is not an id (JavaScript would read 0x.. and 1e.. as numbers)
    for (const written of [`0x${id.toString(16)}`, `${id}e0`, `%20${id}`]) {
      const odd = await get(`/lmt-pay/deposits/${written}`, seller);
      expect(odd.status, written).toBe(422);
      const { errors } = odd.body as { errors?: { path: string }[] };
      expect(
        errors?.map((e) => e.path),
        written,
      ).toEqual(['/path/deposit_id']);
    }
    const read = await get<{ content_base64: string; name: string }>(`/admin/deposits/${id}/proof`, admin);
    expect(read.status).toBe(200);
    expect(Buffer.from(read.body.data.content_base64, 'base64').equals(PDF)).toBe(true);
    // a deposit with no proof has none to read
    const bare = await deposit(seller, { deposit_amount: '100', currency: 'GBP', payment_transfer_by: 'CASH' });
    const none = await get(`/lmt-pay/deposits/${bare.body.data.deposit_id}/proof`, seller);
    expect(none).toEqual({
      status: 200,
      body: { success: true, message: 'This deposit request has no proof.', data: null },
    });
    expect((await get(`/lmt-pay/deposits/${bare.body.data.deposit_id}/proof`, rival)).status).toBe(404);
    for (const path of ['/admin/deposits', `/admin/deposits/${id}/proof`]) {
      expect((await get(path, seller)).status).toBe(403);
    }
    expect((await post(`/admin/deposits/${id}/approve`, seller)).status).toBe(403);
    expect((await post(`/admin/deposits/${id}/reject`, rival, { reason: 'x' })).status).toBe(403);
    const queue = await get<{ deposit_list: { id: number; seller_email: string; status: string }[] }>(
      '/admin/deposits?per_page=50',
      admin,
    );
    expect(queue.status).toBe(200);
    expect(queue.body.data.deposit_list.every((d) => d.status === 'pending')).toBe(true);
    expect(queue.body.data.deposit_list.map((d) => d.seller_email)).toContain('rival@demo.test');
    expect(queue.body.data.deposit_list.find((d) => d.id === id)?.seller_email).toBe('seller@demo.test');
  });

  it('lets a team member with lmt-pay use its seller wallet, and refuses one without it', async () => {
    await decidePending(s.db);
    for (const path of ['/lmt-pay/details', '/lmt-pay/deposit-history', '/lmt-pay/transaction-history']) {
      expect((await get(path, member)).status).toBe(403);
    }
    expect((await deposit(member)).status).toBe(403);
    await s.db
      .updateTable('user_permissions')
      .set({ is_can_access: 1 })
      .where('user_id', '=', ids.member as number)
      .where('permission_name', '=', 'lmt-pay')
      .execute();
    try {
      const made = await deposit(member, { ...VALID, deposit_amount: '4321' });
      expect(made.status).toBe(200);
      const row = await s.db
        .selectFrom('deposits')
        .select(['user_id', 'submitted_by'])
        .where('id', '=', made.body.data.deposit_id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ user_id: ids.seller, submitted_by: ids.member });
      expect((await get(`/lmt-pay/deposits/${made.body.data.deposit_id}`, seller)).status).toBe(200);
      expect(await balanceOf(member, 'GBP')).toEqual(await balanceOf(seller, 'GBP'));
    } finally {
      await s.db
        .updateTable('user_permissions')
        .set({ is_can_access: 0 })
        .where('user_id', '=', ids.member as number)
        .where('permission_name', '=', 'lmt-pay')
        .execute();
    }
  });

  describe('history paging and filters', () => {
    type Meta = { current_page: number; last_page: number; total: number; next_cursor: string | null };
    type Row = { deposit_id: number; status: string; currency: string; created_at: string };

    it('pages the deposit history by number and by cursor, newest first, the same rows either way', async () => {
      const all = await get<{ deposit_list: Row[]; meta: Meta }>('/lmt-pay/deposit-history?per_page=50', seller);
      const total = all.body.data.meta.total;
      expect(total).toBeGreaterThan(6);
      const rows = all.body.data.deposit_list;
      const sorted = [...rows].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.deposit_id - a.deposit_id);
      expect(rows).toEqual(sorted);
      const byNumber: Row[] = [];
      const byCursor: Row[] = [];
      let cursor: string | null = null;
      for (let page = 1; page <= Math.ceil(total / 3); page++) {
        const n = await get<{ deposit_list: Row[]; meta: Meta }>(
          `/lmt-pay/deposit-history?per_page=3&page=${page}`,
          seller,
        );
        byNumber.push(...n.body.data.deposit_list);
        const c: { body: { data: { deposit_list: Row[]; meta: Meta } } } = await get<{
          deposit_list: Row[];
          meta: Meta;
        }>(`/lmt-pay/deposit-history?per_page=3${cursor ? `&cursor=${cursor}` : ''}`, seller);
        byCursor.push(...c.body.data.deposit_list);
        cursor = c.body.data.meta.next_cursor;
      }
      expect(cursor).toBeNull();
      expect(byNumber).toEqual(rows);
      expect(byCursor).toEqual(rows);
      // only the seller's own
      const theirs = await get<{ deposit_list: Row[] }>('/lmt-pay/deposit-history?per_page=50', rival);
      const mine = new Set(rows.map((r) => r.deposit_id));
      expect(theirs.body.data.deposit_list.some((r) => mine.has(r.deposit_id))).toBe(false);
    });

    it('filters by status, currency and date range; a reversed range or a foreign cursor is a 422', async () => {
      const rejected = await get<{ deposit_list: Row[] }>(
        '/lmt-pay/deposit-history?status=rejected&per_page=50',
        seller,
      );
      expect(rejected.body.data.deposit_list.length).toBeGreaterThan(0);
      expect(rejected.body.data.deposit_list.every((r) => r.status === 'rejected')).toBe(true);
      const eur = await get<{ deposit_list: Row[] }>('/lmt-pay/deposit-history?currency=EUR&per_page=50', seller);
      expect(eur.body.data.deposit_list.every((r) => r.currency === 'EUR')).toBe(true);
      const today = s.clock.now().toISOString().slice(0, 10);
      const recent = await get<{ deposit_list: Row[]; meta: Meta }>(
        `/lmt-pay/deposit-history?from=${today}&to=${today}&per_page=50`,
        seller,
      );
      expect(recent.body.data.deposit_list.every((r) => r.created_at.startsWith(today))).toBe(true);
      const old = await get<{ deposit_list: Row[] }>('/lmt-pay/deposit-history?to=2000-01-01', seller);
      expect(old.body.data.deposit_list).toEqual([]);
      expect((await get('/lmt-pay/deposit-history?from=2026-02-01&to=2026-01-01', seller)).status).toBe(422);
      expect((await get('/lmt-pay/deposit-history?cursor=bm9wZQ', seller)).status).toBe(422);
      expect((await get('/lmt-pay/deposit-history?from=yesterday', seller)).status).toBe(422);
    });

    it('lists the ledger lines of the wallet with the balance each left, filtered by type and currency', async () => {
      type Line = { amount: number; balance_after: number; currency: string; type: string; deposit_id: number | null };
      const all = await get<{ transaction_list: Line[]; meta: Meta }>(
        '/lmt-pay/transaction-history?per_page=50&currency=GBP',
        seller,
      );
      expect(all.status).toBe(200);
      const lines = all.body.data.transaction_list;
      expect(lines.length).toBeGreaterThan(2);
      expect(lines[0]?.balance_after).toBe((await balanceOf(seller, 'GBP')).balance);
      // newest first: each line's balance is the one before it plus its amount
      for (let i = 0; i < lines.length - 1; i++) {
        expect((lines[i + 1] as Line).balance_after + (lines[i] as Line).amount).toBe((lines[i] as Line).balance_after);
      }
      expect(lines.every((l) => l.currency === 'GBP')).toBe(true);
      const deposits = await get<{ transaction_list: Line[] }>('/lmt-pay/transaction-history?type=deposit', seller);
      expect(deposits.body.data.transaction_list.length).toBeGreaterThan(0);
      expect(deposits.body.data.transaction_list.every((l) => l.type === 'deposit' && l.deposit_id !== null)).toBe(
        true,
      );
      const purchases = await get<{ transaction_list: Line[] }>('/lmt-pay/transaction-history?type=purchase', seller);
      expect(purchases.body.data.transaction_list.every((l) => l.type === 'purchase' && l.amount < 0)).toBe(true);
      const paged = await get<{ transaction_list: Line[]; meta: Meta }>(
        '/lmt-pay/transaction-history?per_page=1',
        seller,
      );
      expect(paged.body.data.meta.next_cursor).not.toBeNull();
    });
  });

  it('shows a purchase paid from SB Pay (the ledger issue 9 reuses) as a debit in the history, filtered by type', async () => {
    type Line = { amount: number; balance_after: number; type: string; deposit_id: number | null; description: string };
    const before = (await balanceOf(seller, 'GBP')).balance;
    await inTransaction(s.db, (trx) =>
      payFromWallet(
        trx,
        {
          userId: ids.seller as number,
          currency: 'GBP',
          amount: 1500,
          reference: 'booking-test-1',
          description: 'Purchase SB-1',
        },
        s.clock.now(),
      ),
    );
    const purchases = await get<{ transaction_list: Line[] }>('/lmt-pay/transaction-history?type=purchase', seller);
    expect(purchases.body.data.transaction_list[0]).toEqual(
      expect.objectContaining({ type: 'purchase', amount: -1500, balance_after: before - 1500, deposit_id: null }),
    );
    expect((await balanceOf(seller, 'GBP')).balance).toBe(before - 1500);
    const deposits = await get<{ transaction_list: Line[] }>(
      '/lmt-pay/transaction-history?type=deposit&per_page=50',
      seller,
    );
    expect(deposits.body.data.transaction_list.every((l) => l.type === 'deposit')).toBe(true);
    // more than the balance: refused, nothing taken
    await expect(
      inTransaction(s.db, (trx) =>
        payFromWallet(
          trx,
          {
            userId: ids.seller as number,
            currency: 'GBP',
            amount: before,
            reference: 'booking-test-2',
            description: 'x',
          },
          s.clock.now(),
        ),
      ),
    ).rejects.toThrow(InsufficientFunds);
    expect((await balanceOf(seller, 'GBP')).balance).toBe(before - 1500);
  });

  describe('seller levels', () => {
    it('answers the three levels with their thresholds and benefits, the current one active', async () => {
      const { status, body } = await get<{
        seller_levels: { level: number; is_active: number; quarterly_gtv: number; benefits: { available: number }[] }[];
      }>('/settings/seller-level-list', seller);
      expect(status).toBe(200);
      expect(body.data.seller_levels.map((l) => [l.level, l.quarterly_gtv])).toEqual([
        [1, 0],
        [2, 2_500_000],
        [3, 10_000_000],
      ]);
      expect(body.data.seller_levels.filter((l) => l.is_active === 1)).toHaveLength(1);
      const available = body.data.seller_levels.map((l) => l.benefits.filter((b) => b.available).length);
      expect(available).toEqual([2, 4, 6]);
    });

    it("sums the quarter's completed GBP sales into the summary, with days left and a forecast", async () => {
      const { status, body } = await get<{
        seller_level: {
          level: string;
          level_number: number;
          quarter: string;
          days_left: number;
          gtv: number;
          required_to_maintain: number;
          forecast: { projected_gtv: number };
        };
      }>('/settings/seller-level?currency=GBP', seller);
      expect(status).toBe(200);
      const now = s.clock.now();
      const q = Math.floor(now.getUTCMonth() / 3);
      const start = new Date(Date.UTC(now.getUTCFullYear(), q * 3, 1)).toISOString();
      const end = new Date(Date.UTC(now.getUTCFullYear(), q * 3 + 3, 1)).toISOString();
      const expected = await s.db
        .selectFrom('orders')
        .select('amount')
        .where('seller_id', '=', ids.seller as number)
        .where('status', '=', 'completed')
        .where('currency', '=', 'GBP')
        .where('created_at', '>=', start)
        .where('created_at', '<', end)
        .execute();
      const gtv = expected.reduce((n, o) => n + Number(o.amount), 0);
      const summary = body.data.seller_level;
      expect(summary.gtv).toBe(gtv);
      expect(summary.quarter).toBe(`Q${q + 1} ${now.getUTCFullYear()}`);
      expect(summary.level).toBe(`Level ${summary.level_number}`);
      expect(summary.days_left).toBeGreaterThanOrEqual(0);
      expect(summary.days_left).toBeLessThan(92);
      expect(summary.forecast.projected_gtv).toBeGreaterThanOrEqual(gtv);
      expect((await get('/settings/seller-level?currency=EUR', seller)).status).toBe(422);
    });
  });

  describe('the proof sent after the request (/api/upload-pop) and the account reference', () => {
    const uploadPop = async (
      token: string,
      fields: Record<string, string>,
      proof?: FilePart,
      key = `pop-key-${++keySeq}-${Date.now()}`,
    ) => {
      const { body, type } = multipart(fields, proof);
      const res = await s.app.request('/api/api/upload-pop', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': type, 'idempotency-key': key },
        body,
      });
      return {
        status: res.status,
        replayed: res.headers.get('idempotent-replayed'),
        body: (await res.json()) as {
          success: boolean;
          message?: string;
          data: { deposit_id: number; status: string; proof: { name: string; kind: string } | null };
          errors?: { path: string; message: string }[];
        },
      };
    };
    const pdf = (name = 'receipt.pdf'): FilePart => ({ name, type: 'application/pdf', bytes: PDF });

    it('adds the proof to a pending request sent without one, once; a replay has one effect', async () => {
      await decidePending(s.db);
      const sent = await deposit(seller);
      expect(sent.status).toBe(200);
      expect(sent.body.data.proof).toBeNull();
      const id = String(sent.body.data.deposit_id);
      const before = await counts();
      const key = `pop-once-${Date.now()}`;
      const added = await uploadPop(seller, { deposit_id: id }, pdf(), key);
      expect(added.status).toBe(200);
      expect(added.body.data.proof).toMatchObject({ name: 'receipt.pdf', kind: 'pdf' });
      expect(added.body.data.status).toBe('pending');
      // the owner reads the same proof back
      const read = await get<{ name: string; content_base64: string }>(`/lmt-pay/deposits/${id}/proof`, seller);
      expect(Buffer.from(read.body.data.content_base64, 'base64').equals(PDF)).toBe(true);
      const replay = await uploadPop(seller, { deposit_id: id }, pdf(), key);
      expect(replay.status).toBe(200);
      expect(replay.replayed).toBe('true');
      expect(await counts()).toEqual({ ...before, files: before.files + 1, uploads: before.uploads + 1 });
      // a second proof never replaces the first
      const second = await uploadPop(seller, { deposit_id: id }, { name: 'other.png', type: 'image/png', bytes: PNG });
      expect(second.status).toBe(409);
      expect(second.body.message).toBe('This deposit request already has a proof.');
      expect(await counts()).toEqual({ ...before, files: before.files + 1, uploads: before.uploads + 1 });
    });

    it("refuses a decided request, another seller's or an unknown id, a wrong type or a path in the name, storing nothing", async () => {
      await decidePending(s.db);
      const sent = await deposit(seller);
      const id = sent.body.data.deposit_id;
      expect((await post(`/admin/deposits/${id}/reject`, admin, { reason: 'No transfer arrived' })).status).toBe(200);
      const before = await counts();
      const decided = await uploadPop(seller, { deposit_id: String(id) }, pdf());
      expect(decided.status).toBe(409);
      expect(decided.body.message).toBe('This deposit request is already decided.');
      const open = (await deposit(seller)).body.data.deposit_id;
      const mid = await counts();
      for (const [token, depositId] of [
        [rival, open],
        [seller, 2_147_483_000],
      ] as const) {
        const res = await uploadPop(token, { deposit_id: String(depositId) }, pdf());
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('Deposit request not found.');
      }
      const exe = await uploadPop(
        seller,
        { deposit_id: String(open) },
        {
          name: 'receipt.pdf',
          type: 'application/pdf',
          bytes: Buffer.from('MZ\x90\x00 this is not a pdf'),
        },
      );
      expect(exe.status).toBe(415);
      const pathName = await uploadPop(seller, { deposit_id: String(open) }, pdf('../../etc/receipt.pdf'));
      expect(pathName.status).toBe(422);
      expect(pathName.body.errors?.[0]?.path).toBe('/body/proof');
      for (const fields of [{ deposit_id: 'abc' }, { deposit_id: '0' }, {}] as Record<string, string>[]) {
        expect((await uploadPop(seller, fields, pdf())).status).toBe(422);
      }
      expect((await uploadPop(seller, { deposit_id: String(open) })).status).toBe(422);
      expect(await counts()).toEqual(mid);
      expect(mid).toEqual({ ...before, deposits: before.deposits + 1 });
    });

    it('answers the account reference of the seller the caller works for, the one the top-up details show', async () => {
      const mine = await get<{ account_reference: string }>('/settings/lmt-pay/account-reference', seller);
      expect(mine.status).toBe(200);
      expect(mine.body.data.account_reference).toBe(topUpReference(ids.seller as number));
      const details = await get<{ bank_account_details: { reference: string } }>(
        '/lmt-pay/bank-account-details?currency=GBP',
        seller,
      );
      expect(details.body.data.bank_account_details.reference).toBe(mine.body.data.account_reference);
      // a team member without lmt-pay is refused; with it, it gets its seller's reference
      expect((await get('/settings/lmt-pay/account-reference', member)).status).toBe(403);
      const grant = (on: 0 | 1) =>
        s.db
          .updateTable('user_permissions')
          .set({ is_can_access: on })
          .where('user_id', '=', ids.member as number)
          .where('permission_name', '=', 'lmt-pay')
          .execute();
      await grant(1);
      try {
        const team = await get<{ account_reference: string }>('/settings/lmt-pay/account-reference', member);
        expect(team.body.data.account_reference).toBe(mine.body.data.account_reference);
      } finally {
        await grant(0);
      }
      const other = await get<{ account_reference: string }>('/settings/lmt-pay/account-reference', rival);
      expect(other.body.data.account_reference).toBe(topUpReference(ids.rival as number));
      expect(other.body.data.account_reference).not.toBe(mine.body.data.account_reference);
    });
  });
});
