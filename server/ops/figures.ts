import { sql } from 'kysely';
import { Gauge, Registry } from 'prom-client';
import { type Db, engineOf } from '../db/database';
import { jobState } from './jobs';

/** The shop's figures that live in the database: the same for every process, read once per scrape. */
export interface DatabaseFigures {
  holds_open: number;
  deposits_waiting: number;
  payouts_waiting: number;
  database_bytes: number;
  upload_bytes: number;
  last_backup_at: string | null;
  last_backup_error: string | null;
}

const count = (rows: { n: number | string | bigint }[]) => Number(rows[0]?.n ?? 0);

/**
 * Reads the figures by indexed counts (holds by `carts_holding`, deposits and payouts by their status indexes),
 * the database's size from the engine, and the uploads' from the `files` table (what the uploads folder holds
 * for the product: an orphan is swept within the hour).
 */
export async function readDatabaseFigures(db: Db, now: Date): Promise<DatabaseFigures> {
  const [holds, deposits, payouts, uploads, size, backup] = await Promise.all([
    db
      .selectFrom('carts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('hold_state', '=', 'holding')
      .where('expires_at', '>', now.toISOString())
      .execute(),
    db
      .selectFrom('deposits')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .execute(),
    db
      .selectFrom('payouts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'requested')
      .execute(),
    db
      .selectFrom('files')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), sql<number>`0`).as('n'))
      .execute(),
    databaseBytes(db),
    jobState(db, 'backup'),
  ]);
  return {
    holds_open: count(holds),
    deposits_waiting: count(deposits),
    payouts_waiting: count(payouts),
    database_bytes: size,
    upload_bytes: count(uploads),
    last_backup_at: backup?.lastOkAt ?? null,
    last_backup_error: backup?.lastError ?? null,
  };
}

async function databaseBytes(db: Db): Promise<number> {
  if (engineOf(db) === 'postgres') {
    const r = await sql<{ n: number }>`SELECT pg_database_size(current_database()) AS n`.execute(db);
    return Number(r.rows[0]?.n ?? 0);
  }
  const r = await sql<{
    n: number;
  }>`SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/**
 * The database's figures as Prometheus gauges, in a registry of their own: one process reads them for a scrape
 * (they are the database's, not the process's, so they are not added up across workers).
 */
export function databaseGauges(read: () => Promise<DatabaseFigures>, clock: { now(): Date }) {
  const registry = new Registry();
  let kept: { at: number; figures: Promise<DatabaseFigures> } | null = null;
  // the gauges of one scrape are collected together: one read serves them all
  const figures = () => {
    const now = Date.now();
    if (!kept || now - kept.at > 500) kept = { at: now, figures: read() };
    return kept.figures;
  };
  const gauge = (name: string, help: string, value: (f: DatabaseFigures) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(value(await figures()));
      },
    });
  gauge('sb_holds_open', 'Carts holding tickets now.', (f) => f.holds_open);
  gauge('sb_deposits_waiting', 'Deposit requests waiting for the back office.', (f) => f.deposits_waiting);
  gauge('sb_payouts_waiting', 'Payouts requested and not yet sent or failed.', (f) => f.payouts_waiting);
  gauge('sb_database_bytes', "The database's size on disk.", (f) => f.database_bytes);
  gauge('sb_upload_bytes', 'The uploaded files the database names, in bytes.', (f) => f.upload_bytes);
  // never backed up: the time is 0 and the age infinite, so that an alert on the age fires
  gauge('sb_last_backup_timestamp_seconds', 'When the last good backup finished (Unix time; 0: never).', (f) =>
    f.last_backup_at ? Date.parse(f.last_backup_at) / 1000 : 0,
  );
  gauge('sb_last_backup_age_seconds', 'Seconds since the last good backup finished (+Inf: never).', (f) =>
    f.last_backup_at ? Math.max(0, (clock.now().getTime() - Date.parse(f.last_backup_at)) / 1000) : Infinity,
  );
  return registry;
}
