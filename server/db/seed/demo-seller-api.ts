import { newApiToken } from '../../auth/api-tokens';
import { hashToken } from '../../auth/tokens';
import type { Clock } from '../../clock';
import type { Db } from '../database';

export const DEMO_SELLER_API_FIXTURE = 'demo-seller-api-v1';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Each demo seller's API tokens and other channels' holds (Settings → API tokens, the hold API): an active token
 * and a revoked one, whose secrets nobody knows (only their hashes are kept), and two holds that have ended
 * (released and expired, so no stock is held).
 */
export async function seedDemoSellerApi(db: Db, clock: Clock, sellers: readonly number[]): Promise<void> {
  const now = clock.now().getTime();
  const at = (days: number) => new Date(now + days * DAY_MS).toISOString();
  for (const seller of sellers) {
    for (const [name, scopes, revoked] of [
      ['Point of sale', 'listings,sales', false],
      ['Old channel manager', 'listings', true],
    ] as const) {
      const token = newApiToken();
      await db
        .insertInto('api_tokens')
        .values({
          seller_id: seller,
          name,
          token_hash: hashToken(token),
          token_hint: token.slice(-4),
          scopes,
          created_at: at(-30),
          expires_at: at(335),
          revoked_at: revoked ? at(-2) : null,
          last_used_at: at(-3),
        })
        .execute();
    }
    const listing = await db
      .selectFrom('listings')
      .select('id')
      .where('seller_id', '=', seller)
      .orderBy('id')
      .executeTakeFirst();
    if (!listing) continue;
    for (const [state, days] of [
      ['released', -3],
      ['expired', -1],
    ] as const) {
      await db
        .insertInto('listing_holds')
        .values({
          seller_id: seller,
          listing_id: listing.id,
          quantity: 1,
          reference: `DEMO-${state.toUpperCase()}`,
          state,
          expires_at: at(days),
          created_at: at(days - 0.01),
          updated_at: at(days),
        })
        .execute();
    }
  }
}
