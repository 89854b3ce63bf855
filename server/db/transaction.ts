import { type Db, directSqlite, engineOf, ownTransaction } from './database';
import { runFixed } from './prepared';

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
 *
 * On SQLite the transactions that arrive together are committed together (`commitTogether`).
 */
export async function inTransaction<T>(
  db: Db,
  work: (trx: Db) => Promise<T>,
  keep: (result: T) => boolean = () => true,
): Promise<T> {
  if (engineOf(db) === 'sqlite' && !db.isTransaction) return commitTogether(db, work, keep);
  return alone(db, work, keep);
}

/** One transaction of its own, run again for a conflict the engine asks us to retry. */
async function alone<T>(db: Db, work: (trx: Db) => Promise<T>, keep: (result: T) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        ownTransaction(db, trx);
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

// ---------------------------------------------------------------------------------------------------------------
// Group commit (SQLite)

/** At most this many transactions share one commit, and a group takes no more members after this long. */
const GROUP_MEMBERS = 64;
const GROUP_MS = 20;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
interface Member {
  work: (trx: Db) => Promise<unknown>;
  keep: (result: unknown) => boolean;
  settle: (outcome: Outcome) => void;
}
interface Group {
  waiting: Member[];
  draining: boolean;
}
const groups = new WeakMap<Db, Group>();

/**
 * SQLite's commit waits for the disk (synchronous=FULL: the WAL is synced at every commit, about a millisecond
 * here), and one connection commits one transaction at a time, so the commits of concurrent writes queued one
 * behind the other: a third of bench:purchase's time was spent in them. Transactions that arrive in the same turn
 * of the event loop (the requests whose bodies arrived together) now run one after the other inside one
 * transaction, each in a savepoint of its own, and commit with one sync: a group commit.
 *
 * For each member it is still all or nothing: an error or an unkept result rolls its savepoint back (the others
 * keep theirs), and its caller gets its error or result once the group has committed, never before, so nothing
 * is answered that a power cut could take back. Members see each other's writes in order, as if they had run
 * one after the other, which they did. If the group's transaction itself is lost (its commit fails, or an error
 * ends it), every member runs again alone, so none is lost and none is applied twice.
 */
function commitTogether<T>(db: Db, work: (trx: Db) => Promise<T>, keep: (result: T) => boolean): Promise<T> {
  let group = groups.get(db);
  if (!group) {
    group = { waiting: [], draining: false };
    groups.set(db, group);
  }
  const joined = group;
  return new Promise<T>((resolve, reject) => {
    joined.waiting.push({
      work,
      keep: keep as (result: unknown) => boolean,
      settle: (o) => (o.ok ? resolve(o.value as T) : reject(o.error)),
    });
    // the group starts after this turn's I/O: whatever else arrives in it joins
    if (!joined.draining) {
      joined.draining = true;
      setImmediate(() => void drain(db, joined));
    }
  });
}

async function drain(db: Db, group: Group) {
  try {
    while (group.waiting.length > 0) {
      const members: Member[] = [];
      const outcomes: Outcome[] = [];
      try {
        await db.transaction().execute(async (trx) => {
          ownTransaction(db, trx);
          const started = performance.now();
          while (group.waiting.length > 0 && members.length < GROUP_MEMBERS && performance.now() - started < GROUP_MS) {
            const member = group.waiting.shift() as Member;
            members.push(member);
            outcomes.push(await runMember(db, trx, member));
          }
        });
      } catch {
        // the group's transaction is lost: each member runs again on its own (and answers its own error)
        for (const member of members) member.settle(await settled(() => alone(db, member.work, member.keep)));
        continue;
      }
      for (const [i, member] of members.entries()) member.settle(outcomes[i] as Outcome);
    }
  } finally {
    group.draining = false;
  }
}

/** A member of a group in a savepoint of its own; throws only when the group's transaction is lost. */
async function runMember(db: Db, trx: Db, member: Member): Promise<Outcome> {
  await runFixed(trx, 'SAVEPOINT group_member');
  let outcome: Outcome;
  try {
    const value = await member.work(trx);
    if (!member.keep(value)) await runFixed(trx, 'ROLLBACK TO SAVEPOINT group_member');
    outcome = { ok: true, value };
  } catch (error) {
    // SQLite ended the transaction (a full disk, an I/O error), or asks for a retry: the group is lost
    if (directSqlite(db) !== undefined || isRetryable(error)) throw error;
    await runFixed(trx, 'ROLLBACK TO SAVEPOINT group_member');
    outcome = { ok: false, error };
  }
  await runFixed(trx, 'RELEASE SAVEPOINT group_member');
  return outcome;
}

async function settled(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}
