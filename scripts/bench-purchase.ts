import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argOf, freshTarget, num, serveReal, startRealServer, stopChild } from './bench-support';

const SELF = import.meta.filename;

const TICKETS_PER_LISTING = 100_000;
const BALANCE = 1_000_000_000; // 10 million GBP a buyer: never the limit

interface Setup {
  tokens: string[];
  buyerIds: number[];
  listings: { id: number; event_id: number }[];
  countryId: number;
}

/** Migrates and seeds, then adds the buyers (token, balance) and the bench's listings. */
async function prepare(target: string, buyers: number, listingCount: number): Promise<Setup> {
  const { openDatabase } = await import('../server/db/database');
  const { migrateToLatest } = await import('../server/db/migrate');
  const { seed, PERMISSIONS } = await import('../server/db/seed/index');
  const { systemClock } = await import('../server/clock');
  const { newToken, hashToken, newUserToken, TOKEN_LIFETIME_MS } = await import('../server/auth/tokens');
  const { postEntry, walletAccount, platformBankAccount } = await import('../server/domain/ledger');
  const db = openDatabase(target);
  await migrateToLatest(db);
  await seed(db, systemClock);
  const now = new Date();
  const seller = await db
    .selectFrom('users')
    .select('password_hash')
    .where('email', '=', 'seller@demo.test')
    .executeTakeFirstOrThrow();
  const tokens: string[] = [];
  const buyerIds: number[] = [];
  for (let i = 0; i < buyers; i++) {
    await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('users')
        .values({
          email: `bench-buyer-${i}@bench.test`,
          password_hash: seller.password_hash,
          first_name: 'Bench',
          last_name: `Buyer ${i}`,
          user_type: 'sellers',
          kyc_status: 1,
          kyc_rejection_reason: null,
          team_owner_id: null,
          currency: 'GBP',
          user_token: newUserToken(),
          created_at: now.toISOString(),
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('user_permissions')
        .values(PERMISSIONS.map((p) => ({ user_id: id, permission_name: p.name, is_can_access: 1 })))
        .execute();
      const token = newToken();
      await trx
        .insertInto('auth_tokens')
        .values({
          token_hash: hashToken(token),
          user_id: id,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
          revoked_at: null,
        })
        .execute();
      const wallet = await walletAccount(trx, id, 'GBP', now);
      const bank = await platformBankAccount(trx, 'GBP', now);
      await postEntry(
        trx,
        {
          kind: 'deposit',
          reference: `bench:${id}`,
          description: 'Bench top-up',
          lines: [
            { accountId: wallet, currency: 'GBP', amount: BALANCE },
            { accountId: bank, currency: 'GBP', amount: -BALANCE },
          ],
        },
        now,
      );
      tokens.push(token);
      buyerIds.push(id);
    });
  }
  const trader = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'tickets4u@demo.test')
    .executeTakeFirstOrThrow();
  const events = await db
    .selectFrom('events')
    .select('id')
    .where('guest_fields', '=', '')
    .where('event_date', '>=', now.toISOString().slice(0, 10))
    .orderBy('id')
    .execute();
  const rows = Array.from({ length: listingCount }, (_, i) => ({
    seller_id: trader.id,
    event_id: (events[i % events.length] as { id: number }).id,
    category: 'Bench Stand',
    ticket_block: `Block ${i}`,
    row: '1',
    ticket_type_id: 1,
    quantity: TICKETS_PER_LISTING,
    available: TICKETS_PER_LISTING,
    split_type: 'any',
    price: 5_000,
    currency: 'GBP',
    created_at: now.toISOString(),
  }));
  const listings: { id: number; event_id: number }[] = [];
  for (let i = 0; i < rows.length; i += 100) {
    listings.push(
      ...(await db
        .insertInto('listings')
        .values(rows.slice(i, i + 100))
        .returning(['id', 'event_id'])
        .execute()),
    );
  }
  const country = await db
    .selectFrom('countries')
    .select('id')
    .where('short_name', '=', 'EN')
    .executeTakeFirstOrThrow();
  await db.destroy();
  return { tokens, buyerIds, listings, countryId: country.id };
}

/** Idempotency keys unique across the warm-up and the measured run (a repeated key with another body is refused). */
let seq = 0;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number);

/** The HTTP phase: `clients` loops, each a buyer, purchase after purchase until the time is up. */
async function drive(base: string, setup: Setup, clients: number, seconds: number) {
  const purchases: number[] = [];
  const calls: number[] = [];
  const errors = new Map<string, number>();
  const fail = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);
  const post = async (path: string, token: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`${base}/api${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'idempotency-key': `bench-${process.pid}-${++seq}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data?: Record<string, unknown>; message?: string };
    calls.push(performance.now() - started);
    return { status: res.status, json };
  };
  const until = performance.now() + seconds * 1000;
  const loop = async (client: number) => {
    const token = setup.tokens[client % setup.tokens.length] as string;
    let n = client;
    while (performance.now() < until) {
      n += 7;
      const listing = setup.listings[n % setup.listings.length] as { id: number; event_id: number };
      const started = performance.now();
      try {
        const cart = await post(
          `/purchase/lmt-trade/add-to-cart?currrency=GBP&client_country=IN&lang=en&match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=1&payment_method=1`,
          token,
        );
        if (cart.status !== 200) {
          fail(`add-to-cart ${cart.status}`);
          continue;
        }
        const booking = await post(`/purchase/lmt-trade/inventory/buy/${listing.id}`, token, {
          cart_id: cart.json.data?.cart_id,
          lang: 'en',
          client_country: 'IN',
          payment_method: 1,
          first_name: 'Bench',
          last_name: 'Buyer',
          email: 'buyer@bench.test',
          address: '1 Bench Road',
          country: setup.countryId,
          postal_code: 'B1 1AA',
        });
        if (booking.status !== 200) {
          fail(`inventory/buy ${booking.status}`);
          continue;
        }
        const paid = await post('/purchase/lmt-trade/confirmation', token, {
          booking_id: booking.json.data?.booking_id,
          payment_method: 1,
        });
        const outcome = (paid.json.data?.result as { booking_status?: string } | undefined)?.booking_status;
        if (paid.status !== 200 || outcome !== 'Success') {
          fail(`confirmation ${paid.status} ${outcome ?? paid.json.message}`);
          continue;
        }
        purchases.push(performance.now() - started);
      } catch (error) {
        fail(`network: ${(error as Error).message}`);
      }
    }
  };
  const wall = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => loop(i)));
  const elapsed = (performance.now() - wall) / 1000;
  purchases.sort((a, b) => a - b);
  calls.sort((a, b) => a - b);
  return { purchases, calls, errors, elapsed };
}

/** The same writes without HTTP: what the database itself gives on this machine. */
async function rawCeiling(target: string, setup: Setup, clients: number, seconds: number) {
  const { openDatabase } = await import('../server/db/database');
  const { inTransaction } = await import('../server/db/transaction');
  const { createCart, createBooking, confirmWithWallet } = await import('../server/domain/purchase/purchase');
  const db = openDatabase(target);
  let done = 0;
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  const loop = async (client: number) => {
    const buyerId = setup.buyerIds[client % setup.buyerIds.length] as number;
    let n = client + 3;
    while (performance.now() < until) {
      n += 7;
      const listing = setup.listings[n % setup.listings.length] as { id: number; event_id: number };
      try {
        const cart = await inTransaction(db, (trx) =>
          createCart(
            trx,
            {
              buyerId,
              userId: buyerId,
              listingId: listing.id,
              matchId: listing.event_id,
              quantity: 1,
              currency: 'GBP',
              method: 1,
            },
            new Date(),
          ),
        );
        const booking = await inTransaction(db, (trx) =>
          createBooking(
            trx,
            {
              buyerId,
              userId: buyerId,
              listingId: listing.id,
              cartId: cart.cart_id,
              method: 1,
              billing: {
                first_name: 'Raw',
                last_name: 'Buyer',
                email: 'raw@bench.test',
                address: '1 Raw Road',
                country: setup.countryId,
                postal_code: 'R1',
              },
            },
            new Date(),
          ),
        );
        const paid = await inTransaction(db, (trx) => confirmWithWallet(trx, buyerId, booking.booking_id, new Date()));
        if (paid.result.status === 1) done += 1;
        else failed += 1;
      } catch {
        failed += 1;
      }
    }
  };
  const wall = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => loop(i)));
  const elapsed = (performance.now() - wall) / 1000;
  await db.destroy();
  return { rate: done / elapsed, done, failed };
}

/** Zero oversold and a balanced ledger, read from the database after both phases. */
async function checks(target: string, setup: Setup) {
  const { openDatabase } = await import('../server/db/database');
  const { auditLedger } = await import('../server/domain/ledger');
  const db = openDatabase(target);
  const ids = setup.listings.map((l) => l.id);
  const listings = await db
    .selectFrom('listings')
    .select(['id', 'quantity', 'available'])
    .where('id', 'in', ids)
    .execute();
  const carts = await db
    .selectFrom('carts')
    .select(['listing_id', 'hold_state', (eb) => eb.fn.sum<number>('quantity').as('n')])
    .where('listing_id', 'in', ids)
    .groupBy(['listing_id', 'hold_state'])
    .execute();
  const confirmed = await db
    .selectFrom('bookings')
    .select((eb) => eb.fn.sum<number>('quantity').as('n'))
    .where('listing_id', 'in', ids)
    .where('status', '=', 'confirmed')
    .executeTakeFirstOrThrow();
  const taken = new Map<number, number>();
  let sold = 0;
  for (const c of carts) {
    if (c.hold_state !== 'released') taken.set(c.listing_id, (taken.get(c.listing_id) ?? 0) + Number(c.n));
    if (c.hold_state === 'sold') sold += Number(c.n);
  }
  const oversold = listings.filter((l) => l.available < 0 || l.available + (taken.get(l.id) ?? 0) !== l.quantity);
  const problems = await auditLedger(db);
  await db.destroy();
  return { oversold: oversold.length, sold, confirmed: Number(confirmed.n ?? 0), ledger: problems };
}

async function main() {
  const seconds = num('duration', 30);
  const clients = num('clients', 50);
  const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite';
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-purchase-'));
  const { target, drop } = await freshTarget(dir, 'sbbench_purchase');
  try {
    console.info(`bench:purchase on ${engine}: preparing a fresh database...`);
    const setup = await prepare(target, num('buyers', 50), num('listings', 200));
    const { child: server, base } = await startRealServer(SELF, dir, target);
    let http: Awaited<ReturnType<typeof drive>>;
    try {
      await drive(base, setup, clients, 2); // warm-up
      http = await drive(base, setup, clients, seconds);
    } finally {
      await stopChild(server);
    }
    const raw = await rawCeiling(target, setup, clients, num('raw-duration', 10));
    const found = await checks(target, setup);
    const rate = http.purchases.length / http.elapsed;
    const errors = [...http.errors.entries()].map(([k, v]) => `${k} x${v}`).join(', ');
    console.info(`\n${engine}, ${clients} clients, ${seconds} s, node ${process.version}`);
    console.info(
      `  HTTP    ${rate.toFixed(0)} confirmed purchases/s (${http.purchases.length} in ${http.elapsed.toFixed(1)} s)` +
        `  purchase p50 ${percentile(http.purchases, 50).toFixed(1)} ms  p99 ${percentile(http.purchases, 99).toFixed(1)} ms` +
        `  call p50 ${percentile(http.calls, 50).toFixed(1)} ms  p99 ${percentile(http.calls, 99).toFixed(1)} ms`,
    );
    console.info(`  errors  ${errors || 'none'}`);
    console.info(
      `  raw     ${raw.rate.toFixed(0)} purchases/s without HTTP (${raw.done} done, ${raw.failed} failed): HTTP is ${((rate / raw.rate) * 100).toFixed(0)}% of it`,
    );
    console.info(
      `  checks  oversold listings: ${found.oversold}; sold ${found.sold} tickets = confirmed ${found.confirmed}: ${found.sold === found.confirmed ? 'yes' : 'NO'}; ledger: ${found.ledger.length === 0 ? 'balanced' : found.ledger.slice(0, 5).join('; ')}`,
    );
    console.info(
      `  target  1,000/s with p99 < 50 ms: ${rate >= 1000 && percentile(http.purchases, 99) < 50 ? 'met' : 'missed'}`,
    );
    if (found.oversold > 0 || found.ledger.length > 0 || found.sold !== found.confirmed) process.exitCode = 1;
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (argOf('serve') === 'real') await serveReal();
else await main();
