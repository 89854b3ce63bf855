import type { Kysely } from 'kysely';
import { autoId } from './columns';

export async function up(db: Kysely<unknown>): Promise<void> {
  const id = autoId(db);
  await db.schema
    .createTable('currencies')
    .addColumn('code', 'varchar(3)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('symbol', 'varchar(8)', (c) => c.notNull())
    .addColumn('minor_unit', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('countries')
    .addColumn('id', 'integer', id)
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('short_name', 'varchar(8)', (c) => c.notNull().unique())
    .addColumn('dialing_code', 'varchar(8)', (c) => c.notNull())
    .addColumn('phone_code', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('cities')
    .addColumn('id', 'integer', id)
    .addColumn('country_id', 'integer', (c) => c.notNull().references('countries.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addUniqueConstraint('cities_country_name', ['country_id', 'name'])
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'integer', id)
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('user_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('kyc_status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('kyc_rejection_reason', 'varchar(500)')
    .addColumn('team_owner_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('currency', 'varchar(3)', (c) => c.notNull().defaultTo('GBP').references('currencies.code'))
    .addColumn('user_token', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('deleted_at', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('permissions')
    .addColumn('name', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('label', 'varchar(64)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_permissions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission_name', 'varchar(32)', (c) => c.notNull().references('permissions.name'))
    .addColumn('is_can_access', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission_name'])
    .execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('auth_tokens_user').on('auth_tokens').column('user_id').execute();

  await db.schema
    .createTable('activity_log')
    .addColumn('id', 'integer', id)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('description', 'varchar(500)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('activity_log_user_created')
    .on('activity_log')
    .columns(['user_id', 'created_at'])
    .execute();
}
