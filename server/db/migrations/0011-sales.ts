import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * Sales and fulfilment (issue 12): what the order lifecycle, delivery and the sales lists need.
 *
 * - `orders` gains its own `ticket_type_id` (copied from the listing at sale: the seller may change how an order
 *   is delivered without touching the listing), `delivered` (how many of its tickets are delivered; the order
 *   machine's count), `accept_by` (a pending order's 48 hours) and `deliver_by` (the delivery deadline), the
 *   seller team's `notes`, the `instruction_file_id` (a row of `files`) and `guests` (JSON list of the names the
 *   tickets are for, for orders with no booking behind them; orders from a purchase read their booking's).
 *   The buyer of an order is its booking's (`bookings.order_id`, indexed here).
 * - `order_logs`: one row per change (who, when, from, to, why, what).
 * - `order_deliveries`: one row per delivered ticket, unique by (order, ticket number), so two uploads racing for
 *   the same ticket cannot both deliver it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .alterTable('orders')
    .addColumn('ticket_type_id', 'integer', (c) => c.notNull().defaultTo(1).check(sql`ticket_type_id BETWEEN 1 AND 6`))
    .execute();
  await sql`UPDATE orders SET ticket_type_id = (SELECT l.ticket_type_id FROM listings l WHERE l.id = orders.listing_id)`.execute(
    db,
  );
  await db.schema
    .alterTable('orders')
    .addColumn('delivered', 'integer', (c) => c.notNull().defaultTo(0).check(sql`delivered >= 0`))
    .execute();
  await db.schema.alterTable('orders').addColumn('accept_by', 'varchar(32)').execute();
  await db.schema.alterTable('orders').addColumn('deliver_by', 'varchar(32)').execute();
  await db.schema.alterTable('orders').addColumn('notes', 'text').execute();
  await db.schema.alterTable('orders').addColumn('notes_updated_at', 'varchar(32)').execute();
  await db.schema
    .alterTable('orders')
    .addColumn('instruction_file_id', 'varchar(64)', (c) => c.references('files.id'))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('guests', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  // the deadlines of the open orders already there (the same rule as server/domain/sales/deadlines.ts)
  const open = await sql<{ id: number; created_at: string; event_date: string; event_time: string; status: string }>`
    SELECT id, created_at, event_date, event_time, status FROM orders WHERE status IN ('pending', 'confirmed')`.execute(
    db,
  );
  for (const o of open.rows) {
    const created = Date.parse(o.created_at);
    const start = Date.parse(`${o.event_date}T${o.event_time}:00.000Z`);
    const early = start - 48 * 3_600_000;
    const late = Math.max(created, Math.min(created + 24 * 3_600_000, start - 2 * 3_600_000));
    const deliverBy = new Date(Math.max(early, late)).toISOString();
    const acceptBy = o.status === 'pending' ? new Date(created + 48 * 3_600_000).toISOString() : null;
    await sql`UPDATE orders SET deliver_by = ${deliverBy}, accept_by = ${acceptBy} WHERE id = ${o.id}`.execute(db);
  }

  // the six lists: a seller's orders of one status newest first read 0007's orders_seller_status_created; by
  // deadline (the delivery cockpit of Awaiting Delivery) this one
  await db.schema
    .createIndex('orders_seller_status_deadline')
    .on('orders')
    .columns(['seller_id', 'status', 'deliver_by', 'id'])
    .execute();
  // the clock's work: pending orders past their 48 hours, delivered orders whose match is over
  await db.schema.createIndex('orders_status_accept_by').on('orders').columns(['status', 'accept_by']).execute();
  await db.schema.createIndex('orders_status_event_date').on('orders').columns(['status', 'event_date']).execute();
  await db.schema.createIndex('bookings_order').on('bookings').column('order_id').execute();

  await db.schema
    .createTable('order_logs')
    .addColumn('id', 'integer', id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('action', 'varchar(32)', (c) => c.notNull())
    .addColumn('from_status', 'varchar(16)')
    .addColumn('to_status', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(500)')
    .addColumn('detail', 'varchar(500)')
    .addColumn('actor', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('order_logs_actor', sql`actor IN ('seller', 'admin', 'system', 'buyer')`)
    .execute();
  await db.schema.createIndex('order_logs_order').on('order_logs').columns(['order_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('order_deliveries')
    .addColumn('id', 'integer', id)
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('ticket_no', 'integer', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_id', 'varchar(64)', (c) => c.references('files.id'))
    .addColumn('page', 'integer')
    .addColumn('transfer_link', 'varchar(2000)')
    .addColumn('courier', 'varchar(100)')
    .addColumn('tracking_number', 'varchar(64)')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('delivered_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('order_deliveries_ticket', ['order_id', 'ticket_no'])
    .addCheckConstraint('order_deliveries_ticket_no', sql`ticket_no >= 1`)
    .addCheckConstraint(
      'order_deliveries_type',
      sql`type IN ('pdf', 'pdf_page', 'transfer_link', 'wallet_pass', 'courier', 'collection')`,
    )
    .execute();
}
