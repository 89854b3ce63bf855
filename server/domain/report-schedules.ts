import { sql } from 'kysely';
import type { AuthUser } from '../auth/session';
import type { Db } from '../db/database';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/port';
import { addDays, historyRows, type Period, reportOverview } from './reports';
import { EXPORT_LIMIT, exportFile } from './sales/exports';
import { type CurrencyCode, currencyFor, sellerIdOf } from './sales/totals';

/**
 * Scheduled reports (issue 14, item 4; beyond the spec; README "Scheduled reports"). A seller (or a team member
 * with `reports`) chooses a weekly or monthly email of the report of the period that just ended, in one currency,
 * with the period's history attached as XLSX: the same rows and the same writer as /reports/export. Periods are
 * UTC: a week is Monday to Sunday, a month the calendar month; a period is sent once it is over.
 */

export type ScheduleFrequency = 'weekly' | 'monthly';

/** How many due schedules one housekeeping run sends at most (the rest go on the next run). */
export const SCHEDULE_BATCH = 50;

export const SCHEDULE_SAVED = 'Scheduled reports saved.';
export const SCHEDULE_OFF = 'Scheduled reports turned off.';

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first day of the month `n` months after the month of `day` (YYYY-MM-DD). */
const monthStart = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00.000Z`);
  return dayOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
};

/** The period that starts on `from`. */
export function periodFrom(frequency: ScheduleFrequency, from: string): Period {
  const to = frequency === 'weekly' ? addDays(from, 6) : addDays(monthStart(from, 1), -1);
  return { period: 'custom', from, to };
}

/** The last period that is over at `now` (UTC): last Monday to Sunday, or last calendar month. */
export function lastEndedPeriod(frequency: ScheduleFrequency, now: Date): Period {
  const today = dayOf(now.getTime());
  if (frequency === 'weekly') {
    const thisMonday = addDays(today, -((now.getUTCDay() + 6) % 7));
    return periodFrom('weekly', addDays(thisMonday, -7));
  }
  return periodFrom('monthly', monthStart(today, -1));
}

/** The period after the one that starts on `from`. */
const nextPeriod = (frequency: ScheduleFrequency, from: string) =>
  periodFrom(frequency, frequency === 'weekly' ? addDays(from, 7) : monthStart(from, 1));

/** The caller's seller's schedule, as GET /reports/schedule answers it. */
export async function scheduleOf(db: Db, user: AuthUser) {
  const row = await db
    .selectFrom('report_schedules')
    .innerJoin('users', 'users.id', 'report_schedules.user_id')
    .select([
      'report_schedules.frequency',
      'report_schedules.currency',
      'report_schedules.last_sent_period',
      'report_schedules.updated_at',
      'users.email',
    ])
    .where('report_schedules.seller_id', '=', sellerIdOf(user))
    .executeTakeFirst();
  if (!row) {
    return {
      frequency: 'off' as const,
      currency: currencyFor(undefined, user),
      recipient: null,
      next_period: null,
      updated_at: null,
    };
  }
  const next = nextPeriod(row.frequency, row.last_sent_period);
  return {
    frequency: row.frequency,
    currency: row.currency as CurrencyCode,
    recipient: row.email,
    next_period: { date_from: next.from, date_to: next.to },
    updated_at: row.updated_at,
  };
}

/**
 * Sets (or with `off` removes) the seller's schedule; the caller becomes its recipient. A new schedule, or a new
 * frequency, owes nothing that had ended before: its first email is for the period in progress, once it is over.
 * Changing only the currency or the recipient keeps what was sent.
 */
export async function saveSchedule(
  db: Db,
  user: AuthUser,
  input: { frequency: ScheduleFrequency | 'off'; currency?: CurrencyCode },
  now: Date,
) {
  const sellerId = sellerIdOf(user);
  if (input.frequency === 'off') {
    await db.deleteFrom('report_schedules').where('seller_id', '=', sellerId).execute();
    return;
  }
  const at = now.toISOString();
  const values = {
    user_id: user.id,
    frequency: input.frequency,
    currency: input.currency ?? currencyFor(undefined, user),
    last_sent_period: lastEndedPeriod(input.frequency, now).from,
    updated_at: at,
  };
  await db
    .insertInto('report_schedules')
    .values({ seller_id: sellerId, ...values, created_at: at })
    .onConflict((oc) =>
      oc.column('seller_id').doUpdateSet({
        user_id: values.user_id,
        currency: values.currency,
        updated_at: at,
        frequency: values.frequency,
        last_sent_period: sql<string>`case when report_schedules.frequency = excluded.frequency
          then report_schedules.last_sent_period else excluded.last_sent_period end`,
      }),
    )
    .execute();
}

const money = (minor: number, currency: string) =>
  `${(minor / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;

/** The email of one period: its figures in the text, its history as the XLSX of /reports/export. */
export async function scheduledReportMail(
  db: Db,
  s: { seller_id: number; frequency: ScheduleFrequency; currency: CurrencyCode; to: string; first_name: string },
  period: Period,
  now: Date,
) {
  const rows = await historyRows(db, s.seller_id, { currency: s.currency, period }, EXPORT_LIMIT + 1);
  const capped = rows.length > EXPORT_LIMIT;
  const file = await exportFile(rows.slice(0, EXPORT_LIMIT), 'xlsx', 'report', now);
  const { figures } = await reportOverview(db, s.seller_id, s.currency, period);
  const kind = s.frequency === 'weekly' ? 'weekly' : 'monthly';
  const lines = [
    'Hello,',
    '',
    `Your ${kind} SB Portal report for ${period.from} to ${period.to} (UTC, ${s.currency}):`,
    '',
    `Gross sales: ${money(figures.gross_sales, s.currency)}`,
    `Orders: ${figures.orders}`,
    `Tickets: ${figures.tickets}`,
    `Net earnings: ${money(figures.net_earnings, s.currency)}`,
    `Cancellations: ${figures.cancellations}`,
    '',
    capped
      ? `The attached spreadsheet holds the first ${EXPORT_LIMIT.toLocaleString('en-GB')} orders of the period; export the rest from Report history.`
      : `The attached spreadsheet lists the period's ${rows.length} orders, as Report history exports them.`,
    '',
    'You receive this because scheduled reports are on in Report history; turn them off there.',
  ];
  return {
    to: s.to,
    subject: `Your ${kind} report: ${period.from} to ${period.to}`,
    text: lines.join('\n'),
    attachments: [
      {
        filename: `report-${s.currency}-${period.from}-${period.to}.xlsx`,
        contentType: file.mime,
        content: file.content,
      },
    ],
  };
}

/**
 * Sends every due schedule's email once (a housekeeping task; every server process runs it). A schedule is due
 * when the last period that is over at `now` is later than the one it last sent. Each is claimed first by one
 * conditional update (the period moves forward only where it still holds the older value): of two processes one
 * claims it, the other updates nothing and sends nothing. A send that fails gives the claim back (the same
 * conditional update the other way), so the next run tries again; a process that dies between the claim and the
 * send loses that email rather than risking a second one. The recipient must still work for the seller and, a
 * team member, still hold the `reports` permission.
 * Answers how many emails went out.
 */
export async function sendDueReports(db: Db, mailer: Mailer, now: Date, log?: Logger): Promise<number> {
  const weekly = lastEndedPeriod('weekly', now);
  const monthly = lastEndedPeriod('monthly', now);
  const due = await db
    .selectFrom('report_schedules')
    .innerJoin('users', 'users.id', 'report_schedules.user_id')
    .select([
      'report_schedules.id',
      'report_schedules.seller_id',
      'report_schedules.frequency',
      'report_schedules.currency',
      'report_schedules.last_sent_period',
      'users.email',
      'users.first_name',
    ])
    .where((eb) =>
      eb.or([
        eb.and([
          eb('report_schedules.frequency', '=', 'weekly'),
          eb('report_schedules.last_sent_period', '<', weekly.from),
        ]),
        eb.and([
          eb('report_schedules.frequency', '=', 'monthly'),
          eb('report_schedules.last_sent_period', '<', monthly.from),
        ]),
      ]),
    )
    .where('users.deleted_at', 'is', null)
    // the seller itself, or a member of its team that may still read its reports (a member whose `reports`
    // permission was taken away gets no more of them)
    .where((eb) =>
      eb.or([
        eb('users.id', '=', eb.ref('report_schedules.seller_id')),
        eb.and([
          eb('users.team_owner_id', '=', eb.ref('report_schedules.seller_id')),
          eb.exists(
            eb
              .selectFrom('user_permissions')
              .select('user_permissions.user_id')
              .whereRef('user_permissions.user_id', '=', 'users.id')
              .where('user_permissions.permission_name', '=', 'reports')
              .where('user_permissions.is_can_access', '=', 1),
          ),
        ]),
      ]),
    )
    .orderBy('report_schedules.id')
    .limit(SCHEDULE_BATCH)
    .execute();
  let sent = 0;
  for (const s of due) {
    const period = s.frequency === 'weekly' ? weekly : monthly;
    const claim = await db
      .updateTable('report_schedules')
      .set({ last_sent_period: period.from })
      .where('id', '=', s.id)
      .where('frequency', '=', s.frequency)
      .where('last_sent_period', '=', s.last_sent_period)
      .executeTakeFirst();
    if (Number(claim.numUpdatedRows) !== 1) continue;
    try {
      const message = await scheduledReportMail(
        db,
        { ...s, currency: s.currency as CurrencyCode, to: s.email },
        period,
        now,
      );
      await mailer.deliver(db, message);
      sent++;
    } catch (err) {
      await db
        .updateTable('report_schedules')
        .set({ last_sent_period: s.last_sent_period })
        .where('id', '=', s.id)
        .where('last_sent_period', '=', period.from)
        .execute();
      log?.warn(
        { err: { message: err instanceof Error ? err.message : String(err) }, schedule: s.id, period: period.from },
        'scheduled report not sent; tried again on the next run',
      );
    }
  }
  return sent;
}
