import { sql } from 'kysely';
import { peekWithin, spendWithin } from '../auth/request-limit';
import type { Clock } from '../clock';
import { type Db, engineOf } from '../db/database';
import { HttpError } from '../http/errors';
import { type OpenQuotaName, QUOTA_NAMES, type QuotaName, type Quotas, type WindowQuotaName } from './limits';

/** A cap reached: the router answers it as the HttpError it is, and checks the operation declares the cap. */
export class QuotaExceeded extends HttpError {
  constructor(
    readonly quota: QuotaName,
    status: 409 | 429,
    message: string,
    headers?: Record<string, string>,
  ) {
    super(status, message, undefined, headers);
  }
}

/** What enforcing a cap needs: the database (the call's transaction), the clock, the caps in force. */
export interface QuotaDeps {
  db: Db;
  clock: Clock;
  quotas: Quotas;
}

/**
 * Spends `amount` (1 call, or a file's bytes) of the owner's window under a cap, or throws its 429 with
 * `Retry-After`. In the call's transaction: an answer of 400 or more undoes the spend with everything else.
 */
export async function spend(deps: QuotaDeps, name: WindowQuotaName, ownerId: number, amount = 1): Promise<void> {
  const quota = deps.quotas[name];
  const spent = await spendWithin(deps.db, quota, String(ownerId), amount, deps.clock.now());
  if (spent.allowed) return;
  throw new QuotaExceeded(name, 429, quota.message(quota.max, spent.retryAfterSeconds), {
    'Retry-After': String(spent.retryAfterSeconds),
  });
}

/** Throws the cap's 429 when the owner's window is already spent (a read: nothing is counted). */
export async function refuseWhenSpent(deps: QuotaDeps, name: WindowQuotaName, ownerId: number): Promise<void> {
  const quota = deps.quotas[name];
  const { used, retryAfterSeconds } = await peekWithin(deps.db, quota, String(ownerId), deps.clock.now());
  if (used < quota.max) return;
  throw new QuotaExceeded(name, 429, quota.message(quota.max, retryAfterSeconds), {
    'Retry-After': String(retryAfterSeconds),
  });
}

/**
 * Holds the owner's open count under a cap for the rest of the call's transaction, or throws its 409: the count
 * is read under a lock of (cap, owner), so that calls at once, in this process or another, take the last place
 * one at a time. On Postgres the lock is a transaction-scoped advisory lock (it touches no row: the owner's
 * `users` row stays free for the foreign keys of other writes); on SQLite a write transaction runs alone.
 */
export async function holdOpen(deps: QuotaDeps, name: OpenQuotaName, ownerId: number): Promise<void> {
  const quota = deps.quotas[name];
  if (engineOf(deps.db) === 'postgres') {
    if (!deps.db.isTransaction) throw new Error(`the ${name} cap is held in a transaction (x-transaction)`);
    await sql`SELECT pg_advisory_xact_lock(${QUOTA_LOCK + QUOTA_NAMES.indexOf(name)}, ${ownerId})`.execute(deps.db);
  }
  const open = await quota.count(deps.db, ownerId);
  if (open >= quota.max) throw new QuotaExceeded(name, 409, quota.message(quota.max));
}

/** The first key of this module's advisory locks, one key per cap (the address book's lock uses another). */
const QUOTA_LOCK = 0x5b_7100;
