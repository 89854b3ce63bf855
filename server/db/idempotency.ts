import { createHash } from 'node:crypto';
import type { Db } from './database';

/** How long a kept reply answers replays of its key (then the key may be used again). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface KeyOf {
  userId: number;
  operationId: string;
  key: string;
}

export type Claim = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown } | { kind: 'mismatch' };

/** JSON with sorted keys, so that `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(parts: unknown): string {
  return createHash('sha256').update(canonicalJson(parts)).digest('hex');
}

/**
 * Takes the key for this request inside the caller's transaction. On Postgres a second request with the same
 * key waits on the key's row until the first one commits or rolls back, so concurrent replays cannot both run;
 * on SQLite transactions are serial anyway. An expired key is taken over. Answers what to do: run the call
 * (and then `keepReply`), replay the kept reply, or refuse a different request under the same key.
 */
export async function claimKey(trx: Db, id: KeyOf, hash: string, now: Date): Promise<Claim> {
  const nowIso = now.toISOString();
  const fresh = {
    request_hash: hash,
    status: 0,
    response: '',
    created_at: nowIso,
    expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
  };
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({ user_id: id.userId, operation_id: id.operationId, idem_key: id.key, ...fresh })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'operation_id', 'idem_key'])
        .doUpdateSet(fresh)
        .where('idempotency_keys.expires_at', '<=', nowIso),
    )
    .returning('user_id')
    .executeTakeFirst();
  if (claimed) return { kind: 'claimed' };
  const kept = await trx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status', 'response'])
    .where('user_id', '=', id.userId)
    .where('operation_id', '=', id.operationId)
    .where('idem_key', '=', id.key)
    .executeTakeFirstOrThrow();
  if (kept.request_hash !== hash) return { kind: 'mismatch' };
  return { kind: 'replay', status: kept.status, body: JSON.parse(kept.response) as unknown };
}

/** Keeps the reply with its key, in the same transaction as the call's effect. */
export async function keepReply(trx: Db, id: KeyOf, status: number, body: unknown): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ status, response: JSON.stringify(body) })
    .where('user_id', '=', id.userId)
    .where('operation_id', '=', id.operationId)
    .where('idem_key', '=', id.key)
    .execute();
}

/** Removes the keys whose replies have expired; answers how many. */
export async function pruneIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
