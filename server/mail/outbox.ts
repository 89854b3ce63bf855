import type { Clock } from '../clock';
import type { Db } from '../db/database';
import type { Mailer, MailMessage } from './port';

/** How long the outbox keeps a message (the housekeeping prunes older ones). */
export const OUTBOX_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/** Mail kept in the database for the development mail viewer: the adapter when no `SMTP_URL` is set. */
export function outboxMailer(clock: Clock): Mailer {
  const keep = async (db: Db, message: MailMessage) => {
    const mail = await db
      .insertInto('mail_outbox')
      .values({
        to_address: message.to,
        subject: message.subject,
        body: message.text,
        created_at: clock.now().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const a of message.attachments ?? []) {
      await db
        .insertInto('mail_outbox_attachments')
        .values({
          mail_id: mail.id,
          filename: a.filename,
          mime: a.contentType,
          content_base64: a.content.toString('base64'),
        })
        .execute();
    }
  };
  return { kind: 'outbox', send: keep, deliver: keep };
}

export interface OutboxAttachment {
  id: number;
  mail_id: number;
  filename: string;
  mime: string;
}

/** The files of these messages (without their content), by message. */
export async function readOutboxAttachments(db: Db, mailIds: readonly number[]): Promise<OutboxAttachment[]> {
  if (mailIds.length === 0) return [];
  return db
    .selectFrom('mail_outbox_attachments')
    .select(['id', 'mail_id', 'filename', 'mime'])
    .where('mail_id', 'in', [...mailIds])
    .orderBy('id')
    .execute();
}

/** One kept file with its content, or undefined. */
export async function readOutboxAttachment(db: Db, id: number) {
  const row = await db
    .selectFrom('mail_outbox_attachments')
    .select(['filename', 'mime', 'content_base64'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { filename: row.filename, mime: row.mime, content: Buffer.from(row.content_base64, 'base64') };
}

export interface OutboxMail {
  id: number;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
}

/** The newest messages first (at most `limit`), optionally only those to one address. */
export async function readOutbox(db: Db, options: { to?: string; limit?: number } = {}): Promise<OutboxMail[]> {
  let query = db
    .selectFrom('mail_outbox')
    .select(['id', 'to_address', 'subject', 'body', 'created_at'])
    .orderBy('id', 'desc')
    .limit(options.limit ?? 50);
  if (options.to) query = query.where('to_address', '=', options.to.trim().toLowerCase());
  return query.execute();
}

export async function pruneOutbox(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('mail_outbox')
    .where('created_at', '<', new Date(now.getTime() - OUTBOX_KEEP_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
