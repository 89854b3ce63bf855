import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { directSqlite, openDatabase } from './database';

describe('rows of a reading statement (shaped in JavaScript from raw arrays)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-shaped-'));
  const file = join(dir, 'rows.sqlite');
  const db = openDatabase(file);
  const connection = directSqlite(db);
  if (!connection) throw new Error('SQLite has a direct connection');
  connection.prepare('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, price INTEGER, note TEXT, blob BLOB)').run([]);
  connection
    .prepare('INSERT INTO t (name, price, note, blob) VALUES (?, ?, ?, ?), (?, ?, ?, ?)')
    .run(['a "quoted" name', 1250, null, Buffer.from([1, 2]), 'ünïcødé \u2028', -3, 'x', null]);
  const driver = new SQLite(file, { readonly: true });
  afterAll(async () => {
    driver.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  const queries = [
    'SELECT * FROM t ORDER BY id',
    // odd names, a repeated name (the last value wins, as in the driver's objects), an expression
    `SELECT id AS "we""ird", name AS "a b", price AS x, note AS x, price * 2 AS "price*2" FROM t ORDER BY id`,
    'SELECT count(*) AS n FROM t WHERE price > ?',
    // a name a literal takes for the prototype: a string is ignored, as by the driver
    'SELECT name AS "__proto__", id FROM t ORDER BY id',
  ];

  it.each(queries)('are what the driver builds: %s', (text) => {
    const parameters = text.includes('?') ? [0] : [];
    const expected = driver.prepare(text).all(parameters);
    const rows = connection.prepare(text).all(parameters);
    expect(rows).toEqual(expected);
    expect(rows.map((r) => Object.keys(r as object))).toEqual(expected.map((r) => Object.keys(r as object)));
    expect(rows.every((r) => Object.getPrototypeOf(r) === Object.prototype)).toBe(true);
    expect([...connection.prepare(text).iterate(parameters)]).toEqual(expected);
  });

  it('reads the same through Kysely', async () => {
    const rows = await db
      .selectFrom('t' as never)
      .selectAll()
      .orderBy('id' as never)
      .execute();
    expect(rows).toEqual(driver.prepare('SELECT * FROM t ORDER BY id').all());
  });
});
