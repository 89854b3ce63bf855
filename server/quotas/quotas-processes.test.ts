import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../db/seed/index';
import { type FreshDatabase, freshSeededDatabase, userIdOf } from '../test-support';
import { startChildServer } from '../testing/spawn-server';
import { QUOTAS } from './limits';

/**
 * Three server processes on one database (behind a load balancer): a seller's calls spread over them still take
 * no more than a cap allows, because each decision is made in the database (a conditional upsert of the window's
 * counter; the open count read under a lock), not in any one process's memory.
 */
describe('caps across three server processes', () => {
  let d: FreshDatabase;
  const servers: { child: ChildProcess; port: number }[] = [];

  beforeAll(async () => {
    d = await freshSeededDatabase();
    servers.push(...(await Promise.all([0, 1, 2].map(() => startChildServer(d.target)))));
  }, 120_000);
  afterAll(async () => {
    for (const { child } of servers) child.kill('SIGTERM');
    await Promise.all(servers.map(({ child }) => new Promise((done) => child.once('exit', done))));
    await d?.close();
  });

  let keys = 0;
  const call = async (port: number, method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetch(`http://127.0.0.1:${port}/api${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body instanceof FormData || body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'POST' ? { 'idempotency-key': `processes-${++keys}-${Date.now()}` } : {}),
      },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { message?: string; data: Record<string, unknown> } };
  };
  const login = async (email: string) =>
    (await call(servers[0]?.port ?? 0, 'POST', '/auth/login', undefined, { email, password: DEMO_PASSWORD })).body.data
      .token as string;
  const portOf = (i: number) => servers[i % servers.length]?.port ?? 0;

  it('takes only the free places of a seller’s pending deposits, 30 requests over three processes', async () => {
    const seller = await login('seller@demo.test');
    const sellerId = await userIdOf(d.db, 'seller@demo.test');
    const pending = async () =>
      Number(
        (
          await d.db
            .selectFrom('deposits')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('user_id', '=', sellerId)
            .where('status', '=', 'pending')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const free = QUOTAS['pending-deposits'].max - (await pending());
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const form = new FormData();
        form.set('deposit_amount', String(1000 + i));
        form.set('currency', 'GBP');
        form.set('payment_transfer_by', 'ONLINE');
        return call(portOf(i), 'POST', '/api/send-deposit-request', seller, form);
      }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(free);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(30 - free);
    expect(await pending()).toBe(QUOTAS['pending-deposits'].max);
  }, 120_000);

  it('sends exactly 20 of 60 invites sent at once over three processes', async () => {
    const rival = await login('rival@demo.test');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(portOf(i), 'POST', '/settings/my-teams/add', rival, {
          email: `spread-${i}@example.test`,
          first_name: 'Tess',
          last_name: 'Team',
          permissions: ['sales'],
        }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(QUOTAS['team-invites-hourly'].max);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(60 - QUOTAS['team-invites-hourly'].max);
  }, 120_000);
});
