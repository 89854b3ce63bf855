/**
 * bench:purchase's product side: its database (the product's migrations and demo data, then the bench's buyers,
 * each with a token and a wallet, and its listings, written through the product's own code), the product's
 * server started as `npm start` runs it (the built bundle, production settings) in one or more processes, and
 * the checks after a run (zero oversold, the ledger's own audit).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { freePort, plannerStatistics, ROOT } from './bench-support';

export const TICKETS_PER_LISTING = 100_000;
export const BALANCE = 1_000_000_000; // 10 million GBP a buyer: never the limit

export interface Setup {
  tokens: string[];
  buyerIds: number[];
  listings: { id: number; event_id: number }[];
  countryId: number;
}

/** Migrates and seeds, then adds the buyers (token, balance) and the bench's listings. */
export async function prepareProduct(target: string, buyers: number, listingCount: number): Promise<Setup> {
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
  await plannerStatistics(db);
  await db.destroy();
  return { tokens, buyerIds, listings, countryId: country.id };
}

/** Zero oversold and a balanced ledger, read from the database after both phases. */
export async function checkProduct(target: string, setup: Setup) {
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

/** Builds the server bundle that `npm start` runs (dist-server/start.mjs), from this checkout's sources. */
export function buildProduct() {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

/** The product's servers: their origins, their process ids (for their CPU time), and a stop for all. */
export interface Servers {
  origins: string[];
  pids: number[];
  stop(): Promise<void>;
}

async function healthy(origin: string, child: ChildProcess, output: () => string) {
  const until = performance.now() + 120_000;
  while (performance.now() < until) {
    if (child.exitCode !== null) throw new Error(`the product's server exited (${child.exitCode}): ${output()}`);
    try {
      if ((await fetch(`${origin}/api/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`the product's server at ${origin} was not healthy within 2 minutes: ${output()}`);
}

export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/**
 * `processes` product servers over `target`, each as `npm start` runs it: the built bundle with source maps and
 * `npm start`'s defaults (JSON logs at info to stdout, no response validation, kept answers on), one port each,
 * started one after the other. BENCH_CPU_PROF=<dir> writes each one's CPU profile there when it stops.
 *
 * TODO: when the product serves N processes on one port itself (`WORKERS=N npm start`), start it so, and
 * read the CPU of the workers (the primary's children) instead of N processes on N ports.
 */
export async function startProduct(dir: string, target: string, processes: number): Promise<Servers> {
  const children: ChildProcess[] = [];
  const origins: string[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopProcess));
  };
  try {
    for (let i = 0; i < processes; i++) {
      const port = await freePort();
      let stderr = '';
      const child = spawn(
        process.execPath,
        [
          '--enable-source-maps',
          ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
          'dist-server/start.mjs',
        ],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            PORT: String(port),
            HOST: '127.0.0.1',
            DATA_DIR: dir,
            DATABASE_URL: /^postgres/i.test(target) ? target : '',
            LOG_FORMAT: 'json',
          },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      child.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-2000);
      });
      children.push(child);
      const origin = `http://127.0.0.1:${port}`;
      await healthy(origin, child, () => stderr);
      origins.push(origin);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { origins, pids: children.map((c) => c.pid as number), stop };
}
