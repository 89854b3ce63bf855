import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';

type Server = Awaited<ReturnType<typeof freshServer>>;
type Body<T = Record<string, unknown>> = {
  success: boolean;
  message?: string;
  data: T;
  errors?: { path: string; message: string }[];
};

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const TEN_MB = 10 * 1024 * 1024;

/** A multipart body built byte by byte, so that a file name can carry what a browser would never send. */
function multipart(file: { name: string; type: string; bytes: Buffer }) {
  const boundary = `----sbkyc${Math.random().toString(16).slice(2)}`;
  const head = file.name.startsWith('filename*=') ? file.name : `filename="${file.name}"`;
  return {
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="file"; ${head}\r\ncontent-type: ${file.type}\r\n\r\n`,
        'latin1',
      ),
      file.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

/** Two sellers on the KYC hold (made for these tests from newseller's row) and the back office. */
describe('KYC: documents, the e-signature port, submission and the back office', () => {
  let s: Server;
  let held: string;
  let other: string;
  let seller: string;
  let admin: string;
  let admin2: string;

  async function copyUser(from: string, email: string, changes: Record<string, unknown> = {}) {
    const first = await s.db.selectFrom('users').selectAll().where('email', '=', from).executeTakeFirstOrThrow();
    const { id: _id, ...rest } = first;
    const made = await s.db
      .insertInto('users')
      .values({ ...rest, email, user_token: `${first.user_token}-${email}`, ...changes })
      .returning('id')
      .executeTakeFirstOrThrow();
    const permissions = await s.db.selectFrom('user_permissions').selectAll().where('user_id', '=', first.id).execute();
    await s.db
      .insertInto('user_permissions')
      .values(permissions.map((p) => ({ ...p, user_id: made.id })))
      .execute();
    return made.id;
  }

  beforeAll(async () => {
    s = await freshServer();
    await copyUser('newseller@demo.test', 'held1@kyc.test', { first_name: 'Hana' });
    await copyUser('newseller@demo.test', 'held2@kyc.test', { first_name: 'Otis' });
    await copyUser('admin@demo.test', 'admin2@kyc.test');
    [held, other, seller, admin, admin2] = await Promise.all([
      s.loginAs('held1@kyc.test'),
      s.loginAs('held2@kyc.test'),
      s.loginAs('seller@demo.test'),
      s.loginAs('admin@demo.test'),
      s.loginAs('admin2@kyc.test'),
    ]);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const call = async <T = Record<string, unknown>>(method: string, path: string, token: string, body?: unknown) => {
    const res = await s.json(method, path, body, token);
    return { status: res.status, body: (await res.json()) as Body<T> };
  };
  const upload = async <T = Record<string, unknown>>(
    path: string,
    token: string,
    file: { name: string; type: string; bytes: Buffer },
  ) => {
    const { body, type } = multipart(file);
    const res = await s.app.request(`/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type, 'domain-key': 'localhost' },
      body,
    });
    return { status: res.status, body: (await res.json()) as Body<T> };
  };
  const uploads = () => {
    const dir = join(s.dataDir, 'uploads');
    return existsSync(dir) ? readdirSync(dir).length : 0;
  };
  const counts = async () => ({
    files: Number(
      (
        await s.db
          .selectFrom('files')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    documents: Number(
      (
        await s.db
          .selectFrom('kyc_documents')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    uploads: uploads(),
  });

  /** Uploads the photo ID and the proof of address and signs the contract through the sandbox signer. */
  async function prepare(token: string, name: string) {
    expect(
      (await upload('/api/save-photo-id', token, { name: 'passport.png', type: 'image/png', bytes: PNG })).status,
    ).toBe(200);
    expect(
      (await upload('/api/save-address-id', token, { name: 'bill.pdf', type: 'application/pdf', bytes: PDF })).status,
    ).toBe(200);
    const embed = await call<{ request_id: number; provider: string; sign_url: null; status: string }>(
      'GET',
      '/zoho-sign/embed',
      token,
    );
    expect(embed.status).toBe(200);
    expect(embed.body.data).toMatchObject({ provider: 'sandbox', sign_url: null, status: 'pending' });
    const signed = await call('POST', `/zoho-sign/sandbox/${embed.body.data.request_id}/sign`, token, {
      signer_name: name,
    });
    expect(signed.status).toBe(200);
    expect(signed.body.data).toMatchObject({ status: 'signed', signer_name: name });
    const saved = await call('POST', '/api/save-seller-contract', token, { request_id: embed.body.data.request_id });
    expect(saved.status).toBe(200);
    return embed.body.data.request_id;
  }

  it('a held seller reaches every KYC call, and nothing else', async () => {
    expect((await call('GET', '/auth/kyc-submission', held)).body.data).toMatchObject({
      state: 'not_started',
      esign_provider: 'sandbox',
    });
    expect((await call('GET', '/auth/photo-id', held)).body.data).toBeNull();
    expect((await call('GET', '/dashboard/sales-overview', held)).status).toBe(403);
  });

  it.each([
    [
      'HTML named .pdf',
      { name: 'id.pdf', type: 'application/pdf', bytes: Buffer.from('<!doctype html><script>alert(1)</script>') },
      415,
      'Invalid file type. Allowed types: pdf, jpg, jpeg, png',
    ],
    [
      '10 MB and one byte',
      { name: 'big.pdf', type: 'application/pdf', bytes: Buffer.concat([PDF, Buffer.alloc(TEN_MB + 1 - PDF.length)]) },
      413,
      'File size exceeds 10MB limit',
    ],
    ['an empty file', { name: 'empty.pdf', type: 'application/pdf', bytes: Buffer.alloc(0) }, 422, null],
    [
      'a text file',
      { name: 'id.txt', type: 'text/plain', bytes: Buffer.from('just some words, no document') },
      415,
      'Invalid file type. Allowed types: pdf, jpg, jpeg, png',
    ],
    ["a name with '../'", { name: '../../etc/passport.png', type: 'image/png', bytes: PNG }, 422, null],
    ['an encoded path', { name: "filename*=UTF-8''..%2F..%2Fpassport.png", type: 'image/png', bytes: PNG }, 422, null],
  ] as const)('refuses %s and keeps nothing (no row, no file)', async (_label, file, status, message) => {
    const before = await counts();
    const res = await upload('/api/save-photo-id', held, { ...file, bytes: Buffer.from(file.bytes) });
    expect(res.status).toBe(status);
    expect(res.body.success).toBe(false);
    if (message) expect(res.body.message).toBe(message);
    else expect(res.body.errors?.[0]?.path).toBe('/body/file');
    expect(await counts()).toEqual(before);
  });

  it('keeps a document of exactly 10 MB and shows it back, byte for byte', async () => {
    const bytes = Buffer.concat([PDF, Buffer.alloc(TEN_MB - PDF.length)]);
    const res = await upload('/api/save-address-id', held, {
      name: 'bank statement.pdf',
      type: 'application/pdf',
      bytes,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ kind: 'address_proof', name: 'bank statement.pdf', size: TEN_MB });
    const back = await call<{ content_base64: string; name: string }>('GET', '/auth/address-id', held);
    expect(Buffer.from(back.body.data.content_base64, 'base64').equals(bytes)).toBe(true);
    expect((await call('GET', '/auth/kyc-submission', held)).body.data).toMatchObject({ state: 'draft' });
  });

  it("answers 404 for another seller's signing request, and the signed contract only to its owner", async () => {
    const embed = await call<{ request_id: number }>('GET', '/zoho-sign/embed', other);
    const id = embed.body.data.request_id;
    expect((await call('POST', `/zoho-sign/sandbox/${id}/sign`, held, { signer_name: 'Hana Thief' })).status).toBe(404);
    expect((await call('POST', '/api/save-seller-contract', held, { request_id: id })).status).toBe(404);
    expect((await call('GET', `/zoho-sign/document/${id}`, held)).status).toBe(404);
    // the owner's is not signed yet
    expect((await call('GET', `/zoho-sign/document/${id}`, other)).status).toBe(409);
    expect((await call('POST', '/api/save-seller-contract', other, { request_id: id })).body.message).toBe(
      'The contract is not signed yet.',
    );
  });

  it('refuses a submission that misses documents, naming each; a company also needs its registration', async () => {
    const res = await call('POST', '/auth/submit-kyc-for-approval', other, { account_type: 'company' });
    expect(res.status).toBe(422);
    expect(res.body.errors?.map((e) => e.path).sort()).toEqual([
      '/documents/address_proof',
      '/documents/business',
      '/documents/photo_id',
      '/documents/seller_contract',
    ]);
  });

  it('refuses the back office to sellers (403) and the seller calls to admins (403)', async () => {
    for (const token of [seller, held]) {
      expect((await call('GET', '/admin/kyc', token)).status).toBe(403);
      expect((await call('POST', '/admin/kyc/1/approve', token)).status).toBe(403);
      expect((await call('POST', '/admin/kyc/1/reject', token, { reason: 'x' })).status).toBe(403);
      expect((await call('GET', '/admin/kyc/1/documents/photo_id', token)).status).toBe(403);
    }
    expect((await call('GET', '/auth/kyc-submission', admin)).status).toBe(403);
    expect((await call('POST', '/admin/kyc/999999/approve', admin)).status).toBe(404);
  });

  it('submits, is rejected with a reason, resubmits, and is approved once by one of two admins: the hold ends', async () => {
    const requestId = await prepare(held, 'Hana Newcomer');
    const contract = await call<{ content_base64: string }>('GET', `/zoho-sign/document/${requestId}`, held);
    expect(Buffer.from(contract.body.data.content_base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');

    const submitted = await call<{ state: string; submission_id: number }>(
      'POST',
      '/auth/submit-kyc-for-approval',
      held,
      {
        account_type: 'individual',
      },
    );
    expect(submitted.status).toBe(200);
    expect(submitted.body.data.state).toBe('submitted');
    // under review: nothing can change, nothing can be sent twice
    expect((await call('POST', '/auth/submit-kyc-for-approval', held, { account_type: 'individual' })).status).toBe(
      409,
    );
    expect((await upload('/api/save-photo-id', held, { name: 'new.png', type: 'image/png', bytes: PNG })).status).toBe(
      409,
    );

    const queue = await call<{
      submission_list: { id: number; seller_email: string; documents: { kind: string }[] }[];
    }>('GET', '/admin/kyc', admin);
    const mine = queue.body.data.submission_list.find((r) => r.seller_email === 'held1@kyc.test');
    expect(mine?.documents.map((d) => d.kind).sort()).toEqual(['address_proof', 'photo_id', 'seller_contract']);
    const id = mine?.id as number;
    const photo = await call<{ content_base64: string }>('GET', `/admin/kyc/${id}/documents/photo_id`, admin);
    expect(Buffer.from(photo.body.data.content_base64, 'base64').equals(PNG)).toBe(true);
    expect((await call('GET', `/admin/kyc/${id}/documents/business`, admin)).body.data).toBeNull();

    expect((await call('POST', `/admin/kyc/${id}/reject`, admin, { reason: '   ' })).status).toBe(422);
    const rejected = await call('POST', `/admin/kyc/${id}/reject`, admin, { reason: 'The photo is blurred.' });
    expect(rejected.status).toBe(200);
    expect((await call('GET', '/account/kyc-status', held)).body.data).toEqual({
      kyc_status: 2,
      rejection_reason: 'The photo is blurred.',
    });
    expect((await call('POST', `/admin/kyc/${id}/approve`, admin2)).status).toBe(409);

    // the rejected seller replaces the photo and submits again
    expect(
      (await upload('/api/save-photo-id', held, { name: 'sharp.png', type: 'image/png', bytes: PNG })).status,
    ).toBe(200);
    const again = await call<{ submission_id: number; state: string; rejection_reason: null }>(
      'POST',
      '/auth/submit-kyc-for-approval',
      held,
      { account_type: 'individual' },
    );
    expect(again.body.data).toMatchObject({ state: 'submitted', rejection_reason: null });
    const second = again.body.data.submission_id;
    expect(second).not.toBe(id);

    // two admins at once: one approves, the other is told it was decided
    const [a, b] = await Promise.all([
      call('POST', `/admin/kyc/${second}/approve`, admin),
      call('POST', `/admin/kyc/${second}/approve`, admin2),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((a.status === 409 ? a : b).body.message).toMatch(/^This KYC submission was already approved/);

    // released with the same token: no new login
    expect((await call('GET', '/account/kyc-status', held)).body.data).toEqual({
      kyc_status: 1,
      rejection_reason: null,
    });
    expect((await call('GET', '/dashboard/sales-overview', held)).status).toBe(200);
    const feed = await call<{ notification_list: { name: string; description: string }[] }>(
      'GET',
      '/notification/history',
      held,
    );
    expect(feed.body.data.notification_list.map((n) => n.name).slice(0, 2)).toEqual(['kyc_approved', 'kyc_rejected']);
    expect((await call('GET', '/auth/kyc-submission', held)).body.data).toMatchObject({ state: 'approved' });
    expect((await call('POST', '/api/save-seller-contract', held, { request_id: requestId })).status).toBe(409);
  });
  it('reviews at most 3 submissions of a seller a day: the fourth is 429 with Retry-After and is not stored', async () => {
    await copyUser('newseller@demo.test', 'held3@kyc.test', { first_name: 'Ruth' });
    const again = await s.loginAs('held3@kyc.test');
    await prepare(again, 'Ruth Again');
    const submit = () => call('POST', '/auth/submit-kyc-for-approval', again, { account_type: 'individual' });
    const submissions = async () =>
      (
        await s.db
          .selectFrom('kyc_submissions')
          .innerJoin('users', 'users.id', 'kyc_submissions.seller_id')
          .select('kyc_submissions.id')
          .where('users.email', '=', 'held3@kyc.test')
          .orderBy('kyc_submissions.id')
          .execute()
      ).map((r) => r.id);
    for (let round = 0; round < 3; round++) {
      expect((await submit()).status).toBe(200);
      const id = (await submissions()).at(-1) as number;
      expect((await call('POST', `/admin/kyc/${id}/reject`, admin, { reason: 'Please send it again.' })).status).toBe(
        200,
      );
    }
    const refused = await submit();
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(
      /^You have submitted your documents for approval 3 times today, the most a day\. You can submit again in \d+ hours\.$/,
    );
    expect(await submissions()).toHaveLength(3);
  });
});
