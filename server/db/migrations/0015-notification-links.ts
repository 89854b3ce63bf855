import type { Kysely } from 'kysely';

/**
 * Actionable notifications (issue 12): a notification may carry the portal path it is about (the order in its
 * sales list, the buyer's booking, the wallet), which the panel opens. Only the server writes it, always a path
 * of this portal (`/…`, never a URL of another site); older notifications have none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').addColumn('link', 'varchar(200)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('notifications').dropColumn('link').execute();
}
