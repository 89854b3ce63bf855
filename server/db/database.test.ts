import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshDatabase } from '../test-support';
import { databasePragmas, engineOf } from './database';
import { MIGRATION_NAMES, migrateToLatest } from './migrate';

/** Runs on the test engine: SQLite by default, Postgres with TEST_ENGINE=postgres (see server/test-support.ts). */
describe('the database', () => {
  let d: FreshDatabase;
  let firstRun: string[];

  beforeAll(async () => {
    d = await freshDatabase();
    firstRun = await migrateToLatest(d.db);
  });
  afterAll(async () => {
    await d?.close();
  });

  it('keeps every committed write through a crash: WAL with synchronous=FULL on SQLite, fsync on Postgres', async () => {
    expect(engineOf(d.db)).toBe(d.engine);
    if (d.engine === 'sqlite') {
      expect(await databasePragmas(d.db)).toEqual({ journal_mode: 'wal', synchronous: 2, foreign_keys: 1 });
    } else {
      const show = async (name: string) =>
        (await sql.raw<Record<string, string>>(`SHOW ${name}`).execute(d.db)).rows[0]?.[name];
      expect(await show('fsync')).toBe('on');
      expect(await show('synchronous_commit')).toBe('on');
    }
  });

  it('applies a migration that landed after later ones (0011 after 0012 to 0014) to a database that has those', async () => {
    const late = await freshDatabase();
    try {
      // 0019 builds on 0011's columns, 0030 rebuilds 0019's indexes, 0042 clamps 0011's deadlines and 0051 derives
      // proof from 0011's deliveries: they land with it
      const later = [
        '0011-sales',
        '0019-sales-sort-indexes',
        '0030-sales-match-search',
        '0042-in-hand-dates',
        '0051-proof-vault',
      ];
      const early = await migrateToLatest(late.db, { except: later });
      expect(early).not.toContain('0011-sales');
      expect(early).toContain('0014-reports');
      expect(await migrateToLatest(late.db)).toEqual(later);
      expect(await migrateToLatest(late.db)).toEqual([]);
    } finally {
      await late.close();
    }
  });

  it('applies every migration once, in order, and a second run applies nothing and changes nothing', async () => {
    expect(firstRun).toEqual(MIGRATION_NAMES);
    expect([...MIGRATION_NAMES].sort()).toEqual(MIGRATION_NAMES);
    const tables = async () => JSON.stringify(await d.db.introspection.getTables());
    const before = await tables();
    expect(await migrateToLatest(d.db)).toEqual([]);
    expect(await migrateToLatest(d.db)).toEqual([]);
    expect(await tables()).toEqual(before);
  });

  it('enforces foreign keys', async () => {
    await expect(d.db.insertInto('cities').values({ country_id: 999_999, name: 'Nowhere' }).execute()).rejects.toThrow(
      /FOREIGN KEY|foreign key constraint/i,
    );
  });

  it('gives generated ids that are never reused after a delete', async () => {
    const insert = async (name: string) =>
      (
        await d.db
          .insertInto('countries')
          .values({ name, short_name: name.slice(0, 4), dialing_code: '+0', phone_code: 0 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const first = await insert('Testland');
    await d.db.deleteFrom('countries').where('id', '=', first).execute();
    expect(await insert('Otherland')).toBeGreaterThan(first);
  });
});
