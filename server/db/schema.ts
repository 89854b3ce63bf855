import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/**
 * The database's tables as Kysely sees them. Timestamps are ISO-8601 UTC strings (they sort and compare as
 * text on SQLite and Postgres alike); flags are 0/1 integers; money is an integer of minor units.
 */
export interface Database {
  currencies: CurrencyTable;
  countries: CountryTable;
  cities: CityTable;
  users: UserTable;
  permissions: PermissionTable;
  user_permissions: UserPermissionTable;
  auth_tokens: AuthTokenTable;
  activity_log: ActivityTable;
}

export interface CurrencyTable {
  code: string;
  name: string;
  symbol: string;
  minor_unit: number;
}

export interface CountryTable {
  id: Generated<number>;
  name: string;
  short_name: string;
  dialing_code: string;
  phone_code: number;
}

export interface CityTable {
  id: Generated<number>;
  country_id: number;
  name: string;
}

export type UserType = 'sellers' | 'team_members' | 'admin';

export interface UserTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  user_type: UserType;
  kyc_status: number;
  kyc_rejection_reason: string | null;
  team_owner_id: number | null;
  currency: string;
  user_token: string;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: string | null;
  created_at: string;
  deleted_at: string | null;
}

export interface PermissionTable {
  name: string;
  label: string;
  position: number;
}

export interface UserPermissionTable {
  user_id: number;
  permission_name: string;
  is_can_access: number;
}

export interface AuthTokenTable {
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface ActivityTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  description: string;
  created_at: string;
}

export type User = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
