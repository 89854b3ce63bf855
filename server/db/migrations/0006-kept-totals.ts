import { type Kysely, sql } from 'kysely';
import { engineOf } from '../database';

/**
 * Kept totals, so that the dashboard, the menu's counts and the notifications panel cost the same for a seller
 * with 100,000 orders as for one with 40 (server/domain/sales.ts, server/domain/notifications.ts):
 *
 * - `seller_order_totals`: orders, tickets and amount per seller, currency and status; `seller_event_totals`:
 *   the same per seller, currency and event for the orders that are not cancelled (top-selling events). Both
 *   are changed by `recordOrder` and `changeOrderStatus` in the transaction of the order write.
 * - `orders.event_date` and `event_time`, copied from the order's event, so that one index lists a seller's
 *   confirmed orders in a currency by event date (awaiting delivery) without sorting them all.
 * - `user_feed_counts`: each user's notifications, unread notifications and activity rows, kept by triggers on
 *   those tables: their rows are written from several places (logins and logouts in server/auth, the
 *   notifications calls, later the order flows), and a trigger is the one place none of them can forget.
 *
 * Everything is filled from the rows already there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // a seller's takings pass 2^31 minor units (£21 million) long before its order count does: amounts are bigint.
  // A total below zero is a bug in the code that keeps it: the CHECK fails the write rather than the figures lie.
  await db.schema
    .createTable('seller_order_totals')
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('orders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tickets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('seller_order_totals_pk', ['seller_id', 'currency', 'status'])
    .addCheckConstraint('seller_order_totals_not_negative', sql`orders >= 0 AND tickets >= 0 AND amount >= 0`)
    .execute();
  await db.schema
    .createTable('seller_event_totals')
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().references('currencies.code'))
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id'))
    .addColumn('orders', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tickets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('amount', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('seller_event_totals_pk', ['seller_id', 'currency', 'event_id'])
    .addCheckConstraint('seller_event_totals_not_negative', sql`orders >= 0 AND tickets >= 0 AND amount >= 0`)
    .execute();
  // the top 5 events of a seller in a currency, read in order from the index
  await db.schema
    .createIndex('seller_event_totals_top')
    .on('seller_event_totals')
    .columns(['seller_id', 'currency', 'tickets desc', 'amount desc', 'event_id'])
    .execute();
  await sql`
    INSERT INTO seller_order_totals (seller_id, currency, status, orders, tickets, amount)
    SELECT seller_id, currency, status, COUNT(*), SUM(quantity), SUM(amount) FROM orders
    GROUP BY seller_id, currency, status`.execute(db);
  await sql`
    INSERT INTO seller_event_totals (seller_id, currency, event_id, orders, tickets, amount)
    SELECT seller_id, currency, event_id, COUNT(*), SUM(quantity), SUM(amount) FROM orders
    WHERE status <> 'cancelled' GROUP BY seller_id, currency, event_id`.execute(db);

  await db.schema
    .alterTable('orders')
    .addColumn('event_date', 'varchar(10)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('event_time', 'varchar(5)', (c) => c.notNull().defaultTo(''))
    .execute();
  await sql`
    UPDATE orders SET
      event_date = (SELECT events.event_date FROM events WHERE events.id = orders.event_id),
      event_time = (SELECT events.event_time FROM events WHERE events.id = orders.event_id)`.execute(db);
  // awaiting delivery: a seller's orders in one currency and status, soonest event first; its first three
  // columns serve every other (seller, currency, status) lookup the dropped index served
  await db.schema.dropIndex('orders_seller_currency_status').execute();
  await db.schema
    .createIndex('orders_seller_currency_status_event')
    .on('orders')
    .columns(['seller_id', 'currency', 'status', 'event_date', 'event_time', 'id'])
    .execute();

  await db.schema
    .createTable('user_feed_counts')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('notifications', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('unread_notifications', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('activity', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`
    INSERT INTO user_feed_counts (user_id, notifications, unread_notifications, activity)
    SELECT users.id,
      (SELECT COUNT(*) FROM notifications WHERE notifications.user_id = users.id),
      (SELECT COUNT(*) FROM notifications WHERE notifications.user_id = users.id AND viewed = 0),
      (SELECT COUNT(*) FROM activity_log WHERE activity_log.user_id = users.id)
    FROM users`.execute(db);
  if (engineOf(db) === 'postgres') await postgresFeedTriggers(db);
  else await sqliteFeedTriggers(db);
}

// SQLite: a row's share of the counts (user, notifications, unread, activity), added on insert, taken on
// delete, and moved on an update that changes `viewed` (or the user).
const addNotification = (row: 'NEW') =>
  sql.raw(`
    INSERT INTO user_feed_counts (user_id, notifications, unread_notifications, activity)
    VALUES (${row}.user_id, 1, CASE WHEN ${row}.viewed = 0 THEN 1 ELSE 0 END, 0)
    ON CONFLICT (user_id) DO UPDATE SET
      notifications = user_feed_counts.notifications + 1,
      unread_notifications = user_feed_counts.unread_notifications + excluded.unread_notifications;`);
const takeNotification = (row: 'OLD') =>
  sql.raw(`
    UPDATE user_feed_counts SET
      notifications = notifications - 1,
      unread_notifications = unread_notifications - CASE WHEN ${row}.viewed = 0 THEN 1 ELSE 0 END
    WHERE user_id = ${row}.user_id;`);
const addActivity = (row: 'NEW') =>
  sql.raw(`
    INSERT INTO user_feed_counts (user_id, notifications, unread_notifications, activity)
    VALUES (${row}.user_id, 0, 0, 1)
    ON CONFLICT (user_id) DO UPDATE SET activity = user_feed_counts.activity + 1;`);
const takeActivity = (row: 'OLD') =>
  sql.raw(`
    UPDATE user_feed_counts SET activity = activity - 1 WHERE user_id = ${row}.user_id;`);

/** SQLite has row triggers only; updating one row many times in a transaction costs it nothing special. */
async function sqliteFeedTriggers(db: Kysely<unknown>) {
  await sql`CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications
    BEGIN ${addNotification('NEW')} END`.execute(db);
  await sql`CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications
    BEGIN ${takeNotification('OLD')} END`.execute(db);
  await sql`CREATE TRIGGER notifications_count_update AFTER UPDATE OF viewed, user_id ON notifications
    WHEN OLD.viewed IS NOT NEW.viewed OR OLD.user_id IS NOT NEW.user_id
    BEGIN ${takeNotification('OLD')} ${addNotification('NEW')} END`.execute(db);
  await sql`CREATE TRIGGER activity_count_insert AFTER INSERT ON activity_log
    BEGIN ${addActivity('NEW')} END`.execute(db);
  await sql`CREATE TRIGGER activity_count_delete AFTER DELETE ON activity_log
    BEGIN ${takeActivity('OLD')} END`.execute(db);
}

/**
 * On Postgres the counts change once per statement, from its transition tables (rows added, rows removed),
 * grouped by user: a bulk insert of 100,000 rows updates each user's counts once, where a row trigger would
 * update one row 100,000 times in one transaction (each update a new version of it to step over). Rows taken
 * away only ever update a count (never insert one), so deleting a user, whose counts row its cascade deletes
 * too, cannot bring that row back.
 */
async function postgresFeedTriggers(db: Kysely<unknown>) {
  const add = (rows: string, notifications: string, unread: string, activity: string) => `
    INSERT INTO user_feed_counts (user_id, notifications, unread_notifications, activity)
    SELECT user_id, ${notifications}, ${unread}, ${activity} FROM ${rows} GROUP BY user_id
    ON CONFLICT (user_id) DO UPDATE SET
      notifications = user_feed_counts.notifications + excluded.notifications,
      unread_notifications = user_feed_counts.unread_notifications + excluded.unread_notifications,
      activity = user_feed_counts.activity + excluded.activity;`;
  const take = (rows: string, notifications: string, unread: string, activity: string) => `
    UPDATE user_feed_counts SET
      notifications = user_feed_counts.notifications - gone.n,
      unread_notifications = user_feed_counts.unread_notifications - gone.u,
      activity = user_feed_counts.activity - gone.a
    FROM (SELECT user_id, ${notifications} AS n, ${unread} AS u, ${activity} AS a FROM ${rows} GROUP BY user_id) AS gone
    WHERE user_feed_counts.user_id = gone.user_id;`;
  const unread = 'SUM(CASE WHEN viewed = 0 THEN 1 ELSE 0 END)';
  // an update moves a row's share only when it changes what is counted (viewed, or the user)
  const moved = (
    side: 'o' | 'n',
  ) => `(SELECT ${side}.user_id, ${side}.viewed FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE o.viewed IS DISTINCT FROM n.viewed OR o.user_id IS DISTINCT FROM n.user_id) AS moved`;
  await sql`CREATE FUNCTION notifications_count() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${sql.raw(add('new_rows', 'COUNT(*)', unread, '0'))}
      ELSIF TG_OP = 'DELETE' THEN ${sql.raw(take('old_rows', 'COUNT(*)', unread, '0'))}
      ELSE
        ${sql.raw(take(moved('o'), 'COUNT(*)', unread, '0'))}
        ${sql.raw(add(moved('n'), 'COUNT(*)', unread, '0'))}
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER notifications_count_insert AFTER INSERT ON notifications
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count()`.execute(db);
  await sql`CREATE TRIGGER notifications_count_delete AFTER DELETE ON notifications
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION notifications_count()`.execute(db);
  await sql`CREATE TRIGGER notifications_count_update AFTER UPDATE ON notifications
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION notifications_count()`.execute(db);
  await sql`CREATE FUNCTION activity_count() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${sql.raw(add('new_rows', '0', '0', 'COUNT(*)'))}
      ELSE ${sql.raw(take('old_rows', '0', '0', 'COUNT(*)'))}
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER activity_count_insert AFTER INSERT ON activity_log
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_count()`.execute(db);
  await sql`CREATE TRIGGER activity_count_delete AFTER DELETE ON activity_log
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_count()`.execute(db);
}
