import { isValidBIC, isValidIBAN } from 'ibantools';
import { NO_SOCKET_CLIENT } from '../auth/client';
import { type HashPool, hashPool, PoolFullError } from '../auth/hash-pool';
import { verifyPassword } from '../auth/passwords';
import { PAIR_SCOPE, pairKey, recordFailure, release, tryReserve } from '../auth/throttle';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import type { Mailer } from '../mail/port';
import { MAX_BANK_ACCOUNTS } from '../quotas/limits';

/**
 * A seller's payout bank accounts (issue 14, item 3): holder, IBAN and SWIFT/BIC, checked here, stored
 * normalised (upper case, no spaces) and only ever shown masked (the IBAN's last four characters). Every change
 * is confirmed by the seller's password (under the login throttle of its address, as a password change is) and
 * told by email and by a notification, so a stolen session cannot quietly send the seller's money elsewhere.
 */

export const BANK_MESSAGES = {
  iban: 'Enter a valid IBAN (check the country, the length and the check digits).',
  bic: 'Enter a valid SWIFT/BIC code: 8 or 11 letters and digits (bank, country, location, branch).',
  holder: 'Enter the account holder as the bank knows it.',
  wrongPassword: 'Your password is not correct.',
  notFound: 'Bank account not found.',
  defaultDelete: 'This is your payout account: make another account the payout account before removing it.',
  limit: 'You can keep at most 5 bank accounts. Remove one first.',
} as const;

/** Upper case without spaces or dashes, as banks print IBANs in groups of four. */
export const normaliseIban = (raw: string) => raw.replace(/[\s-]+/g, '').toUpperCase();
export const normaliseBic = (raw: string) => raw.replace(/\s+/g, '').toUpperCase();

/**
 * Whether `raw` (spaces and dashes allowed) is an IBAN and `raw` a SWIFT/BIC code, by ibantools (maintained;
 * ISO 13616 with each registry country's length and BBAN format and the mod-97 check digits; ISO 9362 with an
 * assigned country) rather than a hand-kept copy of SWIFT's registry.
 */
export const isValidIban = (raw: string): boolean => isValidIBAN(normaliseIban(raw));
export const isValidBic = (raw: string): boolean => isValidBIC(normaliseBic(raw));

/** '•••• 1234' with the country: 'GB•• •••• 1234'. */
export const maskIban = (iban: string) => `${iban.slice(0, 2)}•• •••• ${iban.slice(-4)}`;

export interface BankAccountView {
  id: number;
  bank_account_id: number;
  holder_name: string;
  iban_masked: string;
  iban_last4: string;
  country: string;
  bic: string;
  is_default: boolean;
  created_at: string;
  removed_at?: string;
}

type Row = {
  id: number;
  holder_name: string;
  iban: string;
  bic: string;
  is_default: number;
  created_at: string;
  deleted_at?: string | null;
};

export const viewOf = (r: Row): BankAccountView => ({
  id: r.id,
  bank_account_id: r.id,
  holder_name: r.holder_name,
  iban_masked: maskIban(r.iban),
  iban_last4: r.iban.slice(-4),
  country: r.iban.slice(0, 2),
  bic: r.bic,
  is_default: r.is_default === 1,
  created_at: r.created_at,
  ...(r.deleted_at ? { removed_at: r.deleted_at } : {}),
});

const COLUMNS = ['id', 'holder_name', 'iban', 'bic', 'is_default', 'created_at'] as const;

/** The seller's bank accounts (removed ones left out), the payout account first. */
export async function listBankAccounts(db: Db, sellerId: number): Promise<BankAccountView[]> {
  const rows = await db
    .selectFrom('bank_accounts')
    .select(COLUMNS)
    .where('seller_id', '=', sellerId)
    .where('deleted_at', 'is', null)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute();
  return rows.map(viewOf);
}

/** The seller's removed accounts that payouts were made to, newest removal first: the history still names them. */
export async function removedPayoutAccounts(db: Db, sellerId: number): Promise<BankAccountView[]> {
  const rows = await db
    .selectFrom('bank_accounts')
    .select([...COLUMNS, 'deleted_at'])
    .where('seller_id', '=', sellerId)
    .where('deleted_at', 'is not', null)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('payouts').select('payouts.id').whereRef('payouts.bank_account_id', '=', 'bank_accounts.id'),
      ),
    )
    .orderBy('deleted_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(viewOf);
}

/** The account payouts go to, or null. */
export async function payoutAccount(db: Db, sellerId: number): Promise<BankAccountView | null> {
  const row = await db
    .selectFrom('bank_accounts')
    .select(COLUMNS)
    .where('seller_id', '=', sellerId)
    .where('is_default', '=', 1)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? viewOf(row) : null;
}

export type FieldProblem = { path: string; message: string };

/** The problems of a new account's fields (JSON pointers under /body), none when it is valid. */
export function checkAccountInput(input: { account_holder: string; iban: string; swift: string }): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!/\p{L}/u.test(input.account_holder.trim()))
    problems.push({ path: '/body/account_holder', message: BANK_MESSAGES.holder });
  if (!isValidIban(input.iban)) problems.push({ path: '/body/iban', message: BANK_MESSAGES.iban });
  if (!isValidBic(input.swift)) problems.push({ path: '/body/swift', message: BANK_MESSAGES.bic });
  return problems;
}

export type PasswordCheck =
  | { kind: 'ok' }
  | { kind: 'wrong-password' }
  | { kind: 'locked'; retryAfterSeconds: number }
  | { kind: 'busy'; retryAfterSeconds: number };

/**
 * Checks the caller's password as a change of password does: under the login throttle of its address (a stolen
 * session cannot guess faster than a login could), in the bounded hashing pool. Runs outside any transaction:
 * a failure must be counted even though the call is refused.
 */
export async function confirmPassword(
  db: Db,
  clock: Clock,
  user: { id: number; email: string; client?: string },
  password: string,
  pool: HashPool = hashPool,
): Promise<PasswordCheck> {
  // a wrong password counts as a failed login of the account from this client (server/auth/login-gate.ts)
  const key = pairKey(user.email, user.client ?? NO_SOCKET_CLIENT);
  const reserved = await tryReserve(db, PAIR_SCOPE, key, clock.now());
  if (reserved.kind === 'locked') return { kind: 'locked', retryAfterSeconds: reserved.retryAfterSeconds };
  if (reserved.kind === 'full') return { kind: 'locked', retryAfterSeconds: 5 };
  try {
    const row = await db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const ok = await verifyPassword(password, row.password_hash, (task) => pool.tryRun(task));
    if (!ok) {
      const wait = await recordFailure(db, PAIR_SCOPE, key, clock.now());
      return wait > 0 ? { kind: 'locked', retryAfterSeconds: wait } : { kind: 'wrong-password' };
    }
    return { kind: 'ok' };
  } catch (error) {
    if (error instanceof PoolFullError) return { kind: 'busy', retryAfterSeconds: error.retryAfterSeconds };
    throw error;
  } finally {
    await release(db, PAIR_SCOPE, key, clock.now());
  }
}

/** Whether the seller has this (not removed) account: checked before the password, so a foreign id is a 404. */
export async function ownsAccount(db: Db, sellerId: number, accountId: number): Promise<boolean> {
  const row = await db
    .selectFrom('bank_accounts')
    .select('id')
    .where('id', '=', accountId)
    .where('seller_id', '=', sellerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes the seller's row (an update), so two changes of one seller's accounts run one after the other. */
async function lockSeller(db: Db, sellerId: number) {
  await db.updateTable('users').set({ id: sellerId }).where('id', '=', sellerId).execute();
}

export type Added = { kind: 'added'; account: BankAccountView } | { kind: 'limit' };
export type Defaulted = { kind: 'defaulted'; account: BankAccountView } | { kind: 'not_found' };
export type Removed = { kind: 'removed'; account: BankAccountView } | { kind: 'not_found' } | { kind: 'is_default' };
export type AccountChange = Added | Defaulted | Removed;

/**
 * Adds an account (checked by the caller with checkAccountInput); `makeDefault`, or no payout account yet, makes
 * it the payout account. In the caller's transaction.
 */
export async function addBankAccount(
  db: Db,
  seller: { id: number; by: number },
  input: { account_holder: string; iban: string; swift: string; makeDefault: boolean },
  now: Date,
): Promise<Added> {
  await lockSeller(db, seller.id);
  const kept = await db
    .selectFrom('bank_accounts')
    .select(['id', 'is_default'])
    .where('seller_id', '=', seller.id)
    .where('deleted_at', 'is', null)
    .execute();
  if (kept.length >= MAX_BANK_ACCOUNTS && !input.makeDefault) return { kind: 'limit' };
  const makeDefault = input.makeDefault || !kept.some((k) => k.is_default === 1);
  if (makeDefault) {
    await db
      .updateTable('bank_accounts')
      .set({ is_default: 0 })
      .where('seller_id', '=', seller.id)
      .where('is_default', '=', 1)
      .execute();
    // replacing the payout account while at the limit retires the old one (update-bank-account)
    if (kept.length >= MAX_BANK_ACCOUNTS) {
      const old = kept.find((k) => k.is_default === 1) ?? kept[0];
      if (old) {
        await db.updateTable('bank_accounts').set({ deleted_at: now.toISOString() }).where('id', '=', old.id).execute();
      }
    }
  }
  const row = await db
    .insertInto('bank_accounts')
    .values({
      seller_id: seller.id,
      holder_name: input.account_holder.trim(),
      iban: normaliseIban(input.iban),
      bic: normaliseBic(input.swift),
      is_default: makeDefault ? 1 : 0,
      created_by: seller.by,
      created_at: now.toISOString(),
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { kind: 'added', account: viewOf(row) };
}

/** Makes one of the seller's accounts the payout account. */
export async function makeDefaultAccount(db: Db, sellerId: number, accountId: number): Promise<Defaulted> {
  await lockSeller(db, sellerId);
  const row = await db
    .selectFrom('bank_accounts')
    .select(COLUMNS)
    .where('id', '=', accountId)
    .where('seller_id', '=', sellerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return { kind: 'not_found' };
  await db
    .updateTable('bank_accounts')
    .set({ is_default: 0 })
    .where('seller_id', '=', sellerId)
    .where('is_default', '=', 1)
    .execute();
  await db.updateTable('bank_accounts').set({ is_default: 1 }).where('id', '=', accountId).execute();
  return { kind: 'defaulted', account: viewOf({ ...row, is_default: 1 }) };
}

/** Removes an account that is not the payout account (its row stays for the payouts that went to it). */
export async function removeBankAccount(db: Db, sellerId: number, accountId: number, now: Date): Promise<Removed> {
  await lockSeller(db, sellerId);
  const row = await db
    .selectFrom('bank_accounts')
    .select(COLUMNS)
    .where('id', '=', accountId)
    .where('seller_id', '=', sellerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) return { kind: 'not_found' };
  if (row.is_default === 1) return { kind: 'is_default' };
  await db.updateTable('bank_accounts').set({ deleted_at: now.toISOString() }).where('id', '=', accountId).execute();
  return { kind: 'removed', account: viewOf(row) };
}

const CHANGE_WORDS = {
  added: (a: BankAccountView) =>
    `A bank account ending ${a.iban_last4} was added${a.is_default ? ' as your payout account' : ''}.`,
  defaulted: (a: BankAccountView) => `Payouts now go to the bank account ending ${a.iban_last4}.`,
  removed: (a: BankAccountView) => `The bank account ending ${a.iban_last4} was removed.`,
} as const;

/**
 * Tells the seller of a change: a notification (`bank_account_changed`) and a mail (the outbox writes in `db`,
 * the caller's transaction; SMTP sends at once, so call this after the change is decided).
 */
export async function tellAccountChange(
  db: Db,
  mailer: Mailer,
  seller: { id: number; email: string; first_name: string },
  change: Extract<AccountChange, { account: BankAccountView }>,
  now: Date,
) {
  const what = CHANGE_WORDS[change.kind](change.account);
  await db
    .insertInto('notifications')
    .values({
      user_id: seller.id,
      name: 'bank_account_changed',
      description: what,
      viewed: 0,
      created_at: now.toISOString(),
    })
    .execute();
  await mailer.send(db, {
    to: seller.email,
    subject: 'Your SB Portal payout bank account changed',
    text: [
      'Hello,',
      '',
      what,
      '',
      'If it was not you, change your password now and contact support: payouts go to the payout account.',
    ].join('\n'),
  });
}
