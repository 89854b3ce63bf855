import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, databasePragmas, openDatabase } from './database';
import { migrateToLatest } from './migrate';

describe('the embedded database', () => {
  let dir: string;
  let db: Db;
  let firstRun: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-portal-db-'));
    db = openDatabase(join(dir, 'nested', 'portal.sqlite'));
    firstRun = await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs in WAL mode with synchronous=FULL and foreign keys on', async () => {
    expect(await databasePragmas(db)).toEqual({ journal_mode: 'wal', synchronous: 2, foreign_keys: 1 });
  });

  it('applies every migration once, and a second run applies nothing and changes nothing', async () => {
    expect(firstRun).toEqual(['0001-init', '0002-sales-notifications', '0003-login-failures']);
    const tables = async () =>
      (await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master ORDER BY name`.execute(db)).rows;
    const before = await tables();
    expect(before.map((t) => t.name)).toEqual(
      expect.arrayContaining(['users', 'auth_tokens', 'activity_log', 'countries', 'cities', 'currencies']),
    );
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await migrateToLatest(db)).toEqual([]);
    expect(await tables()).toEqual(before);
  });

  it('enforces foreign keys', async () => {
    await expect(db.insertInto('cities').values({ country_id: 999_999, name: 'Nowhere' }).execute()).rejects.toThrow(
      /FOREIGN KEY/,
    );
  });
});
