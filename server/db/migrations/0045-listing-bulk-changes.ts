import type { Kysely } from 'kysely';
import { autoId } from './columns';

/**
 * Inventory at a broker's scale. `listing_logs.change_id` ties the rows of one change of a selection (a new price
 * for 4,000 listings, an unpublish of a filter's matches) together, so that Undo reverts exactly that change;
 * rows of one-off edits keep it null. `listing_views` are a seller's saved views of Inventory (filters, sort,
 * columns), shared by its team, at most 20 a seller, names unique per seller without regard to case.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('listing_logs').addColumn('change_id', 'varchar(48)').execute();
  await db.schema
    .createIndex('listing_logs_change')
    .on('listing_logs')
    .columns(['seller_id', 'change_id'])
    .where('change_id', 'is not', null)
    .execute();
  await db.schema
    .createTable('listing_views')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(60)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(60)', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('listing_views_name', ['seller_id', 'name_key'])
    .execute();
}
