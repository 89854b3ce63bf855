import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Db } from '../db/database';
import { hashToken, newToken } from './tokens';

/**
 * Browsers an account knows (after OWASP's "device cookies"): a browser that logged in successfully gets a cookie
 * of 256 random bits, HttpOnly (no script reads it), SameSite=Strict (no other site sends it), sent only to the
 * login calls (Path=/api/auth), and Secure over https. The server keeps only its SHA-256, bound to the account.
 * A login from a browser the account knows meets that browser's own throttle instead of the account's lock, so
 * that an attacker guessing from anywhere cannot keep the owner out of a browser the owner has used; and its
 * password check has a reserved share of the hashing queue (server/auth/hash-pool.ts), so that a login flood does
 * not turn the owner away either. The cookie is the browser's, not a session's: logging out keeps it.
 */
export const DEVICE_COOKIE = 'sb_device';
/** A browser unused for half a year is forgotten (its cookie expires with it). */
export const DEVICE_LIFETIME_MS = 180 * 24 * 60 * 60_000;
/** The newest browsers an account keeps; logging in from another forgets the one least recently used. */
export const DEVICES_PER_USER = 20;

/** A cookie value that could be one of ours (newToken's 43 base64url characters); anything else is ignored. */
export const wellFormedDevice = (value: string | undefined): value is string =>
  value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value);

/**
 * The hash of the device cookie when it names a browser that logged in to the account of `email` and has not
 * expired; null for a missing, malformed, unknown or expired cookie, or one of another account.
 */
export async function knownDevice(db: Db, token: string | undefined, email: string, now: Date) {
  if (!wellFormedDevice(token)) return null;
  const row = await db
    .selectFrom('login_devices')
    .innerJoin('users', 'users.id', 'login_devices.user_id')
    .select('login_devices.device_hash')
    .where('login_devices.device_hash', '=', hashToken(token))
    .where('login_devices.expires_at', '>', now.toISOString())
    .where('users.email', '=', email)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.device_hash ?? null;
}

/**
 * After a successful login (or an unlock link opened): the browser's cookie, kept for another half year when the
 * account knows it already, else a new one for this account (the browser's cookie of another account is
 * replaced). Answers the cookie's value to set.
 */
export async function rememberDevice(db: Db, userId: number, token: string | undefined, now: Date): Promise<string> {
  const at = now.toISOString();
  const expires = new Date(now.getTime() + DEVICE_LIFETIME_MS).toISOString();
  if (wellFormedDevice(token)) {
    const kept = await db
      .updateTable('login_devices')
      .set({ last_used_at: at, expires_at: expires })
      .where('device_hash', '=', hashToken(token))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(kept.numUpdatedRows) === 1) return token;
  }
  const fresh = newToken();
  await db
    .insertInto('login_devices')
    .values({ device_hash: hashToken(fresh), user_id: userId, created_at: at, last_used_at: at, expires_at: expires })
    .execute();
  // the account keeps its newest browsers only
  const keep = db
    .selectFrom('login_devices')
    .select('device_hash')
    .where('user_id', '=', userId)
    .orderBy('last_used_at', 'desc')
    .orderBy('device_hash')
    .limit(DEVICES_PER_USER);
  await db.deleteFrom('login_devices').where('user_id', '=', userId).where('device_hash', 'not in', keep).execute();
  return fresh;
}

/** The Set-Cookie header of a device cookie (Secure when the request came over https). */
export function deviceCookie(token: string, secure: boolean): string {
  const maxAge = Math.floor(DEVICE_LIFETIME_MS / 1000);
  return `${DEVICE_COOKIE}=${token}; Path=/api/auth; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Browsers whose cookie has expired (their throttle rows go with the throttle's own pruning). */
export async function pruneDevices(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom('login_devices').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}

/** The device cookie a request carries, if any. */
export const deviceCookieOf = (c: Context): string | undefined => getCookie(c, DEVICE_COOKIE);

/**
 * Whether the browser reached us over https: the request's own scheme, or behind a proxy we trust (TRUST_PROXY)
 * the scheme it saw (`X-Forwarded-Proto`). The device cookie is then marked Secure.
 */
export function overHttps(c: Context, trustedProxies: number): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  const forwarded = c.req.header('x-forwarded-proto')?.split(',').at(-1)?.trim().toLowerCase();
  return trustedProxies > 0 && forwarded === 'https';
}
