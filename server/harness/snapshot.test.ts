import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshServer } from '../test-support';
import { createSnapshotter, diffSnapshots } from './snapshot';

type Server = Awaited<ReturnType<typeof freshServer>>;

describe('the harness snapshots', () => {
  let s: Server;
  beforeAll(async () => {
    s = await freshServer();
    await s.loginAs('seller@demo.test');
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it("leave out a session's last use (every call writes it, a refused one too) but see any other change", async () => {
    const snapshots = createSnapshotter(s.db);
    const before = await snapshots.take();
    await s.db.updateTable('auth_tokens').set({ last_used_at: '2030-01-01T00:00:00.000Z' }).execute();
    const touched = await snapshots.take();
    expect(diffSnapshots(before, touched)).toEqual([]);
    await s.db.updateTable('auth_tokens').set({ revoked_at: '2030-01-01T00:00:00.000Z' }).execute();
    const revoked = await snapshots.take();
    expect(diffSnapshots(touched, revoked).map((d) => d.table)).toEqual(['auth_tokens']);
  });
});
