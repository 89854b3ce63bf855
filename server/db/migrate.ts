import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Db } from './database';
import * as m0001 from './migrations/0001-init';
import * as m0002 from './migrations/0002-sales-notifications';
import * as m0003 from './migrations/0003-login-failures';
import * as m0004 from './migrations/0004-idempotency-files';
import * as m0005 from './migrations/0005-login-throttle';
import * as m0006 from './migrations/0006-kept-totals';
import * as m0007 from './migrations/0007-wallet-ledger';
import * as m0008 from './migrations/0008-trade';
import * as m0009 from './migrations/0009-event-stock';
import * as m0010 from './migrations/0010-listings';
import * as m0011 from './migrations/0011-sales';
import * as m0012 from './migrations/0012-account-flows';
import * as m0013 from './migrations/0013-additional-templates';
import * as m0014 from './migrations/0014-reports';
import * as m0015 from './migrations/0015-notification-links';
import * as m0016 from './migrations/0016-kyc';
import * as m0017 from './migrations/0017-settings-teams';
import * as m0018 from './migrations/0018-payouts';
import * as m0019 from './migrations/0019-sales-sort-indexes';
import * as m0021 from './migrations/0021-two-factor-sessions';
import * as m0022 from './migrations/0022-referrals-contacts-partner';
import * as m0023 from './migrations/0023-report-schedules';
import * as m0025 from './migrations/0025-listing-counts';
import * as m0026 from './migrations/0026-event-page-index';
import * as m0027 from './migrations/0027-sales-match-index';
import * as m0028 from './migrations/0028-inventory-match-order';
import * as m0029 from './migrations/0029-listing-trigger-lock-order';
import * as m0030 from './migrations/0030-sales-match-search';
import * as m0031 from './migrations/0031-catalog-version';
import * as m0032 from './migrations/0032-inventory-sort-indexes';
import * as m0033 from './migrations/0033-sold-as-listed';
import * as m0034 from './migrations/0034-carts-buyer-holding';
import * as m0035 from './migrations/0035-login-devices';
import * as m0036 from './migrations/0036-ops-jobs';
import * as m0037 from './migrations/0037-escrow-shards';
import * as m0038 from './migrations/0038-seller-total-shards';
import * as m0039 from './migrations/0039-account-erasure';
import * as m0040 from './migrations/0040-event-versions';
import * as m0041 from './migrations/0041-feed-count-shards';
import * as m0042 from './migrations/0042-in-hand-dates';
import * as m0043 from './migrations/0043-admin-audit-log';
import * as m0044 from './migrations/0044-price-caps';
import * as m0045 from './migrations/0045-listing-bulk-changes';
import * as m0046 from './migrations/0046-payment-authentication';
import * as m0048 from './migrations/0048-bank-statements';
import * as m0049 from './migrations/0049-mobile-transfers';
import * as m0050 from './migrations/0050-seller-api';
import * as m0051 from './migrations/0051-proof-vault';
import * as m0052 from './migrations/0052-seat-alerts';

/** Migrations are listed in code (not read from a folder) so that the bundle and the tests see the same set. */
const migrations: Record<string, Migration> = {
  '0001-init': m0001,
  '0002-sales-notifications': m0002,
  '0003-login-failures': m0003,
  '0004-idempotency-files': m0004,
  '0005-login-throttle': m0005,
  '0006-kept-totals': m0006,
  '0007-wallet-ledger': m0007,
  '0008-trade': m0008,
  '0009-event-stock': m0009,
  '0010-listings': m0010,
  '0011-sales': m0011,
  '0012-account-flows': m0012,
  '0013-additional-templates': m0013,
  '0014-reports': m0014,
  '0015-notification-links': m0015,
  '0016-kyc': m0016,
  '0017-settings-teams': m0017,
  '0018-payouts': m0018,
  '0019-sales-sort-indexes': m0019,
  '0021-two-factor-sessions': m0021,
  '0022-referrals-contacts-partner': m0022,
  '0023-report-schedules': m0023,
  '0025-listing-counts': m0025,
  '0026-event-page-index': m0026,
  '0027-sales-match-index': m0027,
  '0028-inventory-match-order': m0028,
  '0029-listing-trigger-lock-order': m0029,
  '0030-sales-match-search': m0030,
  '0031-catalog-version': m0031,
  '0032-inventory-sort-indexes': m0032,
  '0033-sold-as-listed': m0033,
  '0034-carts-buyer-holding': m0034,
  '0035-login-devices': m0035,
  '0036-ops-jobs': m0036,
  '0037-escrow-shards': m0037,
  '0038-seller-total-shards': m0038,
  '0039-account-erasure': m0039,
  '0040-event-versions': m0040,
  '0041-feed-count-shards': m0041,
  '0042-in-hand-dates': m0042,
  '0043-admin-audit-log': m0043,
  '0044-price-caps': m0044,
  '0045-listing-bulk-changes': m0045,
  '0046-payment-authentication': m0046,
  '0048-bank-statements': m0048,
  '0049-mobile-transfers': m0049,
  '0050-seller-api': m0050,
  '0051-proof-vault': m0051,
  '0052-seat-alerts': m0052,
};

/** The migrations' names in the order they apply. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(migrations);

class InlineProvider implements MigrationProvider {
  constructor(private readonly except: readonly string[] = []) {}
  async getMigrations() {
    return Object.fromEntries(Object.entries(migrations).filter(([name]) => !this.except.includes(name)));
  }
}

/** Applies the migrations the database lacks; `except` leaves some out (a test of a database made before them). */
export async function migrateToLatest(db: Db, options: { except?: readonly string[] } = {}): Promise<string[]> {
  // Migrations of parallel work can land out of number order (0012 was on main a while before 0011): a
  // database that applied a later one still takes an earlier one it lacks. Each migration touches only its
  // own tables and columns, so the order between them does not matter.
  const migrator = new Migrator({
    db,
    provider: new InlineProvider(options.except),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
