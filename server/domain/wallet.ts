import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { components } from '../../openapi/schema';
import type { Db } from '../db/database';
import type { DepositStatus, DepositTable, PaymentTransferBy } from '../db/schema-wallet';
import { nameForKind } from '../http/file-names';
import { platformBankAccount, postEntry, walletAccount, walletBalances } from './ledger';
import { notificationLinks, notify } from './notifications';
import type { Page, PageKey } from './paging';

export type Deposit = components['schemas']['Deposit'];
export type AdminDeposit = components['schemas']['AdminDeposit'];
export type WalletTransaction = components['schemas']['WalletTransaction'];
export type CurrencyCode = components['schemas']['CurrencyCode'];
type WalletTransactionType = components['schemas']['WalletTransactionType'];

/** The largest deposit request, in minor units (1,000,000.00): the contract's DepositAmount maximum. */
export const MAX_DEPOSIT_AMOUNT = 100_000_000;
/** The spec's promise: a top-up shows within 24 hours. */
export const TOP_UP_PROMISE_MS = 24 * 60 * 60 * 1000;

/**
 * The platform's accounts to transfer a top-up to, per currency (documented data: demo details, the example
 * IBANs of the banks' own documentation). AED's account has no SWIFT code on record: the panel shows a dash.
 */
export const TOP_UP_BANK_ACCOUNTS: Record<
  CurrencyCode,
  { account_name: string; iban: string; swiftcode: string | null }
> = {
  GBP: { account_name: 'SB Portal Ltd', iban: 'GB33BUKB20201555555555', swiftcode: 'BUKBGB22' },
  EUR: { account_name: 'SB Portal Ltd', iban: 'DE89370400440532013000', swiftcode: 'COBADEFFXXX' },
  USD: { account_name: 'SB Portal Ltd', iban: 'GB94BARC10201530093459', swiftcode: 'BARCGB22' },
  AED: { account_name: 'SB Portal FZ-LLC', iban: 'AE070331234567890123456', swiftcode: null },
};

/**
 * The wallet's top-up reference: `SBP` and the seller's id (6 digits at least) and two ISO 7064 mod 97-10 check
 * digits, e.g. SBP000012-47. Unique per seller by construction, short enough to type into a bank's form, and a
 * typo in it is caught by the check digits when the back office matches a transfer.
 */
export function topUpReference(sellerId: number): string {
  const digits = String(sellerId).padStart(6, '0');
  const check = 98 - Number((BigInt(digits) * 100n) % 97n);
  return `SBP${digits}-${String(check).padStart(2, '0')}`;
}

export class DepositNotFound extends Error {}

const STATUS_LABEL: Record<DepositStatus, Deposit['status_label']> = {
  pending: 'pending admin approval',
  approved: 'approved',
  rejected: 'rejected',
};

type DepositRow = Pick<
  DepositTable,
  | 'amount'
  | 'currency'
  | 'payment_transfer_by'
  | 'notes'
  | 'reference'
  | 'status'
  | 'rejection_reason'
  | 'created_at'
  | 'decided_at'
  | 'proof_file_id'
  | 'user_id'
> & { id: number; proof_name: string | null; proof_kind: string | null; proof_size: number | null };

const DEPOSIT_COLUMNS = [
  'deposits.id',
  'deposits.user_id',
  'deposits.amount',
  'deposits.currency',
  'deposits.payment_transfer_by',
  'deposits.notes',
  'deposits.reference',
  'deposits.status',
  'deposits.rejection_reason',
  'deposits.created_at',
  'deposits.decided_at',
  'deposits.proof_file_id',
  'files.original_name as proof_name',
  'files.kind as proof_kind',
  'files.size as proof_size',
] as const;

function depositOf(r: DepositRow): Deposit {
  return {
    deposit_id: r.id,
    amount: Number(r.amount),
    currency: r.currency as CurrencyCode,
    payment_transfer_by: r.payment_transfer_by,
    notes: r.notes,
    reference: r.reference,
    status: r.status,
    status_label: STATUS_LABEL[r.status],
    rejection_reason: r.rejection_reason,
    proof:
      r.proof_file_id && r.proof_kind
        ? { name: r.proof_name ?? '', kind: r.proof_kind, size: Number(r.proof_size ?? 0) }
        : null,
    created_at: r.created_at,
    expected_by: new Date(Date.parse(r.created_at) + TOP_UP_PROMISE_MS).toISOString(),
    decided_at: r.decided_at,
  };
}

const depositsQuery = (db: Db) =>
  db.selectFrom('deposits').leftJoin('files', 'files.id', 'deposits.proof_file_id').select(DEPOSIT_COLUMNS);

/** One deposit of a seller; another seller's, or an unknown id, answers undefined. */
export async function findDeposit(db: Db, sellerId: number, depositId: number): Promise<Deposit | undefined> {
  const row = await depositsQuery(db)
    .where('deposits.id', '=', depositId)
    .where('deposits.user_id', '=', sellerId)
    .executeTakeFirst();
  return row && depositOf(row as DepositRow);
}

/** Stores a deposit request, pending admin approval; in the router's transaction with its proof's `files` row. */
export async function submitDeposit(
  db: Db,
  request: {
    sellerId: number;
    submittedBy: number;
    amount: number;
    currency: CurrencyCode;
    method: PaymentTransferBy;
    notes: string | null;
    proofFileId: string | null;
  },
  now: Date,
): Promise<Deposit> {
  const at = now.toISOString();
  const { id } = await db
    .insertInto('deposits')
    .values({
      user_id: request.sellerId,
      submitted_by: request.submittedBy,
      amount: request.amount,
      currency: request.currency,
      payment_transfer_by: request.method,
      notes: request.notes,
      reference: topUpReference(request.sellerId),
      proof_file_id: request.proofFileId,
      status: 'pending',
      rejection_reason: null,
      decided_by: null,
      decided_at: null,
      ledger_entry_id: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const deposit = await findDeposit(db, request.sellerId, id);
  if (!deposit) throw new Error(`deposit ${id} vanished inside its own transaction`);
  return deposit;
}

export type ProofOutcome =
  | { kind: 'attached'; deposit: Deposit }
  | { kind: 'not_found' }
  | { kind: 'has_proof' }
  | { kind: 'decided' };

/**
 * Adds the proof of payment to a pending deposit request of the seller that has none yet (`/api/upload-pop`), by
 * one conditional update, in the router's transaction with the proof's `files` row. A proof already sent is
 * never replaced (the back office may have read it), nor is one added after the decision.
 */
export async function attachDepositProof(
  db: Db,
  sellerId: number,
  depositId: number,
  proofFileId: string,
  now: Date,
): Promise<ProofOutcome> {
  const changed = await db
    .updateTable('deposits')
    .set({ proof_file_id: proofFileId, updated_at: now.toISOString() })
    .where('id', '=', depositId)
    .where('user_id', '=', sellerId)
    .where('status', '=', 'pending')
    .where('proof_file_id', 'is', null)
    .executeTakeFirst();
  const deposit = await findDeposit(db, sellerId, depositId);
  if (!deposit) return { kind: 'not_found' };
  if (Number(changed.numUpdatedRows) === 1) return { kind: 'attached', deposit };
  return deposit.status === 'pending' ? { kind: 'has_proof' } : { kind: 'decided' };
}

/** An approval credits the request's amount, or `amount` when what arrived differs (a matched bank line). */
export type Decision = { kind: 'approve'; amount?: number } | { kind: 'reject'; reason: string };
export type DecisionOutcome =
  /** this call changed it */
  | { kind: 'decided'; deposit: AdminDeposit }
  /** it was already so (a replay, a second click, the other admin won): nothing changed */
  | { kind: 'already'; deposit: AdminDeposit }
  /** it was decided the other way: nothing changed */
  | { kind: 'conflict'; deposit: AdminDeposit }
  | { kind: 'not_found' };

/**
 * An admin approves or rejects a pending deposit, inside the caller's transaction. One conditional update moves
 * it from pending (`... WHERE id = ? AND status = 'pending'`): of two admins at once, or ten replays, exactly one
 * changes it, and only that one posts the ledger entry (itself unique per deposit) and writes the seller's
 * notification; the others find it decided and change nothing.
 */
export async function decideDeposit(
  db: Db,
  depositId: number,
  adminId: number,
  decision: Decision,
  now: Date,
): Promise<DecisionOutcome> {
  const at = now.toISOString();
  const target: DepositStatus = decision.kind === 'approve' ? 'approved' : 'rejected';
  const changed = await db
    .updateTable('deposits')
    .set({
      status: target,
      rejection_reason: decision.kind === 'reject' ? decision.reason : null,
      decided_by: adminId,
      decided_at: at,
      updated_at: at,
    })
    .where('id', '=', depositId)
    .where('status', '=', 'pending')
    .returning(['id', 'user_id', 'amount', 'currency'])
    .executeTakeFirst();
  if (!changed) {
    const deposit = await findAdminDeposit(db, depositId);
    if (!deposit) return { kind: 'not_found' };
    return { kind: deposit.status === target ? 'already' : 'conflict', deposit };
  }
  if (decision.kind === 'approve') {
    const amount = decision.amount ?? Number(changed.amount);
    const wallet = await walletAccount(db, changed.user_id, changed.currency, now);
    const bank = await platformBankAccount(db, changed.currency, now);
    const posting = await postEntry(
      db,
      {
        kind: 'deposit',
        reference: String(changed.id),
        description: 'Deposit approved',
        lines: [
          { accountId: wallet, currency: changed.currency, amount },
          { accountId: bank, currency: changed.currency, amount: -amount },
        ],
      },
      now,
    );
    await db.updateTable('deposits').set({ ledger_entry_id: posting.entryId }).where('id', '=', changed.id).execute();
  }
  await notify(db, {
    userId: changed.user_id,
    name: decision.kind === 'approve' ? 'deposit_approved' : 'deposit_rejected',
    description: decision.kind === 'approve' ? 'Deposit approved' : `Deposit rejected: ${decision.reason}`,
    link: notificationLinks.wallet,
    at,
  });
  const deposit = await findAdminDeposit(db, depositId);
  if (!deposit) throw new Error(`deposit ${depositId} vanished inside its own transaction`);
  return { kind: 'decided', deposit };
}

const adminDepositsQuery = (db: Db) =>
  depositsQuery(db)
    .innerJoin('users', 'users.id', 'deposits.user_id')
    .select(['users.email', 'users.first_name', 'users.last_name']);

type AdminRow = DepositRow & { email: string; first_name: string; last_name: string };
const adminDepositOf = (r: AdminRow): AdminDeposit => ({
  ...depositOf(r),
  id: r.id,
  seller_id: r.user_id,
  seller_name: `${r.first_name} ${r.last_name}`.trim(),
  seller_email: r.email,
});

export async function findAdminDeposit(db: Db, depositId: number): Promise<AdminDeposit | undefined> {
  const row = await adminDepositsQuery(db).where('deposits.id', '=', depositId).executeTakeFirst();
  return row && adminDepositOf(row as AdminRow);
}

/** Pending deposits of a seller, or of an amount, in a currency, oldest first: a bank line's candidates. */
export async function pendingCandidates(
  db: Db,
  filter: { currency: string; sellerId: number | null; amount: number },
  limit: number,
): Promise<AdminDeposit[]> {
  let q = adminDepositsQuery(db)
    .where('deposits.status', '=', 'pending')
    .where('deposits.currency', '=', filter.currency);
  q =
    filter.sellerId !== null
      ? q.where('deposits.user_id', '=', filter.sellerId)
      : q.where('deposits.amount', '=', filter.amount);
  const rows = await q.orderBy('deposits.created_at').orderBy('deposits.id').limit(limit).execute();
  return rows.map((r) => adminDepositOf(r as AdminRow));
}

/** The back office's queue: every seller's deposits in one status, oldest first. */
export async function adminDepositPage(
  db: Db,
  status: DepositStatus,
  page: { limit: number; offset: number },
): Promise<{ rows: AdminDeposit[]; total: number }> {
  const rows = await adminDepositsQuery(db)
    .where('deposits.status', '=', status)
    .orderBy('deposits.created_at', 'asc')
    .orderBy('deposits.id', 'asc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await db
    .selectFrom('deposits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  return { rows: rows.map((r) => adminDepositOf(r as AdminRow)), total: Number(count.n) };
}

/** The date range of a list, as ISO bounds: from the first day's start to the end of the last day. */
export interface Filters {
  from?: string;
  to?: string;
  currency?: CurrencyCode;
}
export const dayStart = (day: string) => `${day}T00:00:00.000Z`;
export const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();

/** A page of a seller's deposits, newest first, by number or after a cursor's key, and how many match. */
export async function depositPage(
  db: Db,
  sellerId: number,
  filters: Filters & { status?: DepositStatus },
  page: Page,
): Promise<{ rows: Deposit[]; total: number; next: PageKey | null }> {
  let q = depositsQuery(db).where('deposits.user_id', '=', sellerId);
  let c = db
    .selectFrom('deposits')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', sellerId);
  if (filters.status) {
    q = q.where('deposits.status', '=', filters.status);
    c = c.where('status', '=', filters.status);
  }
  if (filters.currency) {
    q = q.where('deposits.currency', '=', filters.currency);
    c = c.where('currency', '=', filters.currency);
  }
  if (filters.from) {
    q = q.where('deposits.created_at', '>=', dayStart(filters.from));
    c = c.where('created_at', '>=', dayStart(filters.from));
  }
  if (filters.to) {
    q = q.where('deposits.created_at', '<', dayAfter(filters.to));
    c = c.where('created_at', '<', dayAfter(filters.to));
  }
  const after = page.after;
  if (after) {
    q = q.where((eb) =>
      eb(eb.refTuple('deposits.created_at', 'deposits.id'), '<', eb.tuple(after.created_at, after.id)),
    );
  }
  const rows = (await q
    .orderBy('deposits.created_at', 'desc')
    .orderBy('deposits.id', 'desc')
    .limit(page.limit + 1)
    .offset(after ? 0 : page.offset)
    .execute()) as DepositRow[];
  const { n } = await c.executeTakeFirstOrThrow();
  const more = rows.length > page.limit;
  const kept = more ? rows.slice(0, page.limit) : rows;
  const last = kept.at(-1);
  return {
    rows: kept.map(depositOf),
    total: Number(n),
    next: more && last ? { created_at: last.created_at, id: last.id } : null,
  };
}

/** A page of the ledger lines on a seller's wallets, newest first, and how many match. */
export async function transactionPage(
  db: Db,
  sellerId: number,
  filters: Filters & { type?: WalletTransactionType },
  page: Page,
): Promise<{ rows: WalletTransaction[]; total: number; next: PageKey | null }> {
  const base = () => {
    let q = db
      .selectFrom('ledger_lines')
      .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_lines.account_id')
      .innerJoin('ledger_entries', 'ledger_entries.id', 'ledger_lines.entry_id')
      .where('ledger_accounts.owner_id', '=', sellerId)
      .where('ledger_accounts.kind', '=', 'wallet');
    if (filters.type) q = q.where('ledger_entries.kind', '=', filters.type);
    if (filters.currency) q = q.where('ledger_lines.currency', '=', filters.currency);
    if (filters.from) q = q.where('ledger_lines.created_at', '>=', dayStart(filters.from));
    if (filters.to) q = q.where('ledger_lines.created_at', '<', dayAfter(filters.to));
    return q;
  };
  let q = base().select([
    'ledger_lines.id',
    'ledger_lines.entry_id',
    'ledger_entries.kind',
    'ledger_entries.reference',
    'ledger_entries.description',
    'ledger_lines.amount',
    'ledger_lines.currency',
    'ledger_lines.balance_after',
    'ledger_lines.created_at',
  ]);
  const after = page.after;
  // posting order, newest first: the order the running balance (balance_after) follows; entries are posted
  // when they happen, so it is the order of time too (seeded history may be dated otherwise)
  if (after) q = q.where('ledger_lines.id', '<', after.id);
  const rows = await q
    .orderBy('ledger_lines.id', 'desc')
    .limit(page.limit + 1)
    .offset(after ? 0 : page.offset)
    .execute();
  const { n } = await base()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const more = rows.length > page.limit;
  const kept = more ? rows.slice(0, page.limit) : rows;
  const last = kept.at(-1);
  return {
    rows: kept.map((r) => ({
      id: r.id,
      entry_id: r.entry_id,
      type: r.kind as WalletTransactionType,
      description: r.description,
      amount: Number(r.amount),
      currency: r.currency as CurrencyCode,
      balance_after: Number(r.balance_after),
      deposit_id: r.kind === 'deposit' ? Number(r.reference) : null,
      created_at: r.created_at,
    })),
    total: Number(n),
    next: more && last ? { created_at: last.created_at, id: last.id } : null,
  };
}

/** A seller's balance and pending deposits in every currency the portal has (0 where there is none). */
export async function walletDetails(db: Db, sellerId: number) {
  const currencies = await db.selectFrom('currencies').select('code').orderBy('code').execute();
  const balances = await walletBalances(db, sellerId);
  const pending = await db
    .selectFrom('deposits')
    .select(['currency', (eb) => eb.fn.sum<number>('amount').as('total')])
    .where('user_id', '=', sellerId)
    .where('status', '=', 'pending')
    .groupBy('currency')
    .execute();
  const pendingOf = new Map(pending.map((p) => [p.currency, Number(p.total)]));
  return {
    reference: topUpReference(sellerId),
    balances: currencies.map(({ code }) => ({
      currency: code as CurrencyCode,
      balance: balances.get(code) ?? 0,
      pending: pendingOf.get(code) ?? 0,
    })),
  };
}

/**
 * A deposit's proof as stored: readable by the seller it belongs to (sellerId) or, with null, by an admin.
 * Undefined when there is no such deposit for the reader; null when the request was sent without a proof.
 */
export async function depositProof(db: Db, dataDir: string, depositId: number, sellerId: number | null) {
  let q = db
    .selectFrom('deposits')
    .leftJoin('files', 'files.id', 'deposits.proof_file_id')
    .select(['files.id', 'files.original_name', 'files.kind', 'files.mime', 'files.size'])
    .where('deposits.id', '=', depositId);
  if (sellerId !== null) q = q.where('deposits.user_id', '=', sellerId);
  const file = await q.executeTakeFirst();
  if (!file) return undefined;
  if (file.id === null) return null;
  // the row commits with the file (the router's upload hook): a file missing on disk is a fault, not a 404
  const bytes = readFileSync(join(dataDir, 'uploads', file.id));
  return {
    // named by the kind its bytes showed, whatever name an older row kept (`poly.html` for a PDF)
    name: nameForKind(file.original_name ?? '', file.kind ?? ''),
    kind: file.kind ?? '',
    mime: file.mime ?? '',
    size: Number(file.size),
    content_base64: bytes.toString('base64'),
  };
}
