import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';

/**
 * A version of the match catalogue, moved by every insert, update and delete of `events` (triggers on both
 * engines). What a process keeps of the catalogue is good while the version it was read at is the current one
 * (server/domain/match-search.ts): the sales lists' match search looked for the text in the 60 matches' four
 * texts with SQL on every call (about 100 µs, a sixth of the call); it now reads this one row and searches a
 * copy of the texts kept in memory. A change by another process (or a Postgres server shared by several) moves
 * the version too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_version')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addCheckConstraint('catalog_version_one_row', sql`id = 1`)
    .execute();
  await sql`INSERT INTO catalog_version (id, version) VALUES (1, 0)`.execute(db);
  if (engineOf(db) === 'postgres') {
    await sql`CREATE FUNCTION catalog_version_move() RETURNS trigger AS $$
      BEGIN
        UPDATE catalog_version SET version = version + 1 WHERE id = 1;
        RETURN NULL;
      END $$ LANGUAGE plpgsql`.execute(db);
    await sql`CREATE TRIGGER events_catalog_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON events
      FOR EACH STATEMENT EXECUTE FUNCTION catalog_version_move()`.execute(db);
    return;
  }
  for (const change of ['INSERT', 'UPDATE', 'DELETE'])
    await sql
      .raw(`CREATE TRIGGER events_catalog_version_${change.toLowerCase()} AFTER ${change} ON events BEGIN
        UPDATE catalog_version SET version = version + 1 WHERE id = 1;
      END`)
      .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    await sql`DROP TRIGGER events_catalog_version ON events`.execute(db);
    await sql`DROP FUNCTION catalog_version_move()`.execute(db);
  } else
    for (const change of ['insert', 'update', 'delete'])
      await sql.raw(`DROP TRIGGER events_catalog_version_${change}`).execute(db);
  await db.schema.dropTable('catalog_version').execute();
}
