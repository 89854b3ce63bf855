import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';

/**
 * A user's notification and activity counts in up to 16 rows (`user_feed_count_shards`, docs/decisions/
 * escrow-shards.md): a row's share is in the shard of its id modulo 16. Every sale notifies its seller, and the
 * trigger's update of the seller's one `user_feed_counts` row held that row locked until the purchase committed,
 * so that one seller's concurrent sales waited on each other there. Readers sum the shards.
 *
 * The shards are filled by a recount of the rows by shard, not by copying the counts into shard 0: a read or a
 * delete of a row made before takes its share from the row's own shard, which must hold it. The triggers are
 * replaced (same names) and the recount done with the counted tables locked, so that no write falls between.
 * `user_feed_counts` stays, no longer kept (an older version still serving reads it while this runs): a later
 * release drops it.
 */
const SHARDS = 16;

export async function up(db: Kysely<unknown>): Promise<void> {
  // Kysely runs a Postgres migration in a transaction; SQLite's we open here (one writer, held to the end)
  if (db.isTransaction || engineOf(db) === 'postgres') await shard(db);
  else await db.transaction().execute(shard);
}

async function shard(db: Kysely<unknown>) {
  await db.schema
    .createTable('user_feed_count_shards')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('shard', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notifications', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unread_notifications', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('activity', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('user_feed_count_shards_pk', ['user_id', 'shard'])
    .execute();
  if (engineOf(db) === 'postgres') {
    // writers of the counted tables wait from here to the commit: the recount and the new triggers see the same rows
    await sql`LOCK TABLE notifications, activity_log IN SHARE ROW EXCLUSIVE MODE`.execute(db);
    await postgresShardTriggers(db);
  } else {
    for (const name of ['notifications_count_insert', 'notifications_count_delete', 'notifications_count_update'])
      await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(db);
    for (const name of ['activity_count_insert', 'activity_count_delete'])
      await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(db);
    await sqliteShardTriggers(db);
  }
  await sql`
    INSERT INTO user_feed_count_shards (user_id, shard, notifications, unread_notifications, activity)
    SELECT user_id, shard, SUM(n), SUM(u), SUM(a) FROM (
      SELECT user_id, id % ${sql.lit(SHARDS)} AS shard, 1 AS n, CASE WHEN viewed = 0 THEN 1 ELSE 0 END AS u, 0 AS a
      FROM notifications
      UNION ALL SELECT user_id, id % ${sql.lit(SHARDS)}, 0, 0, 1 FROM activity_log
    ) AS counted GROUP BY user_id, shard`.execute(db);
}

const S = `% ${SHARDS}`;

// SQLite: a row's share (user, shard, notifications, unread, activity), added on insert, taken on delete, and
// moved on an update that changes `viewed` (or the user)
const addNotification = `
  INSERT INTO user_feed_count_shards (user_id, shard, notifications, unread_notifications, activity)
  VALUES (NEW.user_id, NEW.id ${S}, 1, CASE WHEN NEW.viewed = 0 THEN 1 ELSE 0 END, 0)
  ON CONFLICT (user_id, shard) DO UPDATE SET
    notifications = user_feed_count_shards.notifications + 1,
    unread_notifications = user_feed_count_shards.unread_notifications + excluded.unread_notifications;`;
const takeNotification = `
  UPDATE user_feed_count_shards SET
    notifications = notifications - 1,
    unread_notifications = unread_notifications - CASE WHEN OLD.viewed = 0 THEN 1 ELSE 0 END
  WHERE user_id = OLD.user_id AND shard = OLD.id ${S};`;

async function sqliteShardTriggers(db: Kysely<unknown>) {
  await sql`CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications
    BEGIN ${sql.raw(addNotification)} END`.execute(db);
  await sql`CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications
    BEGIN ${sql.raw(takeNotification)} END`.execute(db);
  await sql`CREATE TRIGGER notifications_count_update AFTER UPDATE OF viewed, user_id ON notifications
    WHEN OLD.viewed IS NOT NEW.viewed OR OLD.user_id IS NOT NEW.user_id
    BEGIN ${sql.raw(takeNotification)} ${sql.raw(addNotification)} END`.execute(db);
  await sql`CREATE TRIGGER activity_count_insert AFTER INSERT ON activity_log BEGIN
    INSERT INTO user_feed_count_shards (user_id, shard, notifications, unread_notifications, activity)
    VALUES (NEW.user_id, NEW.id ${sql.raw(S)}, 0, 0, 1)
    ON CONFLICT (user_id, shard) DO UPDATE SET activity = user_feed_count_shards.activity + 1; END`.execute(db);
  await sql`CREATE TRIGGER activity_count_delete AFTER DELETE ON activity_log BEGIN
    UPDATE user_feed_count_shards SET activity = activity - 1
    WHERE user_id = OLD.user_id AND shard = OLD.id ${sql.raw(S)}; END`.execute(db);
}

/**
 * Postgres: the statement triggers of 0006 stay and call the same functions, replaced here: the counts change once
 * per statement and shard, from the transition tables, grouped by user and shard. Rows taken away only ever update
 * a count (never insert one), so deleting a user, whose count rows its cascade deletes too, cannot bring one back.
 */
async function postgresShardTriggers(db: Kysely<unknown>) {
  const add = (rows: string, notifications: string, unread: string, activity: string) => `
    INSERT INTO user_feed_count_shards (user_id, shard, notifications, unread_notifications, activity)
    SELECT user_id, id ${S}, ${notifications}, ${unread}, ${activity} FROM ${rows} GROUP BY user_id, id ${S}
    ON CONFLICT (user_id, shard) DO UPDATE SET
      notifications = user_feed_count_shards.notifications + excluded.notifications,
      unread_notifications = user_feed_count_shards.unread_notifications + excluded.unread_notifications,
      activity = user_feed_count_shards.activity + excluded.activity;`;
  const take = (rows: string, notifications: string, unread: string, activity: string) => `
    UPDATE user_feed_count_shards SET
      notifications = user_feed_count_shards.notifications - gone.n,
      unread_notifications = user_feed_count_shards.unread_notifications - gone.u,
      activity = user_feed_count_shards.activity - gone.a
    FROM (SELECT user_id, id ${S} AS shard, ${notifications} AS n, ${unread} AS u, ${activity} AS a FROM ${rows}
      GROUP BY user_id, id ${S}) AS gone
    WHERE user_feed_count_shards.user_id = gone.user_id AND user_feed_count_shards.shard = gone.shard;`;
  const unread = 'SUM(CASE WHEN viewed = 0 THEN 1 ELSE 0 END)';
  // an update moves a row's share only when it changes what is counted (viewed, or the user)
  const moved = (
    side: 'o' | 'n',
  ) => `(SELECT ${side}.id, ${side}.user_id, ${side}.viewed FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.viewed IS DISTINCT FROM n.viewed OR o.user_id IS DISTINCT FROM n.user_id) AS moved`;
  await sql`CREATE OR REPLACE FUNCTION notifications_count() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${sql.raw(add('new_rows', 'COUNT(*)', unread, '0'))}
      ELSIF TG_OP = 'DELETE' THEN ${sql.raw(take('old_rows', 'COUNT(*)', unread, '0'))}
      ELSE
        ${sql.raw(take(moved('o'), 'COUNT(*)', unread, '0'))}
        ${sql.raw(add(moved('n'), 'COUNT(*)', unread, '0'))}
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION activity_count() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${sql.raw(add('new_rows', '0', '0', 'COUNT(*)'))}
      ELSE ${sql.raw(take('old_rows', '0', '0', 'COUNT(*)'))}
      END IF;
      RETURN NULL;
    END $$`.execute(db);
}
