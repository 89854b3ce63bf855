import { sql } from 'kysely';
import { type Db, rootOf } from '../db/database';
import { prepared } from '../db/prepared';

/**
 * The double-entry ledger behind SB Pay (and, later, purchases paid from it).
 *
 * - An **account** is a row of `ledger_accounts` with a balance in one currency: each user's wallet per
 *   currency (`wallet:<user>:<currency>`, never below zero), the platform's bank account per currency
 *   (`platform_bank:<currency>`, where money from outside comes in and goes out; it may go negative), and any
 *   account a later flow needs (an escrow, a seller's payable), made by `accountOf`.
 * - An **entry** is one business event (deposit 17 approved, booking 42 paid), unique by (kind, reference):
 *   posting the same event again posts nothing and answers the first entry, so a replay or a race can never
 *   move money twice.
 * - Its **lines** are signed amounts on accounts; a line adds its amount to its account's balance. The lines of
 *   an entry sum to zero in each currency, so the balances of all accounts of a currency always sum to zero:
 *   a wallet's balance is what the platform owes its owner, and `platform_bank` is minus what came in.
 *
 * Balances change only by a conditional atomic update in the caller's transaction
 * (`SET balance = balance + :amount WHERE id = :id AND (allow_negative = 1 OR balance + :amount >= 0)`), never
 * by reading a balance and writing a new one, so two processes on one Postgres cannot lose an update, and a
 * debit that would take a wallet below zero changes nothing and throws `InsufficientFunds` (the router's
 * transaction then undoes the whole call). The CHECK constraint on the table holds the same line.
 */

/** No balance or line goes past this (10^15 minor units): sums stay exact in a double, far from 2^53. */
export const MAX_LEDGER_AMOUNT = 1_000_000_000_000_000;

export type AccountKind = 'wallet' | 'platform_bank' | (string & {});

export interface Line {
  accountId: number;
  currency: string;
  /** minor units; positive adds to the account's balance, negative takes from it */
  amount: number;
}

export interface PostedLine extends Line {
  id: number;
  balanceAfter: number;
}

export interface Posting {
  entryId: number;
  /** false when the entry had been posted before (nothing moved this time) */
  posted: boolean;
  lines: PostedLine[];
}

/** A debit would take an account that may not go negative below zero (or past the ledger's bound). */
export class InsufficientFunds extends Error {
  constructor(
    readonly accountId: number,
    readonly currency: string,
  ) {
    super(`Account ${accountId} has too little ${currency} for this.`);
    this.name = 'InsufficientFunds';
  }
}

/** An entry that could never be valid: no lines, a zero or unsafe amount, lines that do not balance. */
export class UnbalancedEntry extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnbalancedEntry';
  }
}

export const walletKey = (userId: number, currency: string) => `wallet:${userId}:${currency}`;
export const platformBankKey = (currency: string) => `platform_bank:${currency}`;

const accountByKey = prepared((db, $: { key: string }) =>
  db.selectFrom('ledger_accounts').select('id').where('account_key', '=', $.key),
);

/**
 * The id of the account `key`, made on first use (an upsert, so two transactions making it at once agree on
 * one row). Platform accounts may go negative; every other account may not.
 */
export async function accountOf(
  db: Db,
  spec: { key: string; kind: AccountKind; ownerId: number | null; currency: string; allowNegative?: boolean },
  now: Date,
): Promise<number> {
  const existing = await accountByKey.takeFirst(db, { key: spec.key });
  if (existing) return existing.id;
  await db
    .insertInto('ledger_accounts')
    .values({
      account_key: spec.key,
      kind: spec.kind,
      owner_id: spec.ownerId,
      currency: spec.currency,
      allow_negative: spec.allowNegative ? 1 : 0,
      balance: 0,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column('account_key').doNothing())
    .execute();
  const made = await db
    .selectFrom('ledger_accounts')
    .select('id')
    .where('account_key', '=', spec.key)
    .executeTakeFirstOrThrow();
  return made.id;
}

/** A user's SB Pay wallet in one currency (never below zero). */
export const walletAccount = (db: Db, userId: number, currency: string, now: Date) =>
  accountOf(db, { key: walletKey(userId, currency), kind: 'wallet', ownerId: userId, currency }, now);

/** The platform's bank account in one currency: top-ups come in through it. */
export const platformBankAccount = (db: Db, currency: string, now: Date) =>
  accountOf(
    db,
    { key: platformBankKey(currency), kind: 'platform_bank', ownerId: null, currency, allowNegative: true },
    now,
  );

function checkLines(lines: readonly Line[]) {
  if (lines.length < 2) throw new UnbalancedEntry('An entry needs at least two lines.');
  const sums = new Map<string, number>();
  for (const line of lines) {
    if (!Number.isSafeInteger(line.amount) || line.amount === 0 || Math.abs(line.amount) > MAX_LEDGER_AMOUNT) {
      throw new UnbalancedEntry(`A line's amount must be a non-zero integer of minor units, got ${line.amount}.`);
    }
    sums.set(line.currency, (sums.get(line.currency) ?? 0) + line.amount);
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0) throw new UnbalancedEntry(`The lines in ${currency} sum to ${sum}, not zero.`);
  }
}

const newEntry = prepared((db, $: { kind: string; reference: string; description: string; at: string }) =>
  db
    .insertInto('ledger_entries')
    .values({ kind: $.kind, reference: $.reference, description: $.description, created_at: $.at })
    .onConflict((oc) => oc.columns(['kind', 'reference']).doNothing())
    .returning('id'),
);
// a balance moved by a conditional update in the database: never below zero unless the account may, never past
// the ledger's bound (built and compiled once: every posting runs it once a line)
const moveBalance = prepared((db, $: { id: number; currency: string; amount: number; max: number; min: number }) =>
  db
    .updateTable('ledger_accounts')
    .set({ balance: sql<number>`balance + ${$.amount}` })
    .where('id', '=', $.id)
    .where('currency', '=', $.currency)
    .where(sql<boolean>`(allow_negative = 1 OR balance + ${$.amount} >= 0)`)
    .where(sql<boolean>`balance + ${$.amount} <= ${$.max}`)
    .where(sql<boolean>`balance + ${$.amount} >= ${$.min}`)
    .returning('balance'),
);
const newLine = prepared(
  (db, $: { entry: number; account: number; currency: string; amount: number; after: number; at: string }) =>
    db
      .insertInto('ledger_lines')
      .values({
        entry_id: $.entry,
        account_id: $.account,
        currency: $.currency,
        amount: $.amount,
        balance_after: $.after,
        created_at: $.at,
      })
      .returning('id'),
);

/**
 * Posts an entry inside the caller's transaction (`db` must be one): the entry row, one conditional balance
 * update per line (in account order, so two postings touching the same accounts never deadlock), and the lines
 * with the balances they left. An entry posted before under the same (kind, reference) posts nothing and answers
 * `posted: false` with the first one's lines. Throws `InsufficientFunds` when a line would take an account that
 * may not go negative below zero (the caller's transaction must then be undone: earlier lines were applied).
 */
export async function postEntry(
  db: Db,
  entry: { kind: string; reference: string; description: string; lines: readonly Line[] },
  now: Date,
): Promise<Posting> {
  checkLines(entry.lines);
  const at = now.toISOString();
  const inserted = await newEntry.takeFirst(db, { ...entry, at });
  if (!inserted) {
    const first = await db
      .selectFrom('ledger_entries')
      .select('id')
      .where('kind', '=', entry.kind)
      .where('reference', '=', entry.reference)
      .executeTakeFirstOrThrow();
    const lines = await db
      .selectFrom('ledger_lines')
      .select(['id', 'account_id', 'currency', 'amount', 'balance_after'])
      .where('entry_id', '=', first.id)
      .orderBy('id')
      .execute();
    return {
      entryId: first.id,
      posted: false,
      lines: lines.map((l) => ({
        id: l.id,
        accountId: l.account_id,
        currency: l.currency,
        amount: Number(l.amount),
        balanceAfter: Number(l.balance_after),
      })),
    };
  }

  const ordered = [...entry.lines].sort((a, b) => a.accountId - b.accountId);
  const posted: PostedLine[] = [];
  for (const line of ordered) {
    const moved = await moveBalance.takeFirst(db, {
      id: line.accountId,
      currency: line.currency,
      amount: line.amount,
      max: MAX_LEDGER_AMOUNT,
      min: -MAX_LEDGER_AMOUNT,
    });
    if (!moved) throw new InsufficientFunds(line.accountId, line.currency);
    const row = await newLine.takeFirst(db, {
      entry: inserted.id,
      account: line.accountId,
      currency: line.currency,
      amount: line.amount,
      after: Number(moved.balance),
      at,
    });
    if (!row) throw new Error(`the line of entry ${inserted.id} was not written`);
    posted.push({ ...line, id: row.id, balanceAfter: Number(moved.balance) });
  }
  return { entryId: inserted.id, posted: true, lines: posted };
}

/**
 * Where money paid from SB Pay for a purchase waits (the platform's, per currency) until the sale settles: not
 * one account but ESCROW_SHARDS of them, the booking's chosen by its id, so that concurrent purchases do not all
 * lock one balance row (docs/decisions/escrow-shards.md). Shard 0 keeps the key of the single account it was
 * before; the escrow's balance is the sum of its shards' (`escrowBalance`). A booking's money goes in and comes
 * out (refund, settlement) through the same shard.
 */
export const ESCROW_SHARDS = 16;
export const purchaseEscrowKey = (currency: string, shard = 0) =>
  shard === 0 ? `purchase_escrow:${currency}` : `purchase_escrow:${currency}:${shard}`;
export const escrowShardOf = (bookingId: number) => bookingId % ESCROW_SHARDS;

/**
 * The escrow shards' ids by currency, read once per process and database: the shards are made by their
 * migration (0037, for the portal's currencies), committed before any purchase, and an account is never
 * deleted, so an id once read stays true. A currency without its shards makes them here, uncached.
 */
const escrowIds = new WeakMap<Db, Map<string, number[]>>();
const escrowShards = prepared((db, $: { currency: string }) =>
  db
    .selectFrom('ledger_accounts')
    .select(['id', 'account_key'])
    .where('kind', '=', 'purchase_escrow')
    .where('currency', '=', $.currency),
);
export async function purchaseEscrowAccount(db: Db, currency: string, bookingId: number, now: Date): Promise<number> {
  const shard = escrowShardOf(bookingId);
  const root = rootOf(db);
  let known = escrowIds.get(root);
  if (!known) {
    known = new Map();
    escrowIds.set(root, known);
  }
  let ids = known.get(currency);
  if (!ids) {
    const rows = await escrowShards.execute(db, { currency });
    const byKey = new Map(rows.map((r) => [r.account_key, r.id]));
    const all = Array.from({ length: ESCROW_SHARDS }, (_, i) => byKey.get(purchaseEscrowKey(currency, i)));
    if (all.every((id) => id !== undefined)) {
      ids = all as number[];
      known.set(currency, ids);
    }
  }
  const id = ids?.[shard];
  if (id !== undefined) return id;
  return accountOf(
    db,
    { key: purchaseEscrowKey(currency, shard), kind: 'purchase_escrow', ownerId: null, currency, allowNegative: true },
    now,
  );
}

/** Makes the escrow's shards of every currency there is (the seed, after the currencies; idempotent). */
export async function ensureEscrowShards(db: Db, now: Date): Promise<void> {
  const currencies = await db.selectFrom('currencies').select('code').execute();
  const rows = currencies.flatMap(({ code }) =>
    Array.from({ length: ESCROW_SHARDS }, (_, shard) => ({
      account_key: purchaseEscrowKey(code, shard),
      kind: 'purchase_escrow',
      owner_id: null,
      currency: code,
      allow_negative: 1,
      balance: 0,
      created_at: now.toISOString(),
    })),
  );
  if (rows.length > 0) {
    await db
      .insertInto('ledger_accounts')
      .values(rows)
      .onConflict((oc) => oc.column('account_key').doNothing())
      .execute();
  }
}

/** What the purchase escrow holds in a currency: the sum of its shards' balances. */
export async function escrowBalance(db: Db, currency: string): Promise<number> {
  const row = await db
    .selectFrom('ledger_accounts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('balance'), sql<number>`0`).as('total'))
    .where('kind', '=', 'purchase_escrow')
    .where('currency', '=', currency)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * Pays `amount` from a user's SB Pay wallet into the purchase escrow, once per `reference` (a booking): the
 * purchase flow's method 1. Throws `InsufficientFunds` when the wallet holds less (nothing is taken: the
 * caller's transaction is undone); a second call with the same reference takes nothing more.
 */
export async function payFromWallet(
  db: Db,
  payment: {
    userId: number;
    currency: string;
    amount: number;
    reference: string;
    description: string;
    /** the booking paid for: its escrow shard (absent: shard 0) */
    bookingId?: number;
  },
  now: Date,
): Promise<Posting> {
  const wallet = await walletAccount(db, payment.userId, payment.currency, now);
  const escrow = await purchaseEscrowAccount(db, payment.currency, payment.bookingId ?? 0, now);
  return postEntry(
    db,
    {
      kind: 'purchase',
      reference: payment.reference,
      description: payment.description,
      lines: [
        { accountId: wallet, currency: payment.currency, amount: -payment.amount },
        { accountId: escrow, currency: payment.currency, amount: payment.amount },
      ],
    },
    now,
  );
}

/** A user's wallet balances, by currency (only the currencies it has an account in). */
export async function walletBalances(db: Db, userId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('ledger_accounts')
    .select(['currency', 'balance'])
    .where('owner_id', '=', userId)
    .where('kind', '=', 'wallet')
    .execute();
  return new Map(rows.map((r) => [r.currency, Number(r.balance)]));
}

/**
 * What is wrong with the ledger, read from the database (an empty list when nothing): entries whose lines do
 * not sum to zero per currency, entries without lines, accounts whose balance is not the sum of their lines,
 * lines whose balance_after does not follow from the lines before them, accounts below zero that may not be.
 */
export async function auditLedger(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const unbalanced = await db
    .selectFrom('ledger_lines')
    .select(['entry_id', 'currency', (eb) => eb.fn.sum<number>('amount').as('total')])
    .groupBy(['entry_id', 'currency'])
    .having((eb) => eb.fn.sum('amount'), '<>', 0)
    .execute();
  for (const r of unbalanced) problems.push(`entry ${r.entry_id} sums to ${r.total} ${r.currency}`);
  const bare = await db
    .selectFrom('ledger_entries')
    .select('id')
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('ledger_lines').select('id').whereRef('ledger_lines.entry_id', '=', 'ledger_entries.id'))),
    )
    .execute();
  for (const r of bare) problems.push(`entry ${r.id} has no lines`);
  const accounts = await db
    .selectFrom('ledger_accounts')
    .leftJoin('ledger_lines', 'ledger_lines.account_id', 'ledger_accounts.id')
    .select([
      'ledger_accounts.id',
      'ledger_accounts.balance',
      'ledger_accounts.allow_negative',
      'ledger_accounts.currency',
      (eb) => eb.fn.coalesce(eb.fn.sum<number>('ledger_lines.amount'), sql<number>`0`).as('total'),
    ])
    .groupBy([
      'ledger_accounts.id',
      'ledger_accounts.balance',
      'ledger_accounts.allow_negative',
      'ledger_accounts.currency',
    ])
    .execute();
  for (const a of accounts) {
    if (Number(a.balance) !== Number(a.total)) {
      problems.push(`account ${a.id} holds ${a.balance} but its lines sum to ${a.total}`);
    }
    if (a.allow_negative !== 1 && Number(a.balance) < 0) problems.push(`account ${a.id} is below zero (${a.balance})`);
  }
  const lines = await db
    .selectFrom('ledger_lines')
    .select(['id', 'account_id', 'amount', 'balance_after'])
    .orderBy('account_id')
    .orderBy('id')
    .execute();
  const running = new Map<number, number>();
  for (const l of lines) {
    const after = (running.get(l.account_id) ?? 0) + Number(l.amount);
    if (after !== Number(l.balance_after)) {
      problems.push(`line ${l.id} says the balance became ${l.balance_after}, the lines before it make ${after}`);
    }
    running.set(l.account_id, after);
  }
  const sums = await db
    .selectFrom('ledger_accounts')
    .select(['currency', (eb) => eb.fn.sum<number>('balance').as('total')])
    .groupBy('currency')
    .execute();
  for (const s of sums) if (Number(s.total) !== 0) problems.push(`the ${s.currency} balances sum to ${s.total}`);
  return problems;
}
