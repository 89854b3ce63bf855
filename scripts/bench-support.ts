/**
 * What the benchmark scripts share: their options, the real server in a child process of their own, a free port,
 * a fresh database, and the demo seller's extra orders (bench:sales, bench:reports).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import type { OrderStatus } from '../server/db/schema';

export const ROOT = resolve(import.meta.dirname, '..');

/** `--name=value` on the command line. */
export const argOf = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
export const num = (name: string, fallback: number) => Number(argOf(name) ?? fallback);

/**
 * In the child: the real server, started the way `npm start` starts it (the environment carries its
 * configuration); tells the parent when it listens and closes on SIGTERM. `beside` runs first (bench-api
 * answers its CPU-time questions).
 */
export async function serveReal(beside?: () => void) {
  const { startServer } = await import('../server/main');
  const started = await startServer();
  beside?.();
  process.send?.('ready');
  process.once('SIGTERM', () => {
    void started.close().then(() => process.exit(0));
  });
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** Forks `script` (the benchmark itself, serving) with `args`; resolves once it says it is ready. */
export function startChild(
  script: string,
  args: string[],
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<ChildProcess> {
  const child = fork(script, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // BENCH_CPU_PROF=<dir> writes the server's CPU profile there when it stops (open it in Chrome's DevTools)
    execArgv: [
      '--import',
      'tsx',
      ...execArgv,
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((ready, fail) => {
    child.once('message', () => ready(child));
    child.once('exit', (code) => fail(new Error(`a bench server exited (${code}) before it was ready`)));
  });
}

/**
 * The real server in a child (`script` serving with `--serve=real`) on a free port, over `target` (a SQLite
 * file in `dir`, or the Postgres database of freshTarget), with production logging and no response checks.
 */
export async function startRealServer(script: string, dir: string, target: string, logLevel = 'info') {
  const port = await freePort();
  const child = await startChild(script, ['--serve=real'], {
    PORT: String(port),
    DATA_DIR: dir,
    ...(process.env.DATABASE_URL ? { DATABASE_URL: target } : {}),
    LOG_LEVEL: logLevel,
    LOG_FORMAT: 'json',
    VALIDATE_RESPONSES: '0',
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

export async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/**
 * A fresh database for the real server: a file in `dir`, or a new database (named `<prefix>_<time>`) on the
 * DATABASE_URL server, dropped by `drop`.
 */
export async function freshTarget(dir: string, prefix: string) {
  const adminUrl = process.env.DATABASE_URL?.trim();
  if (!adminUrl) return { target: join(dir, 'portal.sqlite'), drop: async () => {} };
  const { openDatabase } = await import('../server/db/database');
  const { sql } = await import('kysely');
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = openDatabase(adminUrl, { poolSize: 1 });
  await sql.raw(`CREATE DATABASE ${name}`).execute(admin);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: url.toString(),
    drop: async () => {
      const again = openDatabase(adminUrl, { poolSize: 1 });
      await sql.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).execute(again);
      await again.destroy();
    },
  };
}

/** How a bench lays out the demo seller's extra orders: its status mix, each order's status and placing time. */
export interface OrderLayout {
  /** [status, share of the orders] */
  mix: readonly (readonly [OrderStatus, number])[];
  /** The booking number's prefix (a bench's own, so that two benches' orders never collide). */
  prefix: string;
  /** The status of order `n` of the plan (the plan lists each status's share in a row); default: plan[n]. */
  statusOf?: (n: number, plan: readonly OrderStatus[]) => OrderStatus;
  /** When order `n` of `total` was placed, in ms, given the bench's start. */
  placedAt: (n: number, total: number, now: number) => number;
}

/**
 * Migrates and seeds `target`, then gives the demo seller `count` more orders over its listings as `layout` says
 * (quantities 1 to 4, deadlines by the sales rules, a pending order's 48 hours starting now so that the
 * housekeeping does not cancel them mid-run), recounts its kept totals, ANALYZEs, and logs it in. The caller
 * reads what else it needs from the open `db` and destroys it. Used by bench:sales and bench:reports.
 */
export async function seedSellerOrders(target: string, count: number, layout: OrderLayout) {
  const { openDatabase } = await import('../server/db/database');
  const { migrateToLatest } = await import('../server/db/migrate');
  const { seed } = await import('../server/db/seed/index');
  const { systemClock } = await import('../server/clock');
  const { newToken, hashToken, TOKEN_LIFETIME_MS } = await import('../server/auth/tokens');
  const { recountOrderTotals } = await import('../server/domain/sales');
  const { deadlinesFor } = await import('../server/domain/sales-deadlines');
  const { sql } = await import('kysely');
  const db = openDatabase(target);
  await migrateToLatest(db);
  await seed(db, systemClock);
  const now = new Date();
  const seller = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'seller@demo.test')
    .executeTakeFirstOrThrow();
  const listings = await db
    .selectFrom('listings')
    .innerJoin('events', 'events.id', 'listings.event_id')
    .select([
      'listings.id',
      'listings.event_id',
      'listings.ticket_type_id',
      'listings.price',
      'listings.currency',
      'events.event_date',
      'events.event_time',
    ])
    .where('listings.seller_id', '=', seller.id)
    .orderBy('listings.id')
    .execute();
  const plan = layout.mix.flatMap(([status, share]) => Array.from({ length: Math.round(count * share) }, () => status));
  const statusOf = layout.statusOf ?? ((n: number, p: readonly OrderStatus[]) => p[n] as OrderStatus);
  const batch = 500;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < plan.length; i += batch) {
      const rows = plan.slice(i, i + batch).map((_, j) => {
        const n = i + j;
        const status = statusOf(n, plan);
        const l = listings[n % listings.length] as (typeof listings)[number];
        const created = new Date(layout.placedAt(n, plan.length, now.getTime())).toISOString();
        const quantity = 1 + (n % 4);
        return {
          booking_no: `${layout.prefix}${String(n).padStart(8, '0')}`,
          listing_id: l.id,
          seller_id: seller.id,
          event_id: l.event_id,
          quantity,
          amount: l.price * quantity,
          currency: l.currency,
          status,
          created_at: created,
          updated_at: created,
          event_date: l.event_date,
          event_time: l.event_time,
          ticket_type_id: l.ticket_type_id,
          delivered: status === 'delivered' || status === 'completed' ? quantity : 0,
          ...deadlinesFor(status, { created_at: created, event_date: l.event_date, event_time: l.event_time }),
          ...(status === 'pending' ? { accept_by: new Date(now.getTime() + 24 * 3_600_000).toISOString() } : {}),
        };
      });
      await trx.insertInto('orders').values(rows).execute();
    }
  });
  await recountOrderTotals(db, seller.id);
  await sql`ANALYZE`.execute(db);
  const token = newToken();
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: seller.id,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
      revoked_at: null,
    })
    .execute();
  return { db, sellerId: seller.id, token };
}
