import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../clock';
import type { ApiScope } from '../contract/contract';
import { type Db, engineOf } from '../db/database';
import { prepared } from '../db/prepared';
import { HttpError } from '../http/errors';
import { type AuthUser, LAST_USED_EVERY_MS, type PermissionName, userColumns } from './session';
import { hashToken } from './tokens';

/**
 * A seller's API tokens (Settings → API tokens): `sbk_` and 256 random bits, only its SHA-256 kept. A token acts
 * as its seller (the seller's permissions and KYC hold, read on every call) on the operations whose `x-api-scope`
 * it has; the operations without one (tokens, sessions, passwords, payouts...) are for a logged-in session only.
 */
export const API_TOKEN_PREFIX = 'sbk_';

export const API_TOKEN_INVALID =
  'This API token is not valid: it is unknown, expired or revoked. Create a new one in Settings → API tokens.';
export const API_TOKEN_NOT_FOR_THIS =
  'API tokens cannot call this operation: it is for the portal itself. Log in to the portal to use it.';
export const apiScopeMissing = (scope: ApiScope) =>
  `This API token does not have the '${scope}' scope this call needs. Create a token with it in Settings → API tokens.`;

export function newApiToken(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The caller of an operation, refused when it came with an API token that may not call the operation. */
export function refuseOutOfScope(user: AuthUser, scope: ApiScope | null): void {
  if (!user.apiScopes) return;
  if (scope === null) throw new HttpError(403, API_TOKEN_NOT_FOR_THIS);
  if (!user.apiScopes.has(scope)) throw new HttpError(403, apiScopeMissing(scope));
}

const sellerByApiToken = prepared((db, $: { tokenHash: string; now: string }) => {
  const names =
    engineOf(db) === 'postgres'
      ? sql<string>`string_agg(permission_name, ',')`
      : sql<string>`group_concat(permission_name, ',')`;
  return db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.seller_id')
    .select((eb) => [
      ...userColumns,
      'api_tokens.id as api_token_id',
      'api_tokens.scopes',
      'api_tokens.last_used_at',
      eb
        .selectFrom('user_permissions')
        .select(names.as('names'))
        .whereRef('user_permissions.user_id', '=', 'users.id')
        .where('user_permissions.is_can_access', '=', 1)
        .as('permission_names'),
    ])
    .where('api_tokens.token_hash', '=', $.tokenHash)
    .where('api_tokens.revoked_at', 'is', null)
    .where('api_tokens.expires_at', '>', $.now)
    .where('users.deleted_at', 'is', null);
});

const touchApiToken = prepared((db, $: { id: number; now: string; before: string }) =>
  db
    .updateTable('api_tokens')
    .set({ last_used_at: $.now })
    .where('id', '=', $.id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', $.before)])),
);

/** The seller behind an API token with its scopes, or null when the token is unknown, expired or revoked. */
export async function authenticateApiToken(db: Db, clock: Clock, token: string): Promise<AuthUser | null> {
  const tokenHash = hashToken(token);
  const now = clock.now();
  const row = await sellerByApiToken.takeFirst(db, { tokenHash, now: now.toISOString() });
  if (!row) return null;
  const { api_token_id, scopes, last_used_at, permission_names, ...profile } = row;
  const before = new Date(now.getTime() - LAST_USED_EVERY_MS).toISOString();
  // the last use to the minute: one conditional write a minute at most, whichever process serves the call
  if (!last_used_at || last_used_at <= before)
    await touchApiToken.execute(db, { id: api_token_id, now: now.toISOString(), before });
  return Object.freeze({
    ...profile,
    tokenHash,
    seller_kyc_status: profile.kyc_status,
    seller_kyc_rejection_reason: profile.kyc_rejection_reason,
    permissions: new Set(permission_names ? (permission_names.split(',') as PermissionName[]) : []),
    apiScopes: new Set(scopes.split(',') as ApiScope[]),
  });
}
