import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshDatabase } from '../test-support';
import { type Db, openDatabase } from './database';
import { inTransaction } from './transaction';

/** A table of our own in a fresh database: what each transaction wrote, seen from a second connection too. */
describe('inTransaction', () => {
  let d: FreshDatabase;
  let other: Db;
  const values = async (via: Db) =>
    (await sql<{ v: string }>`SELECT v FROM scratch ORDER BY v`.execute(via)).rows.map((r) => r.v);
  const write = (trx: Db, v: string) => sql`INSERT INTO scratch (v) VALUES (${v})`.execute(trx);

  beforeAll(async () => {
    d = await freshDatabase();
    await sql`CREATE TABLE scratch (v varchar(20) PRIMARY KEY)`.execute(d.db);
    other = openDatabase(d.target, { poolSize: 1 });
  });
  afterAll(async () => {
    await other.destroy();
    await d.close();
  });
  beforeEach(async () => {
    await sql`DELETE FROM scratch`.execute(d.db);
  });

  it('keeps what each transaction wrote, undoes one that fails or whose result is not kept, alone or together', async () => {
    const runs: (() => Promise<unknown>)[] = [
      () =>
        inTransaction(d.db, async (trx) => {
          await write(trx, 'a1');
          await write(trx, 'a2');
          return 'a';
        }),
      () =>
        inTransaction(d.db, async (trx) => {
          await write(trx, 'b1');
          throw new Error('b fails');
        }),
      () =>
        inTransaction(d.db, async (trx) => {
          await write(trx, 'c1');
          await write(trx, 'a1'); // the key is taken: a constraint error after a write of its own
          return 'c';
        }),
      () =>
        inTransaction(
          d.db,
          async (trx) => {
            await write(trx, 'd1');
            return { status: 422 };
          },
          (r) => r.status < 400,
        ),
      () =>
        inTransaction(d.db, async (trx) => {
          // sees what the transactions before it wrote, as if they had run one after the other
          const seen = await values(trx);
          await write(trx, 'e1');
          return seen;
        }),
    ];
    // on SQLite all at once (one group); on Postgres, whose transactions run side by side, one after the other
    const results: PromiseSettledResult<unknown>[] = [];
    if (d.engine === 'sqlite') results.push(...(await Promise.allSettled(runs.map((run) => run()))));
    else for (const run of runs) results.push(...(await Promise.allSettled([run()])));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('b fails');
    expect((results[3] as PromiseFulfilledResult<unknown>).value).toEqual({ status: 422 });
    expect((results[4] as PromiseFulfilledResult<unknown>).value).toEqual(['a1', 'a2']);
    expect(await values(d.db)).toEqual(['a1', 'a2', 'e1']);
    expect(await values(other)).toEqual(['a1', 'a2', 'e1']);
  });

  it('answers no transaction before what it wrote is committed, and commits the ones that arrive together at once', async () => {
    let reachGate = () => {};
    const atGate = new Promise<void>((r) => {
      reachGate = r;
    });
    let openGate = () => {};
    const gate = new Promise<void>((r) => {
      openGate = r;
    });
    let firstAnswered = false;
    const first = inTransaction(d.db, (trx) => write(trx, 'first')).then(() => {
      firstAnswered = true;
    });
    const second = inTransaction(d.db, async (trx) => {
      await write(trx, 'second');
      reachGate();
      await gate;
    });
    await atGate;
    // the first has run, but on SQLite it commits with the second: not answered, and not seen by another
    // connection; on Postgres each commits on its own
    if (d.engine === 'sqlite') {
      expect(firstAnswered).toBe(false);
      expect(await values(other)).toEqual([]);
    } else {
      await first;
      expect(await values(other)).toEqual(['first']);
    }
    openGate();
    await Promise.all([first, second]);
    expect(firstAnswered).toBe(true);
    expect(await values(other)).toEqual(['first', 'second']);
  });

  it.runIf(process.env.TEST_ENGINE !== 'postgres')(
    'runs each member again on its own when the group is lost, so none is lost or applied twice',
    async () => {
      const runs = { a: 0, b: 0, c: 0 };
      const results = await Promise.allSettled([
        inTransaction(d.db, async (trx) => {
          runs.a += 1;
          await write(trx, 'a');
        }),
        inTransaction(d.db, async (trx) => {
          runs.b += 1;
          await write(trx, 'b');
          // ends the transaction under the group, as a full disk or an I/O error would
          await sql`ROLLBACK`.execute(trx);
          throw new Error('the transaction is gone');
        }),
        inTransaction(d.db, async (trx) => {
          runs.c += 1;
          await write(trx, 'c');
        }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      // a ran in the lost group and again alone; c never ran in it (the group ended with b) and ran alone
      expect(runs).toEqual({ a: 2, b: 2, c: 1 });
      expect(await values(d.db)).toEqual(['a', 'c']);
      expect(await values(other)).toEqual(['a', 'c']);
      // the next transactions group again
      await Promise.all([inTransaction(d.db, (trx) => write(trx, 'd')), inTransaction(d.db, (trx) => write(trx, 'e'))]);
      expect(await values(other)).toEqual(['a', 'c', 'd', 'e']);
    },
  );
});
