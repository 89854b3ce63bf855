import { createTransport } from 'nodemailer';
import type { Logger } from '../logger';
import type { Mailer, MailMessage } from './port';

/**
 * Mail through an SMTP server with nodemailer (`SMTP_URL`, e.g. smtps://user:password@mail.example.com:465;
 * `MAIL_FROM` is the sender). The message goes out after the answer, never inside a transaction, and a failure
 * is logged: a slow or failing mail server neither holds a request nor tells by its timing which addresses
 * have accounts.
 */
export function smtpMailer(url: string, from: string, log: Logger): Mailer {
  const transport = createTransport(url);
  const mailOf = (message: MailMessage) => ({
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    attachments: message.attachments?.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: a.content,
    })),
  });
  return {
    kind: 'smtp',
    async deliver(_db, message: MailMessage) {
      await transport.sendMail(mailOf(message));
    },
    async send(_db, message: MailMessage) {
      transport.sendMail(mailOf(message)).catch((err) => {
        log.error(
          { err: { message: err instanceof Error ? err.message : String(err) }, subject: message.subject },
          'mail not sent',
        );
      });
    },
  };
}
