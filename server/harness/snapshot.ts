import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { type Db, engineOf } from '../db/database';

/**
 * What a refused request may write: bookkeeping that exists because of the refusal itself. Every other table
 * must be exactly as it was after any 4xx. Each entry names the operations it applies to and why.
 */
export const REFUSAL_BOOKKEEPING: ReadonlyArray<{ table: string; operations: readonly string[]; why: string }> = [
  {
    table: 'login_failures',
    operations: ['login'],
    why: 'a refused login counts a failure for its email address from browsers it does not know (the account lock)',
  },
  {
    table: 'login_pair_failures',
    operations: ['login'],
    why: 'a refused login counts a failure for its email address and client together (the per-pair throttle)',
  },
  {
    table: 'login_device_failures',
    operations: ['login'],
    why: 'a refused login from a known browser counts a failure for that browser (its own throttle)',
  },
  {
    table: 'login_client_failures',
    operations: ['login'],
    why: 'a refused login counts a failure for its client address (the per-client throttle)',
  },
  {
    table: 'request_limits',
    operations: ['register', 'resendVerifyEmail', 'checkEmail', 'requestPasswordReset'],
    why: "a call counts against its client's limit before its body is judged (a refused one too, or it would be free)",
  },
  {
    table: 'request_limits',
    operations: ['login'],
    why: 'a failure that locks an account counts the unlock mail to its owner against the daily limit of those',
  },
  {
    table: 'account_tokens',
    operations: ['login'],
    why: 'a failure that locks an account makes the unlock link mailed to its owner (server/auth/unlock.ts)',
  },
  {
    table: 'mail_outbox',
    operations: ['login'],
    why: 'a failure that locks an account mails its owner the unlock link (the outbox keeps it)',
  },
  {
    table: 'login_pair_failures',
    operations: [
      'changePassword',
      'twoFactorDisable',
      'updatePayoutBankAccount',
      'addBankAccount',
      'setDefaultBankAccount',
      'deleteBankAccount',
      'requestAccountErasure',
    ],
    why: 'a wrong password confirming a change counts as a failed login of the account from this client',
  },
];

/**
 * Columns every authenticated call may write, refused or not, left out of the fingerprints: they say when a
 * session was last used (written at most once a minute by the token check, server/auth/session.ts), which is
 * true of a refused call too. Any other change to these tables still counts.
 */
export const VOLATILE_COLUMNS: Readonly<Record<string, readonly string[]>> = { auth_tokens: ['last_used_at'] };

export function allowedOnRefusal(operationId: string): Set<string> {
  return new Set(REFUSAL_BOOKKEEPING.filter((b) => b.operations.includes(operationId)).map((b) => b.table));
}

export interface TableState {
  rows: number;
  hash: string;
  /** The rows themselves (SQLite only: cheap there, and they make a readable diff). */
  lines?: string[];
}

export type Snapshot = Map<string, TableState>;

/**
 * Takes fingerprints of every table (Kysely's introspection lists them on both engines): on Postgres each
 * table's row count and newest row version (xmin), on SQLite its rows. Only the tables that were written since
 * the last snapshot are read again, told by counters that triggers keep. On SQLite, where the app and
 * the harness share one connection, the harness adds TEMP triggers to that connection (they live in its temp
 * schema, never in the database file) that count the rows each statement inserts, updates or deletes per
 * table, inside the statement's own transaction (a rolled-back write counts nothing); only the tables whose
 * count moved are read again.
 */
export function createSnapshotter(db: Db) {
  const engine = engineOf(db);
  let tables: string[] | null = null;
  let last: Snapshot | null = null;
  let counts = new Map<string, number>();

  const listTables = async () => {
    tables ??= (await db.introspection.getTables()).map((t) => t.name).sort();
    return tables;
  };

  async function readSqlite(t: string): Promise<TableState> {
    const { rows } = await sql.raw<Record<string, unknown>>(`SELECT * FROM main."${t}"`).execute(db);
    const volatile = VOLATILE_COLUMNS[t] ?? [];
    const lines = rows
      .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !volatile.includes(k)))))
      .sort();
    return { rows: lines.length, hash: createHash('sha1').update(lines.join('\n')).digest('hex'), lines };
  }

  async function installCounters(names: string[]) {
    await sql
      .raw('CREATE TEMP TABLE IF NOT EXISTS harness_changes (t TEXT PRIMARY KEY, n INTEGER NOT NULL)')
      .execute(db);
    for (const t of names) {
      const q = t.replace(/'/g, "''");
      await sql.raw(`INSERT OR IGNORE INTO temp.harness_changes (t, n) VALUES ('${q}', 0)`).execute(db);
      for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
        await sql
          .raw(
            `CREATE TEMP TRIGGER IF NOT EXISTS "harness_${t}_${event.toLowerCase()}" AFTER ${event} ON main."${t}" ` +
              `BEGIN UPDATE temp.harness_changes SET n = n + 1 WHERE t = '${q}'; END`,
          )
          .execute(db);
      }
    }
  }

  async function readCounts(): Promise<Map<string, number>> {
    const { rows } = await sql<{ t: string; n: number }>`SELECT t, n FROM temp.harness_changes`.execute(db);
    return new Map(rows.map((r) => [r.t, Number(r.n)]));
  }

  async function readPostgres(names: string[]): Promise<Map<string, TableState>> {
    // every insert or update leaves a row version with a newer xmin, every delete lowers the count: the pair
    // changes exactly when a statement wrote to the table and committed (a rolled-back row is not visible)
    // a table with volatile columns is fingerprinted by its rows without them (slower, but only auth_tokens)
    const rowsWithout = (t: string, columns: readonly string[]) => {
      const json = `(to_jsonb(x) - ${columns.map((c) => `'${c}'`).join(' - ')})::text`;
      return `SELECT '${t}' AS t, count(*)::int AS n, coalesce(md5(string_agg(${json}, ',' ORDER BY ${json})), '') AS h FROM "${t}" x`;
    };
    const q = names
      .map((t) =>
        VOLATILE_COLUMNS[t]
          ? rowsWithout(t, VOLATILE_COLUMNS[t])
          : `SELECT '${t}' AS t, count(*)::int AS n, coalesce(max(xmin::text::bigint), 0)::text AS h FROM "${t}"`,
      )
      .join(' UNION ALL ');
    const { rows } = await sql.raw<{ t: string; n: number; h: string }>(q).execute(db);
    return new Map(rows.map((r) => [r.t, { rows: Number(r.n), hash: `${r.n}:${r.h}` }]));
  }

  /**
   * On Postgres the app's statements run on pooled connections, so the counters are a table of the (per-test-file)
   * database: a row trigger on every table appends the table's name, in the writer's own transaction (a rolled-back
   * write leaves nothing). Appending, not counting in place, so that two transactions writing to the same tables
   * never wait for each other on a counter row; each snapshot empties the log.
   */
  async function installPostgresCounters(names: string[]) {
    await sql
      .raw(
        'CREATE TABLE IF NOT EXISTS harness_changes (id bigserial PRIMARY KEY, t text NOT NULL); ' +
          'CREATE OR REPLACE FUNCTION harness_count() RETURNS trigger LANGUAGE plpgsql AS ' +
          '$$ BEGIN INSERT INTO harness_changes (t) VALUES (TG_TABLE_NAME); RETURN NULL; END $$',
      )
      .execute(db);
    for (const t of names) {
      await sql
        .raw(
          `CREATE OR REPLACE TRIGGER harness_count AFTER INSERT OR UPDATE OR DELETE ON "${t}" ` +
            'FOR EACH ROW EXECUTE FUNCTION harness_count()',
        )
        .execute(db);
    }
  }

  /** The tables written since the last call: the log is read and emptied in one statement. */
  async function takePostgresLog(): Promise<string[]> {
    const { rows } = await sql<{ t: string }>`DELETE FROM harness_changes RETURNING t`.execute(db);
    return [...new Set(rows.map((r) => r.t))];
  }

  async function takePostgres(): Promise<Snapshot> {
    if (!last) {
      const names = await listTables();
      await installPostgresCounters(names);
      await takePostgresLog();
      last = await readPostgres(names);
      return last;
    }
    const moved = await takePostgresLog();
    if (moved.length === 0) return last;
    const next: Snapshot = new Map(last);
    for (const [t, state] of await readPostgres(moved)) next.set(t, state);
    last = next;
    return last;
  }

  return {
    /** The database now; the same object as last time when nothing was written (SQLite). */
    async take(): Promise<Snapshot> {
      if (engine === 'postgres') return takePostgres();
      if (!last) {
        const names = await listTables();
        await installCounters(names);
        counts = await readCounts();
        last = new Map();
        for (const t of names) last.set(t, await readSqlite(t));
        return last;
      }
      const now = await readCounts();
      const moved = [...now.entries()].filter(([t, n]) => counts.get(t) !== n).map(([t]) => t);
      counts = now;
      if (moved.length === 0) return last;
      const next: Snapshot = new Map(last);
      for (const t of moved) next.set(t, await readSqlite(t));
      last = next;
      return last;
    },
  };
}

/** The tables whose content differs, each with a readable account of how (rows added and removed). */
export function diffSnapshots(before: Snapshot, after: Snapshot): Array<{ table: string; change: string }> {
  if (before === after) return [];
  const out: Array<{ table: string; change: string }> = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(table);
    const b = after.get(table);
    if (a?.hash === b?.hash) continue;
    if (!a || !b) {
      out.push({ table, change: a ? 'table dropped' : 'table created' });
      continue;
    }
    if (a.lines && b.lines) {
      const was = new Set(a.lines);
      const now = new Set(b.lines);
      const added = b.lines.filter((l) => !was.has(l));
      const removed = a.lines.filter((l) => !now.has(l));
      const show = (ls: string[]) => ls.slice(0, 3).map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
      out.push({
        table,
        change: `${a.rows} -> ${b.rows} rows; now ${JSON.stringify(show(added))}; was ${JSON.stringify(show(removed))}`,
      });
    } else out.push({ table, change: `${a.rows} -> ${b.rows} rows, content changed` });
  }
  return out;
}
