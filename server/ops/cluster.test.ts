import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../db/migrate';
import { auditLedger } from '../domain/ledger';
import { HOUSEKEEPING_JOB } from '../housekeeping';
import { type FreshDatabase, freshDatabase, TEST_ENGINE } from '../test-support';
import { restartPolicy } from './cluster';
import { callOnce, childrenOf, type Started, startServerProcess } from './cluster-process';
import { SQLITE_WORKERS_MESSAGE } from './config';

describe('the restart policy of WORKERS=N', () => {
  it('replaces a dead worker after a delay that doubles, and gives up on a crash loop', () => {
    const policy = restartPolicy({ maxDeaths: 3, windowMs: 60_000, firstDelayMs: 500, maxDelayMs: 1_500 });
    expect([policy.died(0), policy.died(1_000), policy.died(2_000)]).toEqual([500, 1_000, 1_500]);
    expect(policy.died(3_000)).toBeNull();
    // deaths a minute apart are no loop
    const calm = restartPolicy({ maxDeaths: 3, windowMs: 60_000 });
    expect([0, 61_000, 122_000, 183_000].map((t) => calm.died(t))).toEqual([500, 500, 500, 500]);
  });
});

describe('WORKERS=N on SQLite', () => {
  it('is refused in one line: SQLite serves one process', async () => {
    const d = await freshDatabase();
    try {
      const run = startServerProcess({ WORKERS: '2', DATABASE_URL: '', DATA_DIR: d.dataDir });
      await expect(run).rejects.toThrow(`SB Portal did not start: ${SQLITE_WORKERS_MESSAGE(2)}\n`);
    } finally {
      await d.close();
    }
  }, 30_000);
});

/**
 * `WORKERS=3 DATABASE_URL=... npm start` as an operator runs it: three workers on one port and one PostgreSQL
 * database, migrated and seeded once by the primary. Each call below goes on a connection of its own, which the
 * cluster hands to the next worker, so a sale's three calls and a throttle's six tries cross the workers.
 */
describe.runIf(TEST_ENGINE === 'postgres')('WORKERS=3 on one PostgreSQL database', () => {
  let d: FreshDatabase;
  let server: Started;

  beforeAll(async () => {
    d = await freshDatabase();
    server = await startServerProcess({
      WORKERS: '3',
      DATABASE_URL: d.target,
      DATA_DIR: d.dataDir,
      SHUTDOWN_DELAY_SECONDS: '1',
    });
  }, 120_000);
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await d?.close();
  });

  const ready = () => callOnce(server.port, 'GET', '/health/ready');
  const login = (email: string, password: string) =>
    callOnce(server.port, 'POST', '/auth/login', { body: { email, password } });

  it('migrated once before serving, and every worker is ready', async () => {
    const migrations = await d.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect(migrations).toHaveLength(MIGRATION_NAMES.length);
    const answer = await ready();
    expect(answer.status).toBe(200);
    const workers = answer.body.data?.workers as { worker: number; ready: boolean }[];
    expect(workers.map((w) => w.ready)).toEqual([true, true, true]);
    expect(childrenOf(server.child.pid ?? 0)).toHaveLength(3);
  });

  it('ran housekeeping once across the three workers', async () => {
    // each task's run is claimed by one of the three: its row counts one run
    const jobs = await d.db
      .selectFrom('ops_jobs')
      .select(['name', 'runs'])
      .where('name', 'like', `${HOUSEKEEPING_JOB}%`)
      .execute();
    expect(jobs.map((j) => j.name)).toContain(`${HOUSEKEEPING_JOB}login throttle`);
    expect(jobs.filter((j) => j.runs !== 1)).toEqual([]);
  });

  it('sells once: cart, booking and payment on different workers, one order, the ledger balanced', async () => {
    const token = (await login('seller@demo.test', 'Demo1234!')).body.data?.token as string;
    const seller = await d.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'seller@demo.test')
      .executeTakeFirstOrThrow();
    const listing = await d.db
      .selectFrom('listings')
      .innerJoin('events', 'events.id', 'listings.event_id')
      .select(['listings.id', 'listings.event_id', 'listings.available'])
      .where('listings.seller_id', '<>', seller.id)
      .where('listings.available', '>=', 2)
      .where('listings.split_type', '=', 'any')
      .where('events.guest_fields', '=', '')
      .where('events.event_date', '>=', new Date().toISOString().slice(0, 10))
      .orderBy('listings.id')
      .executeTakeFirstOrThrow();
    const orders = async () =>
      Number(
        (
          await d.db
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await orders();
    const key = (what: string) => ({ 'idempotency-key': `cluster-test-${what}-${Date.now()}` });
    const cart = await callOnce(
      server.port,
      'POST',
      `/purchase/lmt-trade/add-to-cart?currrency=GBP&client_country=IN&lang=en&match_id=${listing.event_id}&sell_ticket_id=${listing.id}&quantity=1&payment_method=1`,
      { token, headers: key('cart') },
    );
    expect(cart.status).toBe(200);
    const address = await callOnce(server.port, 'GET', '/settings/address-book', { token });
    const booking = await callOnce(server.port, 'POST', `/purchase/lmt-trade/inventory/buy/${listing.id}`, {
      token,
      headers: key('booking'),
      body: {
        cart_id: cart.body.data?.cart_id,
        lang: 'en',
        client_country: 'IN',
        payment_method: 1,
        address_id: (address.body.data as unknown as { address_id: number }[])[0]?.address_id,
      },
    });
    expect(booking.status).toBe(200);
    const paid = await callOnce(server.port, 'POST', '/purchase/lmt-trade/confirmation', {
      token,
      headers: key('pay'),
      body: { booking_id: booking.body.data?.booking_id, payment_method: 1 },
    });
    expect(paid.body.data?.result).toMatchObject({ booking_status: 'Success' });
    expect(await orders()).toBe(before + 1);
    const after = await d.db.selectFrom('listings').select('available').where('id', '=', listing.id).executeTakeFirst();
    expect(after?.available).toBe(listing.available - 1);
    expect(await auditLedger(d.db)).toEqual([]);
  });

  it('throttles logins across the workers: the fifth failure in a row is refused', async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await login('rival@demo.test', `wrong-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('replaces a worker killed with SIGKILL', async () => {
    const [victim] = childrenOf(server.child.pid ?? 0);
    process.kill(victim as number, 'SIGKILL');
    await expect
      .poll(
        async () => {
          // a call the primary handed to the victim as it died is lost: that try counts as not yet
          const answer = await callOnce(server.port, 'GET', '/health/ready', { timeoutMs: 3_000 }).catch(() => null);
          if (!answer) return false;
          const workers = (answer.body.data?.workers ?? []) as { worker: number; ready: boolean }[];
          return (
            workers.filter((w) => w.ready).length === 3 && !childrenOf(server.child.pid ?? 0).includes(victim as number)
          );
        },
        // a worker compiles the server under tsx as it starts: seconds, more on a busy machine
        { timeout: 60_000, interval: 500 },
      )
      .toBe(true);
    expect(server.err()).toMatch(/worker \d+ \(pid \d+\) died \(signal SIGKILL\); a new one starts in 500 ms/);
  }, 90_000);

  it('shuts down on SIGTERM: readiness red first, a request in flight finishes, exit 0', async () => {
    // a login takes a password check: in flight when the signal comes
    const inFlight = login('seller@demo.test', 'Demo1234!');
    await new Promise((done) => setTimeout(done, 20));
    server.child.kill('SIGTERM');
    await new Promise((done) => setTimeout(done, 300));
    const draining = await ready();
    expect(draining.status).toBe(503);
    expect(draining.body.message).toMatch(/shutting down/);
    expect((await inFlight).status).toBe(200);
    expect(await server.exited).toBe(0);
  }, 30_000);
});
