import { readFileSync } from 'node:fs';
import type { Updateable } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import type { BankStatementLineTable } from '../../db/schema-admin';
import { type Operator, recordAdminAction } from '../admin/audit';
import { decideDeposit } from '../wallet';
import { readReference } from './reference';
import { lineKeys, parseStatement, type StatementEntry } from './statement-file';

export type BankStatementImport = components['schemas']['BankStatementImport'];
type Reason = NonNullable<components['schemas']['BankLineReason']>;

/** What a credit line comes to: a top-up it credits, or why a person must look at it. */
export type Verdict =
  | { kind: 'credit'; sellerId: number; depositId: number; reason: 'typo_corrected' | null }
  | { kind: 'review'; sellerId: number | null; reason: Reason };

interface Pending {
  id: number;
  user_id: number;
  amount: number;
}

async function pendingTopUps(db: Db, sellerIds: number[], currency: string): Promise<Pending[]> {
  if (sellerIds.length === 0) return [];
  const rows = await db
    .selectFrom('deposits')
    .select(['id', 'user_id', 'amount'])
    .where('user_id', 'in', sellerIds)
    .where('currency', '=', currency)
    .where('status', '=', 'pending')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, user_id: r.user_id, amount: Number(r.amount) }));
}

/**
 * Decides one credit line. Its reference must name one seller (read loosely, see readReference) who has a pending
 * top-up of exactly the amount that arrived, in its currency: then the oldest such top-up is credited. A reference
 * read only by correcting a character credits only when exactly one of the corrections has such a top-up. Every
 * other line waits for a person: the money is never credited on a guess, and a part or an over-payment is a
 * person's call (they credit what arrived, and settle the difference with the seller).
 */
export async function judgeLine(db: Db, line: Pick<StatementEntry, 'text' | 'amount' | 'currency'>): Promise<Verdict> {
  const reading = readReference(line.text);
  if (reading.sellers.length === 0) return { kind: 'review', sellerId: null, reason: 'unknown_reference' };
  const pending = await pendingTopUps(db, reading.sellers, line.currency);
  const exact = pending.filter((p) => p.amount === line.amount);
  const exactSellers = [...new Set(exact.map((p) => p.user_id))];
  if (exactSellers.length === 1 && exact[0]) {
    return {
      kind: 'credit',
      sellerId: exact[0].user_id,
      depositId: exact[0].id,
      reason: reading.corrected ? 'typo_corrected' : null,
    };
  }
  if (exactSellers.length > 1 || reading.sellers.length > 1) {
    return { kind: 'review', sellerId: null, reason: 'ambiguous' };
  }
  const sellerId = reading.sellers[0] ?? null;
  const known =
    sellerId !== null && (await db.selectFrom('users').select('id').where('id', '=', sellerId).executeTakeFirst());
  if (!known) return { kind: 'review', sellerId: null, reason: 'unknown_reference' };
  const oldest = pending[0];
  if (!oldest) return { kind: 'review', sellerId, reason: 'no_pending_top_up' };
  return { kind: 'review', sellerId, reason: line.amount < oldest.amount ? 'part_payment' : 'over_payment' };
}

/**
 * Imports a statement file (stored by the router's upload hook) in the caller's transaction: each credit line is
 * stored once by its identity (a line seen before is counted and left alone), then credited through the deposit
 * approval, with the audit log's row by the importing operator, or left for a person.
 */
export async function importStatement(
  db: Db,
  operator: Operator,
  file: { id: string; path: string },
  now: Date,
): Promise<BankStatementImport> {
  const parsed = parseStatement(readFileSync(file.path, 'utf8'));
  const at = now.toISOString();
  const { id: statementId } = await db
    .insertInto('bank_statements')
    .values({
      file_id: file.id,
      format: parsed.format,
      imported_by: operator.id,
      imported_at: at,
      lines_total: parsed.entries.length,
      credited: 0,
      to_review: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const wallets = new Set((await db.selectFrom('currencies').select('code').execute()).map((c) => c.code));
  const keys = lineKeys(parsed.entries);
  const summary: BankStatementImport = {
    statement_id: statementId,
    format: parsed.format,
    lines_total: parsed.entries.length,
    credit_lines: 0,
    already_imported: 0,
    credited: 0,
    to_review: 0,
    skipped_lines: 0,
  };
  for (const [i, entry] of parsed.entries.entries()) {
    if (!entry.credit || !wallets.has(entry.currency)) {
      summary.skipped_lines++;
      continue;
    }
    summary.credit_lines++;
    const stored = await db
      .insertInto('bank_statement_lines')
      .values({
        statement_id: statementId,
        line_key: keys[i] ?? '',
        booked_on: entry.bookedOn,
        amount: entry.amount,
        currency: entry.currency,
        text: entry.text,
        payer: entry.payer,
        bank_reference: entry.bankReference,
        status: 'review',
        reason: null,
        seller_id: null,
        deposit_id: null,
        decided_by: null,
        decided_at: null,
        created_at: at,
      })
      .onConflict((oc) => oc.column('line_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!stored) {
      summary.already_imported++;
      continue;
    }
    const outcome = await settleLine(db, operator, stored.id, entry, now);
    if (outcome === 'credited') summary.credited++;
    else summary.to_review++;
  }
  await db
    .updateTable('bank_statements')
    .set({ credited: summary.credited, to_review: summary.to_review })
    .where('id', '=', statementId)
    .execute();
  const detail =
    `${parsed.format}: ${summary.credit_lines} credit lines, ${summary.credited} credited, ` +
    `${summary.to_review} to review, ${summary.already_imported} already imported`;
  await recordAdminAction(
    db,
    operator,
    'bank_statement.imported',
    { type: 'bank_statement', id: statementId, detail },
    now,
  );
  return summary;
}

/** Credits a stored line when its verdict says so, else marks why it waits. */
async function settleLine(
  db: Db,
  operator: Operator,
  lineId: number,
  entry: StatementEntry,
  now: Date,
): Promise<'credited' | 'review'> {
  const verdict = await judgeLine(db, entry);
  const mark = (set: Updateable<BankStatementLineTable>) =>
    db.updateTable('bank_statement_lines').set(set).where('id', '=', lineId).execute();
  if (verdict.kind === 'review') {
    await mark({ reason: verdict.reason, seller_id: verdict.sellerId });
    return 'review';
  }
  const decided = await decideDeposit(db, verdict.depositId, operator.id, { kind: 'approve' }, now);
  if (decided.kind !== 'decided') {
    // decided by someone else between the read and now: nothing credited, a person looks
    await mark({ reason: 'no_pending_top_up', seller_id: verdict.sellerId });
    return 'review';
  }
  await mark({
    status: 'credited',
    reason: verdict.reason,
    seller_id: verdict.sellerId,
    deposit_id: verdict.depositId,
    decided_by: operator.id,
    decided_at: now.toISOString(),
  });
  await recordAdminAction(
    db,
    operator,
    'deposit.approved',
    {
      type: 'deposit',
      id: verdict.depositId,
      amount: { minor: entry.amount, currency: entry.currency },
      detail: lineProof(lineId, entry),
    },
    now,
  );
  return 'credited';
}

/** The audit log's note of the statement line a credit came from (its proof). */
export const lineProof = (lineId: number, entry: Pick<StatementEntry, 'bankReference' | 'bookedOn' | 'text'>) =>
  `Bank statement line #${lineId} (${entry.bookedOn}${entry.bankReference ? `, ${entry.bankReference}` : ''}): ${entry.text}`.slice(
    0,
    500,
  );
