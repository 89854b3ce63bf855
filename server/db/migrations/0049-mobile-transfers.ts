import type { Kysely } from 'kysely';

/**
 * Mobile tickets as the clubs hand them out (server/domain/sales/transfers.ts).
 *
 * - `events.transfer_window_hours`: the club releases transfers only this many hours before kick-off (none: no
 *   window). An order sold for such an event keeps when its transfers open (`orders.transfers_open_at`), and a
 *   mobile order's delivery deadline is never before the window has been open for a while.
 * - `orders.transfer_accepted_at`: when the buyer said they accepted the transfer; `transfer_reminders` and
 *   `transfer_reminded_at` count the reminders sent meanwhile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('transfer_window_hours', 'integer').execute();
  await db.schema.alterTable('orders').addColumn('transfers_open_at', 'varchar(32)').execute();
  await db.schema.alterTable('orders').addColumn('transfer_accepted_at', 'varchar(32)').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('transfer_reminders', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('orders').addColumn('transfer_reminded_at', 'varchar(32)').execute();
}
