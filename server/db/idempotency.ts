import { createHash } from 'node:crypto';
import type { Db } from './database';
import { prepared } from './prepared';

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
  const at = now.toISOString();
  const expires = new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString();
  const claimed = await claim.takeFirst(trx, {
    user: id.userId,
    operation: id.operationId,
    key: id.key,
    hash,
    at,
    expires,
  });
  if (claimed) return { kind: 'claimed' };
  const kept = await keptOf.takeFirst(trx, { user: id.userId, operation: id.operationId, key: id.key });
  if (!kept) throw new Error('an idempotency key neither claimed nor kept');
  if (kept.request_hash !== hash) return { kind: 'mismatch' };
  return { kind: 'replay', status: kept.status, body: JSON.parse(kept.response) as unknown };
}

/** Keeps the reply with its key, in the same transaction as the call's effect. */
export async function keepReply(trx: Db, id: KeyOf, status: number, body: unknown): Promise<void> {
  await keep.execute(trx, {
    user: id.userId,
    operation: id.operationId,
    key: id.key,
    status,
    response: JSON.stringify(body),
  });
}

// the three statements every idempotent call runs, built and compiled once
type KeyArgs = { user: number; operation: string; key: string };
const claim = prepared((db, $: KeyArgs & { hash: string; at: string; expires: string }) =>
  db
    .insertInto('idempotency_keys')
    .values({
      user_id: $.user,
      operation_id: $.operation,
      idem_key: $.key,
      request_hash: $.hash,
      status: 0,
      response: '',
      created_at: $.at,
      expires_at: $.expires,
    })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'operation_id', 'idem_key'])
        .doUpdateSet({ request_hash: $.hash, status: 0, response: '', created_at: $.at, expires_at: $.expires })
        .where('idempotency_keys.expires_at', '<=', $.at),
    )
    .returning('user_id'),
);
const keyed = (db: Db, $: KeyArgs) =>
  db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status', 'response'])
    .where('user_id', '=', $.user)
    .where('operation_id', '=', $.operation)
    .where('idem_key', '=', $.key);
const keptOf = prepared(keyed);
const keep = prepared((db, $: KeyArgs & { status: number; response: string }) =>
  db
    .updateTable('idempotency_keys')
    .set({ status: $.status, response: $.response })
    .where('user_id', '=', $.user)
    .where('operation_id', '=', $.operation)
    .where('idem_key', '=', $.key),
);

/** Removes the keys whose replies have expired; answers how many. */
export async function pruneIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('idempotency_keys')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
