import JSZip from 'jszip';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../db/seed';
import { occurrencesInDatabase, settledSeller } from '../domain/account-data/testing';
import { auditLedger } from '../domain/ledger';
import { freshServer, userIdOf } from '../test-support';

let s: Awaited<ReturnType<typeof freshServer>>;
beforeEach(async () => {
  s = await freshServer();
});
afterEach(async () => {
  await s.close();
});

const ERIN = 'erin.erasable@example.org';

async function exportZip(token: string) {
  const res = await s.json('GET', '/settings/account-data/export', undefined, token);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/zip');
  const rows = Number(res.headers.get('x-export-rows'));
  const zip = await JSZip.loadAsync(Buffer.from(await res.arrayBuffer()));
  const text = async (name: string) => {
    const file = zip.file(name);
    if (!file) throw new Error(`${name} is not in the zip`);
    return file.async('string');
  };
  const json = async (name: string) => JSON.parse(await text(`${name}.json`)) as Record<string, unknown>[];
  return { zip, rows, json, text };
}

describe('the account data export', () => {
  it('holds the seller own data as JSON and CSV, its ledger lines among them, and nobody else', async () => {
    const token = await s.loginAs('seller@demo.test');
    const { zip, rows, json, text: fileText } = await exportZip(token);
    const names = Object.keys(zip.files).sort();
    for (const part of [
      'profile',
      'addresses',
      'listings',
      'orders',
      'bookings',
      'ledger_lines',
      'payouts',
      'kyc_documents',
    ])
      expect(names).toEqual(expect.arrayContaining([`${part}.json`, `${part}.csv`]));
    const seller = await userIdOf(s.db, 'seller@demo.test');
    const rival = await userIdOf(s.db, 'rival@demo.test');
    expect((await json('profile'))[0]).toMatchObject({ id: seller, email: 'seller@demo.test' });
    // every ledger line of the seller own accounts, and only those
    const lines = await json('ledger_lines');
    const own = await s.db
      .selectFrom('ledger_lines')
      .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
      .select('ledger_lines.id')
      .where('ledger_accounts.owner_id', '=', seller)
      .orderBy('ledger_lines.id')
      .execute();
    expect(own.length).toBeGreaterThan(0);
    expect(lines.map((l) => l.id)).toEqual(own.map((l) => l.id));
    const csv = await fileText('ledger_lines.csv');
    expect(csv.split('\r\n')[0]).toBe(
      'id,created_at,account,currency,amount,balance_after,entry_kind,reference,description',
    );
    expect(csv.trim().split('\r\n')).toHaveLength(own.length + 1);
    const orders = await json('orders');
    const ownOrders = await s.db.selectFrom('orders').select('id').where('seller_id', '=', seller).execute();
    expect(orders).toHaveLength(ownOrders.length);
    // nothing of the rival: its orders, its address, its listings
    const rivalOrders = await s.db.selectFrom('orders').select('booking_no').where('seller_id', '=', rival).execute();
    expect(rivalOrders.length).toBeGreaterThan(0);
    let text = '';
    for (const f of Object.values(zip.files)) text += await f.async('string');
    expect(text).not.toContain('rival@demo.test');
    for (const o of rivalOrders) expect(text).not.toContain(`"${o.booking_no}"`);
    const rivalListings = await s.db.selectFrom('listings').select('id').where('seller_id', '=', rival).execute();
    const listingIds = new Set((await json('listings')).map((l) => l.id));
    for (const l of rivalListings) expect(listingIds.has(l.id)).toBe(false);
    expect(rows).toBeGreaterThanOrEqual(own.length + orders.length + 1);
  });

  it('is the account owner own: a team member is refused', async () => {
    const token = await s.loginAs('member@demo.test');
    const res = await s.json('GET', '/settings/account-data/export', undefined, token);
    expect(res.status).toBe(403);
  });
});

describe('erasing an account', () => {
  it('refuses while money is held or owed, and says why', async () => {
    const token = await s.loginAs('seller@demo.test');
    const status = (await (await s.json('GET', '/settings/account-data/erasure', undefined, token)).json()) as {
      data: { blockers: string[] };
    };
    expect(status.data.blockers.length).toBeGreaterThan(0);
    const res = await s.json('POST', '/settings/account-data/erasure', { password: DEMO_PASSWORD }, token);
    const body = (await res.json()) as { message: string };
    expect(res.status).toBe(409);
    expect(body.message).toMatch(/^Your account cannot be erased while money is held or owed\. /);
    expect(body.message).toContain(status.data.blockers[0]);
    expect(await s.db.selectFrom('erasure_requests').selectAll().execute()).toEqual([]);
  });

  it('asks with the password; the back office erases: no e-mail left anywhere, the ledger whole', async () => {
    const id = await settledSeller(s.db, ERIN, s.clock.now());
    expect((await occurrencesInDatabase(s.db, ERIN)).length).toBeGreaterThan(0);
    const token = await s.loginAs(ERIN);
    const wrong = await s.json('POST', '/settings/account-data/erasure', { password: 'not-it-at-all' }, token);
    expect(wrong.status).toBe(422);
    const asked = await s.json('POST', '/settings/account-data/erasure', { password: DEMO_PASSWORD }, token);
    expect(asked.status).toBe(200);
    expect(((await asked.json()) as { data: { status: string } }).data.status).toBe('requested');

    const admin = await s.loginAs('admin@demo.test');
    const queue = (await (await s.json('GET', '/admin/erasure-requests', undefined, admin)).json()) as {
      data: { requests: { id: number; email: string | null; blockers: string[] }[] };
    };
    const request = queue.data.requests.find((r) => r.email === ERIN);
    expect(request?.blockers).toEqual([]);
    const linesBefore = await s.db
      .selectFrom('ledger_lines')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const done = await s.json('POST', `/admin/erasure-requests/${request?.id}/approve`, undefined, admin);
    expect(done.status).toBe(200);
    expect(((await done.json()) as { data: { email: string | null; status: string } }).data).toMatchObject({
      email: null,
      status: 'erased',
    });

    expect(await occurrencesInDatabase(s.db, ERIN)).toEqual([]);
    expect(await auditLedger(s.db)).toEqual([]);
    const linesAfter = await s.db
      .selectFrom('ledger_lines')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(linesAfter?.n)).toBe(Number(linesBefore?.n));
    // its wallet's lines are still there, under the anonymous account
    const kept = await s.db
      .selectFrom('ledger_lines')
      .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
      .select('ledger_lines.id')
      .where('ledger_accounts.owner_id', '=', id)
      .execute();
    expect(kept).toHaveLength(2);
    // the session is gone and the address no longer logs in
    expect((await s.json('GET', '/settings/account-data/erasure', undefined, token)).status).toBe(401);
    const login = await s.json('POST', '/auth/login', { email: ERIN, password: DEMO_PASSWORD });
    expect(login.status).toBeGreaterThanOrEqual(400);
    const again = await s.json('POST', `/admin/erasure-requests/${request?.id}/reject`, { reason: 'no' }, admin);
    expect(again.status).toBe(409);
  });

  it('a rejected request carries its reason to the owner, who may ask again', async () => {
    await settledSeller(s.db, ERIN, s.clock.now());
    const token = await s.loginAs(ERIN);
    await s.json('POST', '/settings/account-data/erasure', { password: DEMO_PASSWORD }, token);
    const admin = await s.loginAs('admin@demo.test');
    const [row] = await s.db.selectFrom('erasure_requests').select('id').execute();
    const res = await s.json('POST', `/admin/erasure-requests/${row?.id}/reject`, { reason: 'Call us first' }, admin);
    expect(res.status).toBe(200);
    const status = (await (await s.json('GET', '/settings/account-data/erasure', undefined, token)).json()) as {
      data: { status: string; rejection_reason: string };
    };
    expect(status.data).toMatchObject({ status: 'rejected', rejection_reason: 'Call us first' });
    const approve = await s.json('POST', `/admin/erasure-requests/${row?.id}/approve`, undefined, admin);
    expect(approve.status).toBe(409);
  });
});
