import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from './schema';

export type Db = Kysely<Database>;

/**
 * Opens the embedded SQLite database: WAL for concurrent readers, synchronous=FULL so a committed deposit
 * survives a power cut, foreign keys enforced. The only place that knows the engine is SQLite.
 */
export function openDatabase(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}

/** The pragmas as the engine reports them, for the health check and the tests. */
export async function databasePragmas(db: Db): Promise<Record<string, unknown>> {
  const { sql } = await import('kysely');
  const read = async (name: string) => {
    const res = await sql.raw<Record<string, unknown>>(`PRAGMA ${name}`).execute(db);
    const row = res.rows[0];
    return row ? Object.values(row)[0] : undefined;
  };
  return {
    journal_mode: await read('journal_mode'),
    synchronous: await read('synchronous'),
    foreign_keys: await read('foreign_keys'),
  };
}
