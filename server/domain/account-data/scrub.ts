import { sql } from 'kysely';
import type { Db } from '../../db/database';

const TEXT_TYPE = /char|text|clob/i;

/**
 * Replaces `needle` by `by` in every text column of every table where it occurs: the last sweep of an erasure,
 * for the address where it was copied into free text (a mail's body, an activity line, a kept reply, a login
 * counter's key). The columns are read from the database itself (Kysely's introspection, the same on both
 * engines), so a table added later is swept too. Answers how many rows changed.
 */
export async function replaceEverywhere(db: Db, needle: string, by: string): Promise<number> {
  if (needle.length === 0) return 0;
  let changed = 0;
  const pattern = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  for (const table of await db.introspection.getTables()) {
    for (const column of table.columns) {
      if (!TEXT_TYPE.test(column.dataType)) continue;
      const col = sql.ref(column.name);
      const result = await sql`update ${sql.table(table.name)} set ${col} = replace(${col}, ${needle}, ${by})
        where ${col} like ${pattern} escape '\\'`.execute(db);
      changed += Number(result.numAffectedRows ?? 0);
    }
  }
  return changed;
}
