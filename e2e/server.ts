import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import type { Insertable } from 'kysely';
import { createApp } from '../server/app';
import { hashPassword } from '../server/auth/passwords';
import { newUserToken } from '../server/auth/tokens';
import { systemClock } from '../server/clock';
import { readPaymentSettings } from '../server/config';
import { type Db, openDatabase } from '../server/db/database';
import { migrateToLatest } from '../server/db/migrate';
import type { Database } from '../server/db/schema';
import { DEMO_PASSWORD, PERMISSIONS, seed } from '../server/db/seed';
import { createBooking } from '../server/domain/purchase/bookings';
import { createCart } from '../server/domain/purchase/carts';
import { confirmWithWallet } from '../server/domain/purchase/payments';
import { applyOrderEvent } from '../server/domain/sales/lifecycle';
import { findOrder } from '../server/domain/sales/orders';
import { recordOrder } from '../server/domain/sales/totals';
import { createLogger } from '../server/logger';
import { startServer } from '../server/main';
import { paymentsFrom } from '../server/payments';
import { startStripeFake } from '../server/testing/stripe-fake';
import { HELD_MEMBER_EMAIL, HOSTILE_ACCOUNT, LONG_EVENT, LONG_WORD } from './hostile';
import { STRIPE_E2E } from './stripe-standin';

/** The demo password's hash for the e2e run's own accounts, made once (each hash costs OWASP's scrypt). */
let passwordHash: Promise<string> | undefined;

// The real server, on a database that exists only for this run, serving the e2e build.
const dataDir = mkdtempSync(join(tmpdir(), 'sb-portal-e2e-'));
const databaseFile = join(dataDir, 'portal.sqlite');

// The demo data, then the e2e run's hostile data, are written before the server listens: the first answer
// of /api/health (Playwright's signal that the run may start) comes from a database that holds all of it.
const db = openDatabase(databaseFile);
try {
  await migrateToLatest(db);
  await seed(db, systemClock);
  await seedHostileData(db);
  await seedHeldMember(db);
  await seedWalletSeller(db);
  await seedEuroSeller(db);
  await seedWorkSeller(db);
  await seedBroker(db);
} finally {
  await db.destroy();
}

// The stripe gateway's app (e2e/stripe-standin.ts says how it works): its port is taken before the sandbox server
// answers its health check, and a request that arrives before the database is ready waits for it.
const stripeFake = await startStripeFake({ port: STRIPE_E2E.apiPort });
let stripeAppReady: (app: ReturnType<typeof createApp>) => void = () => {};
const stripeApp = new Promise<ReturnType<typeof createApp>>((resolve) => {
  stripeAppReady = resolve;
});
const stripeServer = createAdaptorServer({
  fetch: async (request: Request) => (await stripeApp).fetch(request),
}) as Server;
await new Promise<void>((resolve) => stripeServer.listen(STRIPE_E2E.appPort, '127.0.0.1', resolve));

const { close, db: serverDb } = await startServer({
  port: Number(process.env.E2E_PORT ?? 4178),
  host: '127.0.0.1',
  dataDir,
  databaseFile,
  // the browser tests run on a SQLite file of their own, even where DATABASE_URL points at a Postgres server
  databaseUrl: null,
  staticDir: resolve('dist-e2e'),
  logLevel: process.env.LOG_LEVEL ?? 'warn',
  // an answer off the contract fails the browser tests as a 500
  validateResponses: true,
  // as behind one proxy: a request without X-Forwarded-For is its socket (every spec's), and a spec may play
  // callers from elsewhere with the header (e2e/login-lock.spec.ts: a botnet's guesses)
  trustProxy: 1,
});
stripeAppReady(
  createApp({
    db: serverDb,
    clock: systemClock,
    log: createLogger(process.env.LOG_LEVEL ?? 'warn', 'json'),
    staticDir: resolve('dist-e2e'),
    dataDir,
    validateResponses: true,
    payments: paymentsFrom(
      readPaymentSettings({
        STRIPE_SECRET_KEY: STRIPE_E2E.secretKey,
        STRIPE_PUBLISHABLE_KEY_GBP: STRIPE_E2E.publishableKeyGbp,
        STRIPE_PUBLISHABLE_KEY_OTHER: STRIPE_E2E.publishableKeyOther,
        STRIPE_API_BASE: stripeFake.url,
      }),
    ),
  }),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    stripeServer.closeAllConnections();
    stripeServer.close();
    void Promise.all([close(), stripeFake.close()]).finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

/**
 * A seller (every permission, KYC approved) whose name, notifications, activity and sales are long unbroken
 * strings (e2e/hostile.ts): the layouts must hold them at 375 and 1280 px.
 */
async function seedHostileData(database: Db) {
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  await database.transaction().execute(async (trx) => {
    const userId = await insertAccount(trx, {
      email: HOSTILE_ACCOUNT.email,
      first_name: HOSTILE_ACCOUNT.firstName,
      last_name: HOSTILE_ACCOUNT.lastName,
      user_type: 'sellers',
      team_owner_id: null,
      created_at: iso(now),
    });

    const london = await trx
      .selectFrom('cities')
      .innerJoin('countries', 'countries.id', 'cities.country_id')
      .select(['cities.id as city_id', 'countries.id as country_id'])
      .where('countries.short_name', '=', 'EN')
      .where('cities.name', '=', 'London')
      .executeTakeFirstOrThrow();
    const { id: eventId } = await trx
      .insertInto('events')
      .values({
        name: LONG_EVENT,
        home_team: LONG_EVENT.split(' vs ')[0] ?? LONG_EVENT,
        away_team: 'Wolverhampton Wanderers Women',
        tournament: 'Invitational',
        event_date: iso(now + 9 * 86_400_000).slice(0, 10),
        event_time: '19:45',
        stadium_name: `Stadium${'S'.repeat(90)}`,
        city_id: london.city_id,
        country_id: london.country_id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: listingId } = await trx
      .insertInto('listings')
      .values({
        seller_id: userId,
        event_id: eventId,
        category: `Category${'C'.repeat(60)}`,
        ticket_block: 'Block 1',
        row: '1',
        ticket_type_id: 1,
        quantity: 4,
        // a large amount: its figure is as wide as a figure gets
        price: 99_999_999,
        currency: 'GBP',
        created_at: iso(now - 30 * 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [i, status] of (['confirmed', 'confirmed', 'completed'] as const).entries()) {
      await recordOrder(trx, {
        booking_no: `SB-E2E-${'9'.repeat(20)}-${i}`,
        listing_id: listingId,
        seller_id: userId,
        event_id: eventId,
        quantity: 2,
        amount: 199_999_998,
        currency: 'GBP',
        status,
        created_at: iso(now - (i + 1) * 3_600_000),
        updated_at: iso(now - (i + 1) * 3_600_000),
      });
    }
    await trx
      .insertInto('notifications')
      .values([
        { user_id: userId, name: 'new_order', description: `New order: ${LONG_WORD}`, viewed: 0, created_at: iso(now) },
        {
          user_id: userId,
          name: `very_long_notification_name_${'n'.repeat(80)}`,
          description: LONG_WORD,
          viewed: 1,
          created_at: iso(now - 60_000),
        },
      ])
      .execute();
    await trx
      .insertInto('activity_log')
      .values([
        { user_id: userId, type: 'logged_in', description: 'Logged in', created_at: iso(now - 120_000) },
        { user_id: userId, type: `listing_created_${'t'.repeat(60)}`, description: LONG_WORD, created_at: iso(now) },
      ])
      .execute();
  });
}

/**
 * A team member of newseller@demo.test, whose KYC is not submitted: it inherits its seller's hold. Every
 * permission its seller has, so that only the hold keeps it out.
 */
async function seedHeldMember(database: Db) {
  await database.transaction().execute(async (trx) => {
    const owner = await trx
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'newseller@demo.test')
      .executeTakeFirstOrThrow();
    await insertAccount(trx, {
      email: HELD_MEMBER_EMAIL,
      first_name: 'Hal',
      last_name: 'Held',
      user_type: 'team_members',
      team_owner_id: owner.id,
      created_at: new Date().toISOString(),
    });
  });
}

/**
 * A seller of its own for the wallet's round trip (e2e/wallet.spec.ts): its deposits, balance and notifications
 * change during the run, so no other spec reads them.
 */
async function seedWalletSeller(database: Db) {
  await database.transaction().execute(async (trx) => {
    await insertAccount(trx, {
      email: 'walletseller@e2e.test',
      first_name: 'Wanda',
      last_name: 'Wallet',
      user_type: 'sellers',
      team_owner_id: null,
      created_at: new Date().toISOString(),
    });
  });
}

/**
 * A seller working through its sales (e2e/sales-work.spec.ts): three pending orders to accept from the list, and
 * three awaiting delivery whose deadlines are overdue, due within 24 hours and days away.
 */
async function seedWorkSeller(database: Db) {
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  await database.transaction().execute(async (trx) => {
    const sellerId = await insertAccount(trx, {
      email: 'workseller@e2e.test',
      first_name: 'Wes',
      last_name: 'Work',
      user_type: 'sellers',
      team_owner_id: null,
      created_at: iso(now - 60 * 86_400_000),
    });
    const event = await trx
      .selectFrom('events')
      .select('id')
      .where('event_date', '>', iso(now + 20 * 86_400_000).slice(0, 10))
      .orderBy('event_date')
      .executeTakeFirstOrThrow();
    const { id: listingId } = await trx
      .insertInto('listings')
      .values({
        seller_id: sellerId,
        event_id: event.id,
        category: 'Longside Lower Tier',
        ticket_block: 'Block 7',
        row: '12',
        ticket_type_id: 1,
        quantity: 20,
        available: 14,
        price: 12_000,
        currency: 'GBP',
        created_at: iso(now - 10 * 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const order = (n: string, status: 'pending' | 'confirmed', hoursAgo: number) =>
      recordOrder(trx, {
        booking_no: `SB-WORK-${n}`,
        listing_id: listingId,
        seller_id: sellerId,
        event_id: event.id,
        quantity: 1,
        amount: 12_000,
        currency: 'GBP',
        status,
        created_at: iso(now - hoursAgo * 3_600_000),
      });
    for (const [i, n] of ['P1', 'P2', 'P3'].entries()) await order(n, 'pending', i + 1);
    // a delivery deadline overdue, one within 24 hours, one days away (the rule's own dates are weeks away)
    for (const [n, dueInHours] of [
      ['LATE', -3],
      ['SOON', 5],
      ['LATER', 6 * 24 + 6],
    ] as const) {
      const { id } = await order(n, 'confirmed', 30);
      await trx
        .updateTable('orders')
        .set({ deliver_by: iso(now + dueInHours * 3_600_000) })
        .where('id', '=', id)
        .execute();
    }
  });
  await seedMobileSale(database);
}

/**
 * Four mobile tickets of the work seller bought by the rival with SB Pay through the purchase flow, accepted
 * (e2e/mobile-transfers.spec.ts): booking and order SB-WORK-MOB, on a match without guest details.
 */
async function seedMobileSale(database: Db) {
  const now = new Date();
  await database.transaction().execute(async (trx) => {
    const sellerId = (
      await trx.selectFrom('users').select('id').where('email', '=', 'workseller@e2e.test').executeTakeFirstOrThrow()
    ).id;
    const buyerId = (
      await trx.selectFrom('users').select('id').where('email', '=', 'rival@demo.test').executeTakeFirstOrThrow()
    ).id;
    const event = await trx
      .selectFrom('events')
      .select('id')
      .where('guest_fields', '=', '')
      .where('event_date', '>', new Date(now.getTime() + 10 * 86_400_000).toISOString().slice(0, 10))
      .orderBy('event_date')
      .executeTakeFirstOrThrow();
    const listing = await trx
      .insertInto('listings')
      .values({
        seller_id: sellerId,
        event_id: event.id,
        category: 'Longside Upper Tier',
        ticket_block: 'Block 9',
        row: '4',
        ticket_type_id: 2,
        quantity: 8,
        available: 8,
        split_type: 'any',
        price: 1_000,
        currency: 'GBP',
        created_at: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const address = await trx
      .selectFrom('addresses')
      .select('id')
      .where('owner_id', '=', buyerId)
      .executeTakeFirstOrThrow();
    const who = { buyerId, userId: buyerId, listingId: listing.id };
    const cart = await createCart(trx, { ...who, matchId: event.id, quantity: 4, currency: 'GBP', method: 1 }, now);
    const booking = await createBooking(
      trx,
      { ...who, cartId: cart.cart_id, method: 1, billing: { address_id: address.id } },
      now,
    );
    await confirmWithWallet(trx, buyerId, booking.booking_id, now);
    const { order_id } = await trx
      .selectFrom('bookings')
      .select('order_id')
      .where('id', '=', booking.booking_id)
      .executeTakeFirstOrThrow();
    await trx.updateTable('bookings').set({ booking_no: 'SB-WORK-MOB' }).where('id', '=', booking.booking_id).execute();
    await trx
      .updateTable('orders')
      .set({ booking_no: 'SB-WORK-MOB' })
      .where('id', '=', order_id as number)
      .execute();
    const order = await findOrder(trx, sellerId, order_id as number);
    if (!order) throw new Error('e2e seed: the mobile sale has no order');
    await applyOrderEvent(
      trx,
      order,
      { type: 'order.accept', by: 'seller' },
      { actor: 'seller', userId: sellerId },
      now,
      null,
    );
  });
}

/** A seller whose display currency is EUR (e2e/reports.spec.ts): its dashboard and report open in EUR. */
async function seedEuroSeller(database: Db) {
  await database.transaction().execute(async (trx) => {
    const id = await insertAccount(trx, {
      email: 'eurseller@e2e.test',
      first_name: 'Elena',
      last_name: 'Euro',
      user_type: 'sellers',
      team_owner_id: null,
      created_at: new Date().toISOString(),
    });
    await trx.updateTable('users').set({ currency: 'EUR' }).where('id', '=', id).execute();
  });
}

/**
 * A broker with 10,000 listings over the upcoming matches (Inventory at scale, e2e/inventory-grid.spec.ts),
 * written straight into the database in batches: the listings' triggers keep the counts as for any insert.
 */
async function seedBroker(database: Db) {
  const BROKER_LISTINGS = 10_000;
  await database.transaction().execute(async (trx) => {
    const id = await insertAccount(trx, {
      email: 'broker@e2e.test',
      first_name: 'Bea',
      last_name: 'Broker',
      user_type: 'sellers',
      team_owner_id: null,
      created_at: new Date().toISOString(),
    });
    const events = await trx
      .selectFrom('events')
      .select('id')
      .where('event_date', '>', new Date().toISOString().slice(0, 10))
      .orderBy('id')
      .execute();
    const now = new Date().toISOString();
    for (let i = 0; i < BROKER_LISTINGS; i += 500) {
      await trx
        .insertInto('listings')
        .values(
          Array.from({ length: Math.min(500, BROKER_LISTINGS - i) }, (_, k) => {
            const n = i + k;
            return {
              seller_id: id,
              event_id: (events[n % events.length] as { id: number }).id,
              category: n % 3 === 0 ? 'Longside Lower Tier' : n % 3 === 1 ? 'Shortside Upper Tier' : 'Corner Lower',
              ticket_block: `Block ${100 + (n % 40)}`,
              row: String(1 + (n % 30)),
              ticket_type_id: 1 + (n % 5),
              quantity: 4,
              available: 4,
              split_type: 'any',
              price: 5_000 + (n % 200) * 100,
              currency: 'GBP',
              created_at: now,
            };
          }),
        )
        .execute();
    }
  });
}

/**
 * An account of the e2e run: its own KYC approved, every permission, the demo password (hashed once per run).
 */
async function insertAccount(
  trx: Db,
  user: Pick<
    Insertable<Database['users']>,
    'email' | 'first_name' | 'last_name' | 'user_type' | 'team_owner_id' | 'created_at'
  >,
): Promise<number> {
  passwordHash ??= hashPassword(DEMO_PASSWORD);
  const { id } = await trx
    .insertInto('users')
    .values({
      ...user,
      password_hash: await passwordHash,
      kyc_status: 1,
      kyc_rejection_reason: null,
      currency: 'GBP',
      user_token: newUserToken(),
      deleted_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('user_permissions')
    .values(PERMISSIONS.map((p) => ({ user_id: id, permission_name: p.name, is_can_access: 1 })))
    .execute();
  return id;
}
