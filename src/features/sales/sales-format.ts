import { css } from 'styled-system/css';
import { type DeadlineTone, deadlineTone } from '../../lib/deadline';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';

export const money = (minor: number, currency: string) => formatMoney({ minor, currency });

/** A moment as 'Sun, 22 Nov 2026 14:05' in the reader's time zone. */
export const dateTime = (iso: string | null | undefined) =>
  iso ? `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}` : '';

export const matchWhen = (date: string, time?: string | null) => `${formatDate(date)}${time ? `, ${time}` : ''}`;

/** The colours of the deadline rule: red when overdue, amber when due within 24 h. */
export const TONE_COLOURS: Readonly<Record<DeadlineTone, string>> = {
  overdue: css({ color: 'error', fontWeight: 'semibold' }),
  urgent: css({ color: 'warning', fontWeight: 'semibold' }),
  later: css({ color: 'fg' }),
  none: css({ color: 'fg.muted' }),
};

/** The tone of an order's deadline as a data attribute, so tests and styles read the rule, not a colour. */
export const toneOf = (deadline: string | null | undefined, now: number) => deadlineTone(deadline, now);
