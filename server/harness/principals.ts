import { hashToken, newToken, TOKEN_LIFETIME_MS } from '../auth/tokens';
import type { Db } from '../db/database';
import type { Op } from './contract-model';

/**
 * The callers the harness plays: demo accounts (server/db/seed), each with a token from a real login. Their
 * rights are read from the database, so that the expectation of each call follows the contract's policy
 * (`x-kyc-exempt`, `x-role`, `x-permission`) for whoever calls it.
 */
export interface Principal {
  name: string;
  email: string;
  userId: number;
  userType: string;
  /** The KYC status that holds this caller: a seller's own, a team member's seller's. */
  kycStatus: number;
  permissions: ReadonlySet<string>;
  token: string;
}

export const PRINCIPALS = {
  seller: 'seller@demo.test',
  rival: 'rival@demo.test',
  member: 'member@demo.test',
  held: 'newseller@demo.test',
  admin: 'admin@demo.test',
} as const;
export type PrincipalName = keyof typeof PRINCIPALS;

export interface Clocked {
  now(): Date;
}

export async function loadPrincipal(db: Db, name: string, email: string, token: string): Promise<Principal> {
  const user = await db
    .selectFrom('users')
    .select(['id', 'user_type', 'kyc_status', 'team_owner_id'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const owner = user.team_owner_id
    ? await db.selectFrom('users').select('kyc_status').where('id', '=', user.team_owner_id).executeTakeFirst()
    : undefined;
  const allowed = await db
    .selectFrom('user_permissions')
    .select('permission_name')
    .where('user_id', '=', user.id)
    .where('is_can_access', '=', 1)
    .execute();
  return {
    name,
    email,
    userId: user.id,
    userType: user.user_type,
    kycStatus: user.user_type === 'team_members' ? (owner?.kyc_status ?? 0) : user.kyc_status,
    permissions: new Set(allowed.map((p) => p.permission_name)),
    token,
  };
}

/** What the contract's policy says this caller gets from this operation: 403 and why, or null when allowed. */
export function refusalFor(p: Principal, op: Op): string | null {
  if (!op.secured) return null;
  const held = (p.userType === 'sellers' || p.userType === 'team_members') && p.kycStatus !== 1;
  if (held && !op.kycExempt) return 'KYC not approved and the call is not x-kyc-exempt';
  if (op.role === 'admin' && p.userType !== 'admin') return 'x-role admin';
  if (op.role === 'seller' && p.userType !== 'sellers') return 'x-role seller';
  if (op.permission && !p.permissions.has(op.permission)) return `lacks x-permission ${op.permission}`;
  return null;
}

/** True while the token still authenticates (not revoked, not expired). */
export async function tokenAlive(db: Db, clock: Clocked, token: string): Promise<boolean> {
  const row = await db
    .selectFrom('auth_tokens')
    .select('token_hash')
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', clock.now().toISOString())
    .executeTakeFirst();
  return !!row;
}

/**
 * A new token for a user, stored the way login stores one (only its hash). The harness uses it when a call it
 * made (logout, a password change) revoked a principal's token, so that hundreds of such calls do not each pay
 * a password hash; every principal's first token comes from a real login.
 */
export async function mintToken(db: Db, clock: Clocked, userId: number): Promise<string> {
  const token = newToken();
  const now = clock.now();
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS).toISOString(),
      revoked_at: null,
    })
    .execute();
  return token;
}
