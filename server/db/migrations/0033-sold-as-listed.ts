import { type Kysely, sql } from 'kysely';

/**
 * What was sold stays what was sold. A cart keeps the listing's terms when its tickets are held (the seats'
 * category, block, row and seats, the ticket type, the seller's price and currency): the buyer's booking, its
 * fees and the seller's takings are read from them, not from the listing, which its seller may edit meanwhile.
 * An order keeps the seats it sold (it kept the ticket type already, migration 0011). Until now they were read
 * from the listing: a seller who edited a listing after a sale changed the buyer's booking, the order and the
 * reports ('VIP Hospitality, Row 99' on tickets sold as 'Longside Lower Tier'), and a price or ticket type edited
 * between a hold and its payment changed the seller's takings and the fees charged. Rows made before this take
 * the listing's terms as they are now (the best there is).
 */
const CART_TERMS = [
  ['category', 'text', "''"],
  ['ticket_block', 'text', "''"],
  ['row', 'text', "''"],
  ['ticket_type_id', 'integer', '0'],
  ['seller_unit_price', 'integer', '0'],
  ['seller_currency', 'text', "''"],
] as const;
const ORDER_TERMS = ['category', 'ticket_block', 'row'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type, fallback] of CART_TERMS) {
    await db.schema
      .alterTable('carts')
      .addColumn(name, type, (c) => c.notNull().defaultTo(sql.raw(fallback)))
      .execute();
  }
  // the listing's seats are optional: none stays none
  await db.schema.alterTable('carts').addColumn('seats', 'varchar(100)').execute();
  await sql`UPDATE carts SET
      category = (SELECT l.category FROM listings l WHERE l.id = carts.listing_id),
      ticket_block = (SELECT l.ticket_block FROM listings l WHERE l.id = carts.listing_id),
      "row" = (SELECT l."row" FROM listings l WHERE l.id = carts.listing_id),
      seats = (SELECT l.seats FROM listings l WHERE l.id = carts.listing_id),
      ticket_type_id = (SELECT l.ticket_type_id FROM listings l WHERE l.id = carts.listing_id),
      seller_unit_price = (SELECT l.price FROM listings l WHERE l.id = carts.listing_id),
      seller_currency = (SELECT l.currency FROM listings l WHERE l.id = carts.listing_id)
    WHERE EXISTS (SELECT 1 FROM listings l WHERE l.id = carts.listing_id)`.execute(db);
  for (const name of ORDER_TERMS) {
    await db.schema
      .alterTable('orders')
      .addColumn(name, 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  }
  await db.schema.alterTable('orders').addColumn('seats', 'varchar(100)').execute();
  await sql`UPDATE orders SET
      category = (SELECT l.category FROM listings l WHERE l.id = orders.listing_id),
      ticket_block = (SELECT l.ticket_block FROM listings l WHERE l.id = orders.listing_id),
      "row" = (SELECT l."row" FROM listings l WHERE l.id = orders.listing_id),
      seats = (SELECT l.seats FROM listings l WHERE l.id = orders.listing_id)
    WHERE EXISTS (SELECT 1 FROM listings l WHERE l.id = orders.listing_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [...ORDER_TERMS, 'seats']) await db.schema.alterTable('orders').dropColumn(name).execute();
  for (const name of [...CART_TERMS.map(([n]) => n), 'seats']) {
    await db.schema.alterTable('carts').dropColumn(name).execute();
  }
}
