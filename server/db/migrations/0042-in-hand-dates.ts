import { type Kysely, sql } from 'kysely';

/**
 * Tickets in hand from a day, and deadlines that agree with each other.
 *
 * A listing may say from which day its seller has the tickets (`in_hand_date`, YYYY-MM-DD, none by default); a
 * cart keeps it with the listing's other terms when it holds tickets, and the order with what it sold: its
 * delivery is not due before the end of that day (server/domain/sales/deadlines.ts).
 *
 * A pending order's acceptance deadline is never after its delivery deadline: the open orders made before this,
 * which could read 'Accept by Mon 30 Nov' after 'Deliver by Sun 29 Nov', are clamped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['listings', 'carts', 'orders']) {
    await db.schema.alterTable(table).addColumn('in_hand_date', 'varchar(10)').execute();
  }
  await sql`UPDATE orders SET accept_by = deliver_by
    WHERE status = 'pending' AND deliver_by IS NOT NULL AND accept_by > deliver_by`.execute(db);
}
