import { sql } from 'kysely';
import { type components, currencyCodeValues } from '../../openapi/schema';
import type { Db } from '../db/database';
import type { PayoutStatus } from '../db/schema-wallet';
import { maskIban, viewOf } from './bank-accounts';
import { accountOf, InsufficientFunds, platformBankAccount, postEntry } from './ledger';
import { arrivesBy } from './payout-schedule';
import { type ExportCell, type ExportColumn, tableFile } from './sales/exports';
import { sellerEarningsKey } from './sales/money';

/**
 * Payouts (issue 14, item 3): a seller's earnings leave the platform for its bank account.
 *
 * Ledger accounts (server/domain/ledger.ts; balances are what the platform owes, so every one here is >= 0 but
 * the platform's own):
 * - `seller_earnings:<seller>:<currency>`: credited when a sale completes (sales/money.ts, `sale_earnings`):
 *   the AVAILABLE balance.
 * - `payouts_in_flight:<seller>:<currency>`: requested payouts not yet sent.
 * - `platform_bank:<currency>` (the money leaving the platform's bank) and `platform_fees:<currency>` (the fee).
 *
 * Each step is ONE ledger entry, reference `payout:<id>`, in the call's transaction:
 * - `payout_requested`: earnings -amount, in flight +amount;
 * - `payout_sent`: in flight -amount, platform bank +net, platform fees +fee;
 * - `payout_failed`: in flight -amount, earnings +amount (the money is available again).
 *
 * Concurrency: a request first takes the earnings account's row (an update, as every posting to it does), so
 * concurrent requests and sales completing meanwhile run one after the other on Postgres (SQLite's transactions
 * are serial); the balance it then reads is the one it debits, and the conditional update of postEntry refuses
 * anything below zero anyway. A decision moves the payout out of `requested` by one conditional update: of two
 * admins one wins, the other finds no row and answers 409.
 */

/** The smallest payout: 20.00 of its currency (minor units; every portal currency has 2 decimals). */
export const PAYOUT_MINIMUM = 2_000;
/** The fee of one payout: 1.00 of its currency, kept from the amount when it is sent (a bank transfer's cost). */
export const PAYOUT_FEE = 100;
/** The most payouts one export holds. */
export const PAYOUT_EXPORT_LIMIT = 20_000;

export type Payout = components['schemas']['Payout'];
export type AdminPayout = components['schemas']['AdminPayout'];
type CurrencyCode = components['schemas']['CurrencyCode'];

export const payoutsInFlightKey = (sellerId: number, currency: string) => `payouts_in_flight:${sellerId}:${currency}`;
export const platformFeesKey = (currency: string) => `platform_fees:${currency}`;

const earningsAccount = (db: Db, sellerId: number, currency: string, now: Date) =>
  accountOf(
    db,
    { key: sellerEarningsKey(sellerId, currency), kind: 'seller_earnings', ownerId: sellerId, currency },
    now,
  );
const inFlightAccount = (db: Db, sellerId: number, currency: string, now: Date) =>
  accountOf(
    db,
    { key: payoutsInFlightKey(sellerId, currency), kind: 'payouts_in_flight', ownerId: sellerId, currency },
    now,
  );
const feesAccount = (db: Db, currency: string, now: Date) =>
  accountOf(
    db,
    { key: platformFeesKey(currency), kind: 'platform_fees', ownerId: null, currency, allowNegative: true },
    now,
  );

export const payoutReference = (id: number) => `PO-${String(id).padStart(6, '0')}`;
const STATUS_LABEL: Record<PayoutStatus, string> = { requested: 'In progress', sent: 'Paid', failed: 'Failed' };

// ---------------------------------------------------------------------------------------------------------
// Reads

/** Per currency: available (earnings), in flight, paid out (sent), pending (orders not completed yet). */
export async function payoutBalances(db: Db, sellerId: number) {
  const accounts = await db
    .selectFrom('ledger_accounts')
    .select(['kind', 'currency', 'balance'])
    .where('owner_id', '=', sellerId)
    .where('kind', 'in', ['seller_earnings', 'payouts_in_flight'])
    .execute();
  const pending = await db
    .selectFrom('orders')
    .select(['currency', (eb) => eb.fn.sum<number>('amount').as('total')])
    .where('seller_id', '=', sellerId)
    .where('status', 'in', ['pending', 'confirmed', 'delivered'])
    .groupBy('currency')
    .execute();
  const paid = await db
    .selectFrom('payouts')
    .select(['currency', (eb) => eb.fn.sum<number>('amount').as('total')])
    .where('seller_id', '=', sellerId)
    .where('status', '=', 'sent')
    .groupBy('currency')
    .execute();
  return currencyCodeValues.map((currency) => ({
    currency,
    available: Number(accounts.find((a) => a.kind === 'seller_earnings' && a.currency === currency)?.balance ?? 0),
    in_flight: Number(accounts.find((a) => a.kind === 'payouts_in_flight' && a.currency === currency)?.balance ?? 0),
    paid_out: Number(paid.find((p) => p.currency === currency)?.total ?? 0),
    pending: Number(pending.find((p) => p.currency === currency)?.total ?? 0),
  }));
}

function payoutQuery(db: Db) {
  return db
    .selectFrom('payouts')
    .innerJoin('bank_accounts', 'bank_accounts.id', 'payouts.bank_account_id')
    .select([
      'payouts.id',
      'payouts.seller_id',
      'payouts.currency',
      'payouts.amount',
      'payouts.fee',
      'payouts.net',
      'payouts.status',
      'payouts.failure_reason',
      'payouts.created_at',
      'payouts.decided_at',
      'bank_accounts.id as bank_id',
      'bank_accounts.holder_name',
      'bank_accounts.iban',
      'bank_accounts.bic',
      'bank_accounts.is_default',
      'bank_accounts.created_at as bank_created_at',
      'bank_accounts.deleted_at as bank_deleted_at',
      (eb) =>
        eb
          .selectFrom('payout_orders')
          .select((e) => e.fn.countAll<number>().as('n'))
          .whereRef('payout_orders.payout_id', '=', 'payouts.id')
          .as('orders_count'),
    ]);
}
type PayoutRow = Awaited<ReturnType<ReturnType<typeof payoutQuery>['executeTakeFirstOrThrow']>>;

const payoutOf = (r: PayoutRow): Payout => ({
  payout_id: r.id,
  reference: payoutReference(r.id),
  currency: r.currency as CurrencyCode,
  amount: Number(r.amount),
  fee: Number(r.fee),
  net: Number(r.net),
  status: r.status,
  status_label: STATUS_LABEL[r.status],
  bank_account: viewOf({
    id: r.bank_id,
    holder_name: r.holder_name,
    iban: r.iban,
    bic: r.bic,
    is_default: r.is_default,
    created_at: r.bank_created_at,
    deleted_at: r.bank_deleted_at,
  }),
  failure_reason: r.failure_reason,
  orders_count: Number(r.orders_count ?? 0),
  created_at: r.created_at,
  decided_at: r.decided_at,
  arrives_by: arrivesBy(r),
});

export interface PayoutFilters {
  status?: PayoutStatus;
  currency?: CurrencyCode;
  from?: string;
  to?: string;
}

function filtered(db: Db, sellerId: number, f: PayoutFilters) {
  let q = payoutQuery(db).where('payouts.seller_id', '=', sellerId);
  if (f.status) q = q.where('payouts.status', '=', f.status);
  if (f.currency) q = q.where('payouts.currency', '=', f.currency);
  if (f.from) q = q.where('payouts.created_at', '>=', `${f.from}T00:00:00.000Z`);
  if (f.to) q = q.where('payouts.created_at', '<', nextDay(f.to));
  return q;
}
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/** A page of the seller's payouts, newest first, and how many the filters match. */
export async function payoutPage(db: Db, sellerId: number, f: PayoutFilters, page: { limit: number; offset: number }) {
  const rows = await filtered(db, sellerId, f)
    .orderBy('payouts.created_at', 'desc')
    .orderBy('payouts.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  let count = db
    .selectFrom('payouts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('seller_id', '=', sellerId);
  if (f.status) count = count.where('status', '=', f.status);
  if (f.currency) count = count.where('currency', '=', f.currency);
  if (f.from) count = count.where('created_at', '>=', `${f.from}T00:00:00.000Z`);
  if (f.to) count = count.where('created_at', '<', nextDay(f.to));
  const total = Number((await count.executeTakeFirstOrThrow()).n);
  return { rows: rows.map(payoutOf), total };
}

/** One payout of the seller (undefined: another seller's, or none). */
export async function findPayout(db: Db, sellerId: number, payoutId: number): Promise<Payout | undefined> {
  const row = await payoutQuery(db)
    .where('payouts.id', '=', payoutId)
    .where('payouts.seller_id', '=', sellerId)
    .executeTakeFirst();
  return row ? payoutOf(row) : undefined;
}

/** The orders one payout covers, with what each earned and the part this payout pays. */
export async function payoutOrderPage(db: Db, payoutId: number, page: { limit: number; offset: number }) {
  const rows = await db
    .selectFrom('payout_orders')
    .innerJoin('orders', 'orders.id', 'payout_orders.order_id')
    .innerJoin('events', 'events.id', 'orders.event_id')
    .select([
      'orders.id',
      'orders.booking_no',
      'events.name',
      'orders.currency',
      'orders.amount as order_amount',
      'payout_orders.amount',
    ])
    .where('payout_orders.payout_id', '=', payoutId)
    .orderBy('orders.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await db
    .selectFrom('payout_orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('payout_id', '=', payoutId)
    .executeTakeFirstOrThrow();
  return {
    rows: rows.map((r) => ({
      order_id: r.id,
      booking_no: r.booking_no,
      match_name: r.name,
      currency: r.currency as CurrencyCode,
      order_amount: Number(r.order_amount),
      amount: Number(r.amount),
    })),
    total: Number(total.n),
  };
}

/**
 * The seller's earned orders (a `sale_earnings` line on its earnings account), each with what it earned and
 * how much of it sent, requested and not yet paid payouts hold. Newest first.
 */
function earnedOrders(db: Db, sellerId: number, currency?: CurrencyCode) {
  let q = db
    .selectFrom('ledger_lines')
    .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
    .innerJoin('ledger_entries', 'ledger_entries.id', 'ledger_lines.entry_id')
    // sale_earnings' reference is 'order:<id>' (sales/money.ts); the CASE keeps the cast off other kinds
    .innerJoin('orders', (j) =>
      j.on(
        sql<boolean>`orders.id = CASE WHEN ledger_entries.reference LIKE 'order:%' THEN CAST(SUBSTR(ledger_entries.reference, 7) AS INTEGER) END`,
      ),
    )
    .innerJoin('events', 'events.id', 'orders.event_id')
    .select([
      'ledger_lines.id as line_id',
      'ledger_lines.amount as earned',
      'ledger_lines.created_at as completed_at',
      'orders.id as order_id',
      'orders.booking_no',
      'orders.currency',
      'events.name as match_name',
      (eb) =>
        eb
          .selectFrom('payout_orders')
          .innerJoin('payouts', 'payouts.id', 'payout_orders.payout_id')
          .select((e) => e.fn.coalesce(e.fn.sum<number>('payout_orders.amount'), sql<number>`0`).as('n'))
          .whereRef('payout_orders.order_id', '=', 'orders.id')
          .where('payouts.status', '=', 'sent')
          .as('paid'),
      (eb) =>
        eb
          .selectFrom('payout_orders')
          .innerJoin('payouts', 'payouts.id', 'payout_orders.payout_id')
          .select((e) => e.fn.coalesce(e.fn.sum<number>('payout_orders.amount'), sql<number>`0`).as('n'))
          .whereRef('payout_orders.order_id', '=', 'orders.id')
          .where('payouts.status', '=', 'requested')
          .as('in_flight'),
    ])
    .where('ledger_accounts.owner_id', '=', sellerId)
    .where('ledger_accounts.kind', '=', 'seller_earnings')
    .where('ledger_entries.kind', '=', 'sale_earnings')
    .where('ledger_lines.amount', '>', 0);
  if (currency) q = q.where('ledger_accounts.currency', '=', currency);
  return q;
}

type PayoutOrderState = components['schemas']['PayoutOrderState'];
const stateOf = (earned: number, paid: number, inFlight: number): PayoutOrderState =>
  paid >= earned ? 'paid' : paid > 0 ? 'part_paid' : inFlight > 0 ? 'in_flight' : 'unpaid';

/** The order report (myorder-history): earned orders, newest first, with their payout state. */
export async function earnedOrderPage(
  db: Db,
  sellerId: number,
  f: { currency?: CurrencyCode; payout_state?: PayoutOrderState },
  page: { limit: number; offset: number },
) {
  // a seller's earned orders are few enough to classify in code (the state depends on three sums)
  const all = (await earnedOrders(db, sellerId, f.currency).orderBy('ledger_lines.id', 'desc').execute()).map((r) => {
    const earned = Number(r.earned);
    const paid = Number(r.paid ?? 0);
    const inFlight = Number(r.in_flight ?? 0);
    return {
      order_id: r.order_id,
      booking_no: r.booking_no,
      match_name: r.match_name,
      currency: r.currency as CurrencyCode,
      earned,
      paid,
      in_flight: inFlight,
      available: Math.max(0, earned - paid - inFlight),
      payout_state: stateOf(earned, paid, inFlight),
      completed_at: r.completed_at,
    };
  });
  const rows = f.payout_state ? all.filter((r) => r.payout_state === f.payout_state) : all;
  return { rows: rows.slice(page.offset, page.offset + page.limit), total: rows.length };
}

// ---------------------------------------------------------------------------------------------------------
// Request

export type RequestOutcome =
  | { kind: 'requested'; payout: Payout }
  | { kind: 'too_large'; available: number }
  | { kind: 'below_minimum' }
  | { kind: 'no_bank_account' };

/**
 * Requests a payout of `amount` from the seller's available balance, in the caller's transaction: takes the
 * earnings account's row, checks the balance, records the payout, posts ONE entry (earnings to in flight) and
 * records the orders it covers, first earned first paid.
 */
export async function requestPayout(
  db: Db,
  who: { sellerId: number; by: number },
  ask: { currency: CurrencyCode; amount: number },
  now: Date,
): Promise<RequestOutcome> {
  if (ask.amount < PAYOUT_MINIMUM) return { kind: 'below_minimum' };
  const bank = await db
    .selectFrom('bank_accounts')
    .select('id')
    .where('seller_id', '=', who.sellerId)
    .where('is_default', '=', 1)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!bank) return { kind: 'no_bank_account' };
  const earnings = await earningsAccount(db, who.sellerId, ask.currency, now);
  // the lock: concurrent requests and completions of this seller's sales queue here (postEntry updates it too)
  const locked = await db
    .updateTable('ledger_accounts')
    .set({ balance: sql<number>`balance` })
    .where('id', '=', earnings)
    .returning('balance')
    .executeTakeFirstOrThrow();
  const available = Number(locked.balance);
  if (ask.amount > available) return { kind: 'too_large', available };
  const inFlight = await inFlightAccount(db, who.sellerId, ask.currency, now);
  const at = now.toISOString();
  const row = await db
    .insertInto('payouts')
    .values({
      seller_id: who.sellerId,
      requested_by: who.by,
      bank_account_id: bank.id,
      currency: ask.currency,
      amount: ask.amount,
      fee: PAYOUT_FEE,
      net: ask.amount - PAYOUT_FEE,
      status: 'requested',
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  try {
    await postEntry(
      db,
      {
        kind: 'payout_requested',
        reference: `payout:${row.id}`,
        description: `Payout ${payoutReference(row.id)} requested`,
        lines: [
          { accountId: earnings, currency: ask.currency, amount: -ask.amount },
          { accountId: inFlight, currency: ask.currency, amount: ask.amount },
        ],
      },
      now,
    );
  } catch (error) {
    // cannot happen after the check under the lock; if it does, the router's transaction undoes the payout row
    if (error instanceof InsufficientFunds) return { kind: 'too_large', available };
    throw error;
  }
  await allocateOrders(db, who.sellerId, ask.currency, row.id, ask.amount);
  const payout = await findPayout(db, who.sellerId, row.id);
  if (!payout) throw new Error(`payout ${row.id} vanished`);
  return { kind: 'requested', payout };
}

/** Records which orders' earnings `amount` pays: the oldest earned first, what requested or sent payouts left. */
async function allocateOrders(db: Db, sellerId: number, currency: CurrencyCode, payoutId: number, amount: number) {
  const earned = await earnedOrders(db, sellerId, currency).orderBy('ledger_lines.id', 'asc').execute();
  let left = amount;
  const rows: { payout_id: number; order_id: number; amount: number }[] = [];
  for (const o of earned) {
    if (left <= 0) break;
    const open = Number(o.earned) - Number(o.paid ?? 0) - Number(o.in_flight ?? 0);
    if (open <= 0) continue;
    const take = Math.min(open, left);
    rows.push({ payout_id: payoutId, order_id: o.order_id, amount: take });
    left -= take;
  }
  if (rows.length > 0) await db.insertInto('payout_orders').values(rows).execute();
}

// ---------------------------------------------------------------------------------------------------------
// The back office

function adminQuery(db: Db) {
  return payoutQuery(db)
    .innerJoin('users', 'users.id', 'payouts.seller_id')
    .select(['users.first_name', 'users.last_name', 'users.email']);
}
type AdminRow = Awaited<ReturnType<ReturnType<typeof adminQuery>['executeTakeFirstOrThrow']>>;
const adminPayoutOf = (r: AdminRow): AdminPayout => ({
  ...payoutOf(r),
  id: r.id,
  seller_id: r.seller_id,
  seller_name: `${r.first_name} ${r.last_name}`.trim(),
  seller_email: r.email,
  iban: r.iban,
  holder_name: r.holder_name,
});

/** Every seller's payouts in one status, oldest first. */
export async function adminPayoutPage(db: Db, status: PayoutStatus, page: { limit: number; offset: number }) {
  const rows = await adminQuery(db)
    .where('payouts.status', '=', status)
    .orderBy('payouts.created_at')
    .orderBy('payouts.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await db
    .selectFrom('payouts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return { rows: rows.map(adminPayoutOf), total: Number(total.n) };
}

export type DecisionOutcome =
  | { kind: 'decided'; payout: AdminPayout }
  | { kind: 'not_found' }
  | { kind: 'conflict'; status: PayoutStatus };

/**
 * Marks a requested payout sent or failed, in the caller's transaction: one conditional update decides (a second
 * admin finds it no longer requested: conflict), then ONE ledger entry and the seller's notification.
 */
export async function decidePayout(
  db: Db,
  payoutId: number,
  adminId: number,
  decision: { kind: 'sent' } | { kind: 'failed'; reason: string },
  now: Date,
): Promise<DecisionOutcome> {
  const at = now.toISOString();
  const won = await db
    .updateTable('payouts')
    .set({
      status: decision.kind,
      failure_reason: decision.kind === 'failed' ? decision.reason : null,
      decided_by: adminId,
      decided_at: at,
      updated_at: at,
    })
    .where('id', '=', payoutId)
    .where('status', '=', 'requested')
    .returning(['id', 'seller_id', 'currency', 'amount', 'fee', 'net'])
    .executeTakeFirst();
  if (!won) {
    const now_ = await db.selectFrom('payouts').select('status').where('id', '=', payoutId).executeTakeFirst();
    return now_ ? { kind: 'conflict', status: now_.status } : { kind: 'not_found' };
  }
  const currency = won.currency;
  const amount = Number(won.amount);
  const fee = Number(won.fee);
  const inFlight = await inFlightAccount(db, won.seller_id, currency, now);
  const ref = payoutReference(won.id);
  if (decision.kind === 'sent') {
    const lines = [
      { accountId: inFlight, currency, amount: -amount },
      { accountId: await platformBankAccount(db, currency, now), currency, amount: Number(won.net) },
    ];
    if (fee > 0) lines.push({ accountId: await feesAccount(db, currency, now), currency, amount: fee });
    await postEntry(
      db,
      { kind: 'payout_sent', reference: `payout:${won.id}`, description: `Payout ${ref} sent`, lines },
      now,
    );
  } else {
    await postEntry(
      db,
      {
        kind: 'payout_failed',
        reference: `payout:${won.id}`,
        description: `Payout ${ref} failed`,
        lines: [
          { accountId: inFlight, currency, amount: -amount },
          { accountId: await earningsAccount(db, won.seller_id, currency, now), currency, amount },
        ],
      },
      now,
    );
  }
  const money = `${(amount / 100).toFixed(2)} ${currency}`;
  await db
    .insertInto('notifications')
    .values({
      user_id: won.seller_id,
      name: decision.kind === 'sent' ? 'payout_sent' : 'payout_failed',
      description:
        decision.kind === 'sent'
          ? `Payout ${ref} of ${money} was sent to your bank account (${((amount - fee) / 100).toFixed(2)} ${currency} after the fee).`
          : `Payout ${ref} of ${money} failed: ${decision.reason}. The money is back in your available balance.`,
      viewed: 0,
      created_at: at,
    })
    .execute();
  const row = await adminQuery(db).where('payouts.id', '=', won.id).executeTakeFirstOrThrow();
  return { kind: 'decided', payout: adminPayoutOf(row) };
}

// ---------------------------------------------------------------------------------------------------------
// Export

const EXPORT_COLUMNS: readonly ExportColumn[] = [
  { header: 'Reference', kind: 'text' },
  { header: 'Requested', kind: 'datetime' },
  { header: 'Status', kind: 'text' },
  { header: 'Currency', kind: 'text', width: 10 },
  { header: 'Amount', kind: 'money' },
  { header: 'Fee', kind: 'money' },
  { header: 'Net', kind: 'money' },
  { header: 'Account holder', kind: 'text', width: 30 },
  { header: 'IBAN', kind: 'text', width: 20 },
  { header: 'Orders', kind: 'int', width: 10 },
  { header: 'Decided', kind: 'datetime' },
  { header: 'Failure reason', kind: 'text', width: 40 },
];
export const PAYOUT_EXPORT_COLUMNS = EXPORT_COLUMNS.map((c) => c.header);

/** The filtered payouts (as the history lists them, all pages) as a CSV or XLSX file; null beyond the limit. */
export async function exportPayouts(db: Db, sellerId: number, f: PayoutFilters, format: 'xlsx' | 'csv', now: Date) {
  const { rows, total } = await payoutPage(db, sellerId, f, { limit: PAYOUT_EXPORT_LIMIT + 1, offset: 0 });
  if (total > PAYOUT_EXPORT_LIMIT) return null;
  const cells: ExportCell[][] = rows.map((p) => [
    p.reference,
    new Date(p.created_at),
    p.status_label,
    p.currency,
    p.amount / 100,
    p.fee / 100,
    p.net / 100,
    p.bank_account.holder_name,
    maskIban(`${p.bank_account.country}00${p.bank_account.iban_last4}`),
    p.orders_count,
    p.decided_at ? new Date(p.decided_at) : null,
    p.failure_reason,
  ]);
  const file = await tableFile({
    name: `payouts-${now.toISOString().slice(0, 10)}`,
    sheet: 'Payouts',
    columns: EXPORT_COLUMNS,
    rows: cells,
    format,
    now,
  });
  return { ...file, rows: rows.length };
}
