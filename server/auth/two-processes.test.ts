import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { migrateToLatest } from '../db/migrate';
import { seed } from '../db/seed/index';
import { type FreshDatabase, freshDatabase } from '../test-support';
import { startChildServer } from '../testing/spawn-server';

/**
 * Several server processes on one database (behind a load balancer) must agree on shared state: the login
 * throttle lives in the database, so failures sent to two processes count together.
 */
describe('two server processes on one database', () => {
  let d: FreshDatabase;
  const servers: { child: ChildProcess; port: number }[] = [];

  beforeAll(async () => {
    d = await freshDatabase();
    await migrateToLatest(d.db);
    await seed(d.db, systemClock);
    servers.push(...(await Promise.all([startChildServer(d.target), startChildServer(d.target)])));
  }, 120_000);
  afterAll(async () => {
    for (const { child } of servers) child.kill('SIGTERM');
    await Promise.all(servers.map(({ child }) => new Promise((done) => child.once('exit', done))));
    await d?.close();
  });

  const login = async (port: number, email: string, password: string) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return res.status;
  };

  it('counts login failures sent to either process together: the fifth in a row is throttled', async () => {
    const [a, b] = servers.map((s) => s.port) as [number, number];
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push(await login(i % 2 === 0 ? a : b, 'rival@demo.test', `wrong-${i}`));
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    // and the lock is seen by both, whichever got the failures
    expect(await login(a, 'rival@demo.test', 'Demo1234!')).toBe(429);
    expect(await login(b, 'rival@demo.test', 'Demo1234!')).toBe(429);
  });

  it('serves the same sessions: a token from one process works on the other, and logout on one ends it on both', async () => {
    const [a, b] = servers.map((s) => s.port) as [number, number];
    const res = await fetch(`http://127.0.0.1:${a}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'seller@demo.test', password: 'Demo1234!' }),
    });
    const { data } = (await res.json()) as { data: { token: string } };
    const me = (port: number) =>
      fetch(`http://127.0.0.1:${port}/api/settings/my-account`, { headers: { authorization: `Bearer ${data.token}` } });
    expect((await me(b)).status).toBe(200);
    const out = await fetch(`http://127.0.0.1:${b}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${data.token}` },
    });
    expect(out.status).toBe(200);
    expect((await me(a)).status).toBe(401);
  });
});
