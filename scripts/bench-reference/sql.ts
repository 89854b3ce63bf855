/**
 * The reference server's way to the database: better-sqlite3 or pg directly, one statement text for both
 * (written with `?`, numbered `$1...` for PostgreSQL), each statement prepared once (SQLite: per connection,
 * PostgreSQL: a named statement, prepared once per pooled connection). No query builder, no code of the
 * product's.
 */
import SQLite from 'better-sqlite3';
import pg from 'pg';

// bigint columns (money) and counts arrive as strings from pg; every figure here fits a double exactly
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export type Row = Record<string, unknown>;

export const isPostgres = (target: string) => /^postgres(ql)?:\/\//i.test(target);

/** A statement runner: `one` answers the first row (RETURNING included) or undefined; `all` every row. */
export interface Runner {
  one(text: string, params?: readonly unknown[]): Row | undefined | Promise<Row | undefined>;
  all(text: string, params?: readonly unknown[]): Row[] | Promise<Row[]>;
}

/** The embedded file as the product opens it: WAL, synchronous=FULL, foreign keys on. */
export function openSqlite(file: string) {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // a savepoint's statement journal in memory, not a temp file (durability is the WAL's, untouched)
  db.pragma('temp_store = MEMORY');
  const cache = new Map<string, SQLite.Statement>();
  const prepared = (text: string) => {
    let s = cache.get(text);
    if (!s) {
      s = db.prepare(text);
      cache.set(text, s);
    }
    return s;
  };
  const runner: Runner = {
    one(text, params = []) {
      const s = prepared(text);
      if (s.reader) return s.get(params) as Row | undefined;
      s.run(params);
      return undefined;
    },
    all(text, params = []) {
      const s = prepared(text);
      if (s.reader) return s.all(params) as Row[];
      s.run(params);
      return [];
    },
  };
  return { db, runner, exec: (text: string) => db.exec(text) };
}

/** `?` placeholders numbered for PostgreSQL (the statements here hold no `?` in strings). */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

const names = new Map<string, string>();
/** A pg query config that prepares `text` once per connection under a name of its own. */
export function pgQuery(text: string, params: readonly unknown[]) {
  let name = names.get(text);
  if (!name) {
    name = `ref_${names.size + 1}`;
    names.set(text, name);
  }
  return { name, text: numbered(text), values: params as unknown[] };
}

/** A runner on one PostgreSQL client (a pooled connection, or a client of its own). */
export function pgRunner(client: pg.ClientBase): Runner {
  return {
    one: async (text, params = []) => (await client.query(pgQuery(text, params))).rows[0] as Row | undefined,
    all: async (text, params = []) => (await client.query(pgQuery(text, params))).rows as Row[],
  };
}
