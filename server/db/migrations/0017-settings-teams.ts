import type { Kysely } from 'kysely';

/**
 * Settings (issue 13): the account's own details that My Account edits (phone with its dialing code, country,
 * city, language; name and currency exist), and when a team member was invited (an invited member has no
 * usable password until it opens the invite link and chooses one; its email is verified then).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('phone_dialing_code', 'varchar(8)').execute();
  await db.schema.alterTable('users').addColumn('phone_number', 'varchar(20)').execute();
  await db.schema
    .alterTable('users')
    .addColumn('country_id', 'integer', (c) => c.references('countries.id'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('city_id', 'integer', (c) => c.references('cities.id'))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('language', 'varchar(8)', (c) => c.notNull().defaultTo('en'))
    .execute();
  await db.schema.alterTable('users').addColumn('invited_at', 'varchar(32)').execute();
}
