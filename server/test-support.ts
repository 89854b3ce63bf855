import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import { type AppOptions, createApp } from './app';
import { manualClock } from './clock';
import { type Db, type Engine, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { DEMO_PASSWORD, seed } from './db/seed/index';
import { isRetryable } from './db/transaction';
import { createLogger } from './logger';

/**
 * The engine the server tests run on: SQLite unless TEST_ENGINE=postgres, which takes the server of
 * DATABASE_URL (a role that may create databases) and gives every test file a database of its own.
 */
export const TEST_ENGINE: Engine = process.env.TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** The id of the user with `email` (a demo account, or one the test made); throws when there is none. */
export const userIdOf = async (db: Db, email: string): Promise<number> =>
  (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

export interface FreshDatabase {
  db: Db;
  engine: Engine;
  /** What openDatabase takes to reach the same database again (a second connection, another process). */
  target: string;
  dataDir: string;
  close(): Promise<void>;
}

/** An empty database on the test engine, and a data folder beside it; close() removes both. */
export async function freshDatabase(template?: string): Promise<FreshDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-portal-test-'));
  if (TEST_ENGINE === 'sqlite') {
    const target = join(dataDir, 'portal.sqlite');
    if (template) copyFileSync(template, target);
    const db = openDatabase(target);
    return {
      db,
      engine: 'sqlite',
      target,
      dataDir,
      async close() {
        await db.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const admin = process.env.DATABASE_URL;
  if (!admin) throw new Error('TEST_ENGINE=postgres needs DATABASE_URL (a role that may create databases)');
  const name = `sbtest_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const adminDb = openDatabase(admin, { poolSize: 1 });
  await sql
    .raw(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${new URL(template).pathname.slice(1)}` : ''}`)
    .execute(adminDb);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const target = url.toString();
  const db = openDatabase(target);
  return {
    db,
    engine: 'postgres',
    target,
    dataDir,
    async close() {
      await db.destroy();
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(adminDb);
      await adminDb.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A migrated database with the demo seed, made by the clock freshServer() starts with. Seeding hashes the demo
 * passwords (seconds), so a run builds it once (server/testing/global-setup.ts) and every test file starts
 * from a copy: a file copy on SQLite, `CREATE DATABASE ... TEMPLATE` on Postgres. Outside vitest (scripts) it
 * is built in place.
 */
export async function freshSeededDatabase(): Promise<FreshDatabase> {
  const template = await seededTemplate();
  if (template) return freshDatabase(template);
  const database = await freshDatabase();
  await migrateToLatest(database.db);
  await seed(database.db, manualClock());
  return database;
}

async function seededTemplate(): Promise<string | null> {
  if (!process.env.VITEST) return null;
  const { inject } = await import('vitest');
  return (inject as (key: string) => unknown)('seededTemplate') as string | null;
}

/** Builds the seeded template on the test engine; answers its target and how to drop it. */
export async function buildSeededTemplate(): Promise<{ target: string; drop(): Promise<void> }> {
  const database = await freshDatabase();
  await migrateToLatest(database.db);
  await seed(database.db, manualClock());
  if (database.engine === 'sqlite') {
    // one self-contained file to copy: the write-ahead log folded into it
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(database.db);
    await database.db.destroy();
    const target = join(mkdtempSync(join(tmpdir(), 'sb-portal-template-')), 'template.sqlite');
    copyFileSync(database.target, target);
    rmSync(database.dataDir, { recursive: true, force: true });
    return { target, drop: async () => rmSync(dirname(target), { recursive: true, force: true }) };
  }
  // no connection may stay open on a template
  await database.db.destroy();
  return {
    target: database.target,
    drop: async () => {
      const admin = openDatabase(process.env.DATABASE_URL ?? '', { poolSize: 1 });
      await sql
        .raw(`DROP DATABASE IF EXISTS ${new URL(database.target).pathname.slice(1)} WITH (FORCE)`)
        .execute(admin);
      await admin.destroy();
      rmSync(database.dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A built index.html's shape (`vite build`): its head with the entry's script, an empty #root. The static
 * server's tests write it in a folder of their own and pass it as `staticDir`.
 */
export const BUILT_INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <title>SB Portal</title>
    <script type="module" crossorigin src="/assets/index-1a.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

/**
 * A real server on a fresh database (SQLite, or Postgres with TEST_ENGINE=postgres), migrated and seeded,
 * with a clock the test moves. One per test file (seeding hashes the demo passwords, about two seconds).
 */
export async function freshServer(options: Partial<Omit<AppOptions, 'db' | 'clock'>> = {}) {
  const database = await freshSeededDatabase();
  const { db } = database;
  const clock = manualClock();
  const settings = {
    db,
    clock,
    log: createLogger('silent'),
    dataDir: database.dataDir,
    validateResponses: true,
    ...options,
  };
  const app = createApp(settings);

  const json = (method: string, path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) =>
    app.request(`/api${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
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
    engine: database.engine,
    target: database.target,
    dataDir: database.dataDir,
    json,
    loginAs,
    /** Another app on the same database, clock and files, with these options changed (a cap lowered). */
    appWith: (changes: Partial<Omit<AppOptions, 'db' | 'clock'>>) => createApp({ ...settings, ...changes }),
    close: () => database.close(),
  };
}

/**
 * Runs `ops` on 12 writers at once, one op a transaction (as a purchase or an inventory edit writes), and
 * answers how many transactions the engine aborted for a conflict (deadlock, serialization, busy file) before
 * they were run again, so that a test of the kept totals' row locks can require none. Every writer has
 * stopped when it returns or throws, so a failure does not leak writes into the next test.
 */
export async function writeConcurrently<Op>(
  db: Db,
  ops: readonly Op[],
  apply: (trx: Db, op: Op) => Promise<void>,
  writers = 12,
): Promise<number> {
  let conflicts = 0;
  const run = async (op: Op) => {
    for (;;) {
      try {
        return await db.transaction().execute((trx) => apply(trx, op));
      } catch (error) {
        if (!isRetryable(error)) throw error;
        conflicts++;
      }
    }
  };
  const settled = await Promise.allSettled(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = w; i < ops.length; i += writers) await run(ops[i] as Op);
    }),
  );
  for (const writer of settled) if (writer.status === 'rejected') throw writer.reason;
  return conflicts;
}
