import type { Kysely } from 'kysely';

/**
 * What a payment's card authentication was, and the ticket's terms a booking shows.
 *
 * `payments.authentication` says how the card holder was authenticated, or which exemption applied: challenge
 * (3-D Secure, the buyer confirmed with the bank), frictionless (3-D Secure without a challenge), exemption, none
 * (no 3-D Secure), not_applicable (no card: SB Pay); null where it is not known (payments made before this).
 *
 * A cart keeps the listing's face value (in the listing's currency, `seller_currency`) and restrictions with its
 * other terms when it holds tickets, so that the booking and the purchase page show what was bought.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('authentication', 'varchar(40)').execute();
  await db.schema.alterTable('carts').addColumn('face_value', 'integer').execute();
  await db.schema
    .alterTable('carts')
    .addColumn('restrictions', 'varchar(300)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('carts').dropColumn('restrictions').execute();
  await db.schema.alterTable('carts').dropColumn('face_value').execute();
  await db.schema.alterTable('payments').dropColumn('authentication').execute();
}
