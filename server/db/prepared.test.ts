import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FreshDatabase, freshDatabase } from '../test-support';
import { migrateToLatest } from './migrate';
import { prepared } from './prepared';

describe('prepared queries', () => {
  let d: FreshDatabase;

  beforeAll(async () => {
    d = await freshDatabase();
    await migrateToLatest(d.db);
    await d.db
      .insertInto('currencies')
      .values(['GBP', 'EUR', 'USD', 'AED'].map((code, i) => ({ code, name: code, symbol: code, minor_unit: i })))
      .execute();
  });
  afterAll(async () => {
    await d?.close();
  });

  const byMinorUnit = prepared((db, $: { min: number; max: number; limit: number }) =>
    db
      .selectFrom('currencies')
      .select(['code', 'minor_unit'])
      .where('minor_unit', '>=', $.min)
      .where('minor_unit', '<=', $.max)
      .where('code', '!=', 'XXX')
      .orderBy('minor_unit')
      .limit($.limit),
  );

  it('answers what the same query built each time answers, for every set of values', async () => {
    for (const [min, max, limit] of [
      [0, 3, 10],
      [1, 2, 10],
      [2, 3, 1],
      [3, 0, 5],
    ] as const) {
      const built = await d.db
        .selectFrom('currencies')
        .select(['code', 'minor_unit'])
        .where('minor_unit', '>=', min)
        .where('minor_unit', '<=', max)
        .orderBy('minor_unit')
        .limit(limit)
        .execute();
      expect(await byMinorUnit.execute(d.db, { min, max, limit }), `${min}..${max} / ${limit}`).toEqual(built);
    }
    expect(await byMinorUnit.takeFirst(d.db, { min: 2, max: 9, limit: 9 })).toEqual({ code: 'USD', minor_unit: 2 });
    expect(await byMinorUnit.takeFirst(d.db, { min: 7, max: 9, limit: 9 })).toBeUndefined();
  });

  it('runs in the transaction it is given', async () => {
    const rename = prepared((db, $: { code: string; name: string }) =>
      db.updateTable('currencies').set({ name: $.name }).where('code', '=', $.code),
    );
    const nameOf = prepared((db, $: { code: string }) =>
      db.selectFrom('currencies').select('name').where('code', '=', $.code),
    );
    await expect(
      d.db.transaction().execute(async (trx) => {
        expect(await rename.affected(trx, { code: 'EUR', name: 'Euro' })).toBe(1n);
        expect(await nameOf.takeFirst(trx, { code: 'EUR' })).toEqual({ name: 'Euro' });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await nameOf.takeFirst(d.db, { code: 'EUR' })).toEqual({ name: 'EUR' });
  });

  it('refuses a value missing at run time, and a stand-in that is not a parameter of the query', async () => {
    await expect(byMinorUnit.execute(d.db, { min: 1, max: 2 } as never)).rejects.toThrow(/no value for "limit"/);
    // a stand-in read but left out of the query would silently be lost: refused when the query is compiled
    const careless = prepared((db, $: { code: string; unused: string }) => {
      void $.unused;
      return db.selectFrom('currencies').selectAll().where('code', '=', $.code);
    });
    await expect(careless.execute(d.db, { code: 'GBP', unused: 'x' })).rejects.toThrow(/"unused" is not a parameter/);
  });
});
