import { hashPassword } from '../../auth/passwords';
import { newUserToken } from '../../auth/tokens';
import type { Clock } from '../../clock';
import { ensureEscrowShards } from '../../domain/ledger';
import { addTemplate } from '../../domain/listings/templates';
import { MOBILE_TICKET_TYPE } from '../../domain/sales/deadlines';
import { setTransferWindow } from '../../domain/sales/transfers';
import type { Db } from '../database';
import { backfillProofs } from '../migrations/0051-proof-vault';
import type { UserType } from '../schema-users';
import { DEMO_FULFILMENT_FIXTURE, seedDemoFulfilment } from './demo-fulfilment';
import { seedDemoListingViews } from './demo-listing-views';
import { seedDemoListings } from './demo-listings';
import { DEMO_PAYOUTS_FIXTURE, seedDemoPayouts } from './demo-payouts';
import { DEMO_REFERRALS_FIXTURE, seedDefaultSellerContacts, seedDemoReferrals } from './demo-referrals';
import { seedDemoNotifications, seedDemoSales, seedRivalSales } from './demo-sales';
import { DEMO_SELLER_API_FIXTURE, seedDemoSellerApi } from './demo-seller-api';
import { DEMO_TEAMS_FIXTURE, seedDemoTeams } from './demo-teams';
import { seedDemoTrade, TRADE_SELLERS } from './demo-trade';
import { DEMO_WALLETS, seedDemoWallet } from './demo-wallet';
import { CITIES, COUNTRIES } from './geo-data';

export const DEMO_PASSWORD = 'Demo1234!';

export const PERMISSIONS = [
  { name: 'settings', label: 'Settings' },
  { name: 'dashboard', label: 'Dashboard' },
  { name: 'notification', label: 'Notifications' },
  { name: 'event', label: 'Listings' },
  { name: 'sales', label: 'Sales' },
  { name: 'reports', label: 'Reports' },
  { name: 'lmt-pay', label: 'SB Pay' },
  { name: 'lmt-trade', label: 'Search Tickets' },
] as const;
export type PermissionName = (typeof PERMISSIONS)[number]['name'];
const ALL = PERMISSIONS.map((p) => p.name);

export interface DemoAccount {
  email: string;
  first_name: string;
  last_name: string;
  user_type: UserType;
  kyc_status: 0 | 1 | 2;
  kyc_rejection_reason?: string;
  team_of?: string;
  permissions: readonly PermissionName[];
  role: string;
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    email: 'seller@demo.test',
    first_name: 'Sam',
    last_name: 'Seller',
    user_type: 'sellers',
    kyc_status: 1,
    permissions: ALL,
    role: 'seller, KYC approved, every permission',
  },
  {
    email: 'newseller@demo.test',
    first_name: 'Nina',
    last_name: 'Newcomer',
    user_type: 'sellers',
    kyc_status: 0,
    permissions: ALL,
    role: 'seller, KYC not submitted (kyc_status 0)',
  },
  {
    email: 'rejected@demo.test',
    first_name: 'Remy',
    last_name: 'Rejected',
    user_type: 'sellers',
    kyc_status: 2,
    kyc_rejection_reason: 'The photo ID was unreadable. Please upload a clearer scan.',
    permissions: ALL,
    role: 'seller, KYC rejected (kyc_status 2)',
  },
  {
    email: 'kyc@demo.test',
    first_name: 'Kit',
    last_name: 'Pending',
    user_type: 'sellers',
    kyc_status: 0,
    permissions: ALL,
    role: 'seller on the KYC hold, to try the KYC flow (upload, sign, submit; approve as admin)',
  },
  {
    email: 'member@demo.test',
    first_name: 'Mia',
    last_name: 'Member',
    user_type: 'team_members',
    kyc_status: 1,
    team_of: 'seller@demo.test',
    permissions: ['dashboard', 'sales', 'notification'],
    role: 'team member of seller@demo.test: dashboard, sales, notification only',
  },
  {
    email: 'rival@demo.test',
    first_name: 'Rory',
    last_name: 'Rival',
    user_type: 'sellers',
    kyc_status: 1,
    permissions: ALL,
    role: 'a second seller, KYC approved, every permission (its own few sales)',
  },
  {
    email: 'tickets4u@demo.test',
    first_name: 'Tia',
    last_name: 'Tickets',
    user_type: 'sellers',
    kyc_status: 1,
    permissions: ALL,
    role: 'a trade seller, KYC approved: most of the tickets on sale in the trade area',
  },
  {
    email: 'fanzone@demo.test',
    first_name: 'Finn',
    last_name: 'Fanzone',
    user_type: 'sellers',
    kyc_status: 1,
    permissions: ALL,
    role: 'a trade seller, KYC approved: the other half of the tickets on sale',
  },
  {
    email: 'admin@demo.test',
    first_name: 'Ada',
    last_name: 'Admin',
    user_type: 'admin',
    kyc_status: 1,
    permissions: ALL,
    role: 'back office: approves deposits and KYC',
  },
];

const CURRENCIES = [
  { code: 'GBP', name: 'Pound sterling', symbol: '£', minor_unit: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', minor_unit: 2 },
  { code: 'USD', name: 'US dollar', symbol: '$', minor_unit: 2 },
  { code: 'AED', name: 'UAE dirham', symbol: 'AED', minor_unit: 2 },
];

/**
 * Runs `fill` in a transaction unless the fixture `name` was applied before (by any earlier run, whatever its
 * clock): the mark and the rows commit together, so a fixture is applied once or not at all.
 */
async function applyOnce(db: Db, clock: Clock, name: string, fill: (trx: Db) => Promise<void>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const marked = await trx
      .insertInto('seed_fixtures')
      .values({ name, applied_at: clock.now().toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .returning('name')
      .executeTakeFirst();
    if (!marked) return false;
    await fill(trx);
    return true;
  });
}

/** The demo events, listings, orders, notifications and activity; a changed version needs a new name. */
const DEMO_SALES_FIXTURE = 'demo-sales-v1';
/** The second seller's few sales, notifications and activity (applied after the demo events exist). */
const RIVAL_SALES_FIXTURE = 'rival-sales-v1';
/** The demo wallets: approved, rejected and pending deposits of the seller and of the rival. */
const SELLER_WALLET_FIXTURE = 'seller-wallet-v1';
const RIVAL_WALLET_FIXTURE = 'rival-wallet-v1';
/** The trade area: 48 more matches, about 1,000 listings, the traders' balances, addresses, cards, purchases. */
const DEMO_TRADE_FIXTURE = 'demo-trade-v1';
/** Inventory: the demo seller's listings over the upcoming matches, their log, event requests (issue 11). */
const DEMO_LISTINGS_FIXTURE = 'demo-listings-v1';
const DEMO_LISTING_VIEWS_FIXTURE = 'demo-listing-views-v1';
/** Additional templates of the seller and of the rival, so that Add Inventory has some to offer (issue 11). */
const DEMO_TEMPLATES_FIXTURE = 'demo-templates-v1';
const DEMO_TEMPLATES = [
  {
    name: 'Collection point',
    content: 'Collect your tickets at the ticket office, gate B, from two hours before kick-off.',
  },
  { name: 'Away section', content: 'Tickets in the away section: wear no home colours.' },
];

/**
 * Fills reference and demo data. Safe to run on every start: each row is inserted only when missing, the demo
 * fixtures (events, listings, orders, notifications, activity) once each, and nothing a user changed is
 * overwritten.
 */
export async function seed(db: Db, clock: Clock): Promise<{ createdUsers: string[]; appliedFixtures: string[] }> {
  await db
    .insertInto('currencies')
    .values(CURRENCIES)
    .onConflict((oc) => oc.doNothing())
    .execute();
  // the purchase escrow's shards, committed before any purchase (server/domain/ledger.ts)
  await ensureEscrowShards(db, clock.now());
  await db
    .insertInto('permissions')
    .values(PERMISSIONS.map((p, position) => ({ ...p, position })))
    .onConflict((oc) => oc.doNothing())
    .execute();

  const countryRows = await db.selectFrom('countries').select(['id', 'short_name']).execute();
  if (countryRows.length < COUNTRIES.length) {
    for (let i = 0; i < COUNTRIES.length; i += 100) {
      await db
        .insertInto('countries')
        .values(COUNTRIES.slice(i, i + 100).map((c) => ({ ...c })))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
  const countryId = new Map(
    (await db.selectFrom('countries').select(['id', 'short_name']).execute()).map((c) => [c.short_name, c.id]),
  );
  for (const [short, names] of Object.entries(CITIES)) {
    const id = countryId.get(short);
    if (id === undefined) continue;
    await db
      .insertInto('cities')
      .values(names.map((name) => ({ country_id: id, name })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  const createdUsers: string[] = [];
  const now = clock.now().toISOString();
  const existing = new Set(
    (
      await db
        .selectFrom('users')
        .select('email')
        .where(
          'email',
          'in',
          DEMO_ACCOUNTS.map((a) => a.email),
        )
        .execute()
    ).map((u) => u.email),
  );
  const missing = DEMO_ACCOUNTS.filter((a) => !existing.has(a.email));
  // each account gets its own salt; the hashes are worked out side by side (scrypt runs off the main thread)
  const hashes = await Promise.all(missing.map(() => hashPassword(DEMO_PASSWORD)));
  for (const [index, account] of missing.entries()) {
    // an account and its permissions commit together: a kill during the first start never leaves a user
    // without permissions (the next start finds the account missing and makes it whole)
    await db.transaction().execute(async (trx) => {
      const owner = account.team_of
        ? await trx.selectFrom('users').select('id').where('email', '=', account.team_of).executeTakeFirstOrThrow()
        : undefined;
      const { id } = await trx
        .insertInto('users')
        .values({
          email: account.email,
          password_hash: hashes[index] ?? (await hashPassword(DEMO_PASSWORD)),
          first_name: account.first_name,
          last_name: account.last_name,
          user_type: account.user_type,
          kyc_status: account.kyc_status,
          kyc_rejection_reason: account.kyc_rejection_reason ?? null,
          team_owner_id: owner?.id ?? null,
          currency: 'GBP',
          user_token: newUserToken(),
          created_at: now,
          deleted_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('user_permissions')
        .values(
          PERMISSIONS.map((p) => ({
            user_id: id,
            permission_name: p.name,
            is_can_access: account.permissions.includes(p.name) ? 1 : 0,
          })),
        )
        .execute();
    });
    createdUsers.push(account.email);
  }

  const appliedFixtures: string[] = [];
  const idOf = async (email: string) =>
    (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
  const seller = await idOf('seller@demo.test');
  const member = await idOf('member@demo.test');
  const applied = await applyOnce(db, clock, DEMO_SALES_FIXTURE, async (trx) => {
    const orders = await seedDemoSales(trx, clock, seller);
    await seedDemoNotifications(trx, clock, seller, orders, { notifications: 48, activity: 48, seed: 1 });
    await seedDemoNotifications(trx, clock, member, orders, { notifications: 5, activity: 6, seed: 2 });
  });
  if (applied) appliedFixtures.push(DEMO_SALES_FIXTURE);
  const rival = await idOf('rival@demo.test');
  const rivalApplied = await applyOnce(db, clock, RIVAL_SALES_FIXTURE, async (trx) => {
    const orders = await seedRivalSales(trx, clock, rival);
    await seedDemoNotifications(trx, clock, rival, orders, { notifications: 8, activity: 6, seed: 3 });
  });
  if (rivalApplied) appliedFixtures.push(RIVAL_SALES_FIXTURE);
  // each account's wallet history in its own transaction (deposits, their decisions, the ledger's entries)
  const admin = await idOf('admin@demo.test');
  for (const [fixture, id, deposits] of [
    [SELLER_WALLET_FIXTURE, seller, DEMO_WALLETS.seller],
    [RIVAL_WALLET_FIXTURE, rival, DEMO_WALLETS.rival],
  ] as const) {
    if (await applyOnce(db, clock, fixture, (trx) => seedDemoWallet(trx, clock, id, admin, deposits))) {
      appliedFixtures.push(fixture);
    }
  }
  const traders = await Promise.all(TRADE_SELLERS.map(idOf));
  if (
    await applyOnce(db, clock, DEMO_TRADE_FIXTURE, (trx) =>
      seedDemoTrade(trx, clock, { seller, rival, admin, traders }),
    )
  ) {
    appliedFixtures.push(DEMO_TRADE_FIXTURE);
  }
  if (await applyOnce(db, clock, DEMO_LISTINGS_FIXTURE, (trx) => seedDemoListings(trx, clock, { seller }))) {
    appliedFixtures.push(DEMO_LISTINGS_FIXTURE);
  }
  const viewsOf = { seller, rival };
  if (await applyOnce(db, clock, DEMO_LISTING_VIEWS_FIXTURE, (trx) => seedDemoListingViews(trx, clock, viewsOf))) {
    appliedFixtures.push(DEMO_LISTING_VIEWS_FIXTURE);
  }

  if (
    await applyOnce(db, clock, DEMO_TEMPLATES_FIXTURE, async (trx) => {
      for (const id of [seller, rival])
        for (const t of DEMO_TEMPLATES) await addTemplate(trx, id, t, null, clock.now());
    })
  ) {
    appliedFixtures.push(DEMO_TEMPLATES_FIXTURE);
  }
  if (await applyOnce(db, clock, DEMO_FULFILMENT_FIXTURE, (trx) => seedDemoFulfilment(trx, clock, { seller, admin }))) {
    appliedFixtures.push(DEMO_FULFILMENT_FIXTURE);
  }
  if (
    await applyOnce(db, clock, DEMO_PAYOUTS_FIXTURE, (trx) => seedDemoPayouts(trx, clock, { seller, rival, admin }))
  ) {
    appliedFixtures.push(DEMO_PAYOUTS_FIXTURE);
  }
  if (
    await applyOnce(db, clock, DEMO_TEAMS_FIXTURE, (trx) =>
      seedDemoTeams(
        trx,
        clock,
        { seller, rival },
        PERMISSIONS.map((p) => p.name),
      ),
    )
  ) {
    appliedFixtures.push(DEMO_TEAMS_FIXTURE);
  }
  await seedDefaultSellerContacts(db);
  const [tickets4u, fanzone] = traders as [number, number];
  if (
    await applyOnce(db, clock, DEMO_REFERRALS_FIXTURE, (trx) =>
      seedDemoReferrals(trx, clock, { seller, referred: [rival, tickets4u, fanzone] }),
    )
  ) {
    appliedFixtures.push(DEMO_REFERRALS_FIXTURE);
  }
  // clubs that release mobile transfers late: the events of the demo seller's open mobile orders open transfers
  // 24 hours before kick-off, after the usual deadline; their orders are due within the window, never late before
  if (await applyOnce(db, clock, DEMO_TRANSFER_WINDOWS_FIXTURE, (trx) => seedTransferWindows(trx, clock, seller))) {
    appliedFixtures.push(DEMO_TRANSFER_WINDOWS_FIXTURE);
  }
  if (await applyOnce(db, clock, DEMO_SELLER_API_FIXTURE, (trx) => seedDemoSellerApi(trx, clock, [seller, rival]))) {
    appliedFixtures.push(DEMO_SELLER_API_FIXTURE);
  }
  // the demo's deliveries are written as rows, not through the delivery calls: they take the proof the
  // migration derives for orders delivered before the vault (an order that has proof is left as it is)
  await backfillProofs(db, 'backfill');
  // a seat alert each for the seller and the rival, for a block no demo listing has: the alerts API lists
  // one, and the matching holds no demo seat (the purchase demos and tests keep every ticket)
  if (await applyOnce(db, clock, DEMO_SEAT_ALERTS_FIXTURE, (trx) => seedSeatAlerts(trx, clock, [seller, rival]))) {
    appliedFixtures.push(DEMO_SEAT_ALERTS_FIXTURE);
  }
  return { createdUsers, appliedFixtures };
}

const DEMO_SEAT_ALERTS_FIXTURE = 'demo-seat-alerts-v1';

async function seedSeatAlerts(db: Db, clock: Clock, buyers: number[]) {
  const now = clock.now();
  const event = await db
    .selectFrom('events')
    .select('id')
    .where('event_date', '>', now.toISOString().slice(0, 10))
    .orderBy('event_date')
    .orderBy('id')
    .executeTakeFirst();
  if (!event) return;
  await db
    .insertInto('seat_alerts')
    .values(
      buyers.map((buyer) => ({
        buyer_id: buyer,
        user_id: buyer,
        event_id: event.id,
        quantity: 2,
        category: null,
        blocks: 'Block Z9',
        max_price: 20_000,
        currency: 'GBP',
        by_mail: 0,
        state: 'active' as const,
        created_at: now.toISOString(),
      })),
    )
    .execute();
}

const DEMO_TRANSFER_WINDOWS_FIXTURE = 'demo-transfer-windows-v1';

async function seedTransferWindows(db: Db, clock: Clock, seller: number) {
  const now = clock.now();
  const events = await db
    .selectFrom('orders')
    .select('event_id')
    .distinct()
    .where('seller_id', '=', seller)
    .where('ticket_type_id', '=', MOBILE_TICKET_TYPE)
    .where('status', 'in', ['pending', 'confirmed'])
    .where('event_date', '>', now.toISOString().slice(0, 10))
    .orderBy('event_id')
    .execute();
  for (const { event_id } of events.slice(0, 3)) await setTransferWindow(db, event_id, 24, now);
}
