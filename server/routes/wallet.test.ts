import { describe, expect, it } from 'vitest';
import { topUpReference } from '../domain/wallet';
import { decidePending } from '../quotas/testing';
import {
  admin,
  admin2,
  balanceOf,
  counts,
  deposit,
  get,
  ids,
  member,
  openWalletServer,
  PDF,
  PNG,
  post,
  rival,
  s,
  seller,
  VALID,
} from './wallet-testing';

describe('the SB Pay wallet: top-ups, their proofs and their decisions', () => {
  openWalletServer();

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
});
