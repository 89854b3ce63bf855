import type { Kysely } from 'kysely';
import { autoId } from './columns';

/**
 * Additional templates (issue 11): a seller's reusable texts (with an optional file) that a listing picks in Add
 * Inventory. `additional_templates` belongs to the seller (a team member acts for it); `name_key` is the name in
 * lower case, unique per seller. `listing_templates` links a listing to the templates it carries; deleting a
 * template or a listing removes its links.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('additional_templates')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('file_id', 'varchar(64)', (c) => c.references('files.id'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('additional_templates_seller_name')
    .on('additional_templates')
    .columns(['seller_id', 'name_key'])
    .unique()
    .execute();

  await db.schema
    .createTable('listing_templates')
    .addColumn('listing_id', 'integer', (c) => c.notNull().references('listings.id').onDelete('cascade'))
    .addColumn('template_id', 'integer', (c) => c.notNull().references('additional_templates.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('listing_templates_pk', ['listing_id', 'template_id'])
    .execute();
  await db.schema.createIndex('listing_templates_template').on('listing_templates').column('template_id').execute();
}
