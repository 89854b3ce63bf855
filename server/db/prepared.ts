import { type Compilable, type CompiledQuery, type Expression, type SqlBool, sql } from 'kysely';
import { type Db, directSqlite, type Engine, engineOf, type SqliteConnection, transactionSqlite } from './database';

/** Stands in for a value while a prepared query is built; replaced by the caller's value on each run. */
class Slot {
  constructor(readonly name: string) {}
}

type Row<Q> = Q extends Compilable<infer O> ? O : never;

/**
 * A query built and compiled once per engine, then run with new values: Kysely's builders cost more to build
 * and compile a query (100-200 µs) than SQLite takes to run a small one (10-20 µs), and hot paths (every
 * dashboard call, the menu's counts) run the same few queries thousands of times a second.
 *
 *   const byId = prepared((db, $: { id: number }) => db.selectFrom('users').selectAll().where('id', '=', $.id));
 *   const user = await byId.takeFirst(db, { id: 7 });
 *
 * Each property of `$` stands for one value (not a list: `in` takes a list built at compile time). The SQL text
 * is the same on every run, so SQLite's statement cache (server/db/database.ts) prepares it once too.
 */
export function prepared<A extends Record<string, unknown>, Q extends Compilable<unknown>>(build: (db: Db, $: A) => Q) {
  const compiled = new Map<Engine, CompiledQuery<Row<Q>>>();
  function compile(db: Db): CompiledQuery<Row<Q>> {
    const engine = engineOf(db);
    let query = compiled.get(engine);
    if (!query) {
      const names = new Set<string>();
      const slots = new Proxy({} as A, {
        get(_, name) {
          if (typeof name !== 'string') return undefined;
          names.add(name);
          return new Slot(name);
        },
      });
      query = build(db, slots).compile() as CompiledQuery<Row<Q>>;
      const used = new Set(query.parameters.filter((p): p is Slot => p instanceof Slot).map((p) => p.name));
      // an argument that did not end up a parameter (a list, a value the builder inlined) would be lost
      for (const name of names) if (!used.has(name)) throw new Error(`prepared query: "${name}" is not a parameter`);
      compiled.set(engine, query);
    }
    return query;
  }
  function bind(db: Db, args: A): CompiledQuery<Row<Q>> {
    const query = compile(db);
    return {
      ...query,
      parameters: query.parameters.map((p) => {
        if (!(p instanceof Slot)) return p;
        const value = args[p.name];
        if (value === undefined) throw new Error(`prepared query: no value for "${p.name}"`);
        return value;
      }),
    };
  }
  /**
   * On SQLite outside any transaction the statement runs on the connection at once (server/db/database.ts
   * directSqlite): the same statement Kysely's SQLite driver would run, without its lock, driver and promises.
   */
  function runOn(connection: SqliteConnection, db: Db, args: A): { rows: Row<Q>[]; changes: number } {
    const query = bind(db, args);
    const statement = connection.prepare(query.sql);
    if (statement.reader) return { rows: statement.all(query.parameters) as Row<Q>[], changes: 0 };
    return { rows: [], changes: statement.run(query.parameters).changes };
  }
  // the database outside any transaction, or a transaction of ours (its own connection): both run at once
  const directOf = (db: Db) => directSqlite(db) ?? transactionSqlite(db);
  return {
    async execute(db: Db, args: A): Promise<Row<Q>[]> {
      const connection = directOf(db);
      if (connection) return runOn(connection, db, args).rows;
      return (await db.executeQuery(bind(db, args))).rows;
    },
    async takeFirst(db: Db, args: A): Promise<Row<Q> | undefined> {
      const connection = directOf(db);
      if (connection) return runOn(connection, db, args).rows[0];
      return (await db.executeQuery(bind(db, args))).rows[0];
    },
    /** Rows changed by an insert, update or delete without RETURNING. */
    async affected(db: Db, args: A): Promise<bigint> {
      const connection = directOf(db);
      if (connection) return BigInt(runOn(connection, db, args).changes);
      return (await db.executeQuery(bind(db, args))).numAffectedRows ?? 0n;
    },
  };
}

/**
 * A list of ids as one parameter, so that a prepared query keeps one shape (one SQL text) whatever the list's
 * length: a JSON array that SQLite reads with json_each, an integer array on Postgres. Pass it to `inIdList`.
 */
export type IdList = string | number[];
export const idList = (db: Db, ids: number[]): IdList => (engineOf(db) === 'postgres' ? ids : JSON.stringify(ids));
/** `column` is one of an IdList (a value, or a prepared query's parameter standing for one). */
export const inIdList = (db: Db, column: string, ids: unknown): Expression<SqlBool> =>
  engineOf(db) === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = ANY(CAST(${ids} AS integer[]))`
    : sql<SqlBool>`${sql.ref(column)} IN (SELECT value FROM json_each(${ids}))`;

/**
 * A statement of fixed text and no values inside a transaction (SAVEPOINT, RELEASE, ROLLBACK TO): on SQLite run
 * at once on the transaction's connection, else through Kysely.
 */
export async function runFixed(db: Db, text: string): Promise<void> {
  const connection = transactionSqlite(db);
  if (connection) connection.prepare(text).run([]);
  else await sql.raw(text).execute(db);
}
