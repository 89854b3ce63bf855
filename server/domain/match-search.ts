import type { Db } from '../db/database';
import { type IdList, idList, prepared } from '../db/prepared';

/**
 * The matches whose name, home or away team or competition contain a text, searched in a copy of the
 * catalogue's match texts that each process keeps per database and reads again when the catalogue's version
 * (migration 0031, moved by every change of `events`, by any process) is no longer the one it was read at.
 * The text is found anywhere in one of the four, in any case (lowered in JavaScript, so beyond ASCII too), and
 * taken literally (`%` and `_` are no wildcards).
 *
 * The sales lists searched the four texts of every match in SQL on each call (about 100 µs of a 900 µs call for
 * 60 matches); now a call reads the version's one row and filters 60 entries in memory (a few µs).
 */
const catalogVersion = prepared((db) => db.selectFrom('catalog_version').select('version').where('id', '=', 1));
const matchTexts = prepared((db) =>
  db.selectFrom('events').select(['id', 'name', 'home_team', 'away_team', 'tournament']).orderBy('id'),
);

interface KeptCatalogue {
  version: number;
  matches: { id: number; texts: string[] }[];
}
const kept = new WeakMap<Db, KeptCatalogue>();

export async function matchesContaining(db: Db, text: string): Promise<number[]> {
  const version = Number((await catalogVersion.takeFirst(db, {}))?.version ?? Number.NaN);
  let catalogue = kept.get(db);
  if (catalogue?.version !== version) {
    // read after the version: a change in between moves the version again, and the next call reads again
    const rows = await matchTexts.execute(db, {});
    catalogue = {
      version,
      matches: rows.map((r) => ({
        id: r.id,
        texts: [r.name, r.home_team, r.away_team, r.tournament].map((t) => (t ?? '').toLowerCase()),
      })),
    };
    kept.set(db, catalogue);
  }
  const needle = text.toLowerCase();
  return catalogue.matches.filter((m) => m.texts.some((t) => t.includes(needle))).map((m) => m.id);
}

/** The same as one IdList for `inIdList` (server/db/prepared.ts), or undefined without a text (no filter). */
export const matchIdListOf = async (db: Db, text: string | undefined): Promise<IdList | undefined> =>
  text ? idList(db, await matchesContaining(db, text)) : undefined;
