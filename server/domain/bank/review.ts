import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import type { CurrencyCode } from '../wallet';
import { decideDeposit, findAdminDeposit, pendingCandidates } from '../wallet';

export type BankLine = components['schemas']['BankLine'];
export type BankLineStatus = components['schemas']['BankLineStatus'];

const LINE_COLUMNS = [
  'id',
  'statement_id',
  'booked_on',
  'amount',
  'currency',
  'text',
  'payer',
  'bank_reference',
  'status',
  'reason',
  'seller_id',
  'deposit_id',
  'created_at',
] as const;

const lineQuery = (db: Db) => db.selectFrom('bank_statement_lines').select(LINE_COLUMNS);
type LineRow = Awaited<ReturnType<ReturnType<typeof lineQuery>['executeTakeFirstOrThrow']>>;

async function lineOf(db: Db, r: LineRow): Promise<BankLine> {
  const amount = Number(r.amount);
  return {
    id: r.id,
    statement_id: r.statement_id,
    booked_on: r.booked_on,
    amount,
    currency: r.currency as CurrencyCode,
    text: r.text,
    payer: r.payer,
    bank_reference: r.bank_reference,
    status: r.status,
    reason: r.reason as BankLine['reason'],
    seller_id: r.seller_id,
    deposit_id: r.deposit_id,
    candidates:
      r.status === 'review'
        ? await pendingCandidates(db, { currency: r.currency, sellerId: r.seller_id, amount }, 5)
        : [],
    created_at: r.created_at,
  };
}

export async function findLine(db: Db, id: number): Promise<BankLine | undefined> {
  const row = await lineQuery(db).where('id', '=', id).executeTakeFirst();
  return row && lineOf(db, row);
}

/** A page of lines in one status, oldest first, and how many there are. */
export async function linePage(db: Db, status: BankLineStatus, page: { limit: number; offset: number }) {
  const rows = await lineQuery(db)
    .where('status', '=', status)
    .orderBy('created_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const { n } = await db
    .selectFrom('bank_statement_lines')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', status)
    .executeTakeFirstOrThrow();
  const lines: BankLine[] = [];
  for (const r of rows) lines.push(await lineOf(db, r));
  return { lines, total: Number(n) };
}

export type LineOutcome =
  | { kind: 'done'; line: BankLine }
  | { kind: 'already'; line: BankLine }
  | { kind: 'conflict'; message: string }
  | { kind: 'not_found'; message: string }
  | { kind: 'invalid'; message: string };

/**
 * A person matches a waiting line to a pending top-up, in the caller's transaction: the line leaves `review` by
 * one conditional update, then the top-up is approved crediting what arrived (the line's amount). When the top-up
 * was decided meanwhile the caller must roll back (`conflict`): the line's update is undone with it.
 */
export async function matchLine(
  db: Db,
  lineId: number,
  depositId: number,
  adminId: number,
  now: Date,
): Promise<LineOutcome> {
  const line = await findLine(db, lineId);
  if (!line) return { kind: 'not_found', message: 'Statement line not found.' };
  if (line.status === 'matched' && line.deposit_id === depositId) return { kind: 'already', line };
  if (line.status !== 'review') {
    return { kind: 'conflict', message: `This statement line was ${line.status} already.` };
  }
  const deposit = await findAdminDeposit(db, depositId);
  if (!deposit) return { kind: 'not_found', message: 'Deposit request not found.' };
  if (deposit.currency !== line.currency) {
    return { kind: 'invalid', message: `The top-up is in ${deposit.currency}; the line is in ${line.currency}.` };
  }
  if (deposit.status !== 'pending') {
    return { kind: 'conflict', message: `This deposit request was ${deposit.status} already; choose another.` };
  }
  const changed = await db
    .updateTable('bank_statement_lines')
    .set({ status: 'matched', deposit_id: depositId, decided_by: adminId, decided_at: now.toISOString() })
    .where('id', '=', lineId)
    .where('status', '=', 'review')
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) return matchLine(db, lineId, depositId, adminId, now);
  const decided = await decideDeposit(db, depositId, adminId, { kind: 'approve', amount: line.amount }, now);
  if (decided.kind !== 'decided') {
    return { kind: 'conflict', message: `This deposit request was ${deposit.status} already; choose another.` };
  }
  const matched = await findLine(db, lineId);
  if (!matched) throw new Error(`statement line ${lineId} vanished inside its own transaction`);
  return { kind: 'done', line: matched };
}

/** A person dismisses a waiting line (not a top-up, sent back...): nothing is credited. */
export async function dismissLine(db: Db, lineId: number, adminId: number, now: Date): Promise<LineOutcome> {
  const changed = await db
    .updateTable('bank_statement_lines')
    .set({ status: 'dismissed', decided_by: adminId, decided_at: now.toISOString() })
    .where('id', '=', lineId)
    .where('status', '=', 'review')
    .executeTakeFirst();
  const line = await findLine(db, lineId);
  if (!line) return { kind: 'not_found', message: 'Statement line not found.' };
  if (Number(changed.numUpdatedRows) === 1) return { kind: 'done', line };
  return line.status === 'dismissed'
    ? { kind: 'already', line }
    : { kind: 'conflict', message: `This statement line was ${line.status}; it cannot be dismissed.` };
}
