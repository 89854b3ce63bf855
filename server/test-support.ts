import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from './app';
import { manualClock } from './clock';
import { openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DEMO_PASSWORD, seed } from './db/seed/index';
import { createLogger } from './logger';

/**
 * A real server on a fresh SQLite file, migrated and seeded, with a clock the test moves. One per test file
 * (seeding hashes five passwords at OWASP cost, about two seconds).
 */
export async function freshServer() {
  const dir = mkdtempSync(join(tmpdir(), 'sb-portal-test-'));
  const db = openDatabase(join(dir, 'portal.sqlite'));
  await migrateToLatest(db);
  const clock = manualClock();
  await seed(db, clock);
  const app = createApp({ db, clock, log: createLogger('silent') });

  const json = (method: string, path: string, body?: unknown, token?: string) =>
    app.request(`/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  async function loginAs(email: string, password = DEMO_PASSWORD): Promise<string> {
    const res = await json('POST', '/auth/login', { email, password });
    const body = (await res.json()) as { data?: { token: string } };
    if (!body.data) throw new Error(`login as ${email} failed: ${res.status}`);
    return body.data.token;
  }

  return {
    app,
    db,
    clock,
    json,
    loginAs,
    async close() {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
