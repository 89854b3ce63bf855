import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * Resale price caps set by the operator (server/domain/listings/price-caps.ts): per country (the market of the
 * events held there) or per event, a ticket's price at most its face value plus `markup_bps` (0: face value).
 * One cap per country and one per event; `active` 0 keeps a cap written down without applying it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('price_caps')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('country_id', 'integer', (c) => c.references('countries.id').onDelete('cascade'))
    .addColumn('event_id', 'integer', (c) => c.references('events.id').onDelete('cascade'))
    .addColumn('markup_bps', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('price_caps_one_scope', sql`(country_id IS NULL) <> (event_id IS NULL)`)
    .execute();
  await db.schema.createIndex('price_caps_country').on('price_caps').column('country_id').unique().execute();
  await db.schema.createIndex('price_caps_event').on('price_caps').column('event_id').unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('price_caps').execute();
}
