import type { Db } from '../db/database';
import { hashToken, newToken } from './tokens';

export type TokenPurpose = 'verify' | 'reset' | 'invite' | 'unlock';

/**
 * A verification link works for 24 hours (spec section 9's token validity); a reset link for 1 hour; a team
 * invite (Settings › My Teams) for 72 hours, so that an invite sent on a Friday still works on Monday; an unlock
 * link for 24 hours.
 */
export const TOKEN_LIFETIMES: Readonly<Record<TokenPurpose, number>> = {
  verify: 24 * 60 * 60_000,
  reset: 60 * 60_000,
  invite: 72 * 60 * 60_000,
  // the link a locked account's owner is mailed (server/auth/unlock.ts): read the next morning, it still works
  unlock: 24 * 60 * 60_000,
};

/**
 * Makes a token for an emailed link (256 random bits; only its SHA-256 is stored) and retires the user's
 * earlier unused tokens of the same purpose, so that only the newest link works. Answers the token itself,
 * which goes into the mail and nowhere else.
 */
export async function issueToken(db: Db, userId: number, purpose: TokenPurpose, now: Date): Promise<string> {
  const token = newToken();
  await retireTokens(db, userId, purpose, now);
  await db
    .insertInto('account_tokens')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      purpose,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TOKEN_LIFETIMES[purpose]).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/** Marks the user's unused tokens of a purpose used (a newer link, or the password changed). */
export async function retireTokens(db: Db, userId: number, purpose: TokenPurpose, now: Date): Promise<void> {
  await db
    .updateTable('account_tokens')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

/** The user of a token that is known, unused and unexpired, without using it. */
export async function peekToken(db: Db, token: string, purpose: TokenPurpose, now: Date): Promise<number | null> {
  const row = await db
    .selectFrom('account_tokens')
    .select('user_id')
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * Uses a token: one conditional update, so that of two calls with the same token only one succeeds. Answers
 * its user, or null when the token is unknown, used, expired or of another purpose.
 */
export async function useToken(db: Db, token: string, purpose: TokenPurpose, now: Date): Promise<number | null> {
  const row = await db
    .updateTable('account_tokens')
    .set({ used_at: now.toISOString() })
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/** Tokens used or expired more than a day ago. */
export async function pruneAccountTokens(db: Db, now: Date): Promise<number> {
  const dayAgo = new Date(now.getTime() - 24 * 60 * 60_000).toISOString();
  const result = await db
    .deleteFrom('account_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', dayAgo), eb('used_at', '<', dayAgo)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows ?? 0);
}
