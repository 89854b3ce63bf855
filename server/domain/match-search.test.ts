import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../db/database';
import { type FreshDatabase, freshSeededDatabase } from '../test-support';
import { matchesContaining } from './match-search';

/**
 * The match search against its definition (the text anywhere in one of a match's four texts, in any case,
 * literally), and its kept copy of the catalogue against changes made through another connection, as another
 * process would make them: each insert, rename and delete is seen by the next search.
 */
describe('matchesContaining', () => {
  let d: FreshDatabase;
  let other: Db;
  let place: { city_id: number; country_id: number };

  beforeAll(async () => {
    d = await freshSeededDatabase();
    other = openDatabase(d.target, { poolSize: 1 });
    place = await d.db.selectFrom('events').select(['city_id', 'country_id']).executeTakeFirstOrThrow();
  });
  afterAll(async () => {
    await other.destroy();
    await d.close();
  });

  const defined = async (text: string) =>
    (await d.db.selectFrom('events').select(['id', 'name', 'home_team', 'away_team', 'tournament']).execute())
      .filter((e) =>
        [e.name, e.home_team, e.away_team, e.tournament].some((t) => t.toLowerCase().includes(text.toLowerCase())),
      )
      .map((e) => e.id)
      .sort((a, b) => a - b);
  const found = async (text: string) => (await matchesContaining(d.db, text)).sort((a, b) => a - b);

  it('finds the text in any of the four texts, in any case, and takes % and _ literally', async () => {
    let some = 0;
    for (const text of ['united', 'UNITED', 'a', 'League', 'zzz', '%', '_', ' vs ']) {
      const want = await defined(text);
      expect(await found(text), text).toEqual(want);
      some += want.length;
    }
    expect(some).toBeGreaterThan(0);
    expect(await found('%')).toEqual([]);
  });

  it('sees a match added, renamed and removed by another connection at its next search', async () => {
    const added = await other
      .insertInto('events')
      .values({
        name: 'Zürich Wanderers vs Ørsted Rovers',
        home_team: 'Zürich Wanderers',
        away_team: 'Ørsted Rovers',
        tournament: 'Test Cup 100%_',
        event_date: '2099-01-01',
        event_time: '20:00',
        stadium_name: 'Test Ground',
        ...place,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // beyond ASCII, in any case
    expect(await found('ZÜRICH')).toEqual([added.id]);
    expect(await found('ørsted rov')).toEqual([added.id]);
    expect(await found('100%_')).toEqual([added.id]);
    // not across two texts
    expect(await found('wanderers vs ørsted rovers')).toEqual([added.id]);
    expect(await found('rovers test')).toEqual([]);

    await other.updateTable('events').set({ away_team: 'Basel Nomads' }).where('id', '=', added.id).execute();
    expect(await found('ørsted rov')).toEqual([added.id]); // still in the name
    await other
      .updateTable('events')
      .set({ name: 'Zürich Wanderers vs Basel Nomads' })
      .where('id', '=', added.id)
      .execute();
    expect(await found('ørsted')).toEqual([]);
    expect(await found('basel nomads')).toEqual([added.id]);

    await other.deleteFrom('events').where('id', '=', added.id).execute();
    expect(await found('zürich')).toEqual([]);
  });
});
