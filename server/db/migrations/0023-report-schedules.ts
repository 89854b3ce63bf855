import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * Scheduled reports (issue 14, item 4; beyond the spec).
 *
 * - `report_schedules`: one per seller: a weekly (Monday to Sunday) or monthly email of the period's report as
 *   XLSX, in one currency, to the user who set it (`user_id`). `last_sent_period` is the first day (UTC) of the
 *   last period sent, or of the last period that had ended when the schedule was set (nothing before it is owed):
 *   a sender claims a period by moving it forward only where it still holds the older value, so one process sends.
 * - `mail_outbox_attachments`: the files of a message kept in the outbox (base64 text on both engines), shown by
 *   the development mail viewer; they go with their message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .createTable('report_schedules')
    .addColumn('id', 'integer', id)
    .addColumn('seller_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('frequency', 'varchar(10)', (c) => c.notNull())
    .addColumn('currency', 'varchar(3)', (c) => c.notNull())
    .addColumn('last_sent_period', 'varchar(10)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addCheckConstraint('report_schedules_frequency', sql`frequency IN ('weekly', 'monthly')`)
    .execute();
  await db.schema
    .createTable('mail_outbox_attachments')
    .addColumn('id', 'integer', id)
    .addColumn('mail_id', 'integer', (c) => c.notNull().references('mail_outbox.id').onDelete('cascade'))
    .addColumn('filename', 'varchar(200)', (c) => c.notNull())
    .addColumn('mime', 'varchar(100)', (c) => c.notNull())
    .addColumn('content_base64', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_outbox_attachments_mail').on('mail_outbox_attachments').column('mail_id').execute();
}
