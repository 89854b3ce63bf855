import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../db/seed/index';
import { auditLedger } from '../domain/ledger';
import { type FreshDatabase, freshSeededDatabase } from '../test-support';
import { startChildServer } from '../testing/spawn-server';

/**
 * Two server processes on one database (behind a load balancer): admins clicking approve on both at the same
 * moment credit the wallet once, because the deposit leaves `pending` by one conditional update that only one
 * transaction can win, whichever process runs it.
 */
describe('deposit approval across two server processes', () => {
  let d: FreshDatabase;
  const servers: { child: ChildProcess; port: number }[] = [];

  beforeAll(async () => {
    d = await freshSeededDatabase();
    servers.push(...(await Promise.all([startChildServer(d.target), startChildServer(d.target)])));
  }, 120_000);
  afterAll(async () => {
    for (const { child } of servers) child.kill('SIGTERM');
    await Promise.all(servers.map(({ child }) => new Promise((done) => child.once('exit', done))));
    await d?.close();
  });

  const call = async (port: number, method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(body instanceof FormData ? { 'idempotency-key': `two-processes-${Math.random()}` } : {}),
      },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { message?: string; data: Record<string, unknown> } };
  };
  const login = async (port: number, email: string) =>
    (await call(port, 'POST', '/auth/login', undefined, { email, password: DEMO_PASSWORD })).body.data.token as string;

  it('credits once when admins on both processes approve the same deposit at once', async () => {
    const [a, b] = servers.map((s) => s.port) as [number, number];
    const [seller, adminA, adminB] = await Promise.all([
      login(a, 'seller@demo.test'),
      login(a, 'admin@demo.test'),
      login(b, 'admin@demo.test'),
    ]);
    const balance = async () => {
      const { body } = await call(b, 'GET', '/lmt-pay/details', seller);
      const list = body.data.balances as { currency: string; balance: number }[];
      return list.find((x) => x.currency === 'GBP')?.balance ?? 0;
    };
    for (let round = 0; round < 3; round++) {
      const form = new FormData();
      form.set('deposit_amount', String(2000 + round));
      form.set('currency', 'GBP');
      form.set('payment_transfer_by', 'ONLINE');
      const made = await call(a, 'POST', '/api/send-deposit-request', seller, form);
      expect(made.status).toBe(200);
      const id = made.body.data.deposit_id as number;
      const before = await balance();
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          call(i % 2 ? a : b, 'POST', `/admin/deposits/${id}/approve`, i % 2 ? adminA : adminB),
        ),
      );
      expect(answers.map((x) => x.status)).toEqual(Array(8).fill(200));
      expect(answers.filter((x) => x.body.message === 'Deposit approved.')).toHaveLength(1);
      expect(await balance()).toBe(before + 2000 + round);
    }
    expect(await auditLedger(d.db)).toEqual([]);
  }, 120_000);
});
