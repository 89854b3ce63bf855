import type { Selectable } from 'kysely';
import type { components } from '../../../openapi/schema';
import { newApiToken } from '../../auth/api-tokens';
import { hashToken } from '../../auth/tokens';
import type { Db } from '../../db/database';
import type { ApiTokenTable } from '../../db/schema-seller-api';
import { HttpError } from '../../http/errors';

type ApiToken = components['schemas']['ApiToken'];
type ApiScope = components['schemas']['ApiScope'];

/** How many tokens one seller may have active at once. */
export const MAX_ACTIVE_TOKENS = 20;
const DAY_MS = 24 * 60 * 60 * 1000;
const SCOPE_ORDER: readonly ApiScope[] = ['listings', 'sales', 'delivery'];

function tokenOf(row: Selectable<ApiTokenTable>, now: Date): ApiToken {
  return {
    id: row.id,
    name: row.name,
    token_hint: row.token_hint,
    scopes: row.scopes.split(',') as ApiScope[],
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
    status: row.revoked_at ? 'revoked' : row.expires_at <= now.toISOString() ? 'expired' : 'active',
  };
}

export async function listApiTokens(db: Db, sellerId: number, now: Date): Promise<ApiToken[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => tokenOf(r, now));
}

export interface NewApiToken {
  name: string;
  scopes: ApiScope[];
  expires_in_days: number;
}

/** Makes a token; answers it (shown this once) and its row. */
export async function createApiToken(db: Db, sellerId: number, input: NewApiToken, now: Date) {
  const at = now.toISOString();
  const active = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('seller_id', '=', sellerId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .executeTakeFirst();
  if (Number(active?.n ?? 0) >= MAX_ACTIVE_TOKENS)
    throw new HttpError(
      409,
      `You have ${MAX_ACTIVE_TOKENS} active API tokens, the most there can be. Revoke one first.`,
    );
  const token = newApiToken();
  const row = await db
    .insertInto('api_tokens')
    .values({
      seller_id: sellerId,
      name: input.name.trim(),
      token_hash: hashToken(token),
      token_hint: token.slice(-4),
      scopes: SCOPE_ORDER.filter((s) => input.scopes.includes(s)).join(','),
      created_at: at,
      expires_at: new Date(now.getTime() + input.expires_in_days * DAY_MS).toISOString(),
      revoked_at: null,
      last_used_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { token, api_token: tokenOf(row, now) };
}

/** Revokes one of the seller's tokens (a revoked one stays as it is); undefined when it is not the seller's. */
export async function revokeApiToken(db: Db, sellerId: number, id: number, now: Date): Promise<ApiToken | undefined> {
  await db
    .updateTable('api_tokens')
    .set({ revoked_at: now.toISOString() })
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .where('revoked_at', 'is', null)
    .execute();
  const row = await db
    .selectFrom('api_tokens')
    .selectAll()
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .executeTakeFirst();
  return row ? tokenOf(row, now) : undefined;
}
