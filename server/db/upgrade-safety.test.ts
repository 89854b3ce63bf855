import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { freshDatabase, TEST_ENGINE } from '../test-support';
import { openDatabase } from './database';
import { MIGRATION_NAMES, migrateToLatest } from './migrate';
import { checkMigrations, unsafeSteps } from './upgrade-safety';

describe('upgrade safety of the migrations', () => {
  it('every migration is safe to run while the older version still serves', () => {
    expect(checkMigrations(join(import.meta.dirname, 'migrations'))).toEqual([]);
  });

  it('names the steps that would break the older version, unless a comment says why they do not', () => {
    const source = `import type { Kysely } from 'kysely';
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('t').addColumn('a', 'integer', (c) => c.notNull()).execute();
  await db.schema.alterTable('users').dropColumn('nickname').execute();
  await db.schema.alterTable('users').renameColumn('name', 'full_name').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('channel', 'varchar(16)', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('orders').addColumn('note', 'varchar(16)', (c) => c.notNull().defaultTo('')).execute();
  await sql\`ALTER TABLE carts ALTER COLUMN qty TYPE bigint\`.execute(db);
  // upgrade-safe: the table of a feature never released
  await db.schema.dropTable('drafts').execute();
}
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('t').execute();
}
`;
    expect(unsafeSteps('0999-example', source)).toEqual([
      { migration: '0999-example', line: 4, problem: 'drops a column the older version may still read' },
      {
        migration: '0999-example',
        line: 5,
        problem: 'renames what the older version names: add the new one beside it instead',
      },
      { migration: '0999-example', line: 11, problem: "changes a column's type under the older version" },
      {
        migration: '0999-example',
        line: 7,
        problem: 'adds a required column without a default: the older version inserts rows without it',
      },
    ]);
  });
});

describe.runIf(TEST_ENGINE === 'postgres')('migrations across processes', () => {
  it('run once when several processes start together on one empty database (an advisory lock)', async () => {
    const d = await freshDatabase();
    const others = [openDatabase(d.target, { poolSize: 1 }), openDatabase(d.target, { poolSize: 1 })];
    try {
      const applied = await Promise.all([d.db, ...others].map((db) => migrateToLatest(db)));
      // one process applied them all; the others waited for its lock and found nothing left to do
      expect(applied.map((names) => names.length).sort((a, b) => a - b)).toEqual([0, 0, MIGRATION_NAMES.length]);
      const rows = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(d.db);
      expect(rows.rows).toHaveLength(MIGRATION_NAMES.length);
    } finally {
      await Promise.all(others.map((db) => db.destroy()));
      await d.close();
    }
  }, 60_000);
});
