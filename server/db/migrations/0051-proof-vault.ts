import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema';
import { autoId } from './columns';

/**
 * The proof vault and the buyers' claims (server/domain/disputes/, docs/decisions/disputes.md).
 *
 * - `delivery_proofs`: what each delivery leaves behind, written in the delivery's transaction from now on.
 * - `order_disputes`: a buyer's claim on an order, one an order (`order_id` unique), queued by status and age.
 *
 * The backfill gives every order delivered before this migration the proof that can be derived: one row per
 * delivered ticket (the file's sha256 as stored at upload, the link, the courier and tracking number; a PDF's
 * pages are not re-read) and, for a delivered or completed order with no delivery row, the order log's record of
 * its delivery.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('delivery_proofs')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
    .addColumn('kind', 'varchar(24)', (c) => c.notNull())
    .addColumn('ticket_nos', 'varchar(400)')
    .addColumn('file_id', 'varchar(64)')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('pages', 'integer')
    .addColumn('reference', 'varchar(2100)')
    .addColumn('user_id', 'integer')
    .addColumn('source', 'varchar(12)', (c) => c.notNull().defaultTo('recorded'))
    .addColumn('recorded_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('delivery_proofs_order').on('delivery_proofs').columns(['order_id', 'id']).execute();
  await db.schema
    .createTable('order_disputes')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id'))
    .addColumn('buyer_id', 'integer', (c) => c.notNull())
    .addColumn('seller_id', 'integer', (c) => c.notNull())
    .addColumn('reason', 'varchar(16)', (c) => c.notNull())
    .addColumn('description', 'varchar(1000)', (c) => c.notNull())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('opened_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('resolved_at', 'varchar(32)')
    .addColumn('resolved_by', 'integer')
    .addColumn('resolution_note', 'varchar(500)')
    .execute();
  await db.schema
    .createIndex('order_disputes_status')
    .on('order_disputes')
    .columns(['status', 'opened_at', 'id'])
    .execute();
  await backfillProofs(db as unknown as Kysely<Database>, 'backfill');
}

/**
 * Proof for delivered tickets that have none, and for delivered or completed orders with no delivery row: the
 * migration's backfill, and the demo seed's (its deliveries are written as rows, not through the delivery calls).
 */
export async function backfillProofs(db: Kysely<Database>, source: string): Promise<void> {
  await db
    .insertInto('delivery_proofs')
    .columns([
      'order_id',
      'kind',
      'ticket_nos',
      'file_id',
      'sha256',
      'pages',
      'reference',
      'user_id',
      'source',
      'recorded_at',
    ])
    .expression(
      db
        .selectFrom('order_deliveries as d')
        .leftJoin('files as f', 'f.id', 'd.file_id')
        .select((eb) => [
          'd.order_id',
          'd.type',
          sql<string>`cast(${eb.ref('d.ticket_no')} as varchar(12))`.as('ticket_nos'),
          'd.file_id',
          'f.sha256',
          sql<number | null>`cast(null as integer)`.as('pages'),
          eb
            .case()
            .when('d.type', '=', 'courier')
            .then(sql<string>`${eb.ref('d.courier')} || ' ' || coalesce(${eb.ref('d.tracking_number')}, '')`)
            .else(eb.ref('d.transfer_link'))
            .end()
            .as('reference'),
          'd.user_id',
          sql<string>`cast(${source} as varchar(12))`.as('source'),
          'd.delivered_at',
        ])
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('delivery_proofs as p')
                .select('p.id')
                .whereRef('p.order_id', '=', 'd.order_id')
                .where('p.kind', '<>', 'download'),
            ),
          ),
        ),
    )
    .execute();
  await db
    .insertInto('delivery_proofs')
    .columns(['order_id', 'kind', 'reference', 'source', 'recorded_at'])
    .expression(
      db
        .selectFrom('orders as o')
        .select((eb) => [
          'o.id',
          sql<string>`'order_log'`.as('kind'),
          sql<string>`'Delivered, as the order log records; no delivery was kept.'`.as('reference'),
          sql<string>`cast(${source} as varchar(12))`.as('source'),
          eb.fn
            .coalesce(
              eb
                .selectFrom('order_logs as l')
                .select((l) => l.fn.min<string>('l.created_at').as('at'))
                .whereRef('l.order_id', '=', 'o.id')
                .where('l.to_status', '=', 'delivered'),
              'o.updated_at',
            )
            .as('recorded_at'),
        ])
        .where('o.status', 'in', ['delivered', 'completed'])
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('delivery_proofs as p').select('p.id').whereRef('p.order_id', '=', 'o.id'))),
        ),
    )
    .execute();
}
