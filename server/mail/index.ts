import type { Clock } from '../clock';
import type { Logger } from '../logger';
import { outboxMailer } from './outbox';
import type { Mailer } from './port';
import { smtpMailer } from './smtp';

/** The mailer the environment configures: SMTP when `SMTP_URL` is set, otherwise the outbox. */
export function mailerFrom(env: NodeJS.ProcessEnv, clock: Clock, log: Logger): Mailer {
  const url = env.SMTP_URL?.trim();
  if (url) return smtpMailer(url, env.MAIL_FROM?.trim() || 'SB Portal <no-reply@localhost>', log);
  return outboxMailer(clock);
}
