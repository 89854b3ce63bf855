import { sql } from 'kysely';
import type { components } from '../../openapi/schema';
import type { Db } from '../db/database';
import { type IdList, inIdList } from '../db/prepared';
import type { OrderStatus } from '../db/schema';
import { HttpError, MESSAGES } from '../http/errors';
import { matchIdListOf } from './match-search';
import { sorted } from './sales/lists';
import { orderListColumns, ordersQuery, type SalesOrder, type SalesSort, salesOrderOf } from './sales/orders';
import type { CurrencyCode } from './sales/totals';

export type ReportFigures = components['schemas']['ReportFigures'];
export type ReportPoint = components['schemas']['ReportPoint'];
export type ReportPreset = components['schemas']['ReportPeriodPreset'];

// ---------------------------------------------------------------------------------------------------------
// The rules (README, "Reports")

/** The seller's fee on a sale, in basis points: none today (the platform's fees are the buyer's, PriceBreakdown). */
export const SELLER_FEE_BPS = 0;
/** The longest period a report reads, in days (three years). */
export const MAX_PERIOD_DAYS = 1096;
/** Periods longer than this many days are charted by week (Monday to Sunday) instead of by day. */
export const DAILY_UP_TO_DAYS = 92;
/** The dashboard widget's window: the last 30 days, against the 30 before. */
export const DASHBOARD_DAYS = 30;
export const TOP_MATCHES = 5;
export const EVENTS_SEARCH_LIMIT = 20;
/** Orders that do not stand: left out of the gross, counted as cancellations. */
const NOT_STANDING: readonly OrderStatus[] = ['cancelled', 'replaced'];

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const msOf = (day: string) => Date.parse(`${day}T00:00:00.000Z`);
export const addDays = (day: string, n: number) => dayOf(msOf(day) + n * DAY);
const invalid = (path: string, message: string) => new HttpError(422, MESSAGES.validation, [{ path, message }]);

// ---------------------------------------------------------------------------------------------------------
// Periods (UTC days, both ends inclusive)

export interface Period {
  period: ReportPreset | 'custom';
  from: string;
  to: string;
}

/** The first and last day of a preset, as of `now` (UTC): this month, last month, this quarter, year to date. */
export function presetPeriod(preset: ReportPreset, now: Date): Period {
  const today = dayOf(now.getTime());
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const first = (year: number, month: number) => dayOf(Date.UTC(year, month, 1));
  switch (preset) {
    case 'last_month':
      return { period: preset, from: first(y, m - 1), to: dayOf(Date.UTC(y, m, 1) - DAY) };
    case 'this_quarter':
      return { period: preset, from: first(y, m - (m % 3)), to: today };
    case 'year_to_date':
      return { period: preset, from: first(y, 0), to: today };
    default:
      return { period: 'this_month', from: first(y, m), to: today };
  }
}

/** The period a report call asks for: its own dates, else its preset (this month by default). 422 when unusable. */
export function periodOf(query: { period?: ReportPreset; date_from?: string; date_to?: string }, now: Date): Period {
  if (query.date_from === undefined && query.date_to === undefined) {
    return presetPeriod(query.period ?? 'this_month', now);
  }
  if (query.date_from === undefined) throw invalid('/query/date_from', 'is required with /query/date_to');
  const from = query.date_from;
  const to = query.date_to ?? dayOf(now.getTime());
  if (from > to) throw invalid('/query/date_from', 'must not be after /query/date_to');
  if ((msOf(to) - msOf(from)) / DAY + 1 > MAX_PERIOD_DAYS) {
    throw invalid('/query/date_to', `makes a period longer than ${MAX_PERIOD_DAYS} days`);
  }
  return { period: 'custom', from, to };
}

export const granularityOf = (p: Period): 'day' | 'week' =>
  (msOf(p.to) - msOf(p.from)) / DAY + 1 > DAILY_UP_TO_DAYS ? 'week' : 'day';

/** The first day of the bucket `day` falls in: itself by day; its week's Monday by week, not before the period. */
function bucketOf(day: string, from: string, granularity: 'day' | 'week'): string {
  if (granularity === 'day') return day;
  const weekday = (new Date(msOf(day)).getUTCDay() + 6) % 7; // Monday 0
  const monday = addDays(day, -weekday);
  return monday < from ? from : monday;
}

// ---------------------------------------------------------------------------------------------------------
// Figures

interface DayRow {
  day: string;
  standing: boolean;
  orders: number;
  tickets: number;
  amount: number;
}

/**
 * The seller's orders in `currency` placed from `from` to `to`, summed per UTC day and whether they stand: one
 * range scan of orders_seller_currency_created (migration 0014), which holds every column it reads.
 */
async function dayRows(db: Db, sellerId: number, currency: CurrencyCode, from: string, to: string) {
  const day = sql<string>`substr(orders.created_at, 1, 10)`;
  const standing = sql<number>`case when orders.status in ('cancelled', 'replaced') then 0 else 1 end`;
  const rows = await db
    .selectFrom('orders')
    .select([
      day.as('day'),
      standing.as('standing'),
      (eb) => eb.fn.countAll<number>().as('orders'),
      (eb) => eb.fn.sum<number>('orders.quantity').as('tickets'),
      (eb) => eb.fn.sum<number>('orders.amount').as('amount'),
    ])
    .where('orders.seller_id', '=', sellerId)
    .where('orders.currency', '=', currency)
    .where('orders.created_at', '>=', from)
    .where('orders.created_at', '<', addDays(to, 1))
    .groupBy([day, standing])
    .execute();
  return rows.map(
    (r): DayRow => ({
      day: r.day,
      standing: Number(r.standing) === 1,
      orders: Number(r.orders),
      tickets: Number(r.tickets ?? 0),
      amount: Number(r.amount ?? 0),
    }),
  );
}

/** The figures of some day rows (ReportFigures in the contract says what each counts). */
export function figuresOf(rows: readonly DayRow[]): ReportFigures {
  let gross = 0;
  let tickets = 0;
  let orders = 0;
  let cancellations = 0;
  let cancelledAmount = 0;
  for (const r of rows) {
    if (r.standing) {
      gross += r.amount;
      tickets += r.tickets;
      orders += r.orders;
    } else {
      cancellations += r.orders;
      cancelledAmount += r.amount;
    }
  }
  const fees = Math.round((gross * SELLER_FEE_BPS) / 10_000);
  return {
    gross_sales: gross,
    tickets,
    orders,
    average_price: tickets > 0 ? Math.round(gross / tickets) : 0,
    fees,
    net_earnings: gross - fees,
    cancellations,
    cancelled_amount: cancelledAmount,
  };
}

/** Every bucket of the period, in order, empty ones at 0 (standing orders only). */
function seriesOf(rows: readonly DayRow[], p: Period, granularity: 'day' | 'week'): ReportPoint[] {
  const points = new Map<string, ReportPoint>();
  for (let d = p.from; d <= p.to; d = addDays(d, 1)) {
    const b = bucketOf(d, p.from, granularity);
    if (!points.has(b)) points.set(b, { date: b, gross_sales: 0, orders: 0, tickets: 0 });
  }
  for (const r of rows) {
    if (!r.standing) continue;
    const point = points.get(bucketOf(r.day, p.from, granularity));
    if (!point) continue;
    point.gross_sales += r.amount;
    point.orders += r.orders;
    point.tickets += r.tickets;
  }
  return [...points.values()];
}

/**
 * The period's top matches: the orders are summed per match on orders_seller_currency_created alone (index-only),
 * and only the TOP_MATCHES winners are joined to their events (joining first looked an event up per order).
 */
async function topMatches(db: Db, sellerId: number, currency: CurrencyCode, p: Period) {
  const amount = sql<number>`sum(orders.amount)`;
  const tickets = sql<number>`sum(orders.quantity)`;
  const top = db
    .selectFrom('orders')
    .select([
      'orders.event_id',
      (eb) => eb.fn.countAll<number>().as('orders'),
      tickets.as('tickets'),
      amount.as('amount'),
    ])
    .where('orders.seller_id', '=', sellerId)
    .where('orders.currency', '=', currency)
    .where('orders.created_at', '>=', p.from)
    .where('orders.created_at', '<', addDays(p.to, 1))
    .where('orders.status', 'not in', NOT_STANDING)
    .groupBy('orders.event_id')
    .orderBy(amount, 'desc')
    .orderBy(tickets, 'desc')
    .orderBy('orders.event_id', 'asc')
    .limit(TOP_MATCHES)
    .as('top');
  const rows = await db
    .selectFrom(top)
    .innerJoin('events', 'events.id', 'top.event_id')
    .select([
      'top.event_id',
      'events.name',
      'events.event_date',
      'events.tournament',
      'top.orders',
      'top.tickets',
      'top.amount',
    ])
    .orderBy('top.amount', 'desc')
    .orderBy('top.tickets', 'desc')
    .orderBy('top.event_id', 'asc')
    .execute();
  return rows.map((r) => ({
    match_id: r.event_id,
    match_name: r.name,
    match_date: r.event_date,
    tournament: r.tournament,
    orders: Number(r.orders),
    tickets: Number(r.tickets),
    gross_sales: Number(r.amount),
  }));
}

/** /reports/overview: the period's figures, its sales over time and its top matches. */
export async function reportOverview(db: Db, sellerId: number, currency: CurrencyCode, p: Period) {
  const granularity = granularityOf(p);
  const [rows, top] = await Promise.all([
    dayRows(db, sellerId, currency, p.from, p.to),
    topMatches(db, sellerId, currency, p),
  ]);
  return {
    currency,
    period: p.period,
    date_from: p.from,
    date_to: p.to,
    granularity,
    figures: figuresOf(rows),
    series: seriesOf(rows, p, granularity),
    top_matches: top,
  };
}

const changePct = (now: number, before: number) =>
  before === 0 ? null : Math.round(((now - before) / before) * 1000) / 10;

/** /dashboard/reports: the last 30 days (today included) against the 30 before, with a point a day. */
export async function dashboardReport(db: Db, sellerId: number, currency: CurrencyCode, now: Date) {
  const to = dayOf(now.getTime());
  const from = addDays(to, 1 - DASHBOARD_DAYS);
  const before = { from: addDays(from, -DASHBOARD_DAYS), to: addDays(from, -1) };
  const rows = await dayRows(db, sellerId, currency, before.from, to);
  const current = figuresOf(rows.filter((r) => r.day >= from));
  const previous = figuresOf(rows.filter((r) => r.day < from));
  return {
    currency,
    current: { date_from: from, date_to: to, figures: current },
    previous: { date_from: before.from, date_to: before.to, figures: previous },
    change_pct: {
      gross_sales: changePct(current.gross_sales, previous.gross_sales),
      orders: changePct(current.orders, previous.orders),
      tickets: changePct(current.tickets, previous.tickets),
    },
    points: seriesOf(
      rows.filter((r) => r.day >= from),
      { period: 'custom', from, to },
      'day',
    ),
  };
}

// ---------------------------------------------------------------------------------------------------------
// History and export

export interface HistoryFilters {
  currency: CurrencyCode;
  period: Period;
  status?: OrderStatus;
  match_id?: number;
  q?: string;
  sort?: SalesSort;
}

/** The filtered history (`q` as the matches it found: server/domain/match-search.ts), with each order's joins. */
function historyQuery(db: Db, sellerId: number, f: HistoryFilters, matchIds: IdList | undefined) {
  let q = ordersQuery(db)
    .where('orders.seller_id', '=', sellerId)
    .where('orders.currency', '=', f.currency)
    .where('orders.created_at', '>=', f.period.from)
    .where('orders.created_at', '<', addDays(f.period.to, 1));
  if (f.status) q = q.where('orders.status', '=', f.status);
  if (f.match_id) q = q.where('orders.event_id', '=', f.match_id);
  if (matchIds !== undefined) q = q.where(inIdList(db, 'orders.event_id', matchIds));
  return q;
}

/**
 * How many orders the filtered history holds. The count reads the orders alone (their joins never drop a row:
 * every order has its listing and its event a city), index-only on orders_seller_currency_created: counting
 * through the joins read each order's row and listing (0.7 s for a 100,000-order year, bench:reports).
 */
async function historyCount(
  db: Db,
  sellerId: number,
  f: HistoryFilters,
  matchIds: IdList | undefined,
): Promise<number> {
  let q = db
    .selectFrom('orders')
    .where('orders.seller_id', '=', sellerId)
    .where('orders.currency', '=', f.currency)
    .where('orders.created_at', '>=', f.period.from)
    .where('orders.created_at', '<', addDays(f.period.to, 1));
  if (f.status) q = q.where('orders.status', '=', f.status);
  if (f.match_id) q = q.where('orders.event_id', '=', f.match_id);
  if (matchIds !== undefined) q = q.where(inIdList(db, 'orders.event_id', matchIds));
  const counted = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(counted?.n ?? 0);
}

/** One page of the period's orders, and how many all its pages hold. */
export async function historyPage(
  db: Db,
  sellerId: number,
  f: HistoryFilters,
  page: { page: number; perPage: number },
): Promise<{ orders: SalesOrder[]; total: number }> {
  const matchIds = await matchIdListOf(db, f.q);
  const [rows, counted] = await Promise.all([
    sorted(historyQuery(db, sellerId, f, matchIds).select(orderListColumns), f.sort)
      .limit(page.perPage)
      .offset((page.page - 1) * page.perPage)
      .execute(),
    historyCount(db, sellerId, f, matchIds),
  ]);
  return { orders: rows.map(salesOrderOf), total: counted };
}

/** Every order of the filtered history, in the list's order, up to `limit` (the export). */
export async function historyRows(db: Db, sellerId: number, f: HistoryFilters, limit: number) {
  const matchIds = await matchIdListOf(db, f.q);
  const rows = await sorted(historyQuery(db, sellerId, f, matchIds).select(orderListColumns), f.sort)
    .limit(limit)
    .execute();
  return rows.map(salesOrderOf);
}

/** The matches the seller has standing or replaced orders for in `currency` (kept totals), latest first. */
export async function reportEvents(db: Db, sellerId: number, currency: CurrencyCode, text?: string) {
  let q = db
    .selectFrom('seller_event_totals')
    .innerJoin('events', 'events.id', 'seller_event_totals.event_id')
    .select(['events.id', 'events.name', 'events.event_date', 'events.tournament'])
    .where('seller_event_totals.seller_id', '=', sellerId)
    .where('seller_event_totals.currency', '=', currency)
    .where('seller_event_totals.orders', '>', 0);
  const matchIds = await matchIdListOf(db, text);
  if (matchIds !== undefined) q = q.where(inIdList(db, 'events.id', matchIds));
  const rows = await q
    .orderBy('events.event_date', 'desc')
    .orderBy('events.id', 'desc')
    .limit(EVENTS_SEARCH_LIMIT)
    .execute();
  return rows.map((r) => ({ match_id: r.id, match_name: r.name, match_date: r.event_date, tournament: r.tournament }));
}
