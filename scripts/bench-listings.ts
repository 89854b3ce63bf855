import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf, freshTarget, num, serveReal, startRealServer, stopChild } from './bench-support';

/**
 * npm run bench:listings (issue 11): the real server on a fresh database (SQLite, or Postgres with DATABASE_URL).
 * 1. A 5,000-row spreadsheet validated and imported by POST /bulk-listing/upload-excel-tickets (wall time of the
 *    call; target under 5 s), after one dry run of it.
 * 2. Inventory's first page (GET /my-listings, 50 rows) of a seller with --listings (default 10,000) listings,
 *    at --connections (default 50) clients for --duration seconds (target p99 under 50 ms).
 */
const SELF = import.meta.filename;

async function prepare(target: string, count: number) {
  const { openDatabase } = await import('../server/db/database');
  const { migrateToLatest } = await import('../server/db/migrate');
  const { seed } = await import('../server/db/seed/index');
  const { systemClock } = await import('../server/clock');
  const { newToken, hashToken, TOKEN_LIFETIME_MS } = await import('../server/auth/tokens');
  const { createListings } = await import('../server/domain/listings/listings');
  const { STADIUM_LAYOUT } = await import('../server/domain/listings/rules');
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
  const events = await db
    .selectFrom('events')
    .select(['id', 'name', 'event_date'])
    .where('event_date', '>=', now.toISOString().slice(0, 10))
    .orderBy('id')
    .execute();
  const have = Number(
    (
      await db
        .selectFrom('listings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('seller_id', '=', seller.id)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const inputs = Array.from({ length: Math.max(0, count - have) }, (_, i) => ({
    match_id: (events[i % events.length] as { id: number }).id,
    category: (STADIUM_LAYOUT[i % STADIUM_LAYOUT.length] as { name: string }).name,
    ticket_block: `Block ${1 + (i % 130)}`,
    row: String(1 + (i % 30)),
    ticket_type_id: (1 + (i % 6)) as 1,
    quantity: 1 + (i % 10),
    split_type: 'any' as const,
    price: 5_000 + (i % 200) * 100,
    currency: 'GBP' as const,
  }));
  await db.transaction().execute((trx) => createListings(trx, { sellerId: seller.id, userId: seller.id }, inputs, now));
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
  await db.destroy();
  return { token, events };
}

async function spreadsheet(rows: number, events: { id: number; name: string; event_date: string }[]) {
  const ExcelJS = (await import('exceljs')).default;
  const { COLUMNS } = await import('../server/domain/listings/bulk');
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Listings');
  sheet.addRow(COLUMNS.map((c) => c.header));
  for (let i = 0; i < rows; i++) {
    const e = events[i % events.length] as { id: number; name: string; event_date: string };
    sheet.addRow([
      `${e.id} | ${e.name} | ${e.event_date}`,
      'Longside Lower Tier',
      `Block ${1 + (i % 30)}`,
      String(1 + (i % 40)),
      '',
      'E-ticket',
      1 + (i % 8),
      'Any',
      50 + (i % 300) + 0.5,
      null,
      'GBP',
      '',
      `Bench row ${i}`,
    ]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(base: string, token: string, bytes: Buffer, dryRun: boolean) {
  const form = new FormData();
  form.set('dry_run', String(dryRun));
  form.set('file', new Blob([new Uint8Array(bytes)]), 'bench.xlsx');
  const started = performance.now();
  const res = await fetch(`${base}/api/bulk-listing/upload-excel-tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': `bench-${Date.now()}-${Math.random()}` },
    body: form,
  });
  const body = (await res.json()) as { data?: { created: number; rows_total: number }; message?: string };
  return { ms: performance.now() - started, status: res.status, body };
}

async function main() {
  const seconds = num('duration', 10);
  const connections = num('connections', 50);
  const listings = num('listings', 10_000);
  const rows = num('rows', 5_000);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-listings-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_listings');
  try {
    console.info(`bench:listings on ${engine}: preparing the seller's ${listings} listings...`);
    const setup = await prepare(target, listings);
    const { child: server, base } = await startRealServer(SELF, dir, target, 'warn');
    try {
      const autocannon = (await import('autocannon')).default;
      const page = async (duration: number) =>
        (await autocannon({
          url: `${base}/api/my-listings?per_page=50`,
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
      await page(2);
      const r = await page(seconds);
      console.info(
        `  Inventory first page (${listings} listings, ${connections} clients, ${seconds} s): ${(r.requests.total / seconds).toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms${r.non2xx + r.errors ? ` (${r.non2xx + r.errors} failed)` : ''}; target p99 < 50 ms: ${r.latency.p99 < 50 ? 'met' : 'missed'}`,
      );

      const bytes = await spreadsheet(rows, setup.events);
      console.info(`  spreadsheet: ${rows} rows, ${(bytes.length / 1024).toFixed(0)} KB`);
      const dry = await upload(base, setup.token, bytes, true);
      console.info(`  validate only (dry_run): ${dry.ms.toFixed(0)} ms, ${dry.status} ${dry.body.message ?? ''}`);
      const real = await upload(base, setup.token, bytes, false);
      console.info(
        `  validate and import: ${real.ms.toFixed(0)} ms, ${real.status} ${real.body.message ?? ''}; target < 5 s: ${real.status === 200 && real.ms < 5_000 ? 'met' : 'missed'}`,
      );
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
