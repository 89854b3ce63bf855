import type { Kysely } from 'kysely';

/**
 * A buyer's live holds, read from an index: the hold limit counts them at every add-to-cart (buyer, holding,
 * ending after now) and the buyer's reads find the ended ones (ending up to now). `carts_buyer` (the buyer alone)
 * made both walk every cart the buyer ever had: thousands for a busy buyer, on the purchase's own path. The new
 * index starts with the buyer, so it serves what the old one did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('carts_buyer_holding')
    .on('carts')
    .columns(['buyer_id', 'hold_state', 'expires_at'])
    .execute();
  await db.schema.dropIndex('carts_buyer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('carts_buyer').on('carts').column('buyer_id').execute();
  await db.schema.dropIndex('carts_buyer_holding').execute();
}
