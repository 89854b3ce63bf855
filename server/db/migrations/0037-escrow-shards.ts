import { type Kysely, sql } from 'kysely';

/**
 * The purchase escrow in 16 accounts per currency (docs/decisions/escrow-shards.md): a booking's money goes to
 * the shard of its id, so that concurrent purchases lock one of 16 balance rows, not all the same one. Shard 0
 * is the single account there was (`purchase_escrow:<currency>`, made here when missing), shards 1 to 15 are
 * `purchase_escrow:<currency>:<n>`. They are made here for the currencies there are (the seed makes them for
 * a new database, server/domain/ledger.ts ensureEscrowShards), committed before any purchase, so that a process
 * may keep their ids for good.
 */
const SHARDS = 16;

export async function up(db: Kysely<unknown>): Promise<void> {
  const at = new Date().toISOString();
  for (let shard = 0; shard < SHARDS; shard++) {
    const suffix = shard === 0 ? '' : `:${shard}`;
    await sql`INSERT INTO ledger_accounts (account_key, kind, owner_id, currency, allow_negative, balance, created_at)
      SELECT 'purchase_escrow:' || code || ${suffix}, 'purchase_escrow', NULL, code, 1, 0, ${at} FROM currencies WHERE true
      ON CONFLICT (account_key) DO NOTHING`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // a shard that holds money or has lines stays (the ledger keeps its history)
  await sql`DELETE FROM ledger_accounts WHERE kind = 'purchase_escrow' AND account_key LIKE 'purchase_escrow:%:%'
    AND balance = 0 AND NOT EXISTS (SELECT 1 FROM ledger_lines l WHERE l.account_id = ledger_accounts.id)`.execute(db);
}
