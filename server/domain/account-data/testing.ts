import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { accountOf, platformBankKey, postEntry, walletKey } from '../ledger';

/**
 * Every text of the database (each text column of each table, read through the engine's own catalogue), with
 * how many times `needle` occurs in it, case aside: what a dump of the database would show.
 */
export async function occurrencesInDatabase(db: Db, needle: string): Promise<{ where: string; count: number }[]> {
  const found: { where: string; count: number }[] = [];
  const lower = needle.toLowerCase();
  for (const table of await db.introspection.getTables()) {
    for (const column of table.columns) {
      if (!/char|text|clob/i.test(column.dataType)) continue;
      const rows = await sql<{
        v: string | null;
      }>`select ${sql.ref(column.name)} as v from ${sql.table(table.name)}`.execute(db);
      let count = 0;
      for (const r of rows.rows) if (r.v) count += r.v.toLowerCase().split(lower).length - 1;
      if (count > 0) found.push({ where: `${table.name}.${column.name}`, count });
    }
  }
  return found;
}

/** A seller with nothing held or owed, its address copied into the places a person's data goes. */
export async function settledSeller(db: Db, email: string, now: Date): Promise<number> {
  const model = await db
    .selectFrom('users')
    .selectAll()
    .where('email', '=', 'seller@demo.test')
    .executeTakeFirstOrThrow();
  const { id: _, ...rest } = model;
  const inserted = await db
    .insertInto('users')
    .values({
      ...rest,
      email,
      user_token: randomBytes(16).toString('hex'),
      first_name: 'Erin',
      last_name: 'Erasable',
      phone_number: '7700900123',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = inserted.id;
  const perms = await db
    .selectFrom('user_permissions')
    .select(['permission_name', 'is_can_access'])
    .where('user_id', '=', model.id)
    .execute();
  if (perms.length > 0)
    await db
      .insertInto('user_permissions')
      .values(perms.map((p) => ({ ...p, user_id: id })))
      .execute();
  const at = now.toISOString();
  await db
    .insertInto('addresses')
    .values({
      owner_id: id,
      first_name: 'Erin',
      last_name: 'Erasable',
      email,
      country_id: model.country_id ?? 1,
      address: '1 Gone Street',
      zip_code: 'N1 1AA',
      address_type: 'home',
      primary_address: 1,
      created_at: at,
    })
    .execute();
  await db
    .insertInto('mail_outbox')
    .values({ to_address: email, subject: 'Welcome', body: `Hello ${email}`, created_at: at })
    .execute();
  await db
    .insertInto('activity_log')
    .values({ user_id: id, type: 'login', description: `Logged in as ${email}`, created_at: at })
    .execute();
  // money in and out again: the wallet has a history, and a balance of zero
  const wallet = await accountOf(db, { key: walletKey(id, 'GBP'), kind: 'wallet', ownerId: id, currency: 'GBP' }, now);
  const bank = await accountOf(
    db,
    { key: platformBankKey('GBP'), kind: 'platform_bank', ownerId: null, currency: 'GBP', allowNegative: true },
    now,
  );
  const move = (kind: string, amount: number) =>
    postEntry(
      db,
      {
        kind,
        reference: `erasure-test:${id}`,
        description: kind,
        lines: [
          { accountId: wallet, currency: 'GBP', amount },
          { accountId: bank, currency: 'GBP', amount: -amount },
        ],
      },
      now,
    );
  await move('deposit_approved', 2500);
  await move('withdrawal', -2500);
  return id;
}
