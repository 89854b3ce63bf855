import { renameSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { openDatabase } from '../db/database';
import { createLogger } from '../logger';
import { freshServer, TEST_ENGINE } from '../test-support';
import { createReadiness, type Readiness } from './readiness';

/**
 * Readiness means something: it turns red when the database goes away and green when it comes back, on the
 * engine under test. SQLite: the file moved away from its path (root reads any file, so a file made unreadable
 * would not do); PostgreSQL: the database refusing connections and its sessions ended.
 */
describe('readiness', () => {
  let s: Awaited<ReturnType<typeof freshServer>>;
  let readiness: Readiness;

  beforeAll(async () => {
    s = await freshServer();
    readiness = createReadiness({
      db: s.db,
      dataDir: s.dataDir,
      databaseFile: s.engine === 'sqlite' ? s.target : null,
      keepMs: 0,
      timeoutMs: 1_000,
    });
    // the app the test asks: the server's database, this readiness
    s = {
      ...s,
      app: createApp({ db: s.db, clock: s.clock, log: createLogger('silent'), dataDir: s.dataDir, ops: { readiness } }),
    };
  });
  afterAll(async () => {
    await s?.close();
  });

  const ready = async () => {
    const res = await s.app.request('/api/health/ready');
    const body = (await res.json()) as { success: boolean; message: string; data: { ready: boolean } };
    return { status: res.status, ...body };
  };

  /** Takes the database away, and answers how to bring it back. */
  async function takeAway(): Promise<() => Promise<void>> {
    if (TEST_ENGINE === 'sqlite') {
      renameSync(s.target, `${s.target}.away`);
      return async () => renameSync(`${s.target}.away`, s.target);
    }
    const admin = openDatabase(process.env.DATABASE_URL ?? '', { poolSize: 1 });
    const name = new URL(s.target).pathname.slice(1);
    await sql.raw(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`).execute(admin);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name}`.execute(admin);
    return async () => {
      await sql.raw(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).execute(admin);
      await admin.destroy();
    };
  }

  it('is green with the database there, red while it is gone, green again when it returns', async () => {
    expect(await ready()).toMatchObject({ status: 200, success: true, data: { ready: true } });
    const bringBack = await takeAway();
    try {
      const gone = await ready();
      expect(gone).toMatchObject({ status: 503, success: false, data: { ready: false } });
      expect(gone.message).toMatch(/^not ready: database /);
    } finally {
      await bringBack();
    }
    await expect.poll(async () => (await ready()).status, { timeout: 5_000 }).toBe(200);
    // the liveness answer never looked at the database
    expect((await s.app.request('/api/health/live')).status).toBe(200);
  });

  it('is red while the process shuts down', async () => {
    expect((await ready()).status).toBe(200);
    readiness.drain();
    const draining = await ready();
    expect(draining).toMatchObject({ status: 503, message: 'not ready: shutdown shutting down' });
  });
});
