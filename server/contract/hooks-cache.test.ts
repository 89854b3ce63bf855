import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database';
import { call, clock, d, keptRuns, openHooksApp, tokens } from './hooks-testing';

/** The router's x-cache-ms: answers kept a moment while the database is unchanged (hooks-testing.ts). */
openHooksApp();

describe('x-cache-ms: answers kept a moment while the database is unchanged', () => {
  const sqlite = () => d.engine === 'sqlite';
  const kept = async (query = '', token?: string) => {
    const res = await call('GET', `/t/kept${query}`, { token });
    return { status: res.status, body: (await res.json()) as { data?: { runs: number; rows: number } } };
  };
  const note = () =>
    d.db
      .insertInto('notifications')
      .values({ user_id: 1, name: 'kept', description: 'kept', created_at: clock.now().toISOString() })
      .execute();

  it('answers the same caller the same path and query again without running the handler', async () => {
    const first = await kept('?q=again');
    const second = await kept('?q=again');
    expect(first.status).toBe(200);
    // PostgreSQL keeps nothing: the handler runs again
    if (sqlite()) expect(second.body).toEqual(first.body);
    else expect(second.body.data?.runs).toBe((first.body.data?.runs ?? 0) + 1);
  });

  it('runs again after any write, and the answer has it', async () => {
    const first = await kept('?q=write');
    await note();
    const after = await kept('?q=write');
    expect(after.body.data?.runs).toBe((first.body.data?.runs ?? 0) + 1);
    expect(after.body.data?.rows).toBe((first.body.data?.rows ?? 0) + 1);
  });

  it('runs again after a commit by another connection (another process on the same file)', async () => {
    if (!sqlite()) return;
    const first = await kept('?q=other');
    const other = openDatabase(d.target);
    try {
      await other
        .insertInto('notifications')
        .values({ user_id: 1, name: 'kept', description: 'other', created_at: clock.now().toISOString() })
        .execute();
    } finally {
      await other.destroy();
    }
    const after = await kept('?q=other');
    expect(after.body.data?.rows).toBe((first.body.data?.rows ?? 0) + 1);
  });

  it('runs again once its moment has passed, written or not (kept for half to all of x-cache-ms)', async () => {
    const first = await kept('?q=moment');
    clock.advance(499);
    const within = await kept('?q=moment');
    clock.advance(501);
    const after = await kept('?q=moment');
    expect(within.body.data?.runs).toBe((first.body.data?.runs ?? 0) + (sqlite() ? 0 : 1));
    expect(after.body.data?.runs).toBe((within.body.data?.runs ?? 0) + 1);
  });

  it('keeps answers apart by caller and by query', async () => {
    const first = await kept('?q=apart');
    const rival = await kept('?q=apart', tokens.rival);
    const otherQuery = await kept('?q=apart2');
    const noQuery = await kept();
    expect(rival.body.data?.runs).toBe((first.body.data?.runs ?? 0) + 1);
    expect(otherQuery.body.data?.runs).toBe((rival.body.data?.runs ?? 0) + 1);
    expect(noQuery.body.data?.runs).toBe((otherQuery.body.data?.runs ?? 0) + 1);
  });

  it('keeps no error answer, and checks the caller before a kept answer', async () => {
    const before = keptRuns;
    expect((await kept('?q=missing')).status).toBe(404);
    expect((await kept('?q=missing')).status).toBe(404);
    expect(keptRuns).toBe(before + 2);
    await kept('?q=closed');
    const res = await call('GET', '/t/kept?q=closed', { token: 'x'.repeat(40) });
    expect(res.status).toBe(401);
    const invalid = await call('GET', `/t/kept?q=${'x'.repeat(21)}`);
    expect(invalid.status).toBe(422);
  });

  it('answers a kept answer with the same headers and a request id of its own', async () => {
    const a = await call('GET', '/t/kept?q=headers');
    const b = await call('GET', '/t/kept?q=headers');
    if (sqlite()) expect(await b.text()).toBe(await a.text());
    expect(b.headers.get('content-type')).toBe('application/json');
    expect(b.headers.get('cache-control')).toBe('no-store');
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));
  });
});
