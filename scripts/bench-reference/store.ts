/**
 * The reference server's transactions: every call authenticated by its bearer token's hash, its writes and its
 * idempotency row (inserted with the answer) in one transaction, nothing answered before it is committed.
 *
 * SQLite: group commit. The calls that arrive in one turn of the event loop run one after the other in one
 * transaction, each in a savepoint of its own, and commit with one sync of the WAL (synchronous=FULL), as the
 * product does; a call's writes are undone to its savepoint when it refuses. PostgreSQL: one transaction per
 * call on a pooled connection (PostgreSQL groups concurrent commits itself).
 */
import pg from 'pg';
import { openSqlite, pgRunner, type Row, type Runner } from './sql';

/** An answer: its status and its JSON text (kept as is with the idempotency key, replayed as is). */
export interface Answer {
  status: number;
  text: string;
}

export const answer = (status: number, body: unknown): Answer => ({ status, text: JSON.stringify(body) });
export const failure = (status: number, message: string, errors?: { path: string; message: string }[]) =>
  answer(status, errors ? { success: false, message, errors } : { success: false, message });

/** Thrown by a call's work: undo its writes, and answer (and keep with the key) this. */
export class Refusal {
  constructor(readonly answer: Answer) {}
}

export interface Call {
  tokenHash: string;
  operation: string;
  key: string;
  requestHash: string;
  work: (run: Runner, userId: number, now: Date) => Promise<Answer>;
}

export interface Store {
  call(call: Call): Promise<Answer>;
  /** The platform's escrow account of a currency (an immutable id, read once per process). */
  escrow: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

const AUTH = 'SELECT user_id FROM auth_tokens WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?';
const KEEP = `INSERT INTO idempotency_keys (user_id, operation, idem_key, request_hash, status, response, created_at)
  VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING user_id`;
const KEPT =
  'SELECT request_hash, status, response FROM idempotency_keys WHERE user_id = ? AND operation = ? AND idem_key = ?';
const ESCROWS = "SELECT id, currency FROM accounts WHERE kind = 'escrow'";

const UNAUTHENTICATED = failure(401, 'Unauthenticated.');
const MISMATCH = failure(422, 'This Idempotency-Key was already used for another request.');
const broken = (error: unknown) => failure(500, `The reference server failed: ${(error as Error).message}`);

const keepParams = (c: Call, userId: number, a: Answer, now: Date) => [
  userId,
  c.operation,
  c.key,
  c.requestHash,
  a.status,
  a.text,
  now.toISOString(),
];
const keptParams = (c: Call, userId: number) => [userId, c.operation, c.key];

/** The answer kept with the key (a replay), or the refusal of another request under the same key. */
function replay(kept: Row | undefined, c: Call): Answer {
  if (!kept || kept.request_hash !== c.requestHash) return MISMATCH;
  return { status: Number(kept.status), text: String(kept.response) };
}

export async function openStore(target: string, poolSize: number): Promise<Store> {
  return /^postgres(ql)?:\/\//i.test(target) ? postgresStore(target, poolSize) : sqliteStore(target);
}

/** At most this many calls share one commit, and a group takes no more after this long (the product's bounds). */
const GROUP_MEMBERS = 64;
const GROUP_MS = 20;

function sqliteStore(file: string): Store {
  const { db, runner: run } = openSqlite(file);
  const statement = (text: string) => db.prepare(text);
  const [begin, commit, rollback] = [statement('BEGIN'), statement('COMMIT'), statement('ROLLBACK')];
  const [savepoint, undo, release] = [
    statement('SAVEPOINT member'),
    statement('ROLLBACK TO SAVEPOINT member'),
    statement('RELEASE SAVEPOINT member'),
  ];
  const escrow = new Map((run.all(ESCROWS) as Row[]).map((r) => [String(r.currency), Number(r.id)]));
  const waiting: { call: Call; settle: (a: Answer) => void }[] = [];
  let draining = false;

  /** One call in the open group's transaction, in its savepoint. */
  async function member(c: Call): Promise<Answer> {
    const now = new Date();
    const user = run.one(AUTH, [c.tokenHash, now.toISOString()]) as Row | undefined;
    if (!user) return UNAUTHENTICATED;
    const userId = Number(user.user_id);
    savepoint.run();
    try {
      let result: Answer;
      try {
        result = await c.work(run, userId, now);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        undo.run();
        result = error.answer;
      }
      if (!run.one(KEEP, keepParams(c, userId, result, now))) {
        undo.run();
        result = replay(run.one(KEPT, keptParams(c, userId)) as Row | undefined, c);
      }
      release.run();
      return result;
    } catch (error) {
      // SQLite ended the transaction itself (a full disk, an I/O error): the whole group is lost
      if (!db.inTransaction) throw error;
      undo.run();
      release.run();
      return broken(error);
    }
  }

  async function drain() {
    try {
      while (waiting.length > 0) {
        const members: typeof waiting = [];
        let answers: Answer[] = [];
        begin.run();
        const started = performance.now();
        try {
          while (waiting.length > 0 && members.length < GROUP_MEMBERS && performance.now() - started < GROUP_MS) {
            const m = waiting.shift() as (typeof waiting)[number];
            members.push(m);
            answers.push(await member(m.call));
          }
          commit.run();
        } catch (error) {
          // nothing of the group is kept, so nothing of it is acknowledged
          if (db.inTransaction) rollback.run();
          answers = members.map(() => failure(503, `The group's commit failed: ${(error as Error).message}`));
        }
        for (const [i, m] of members.entries()) m.settle(answers[i] as Answer);
      }
    } finally {
      draining = false;
    }
  }

  return {
    escrow,
    call: (c) =>
      new Promise<Answer>((settle) => {
        waiting.push({ call: c, settle });
        // the group starts after this turn's I/O: whatever else arrives in it joins
        if (!draining) {
          draining = true;
          setImmediate(() => void drain());
        }
      }),
    close: async () => void db.close(),
  };
}

const retryable = (error: unknown) => ['40001', '40P01'].includes((error as { code?: string }).code ?? '');

async function postgresStore(url: string, poolSize: number): Promise<Store> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {});
  const escrow = new Map(
    (await pool.query(ESCROWS)).rows.map((r: Row) => [String(r.currency), Number(r.id)] as [string, number]),
  );

  async function once(client: pg.PoolClient, run: Runner, c: Call): Promise<Answer> {
    const now = new Date();
    const user = await run.one(AUTH, [c.tokenHash, now.toISOString()]);
    if (!user) return UNAUTHENTICATED;
    const userId = Number(user.user_id);
    await client.query('BEGIN');
    let result: Answer;
    let open = true;
    try {
      result = await c.work(run, userId, now);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      // a refusal changes nothing: its answer is kept with the key on its own
      await client.query('ROLLBACK');
      open = false;
      result = error.answer;
    }
    if (!(await run.one(KEEP, keepParams(c, userId, result, now)))) {
      if (open) await client.query('ROLLBACK');
      return replay(await run.one(KEPT, keptParams(c, userId)), c);
    }
    if (open) await client.query('COMMIT');
    return result;
  }

  return {
    escrow,
    async call(c) {
      const client = await pool.connect();
      const run = pgRunner(client);
      try {
        for (let attempt = 1; ; attempt++) {
          try {
            return await once(client, run, c);
          } catch (error) {
            await client.query('ROLLBACK').catch(() => {});
            if (attempt < 3 && retryable(error)) continue;
            return broken(error);
          }
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
