import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';

/**
 * A version per event of what the trade area shows of it (its row, its listings, its stock), and one for the
 * catalogue as a whole (event 0, moved by any change of `events`). Answers shared by every buyer (the trade search's
 * events and stock, the event page, server/domain/catalog-answers.ts) are kept while the versions they were read
 * at are the current ones: a purchase on one match ends the kept answers of that match only.
 *
 * Triggers move it in the writer's own transaction, whatever code writes (a hold, a purchase, a release by the
 * housekeeping, a listing's create, edit, price, publish or delete, a bulk upload, an admin's event edit), on
 * both engines and across processes. An event's version is the sum of its rows (`shard`): on Postgres a writer
 * moves the row of its connection's shard, so that two purchases of one match do not wait for one row; the
 * listing's update moves it in a deferred trigger, at commit, so that the row is held for the commit only. A
 * sum read in one statement only grows, one a commit, so equal sums mean the same commits were seen. SQLite has
 * one writer at a time and moves shard 0.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_versions')
    .addColumn('event_id', 'integer', (c) => c.notNull())
    .addColumn('shard', 'integer', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_versions_pk', ['event_id', 'shard'])
    .execute();
  // the events a buyer sells (its own listings are never offered to it): one index seek, none for most buyers
  await sql`CREATE INDEX event_stock_seller ON event_stock (seller_id, event_id) WHERE listings > 0`.execute(db);
  if (engineOf(db) === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
}

const upsert = (eventIds: string, shard: string) => `INSERT INTO event_versions (event_id, shard, version)
    ${eventIds.replace('$SHARD', shard)}
    ON CONFLICT (event_id, shard) DO UPDATE SET version = event_versions.version + 1;`;

async function postgresTriggers(db: Kysely<unknown>) {
  const shard = 'pg_backend_pid() % 8';
  await sql
    .raw(`CREATE FUNCTION event_version_listing_rows() RETURNS trigger AS $$
      BEGIN
        ${upsert('SELECT DISTINCT e, $SHARD, 1 FROM unnest(ARRAY[OLD.event_id, NEW.event_id]) AS e ORDER BY 1', shard)}
        RETURN NULL;
      END $$ LANGUAGE plpgsql`)
    .execute(db);
  for (const change of ['INSERT', 'DELETE'])
    await sql
      .raw(`CREATE FUNCTION event_version_listings_${change.toLowerCase()}() RETURNS trigger AS $$
        BEGIN
          ${upsert(`SELECT DISTINCT event_id, $SHARD, 1 FROM changed ORDER BY 1`, shard)}
          RETURN NULL;
        END $$ LANGUAGE plpgsql`)
      .execute(db);
  await sql`CREATE CONSTRAINT TRIGGER listings_event_version_update AFTER UPDATE ON listings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*)
    EXECUTE FUNCTION event_version_listing_rows()`.execute(db);
  await sql`CREATE TRIGGER listings_event_version_insert AFTER INSERT ON listings
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION event_version_listings_insert()`.execute(db);
  await sql`CREATE TRIGGER listings_event_version_delete AFTER DELETE ON listings
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION event_version_listings_delete()`.execute(db);
  await sql
    .raw(`CREATE FUNCTION event_version_events() RETURNS trigger AS $$
      BEGIN
        ${upsert(
          `SELECT DISTINCT e, $SHARD, 1 FROM unnest(ARRAY[0, CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END]) AS e ORDER BY 1`,
          shard,
        )}
        RETURN NULL;
      END $$ LANGUAGE plpgsql`)
    .execute(db);
  await sql`CREATE TRIGGER events_event_version AFTER INSERT OR UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION event_version_events()`.execute(db);
}

async function sqliteTriggers(db: Kysely<unknown>) {
  const one = (id: string) => upsert(`SELECT ${id}, $SHARD, 1 WHERE true`, '0');
  const triggers: [string, string, string[]][] = [
    ['listings_event_version_insert', 'INSERT ON listings', ['NEW.event_id']],
    ['listings_event_version_delete', 'DELETE ON listings', ['OLD.event_id']],
    ['events_event_version_insert', 'INSERT ON events', ['0', 'NEW.id']],
    ['events_event_version_update', 'UPDATE ON events', ['0', 'OLD.id', 'NEW.id']],
    ['events_event_version_delete', 'DELETE ON events', ['0', 'OLD.id']],
  ];
  for (const [name, on, ids] of triggers)
    await sql.raw(`CREATE TRIGGER ${name} AFTER ${on} BEGIN ${ids.map(one).join('\n')} END`).execute(db);
  // a listing moved to another match moves both
  await sql
    .raw(`CREATE TRIGGER listings_event_version_update AFTER UPDATE ON listings BEGIN
      ${one('NEW.event_id')}
      ${upsert('SELECT OLD.event_id, $SHARD, 1 WHERE OLD.event_id <> NEW.event_id', '0')}
    END`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (engineOf(db) === 'postgres') {
    await sql`DROP TRIGGER listings_event_version_update ON listings`.execute(db);
    await sql`DROP TRIGGER listings_event_version_insert ON listings`.execute(db);
    await sql`DROP TRIGGER listings_event_version_delete ON listings`.execute(db);
    await sql`DROP TRIGGER events_event_version ON events`.execute(db);
    for (const f of ['listing_rows', 'listings_insert', 'listings_delete', 'events'])
      await sql.raw(`DROP FUNCTION event_version_${f}()`).execute(db);
  } else
    for (const name of [
      'listings_event_version_insert',
      'listings_event_version_update',
      'listings_event_version_delete',
      'events_event_version_insert',
      'events_event_version_update',
      'events_event_version_delete',
    ])
      await sql.raw(`DROP TRIGGER ${name}`).execute(db);
  await sql`DROP INDEX event_stock_seller`.execute(db);
  await db.schema.dropTable('event_versions').execute();
}
