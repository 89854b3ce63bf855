import { sql } from 'kysely';
import type { Limit } from '../auth/request-limit';
import type { Db } from '../db/database';

/**
 * Every cap on what one caller may make the operator pay for (mail sent, bytes kept on disk, things a person in
 * the back office must review), in one place; docs/decisions/quotas.md is the table of them and why. The
 * contract names the caps an operation enforces (`x-quota`) and declares their answers (409 or 429).
 *
 * Two kinds:
 * - a window (`spend`): at most `max` calls or bytes per key in a fixed window, counted in `request_limits` by one
 *   conditional upsert, so several processes agree and a refused call counts nothing;
 * - an open count (`open`): at most `max` things waiting at once (pending, requested), counted under a lock of
 *   the owner (server/quotas/quota.ts), so that two calls at once cannot both take the last place.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MB = 1024 * 1024;

// ---- per client: the account calls that work without a login (server/routes/account-flows.ts)

/** /auth/check-email tells whether an address is registered: 30 checks per client per 10 minutes. */
export const CHECK_EMAIL_LIMIT: Limit = { name: 'check-email', max: 30, windowMs: 10 * MINUTE };
/** ... and at most 5 of them may answer "taken" per client per hour; then every check waits (429). */
export const CHECK_EMAIL_TAKEN_LIMIT: Limit = { name: 'check-email-taken', max: 5, windowMs: HOUR };
/** Sign-up, resend and reset requests each: 10 per client per hour. */
export const ACCOUNT_CALL_LIMIT: Limit = { name: 'account-call', max: 10, windowMs: HOUR };

// ---- per address: mail to one inbox

/** Mails of the account flows to one address: 3 per hour (further calls answer the same and send nothing). */
export const MAIL_LIMIT: Limit = { name: 'mail', max: 3, windowMs: HOUR };
/** Unlock links to one account's address when its login locks: 4 per day (each lock lasts 15 minutes). */
export const UNLOCK_MAIL_LIMIT: Limit = { name: 'unlock-mail', max: 4, windowMs: DAY };

// ---- per seller (a team member's calls count for the seller it works for)

/** Bank accounts kept at once (removed ones do not count); the payout change at the limit replaces one. */
export const MAX_BANK_ACCOUNTS = 5;
/** Additional templates kept at once. */
export const MAX_TEMPLATES = 100;

export interface WindowQuota {
  kind: 'window';
  name: string;
  max: number;
  windowMs: number;
  unit: 'call' | 'byte';
  /** What the 429 says, with the limit and the wait. */
  message(max: number, retryAfterSeconds: number): string;
}

export interface OpenQuota {
  kind: 'open';
  name: string;
  max: number;
  /** What the 409 says, with the limit. */
  message(max: number): string;
  /** How many the owner has open now (read under the owner's lock). */
  count(db: Db, ownerId: number): Promise<number>;
}

export type Quota = WindowQuota | OpenQuota;

/** '3 hours', '12 minutes', '40 seconds': the wait as a person reads it. */
export function waitText(seconds: number): string {
  if (seconds > 2 * 3600) return `${Math.ceil(seconds / 3600)} hours`;
  if (seconds > 60) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.max(1, seconds)} seconds`;
}

const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/** Rows of `table` whose `owner` column is the owner and whose `status` is one of `statuses`. */
const countOpen =
  (table: string, owner: string, statuses?: readonly string[]) =>
  async (db: Db, ownerId: number): Promise<number> => {
    const where = statuses ? sql` AND status IN (${sql.join(statuses)})` : sql``;
    const { rows } = await sql<{ n: number | string }>`
      SELECT COUNT(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(owner)} = ${ownerId}${where}`.execute(db);
    return Number(rows[0]?.n ?? 0);
  };

export const QUOTAS = {
  'upload-bytes': {
    kind: 'window',
    name: 'upload-bytes',
    max: 200 * MB,
    windowMs: DAY,
    unit: 'byte',
    message: (max, wait) =>
      `Your account may upload ${megabytes(max)} of files a day, and this upload would go past it. You can upload more in ${waitText(wait)}.`,
  },
  'pending-deposits': {
    kind: 'open',
    name: 'pending-deposits',
    max: 5,
    message: (max) =>
      `You have ${max} deposit requests waiting for review, the most at one time. You can send another once one is decided.`,
    count: countOpen('deposits', 'user_id', ['pending']),
  },
  'pending-event-requests': {
    kind: 'open',
    name: 'pending-event-requests',
    max: 10,
    message: (max) =>
      `You have ${max} event requests waiting for review, the most at one time. You can send another once one is decided.`,
    count: countOpen('event_requests', 'seller_id', ['pending']),
  },
  'event-requests-daily': {
    kind: 'window',
    name: 'event-requests-daily',
    max: 20,
    windowMs: DAY,
    unit: 'call',
    message: (max, wait) =>
      `You have sent ${max} event requests today, the most a day. You can send another in ${waitText(wait)}.`,
  },
  'open-payouts': {
    kind: 'open',
    name: 'open-payouts',
    max: 3,
    message: (max) =>
      `You have ${max} payout requests in progress, the most at one time. You can request another once one is sent.`,
    count: countOpen('payouts', 'seller_id', ['requested']),
  },
  'kyc-submissions-daily': {
    kind: 'window',
    name: 'kyc-submissions-daily',
    max: 3,
    windowMs: DAY,
    unit: 'call',
    message: (max, wait) =>
      `You have submitted your documents for approval ${max} times today, the most a day. You can submit again in ${waitText(wait)}.`,
  },
  'team-size': {
    kind: 'open',
    name: 'team-size',
    max: 25,
    message: (max) =>
      `Your team has ${max} members (invited ones included), the most a team may have. Remove a member to invite another.`,
    count: async (db, ownerId) =>
      Number(
        (
          await db
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('team_owner_id', '=', ownerId)
            .where('user_type', '=', 'team_members')
            .where('deleted_at', 'is', null)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  },
  'team-invites-hourly': {
    kind: 'window',
    name: 'team-invites-hourly',
    max: 20,
    windowMs: HOUR,
    unit: 'call',
    message: (max, wait) =>
      `Your account has sent ${max} team invites in the last hour, the most an hour. You can send another in ${waitText(wait)}.`,
  },
  'feature-requests-daily': {
    kind: 'window',
    name: 'feature-requests-daily',
    max: 5,
    windowMs: DAY,
    unit: 'call',
    message: (max, wait) =>
      `You have sent ${max} feature requests today, the most a day. You can send another in ${waitText(wait)}.`,
  },
  'tracking-steps-daily': {
    kind: 'window',
    name: 'tracking-steps-daily',
    max: 1000,
    windowMs: DAY,
    unit: 'call',
    message: (max, wait) =>
      `Your account has recorded ${max} purchase steps today, the most a day. You can record more in ${waitText(wait)}.`,
  },
  addresses: {
    kind: 'open',
    name: 'addresses',
    max: 50,
    message: (max) => `Your address book holds ${max} addresses, the most it keeps. Delete one to add another.`,
    count: countOpen('addresses', 'owner_id'),
  },
} as const satisfies Record<string, Quota>;

export type QuotaName = keyof typeof QUOTAS;
export type Quotas = { readonly [N in QuotaName]: (typeof QUOTAS)[N] extends WindowQuota ? WindowQuota : OpenQuota };
export type WindowQuotaName = { [N in QuotaName]: (typeof QUOTAS)[N]['kind'] extends 'window' ? N : never }[QuotaName];
export type OpenQuotaName = Exclude<QuotaName, WindowQuotaName>;

export const QUOTA_NAMES = Object.keys(QUOTAS) as QuotaName[];

/** The answer a quota gives when it is reached: 429 (come back later) for a window, 409 (close one first) for a count. */
export const quotaStatus = (quota: Quota): 409 | 429 => (quota.kind === 'window' ? 429 : 409);

/** The same caps with one of them (or all) at `max` (the hostile harness reaches each cap on a second app). */
export function quotasWith(max: number, only?: QuotaName): Quotas {
  return Object.fromEntries(
    QUOTA_NAMES.map((name) => [name, !only || only === name ? { ...QUOTAS[name], max } : QUOTAS[name]]),
  ) as unknown as Quotas;
}
