import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf, freshTarget, num, serveReal, startRealServer, stopChild } from './bench-support';

/**
 * npm run bench:sales (issue 12): the real server on a fresh database (SQLite, or Postgres with DATABASE_URL)
 * whose demo seller has --orders (default 100,000) more orders over the six statuses.
 * 1. The sales overview and the lists (first page of Pending, Awaiting Delivery by deadline, a match search,
 *    Completed by amount) at --connections (default 50) clients for --duration seconds each (target p99 < 50 ms).
 * 2. An export of 10,000 orders (the Cancelled list) as XLSX and as CSV, wall time of the call (target < 3 s).
 */
const SELF = import.meta.filename;

/** 100,000 orders: pending 10%, confirmed 30%, delivered 20%, completed 25%, cancelled 10%, replaced 5%. */
const MIX: [string, number][] = [
  ['pending', 0.1],
  ['confirmed', 0.3],
  ['delivered', 0.2],
  ['completed', 0.25],
  ['cancelled', 0.1],
  ['replaced', 0.05],
];

async function prepare(target: string, count: number) {
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
  const plan = MIX.flatMap(([status, share]) => Array.from({ length: Math.round(count * share) }, () => status));
  const batch = 500;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < plan.length; i += batch) {
      const rows = plan.slice(i, i + batch).map((status, j) => {
        const n = i + j;
        const l = listings[n % listings.length] as (typeof listings)[number];
        const created = new Date(now.getTime() - (n % 400) * 3_600_000 - n * 1000).toISOString();
        const quantity = 1 + (n % 4);
        const deadlines = deadlinesFor(status as 'pending', {
          created_at: created,
          event_date: l.event_date,
          event_time: l.event_time,
        });
        return {
          booking_no: `BN${String(n).padStart(8, '0')}`,
          listing_id: l.id,
          seller_id: seller.id,
          event_id: l.event_id,
          quantity,
          amount: l.price * quantity,
          currency: l.currency,
          status: status as 'pending',
          created_at: created,
          updated_at: created,
          event_date: l.event_date,
          event_time: l.event_time,
          ticket_type_id: l.ticket_type_id,
          delivered: status === 'delivered' || status === 'completed' ? quantity : 0,
          ...deadlines,
          // the housekeeping would cancel old pending orders while the bench runs: their 48 hours start now
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
  const exportRows = Number(
    (
      await db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('seller_id', '=', seller.id)
        .where('status', '=', 'cancelled')
        .executeTakeFirstOrThrow()
    ).n,
  );
  await db.destroy();
  return { token, exportRows };
}

async function main() {
  const seconds = num('duration', 10);
  const connections = num('connections', 50);
  const orders = num('orders', 100_000);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-sales-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_sales');
  try {
    console.info(`bench:sales on ${engine}: preparing ${orders} orders of the demo seller...`);
    const setup = await prepare(target, orders);
    const { child: server, base } = await startRealServer(SELF, dir, target, 'warn');
    try {
      const autocannon = (await import('autocannon')).default;
      const run = async (path: string, duration: number) =>
        (await autocannon({
          url: `${base}/api${path}`,
          headers: { authorization: `Bearer ${setup.token}` },
          connections,
          duration,
          timeout: 30,
        })) as unknown as {
          requests: { total: number };
          latency: { p50: number; p99: number };
          non2xx: number;
          errors: number;
        };
      const paths = [
        '/sales/overview-all-currency',
        '/sales/history-all-currency?status=pending',
        '/sales/history-all-currency?status=confirmed&sort=deadline',
        '/sales/history-all-currency?status=delivered&q=united',
        '/sales/history-all-currency?status=completed&sort=amount_desc',
        '/sales/sales-count',
      ];
      await run(paths[1] as string, 2);
      for (const path of paths) {
        const r = await run(path, seconds);
        console.info(
          `  ${path} (${connections} clients, ${seconds} s): ${(r.requests.total / seconds).toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${r.non2xx + r.errors ? ` (${r.non2xx + r.errors} failed)` : ''}; target p99 < 50 ms: ${r.requests.total > 0 && r.latency.p99 < 50 ? 'met' : 'missed (or no answer within the run)'}`,
        );
      }
      for (const format of ['xlsx', 'csv']) {
        const started = performance.now();
        const res = await fetch(`${base}/api/sales/export-reports?status=cancelled&format=${format}`, {
          headers: { authorization: `Bearer ${setup.token}` },
        });
        const body = (await res.json()) as { data?: { rows: number; size: number } };
        const ms = performance.now() - started;
        console.info(
          `  export ${format}: ${body.data?.rows ?? 0} rows (of ${setup.exportRows}), ${((body.data?.size ?? 0) / 1024).toFixed(0)} KB in ${ms.toFixed(0)} ms, ${res.status}; target < 3 s: ${res.status === 200 && ms < 3_000 ? 'met' : 'missed'}`,
        );
      }
    } finally {
      await stopChild(server);
    }
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (argOf('serve') === 'real') await serveReal();
else await main();
