import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
import type { components } from '../../openapi/schema';

// The accounts' tables (server/auth, server/domain): users, their permissions, sessions, emailed tokens,
// request limits and two-factor login. A part of server/db/schema.ts's Database.

export type UserType = components['schemas']['UserType'];

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
  created_at: string;
  deleted_at: string | null;
  /** 1 once the address is verified (the default: only sign-up writes 0). */
  email_verified: ColumnType<number, number | undefined, number>;
  /** My Account's details (migration 0017): the phone as its dialing code and number, country, city, language. */
  phone_dialing_code: ColumnType<string | null, string | null | undefined, string | null>;
  phone_number: ColumnType<string | null, string | null | undefined, string | null>;
  country_id: ColumnType<number | null, number | null | undefined, number | null>;
  city_id: ColumnType<number | null, number | null | undefined, number | null>;
  language: ColumnType<string, string | undefined, string>;
  /** When a team member was invited by email; null for everyone else. */
  invited_at: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** When a call last used the session (written at most once a minute), null until then. */
  last_used_at: string | null;
  /** The User-Agent of the login (cut to 300 characters), null when none was sent. */
  user_agent: string | null;
  /** The client address of the login (server/auth/client.ts: an IPv6 address by its /64). */
  client: string | null;
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

/** A single-use token of an emailed link (server/auth/account-tokens.ts): only its SHA-256 is stored. */
export interface AccountTokenTable {
  token_hash: string;
  user_id: number;
  purpose: 'verify' | 'reset' | 'invite' | 'unlock';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** A fixed-window request counter per key (server/auth/request-limit.ts). */
export interface RequestLimitTable {
  key: string;
  window_start: string;
  hits: number;
}

/** A user's TOTP secret (migration 0021): pending until `enabled_at`; `last_step` refuses a code used twice. */
export interface TwoFactorTable {
  user_id: number;
  secret: string;
  created_at: string;
  enabled_at: string | null;
  last_step: number | null;
}

/** The SHA-256 of a recovery code of a user's two-factor login; each is used once. */
export interface TwoFactorRecoveryCodeTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

/** The SHA-256 of the token a right password earns when a code is due (5 minutes, single-use). */
export interface TwoFactorChallengeTable {
  challenge_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  failures: Generated<number>;
}
