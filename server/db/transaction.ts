import type { Db } from './database';

/** How many times a transaction that Postgres aborted for a conflict (serialization, deadlock) is run again. */
const ATTEMPTS = 3;

/** Postgres's "try again" codes, and SQLite's busy file when another process holds the write lock. */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01' || code === 'SQLITE_BUSY';
}

/** Thrown inside a transaction to undo it while still answering `value` (an error reply is not an exception). */
class Undo<T> {
  constructor(readonly value: T) {}
}

/**
 * Runs `work` in one transaction: everything it writes commits together, or nothing does. When `keep` says no
 * to the result (an error reply), the transaction is rolled back and the result still returned. A conflict the
 * engine asks us to retry runs the whole of `work` again, so `work` must not have effects outside the database.
 */
export async function inTransaction<T>(
  db: Db,
  work: (trx: Db) => Promise<T>,
  keep: (result: T) => boolean = () => true,
) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const result = await work(trx);
        if (!keep(result)) throw new Undo(result);
        return result;
      });
    } catch (error) {
      if (error instanceof Undo) return error.value as T;
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
      // apart again by a random few milliseconds: transactions that collided once and started again together
      // collided again (CI saw one deadlock three times in a row before 0029 ordered the listings' triggers)
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
