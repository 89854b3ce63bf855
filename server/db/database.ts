import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type Engine = 'sqlite' | 'postgres';

// counts (int8) and sums (numeric) arrive as strings from pg; every figure we keep fits a double exactly
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export const isPostgresUrl = (target: string) => /^postgres(ql)?:\/\//i.test(target);

export interface OpenOptions {
  /** Connections in the Postgres pool (default 10). */
  poolSize?: number;
}

/**
 * Opens the database named by `target`: a `postgres://` URL runs on PostgreSQL through a connection pool;
 * anything else is the path of the embedded SQLite file (created when missing). The only place that knows
 * which engine is underneath; the rest of the code speaks Kysely, and asks `engineOf` where SQL differs.
 */
export function openDatabase(target: string, options: OpenOptions = {}): Db {
  if (isPostgresUrl(target)) {
    const pool = new pg.Pool({ connectionString: target, max: options.poolSize ?? 10 });
    // an idle client that loses its server must not crash the process; the next query reconnects
    pool.on('error', () => {});
    // nor one that loses it while checked out between statements: pg then marks it unqueryable and the pool
    // drops it on release (without a listener, its socket's ECONNRESET was an uncaught exception)
    pool.on('connect', (client) => client.on('error', () => {}));
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  const database = openSqlite(target);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  direct.set(db, database);
  return db;
}

/** The SQLite connection under each Kysely instance that openDatabase made (not its transactions). */
const direct = new WeakMap<object, SqliteConnection>();

/** A prepared statement as Kysely's SQLite driver and server/db/prepared.ts use it. */
export interface SqliteStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
  run(parameters: readonly unknown[]): SQLite.RunResult;
}

/**
 * A reading statement whose rows are built in JavaScript: better-sqlite3 reads each row as an array (raw
 * mode) and one function made for the statement's columns turns it into an object literal of one shape. The
 * driver's own objects are built a property at a time through V8's API: on Inventory's page of 50 listings
 * and 19 columns, 205 µs against 125 (scripts, 27 November 2026). Same keys, same values, same order; a
 * repeated name keeps its last value, and a column named `__proto__` sets the prototype, both as the driver's
 * objects do (server/db/shaped-rows.test.ts).
 */
function shapedRows(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((c) => c.name);
  const shape = new Function('r', `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}};`) as (
    row: unknown[],
  ) => Record<string, unknown>;
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(shape),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield shape(row);
    },
    run: (parameters) => statement.run(parameters),
  };
}

export interface SqliteConnection {
  prepare(text: string): SqliteStatement;
  /** True while a transaction is open on the connection (another request's, between its statements). */
  readonly inTransaction: boolean;
  /**
   * Changes whenever the database may have changed: a row written through this connection (SQLite's
   * total_changes(), counted as the statement runs, triggers included) or a commit by another connection or
   * process (PRAGMA data_version). What was read at one version is still what the database holds while the
   * version stays the same (server/auth/session.ts keeps its callers by it).
   */
  version(): string;
  close(): void;
}

/**
 * The SQLite connection to run a statement on directly, synchronously, without Kysely's executor: only for
 * the database itself (never a transaction of it) and only while no transaction is open on the connection, so
 * that the statement reads and writes committed state exactly as Kysely would once its turn came. Kysely's
 * path (a connection lock, a driver, promises) costs as much as the small statement itself on hot paths
 * (server/db/prepared.ts uses it); undefined on Postgres, in a transaction, or while one is open.
 */
export function directSqlite(db: object): SqliteConnection | undefined {
  const connection = direct.get(db);
  return connection && !connection.inTransaction ? connection : undefined;
}

/** The transactions our own code opened (server/db/transaction.ts), each with the database it is of. */
const owners = new WeakMap<object, Db>();

/** Records that `trx` is a transaction of `db` for as long as `trx` lives (server/db/transaction.ts). */
export function ownTransaction(db: Db, trx: Db): void {
  owners.set(trx, rootOf(db));
}

/** The database a transaction of ours is of (the database itself for anything else). */
export const rootOf = (db: Db): Db => owners.get(db) ?? db;

/**
 * The SQLite connection under a transaction that server/db/transaction.ts opened: a statement run on it
 * directly is the transaction's own (the connection is the one the transaction holds, and nothing else runs
 * on it until the transaction ends). Undefined on Postgres, and for the database itself.
 */
export function transactionSqlite(db: object): SqliteConnection | undefined {
  const root = owners.get(db);
  const connection = root ? direct.get(root) : undefined;
  return connection?.inTransaction ? connection : undefined;
}

/**
 * The embedded SQLite file: WAL for concurrent readers, synchronous=FULL so a committed deposit survives a
 * power cut, foreign keys enforced. Statements are prepared once per SQL text and kept (better-sqlite3
 * would otherwise parse and plan the same query on every call).
 */
function openSqlite(file: string): SqliteConnection {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // a savepoint's statement journal in memory, not a temp file (20 us a savepoint, four a purchase): it is
  // thrown away at the savepoint's end either way, so durability is the WAL's, as before
  sqlite.pragma('temp_store = MEMORY');
  const cache = new Map<string, SqliteStatement>();
  // two statements: the pragma as a table (one query) costs 7.5 us, the two apart 4.5 (the pragma's read lock)
  const changes = sqlite.prepare('SELECT total_changes()').pluck();
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  return {
    prepare(text: string) {
      let statement = cache.get(text);
      if (!statement) {
        statement = shapedRows(sqlite.prepare(text));
        // queries are built from code, so the set is small; the bound only guards against a dynamic IN (...)
        if (cache.size >= 1000) cache.clear();
        cache.set(text, statement);
      }
      return statement;
    },
    get inTransaction() {
      return sqlite.inTransaction;
    },
    version() {
      return `${changes.get()}:${dataVersion.get()}`;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}

/** Which engine a Kysely instance (or a transaction of it) runs on. */
export function engineOf(db: { getExecutor(): { readonly adapter: unknown } }): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** The pragmas as the engine reports them, for the health check and the tests (SQLite only). */
export async function databasePragmas(db: Db): Promise<Record<string, unknown>> {
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
