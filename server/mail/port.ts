import type { Db } from '../db/database';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text; links are written out in full. */
  text: string;
  /** Files sent with it (a scheduled report's XLSX). */
  attachments?: readonly MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/**
 * Where the product's mail goes. `smtp` (server/mail/smtp.ts) sends through an SMTP server with nodemailer when
 * `SMTP_URL` is set; `outbox` (server/mail/outbox.ts) keeps each message in the `mail_outbox` table, which the
 * development mail viewer (/dev/mail) shows, so that a newcomer can follow the links on a machine with no mail.
 */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /**
   * Sends one message. The outbox writes through `db` (the caller's transaction, so a rollback takes the mail
   * with it); SMTP ignores it.
   */
  send(db: Db, message: MailMessage): Promise<void>;
  /**
   * Sends one message and waits until it is handed over (kept in the outbox, or accepted by the SMTP server);
   * throws when it is not, so that a caller outside any request (a scheduled report) can try again later.
   */
  deliver(db: Db, message: MailMessage): Promise<void>;
}
