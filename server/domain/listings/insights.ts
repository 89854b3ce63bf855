import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import { convert, type PaymentMethod, priceBreakdown } from '../purchase/pricing';
import { capsOfEvents, checkCaps } from './price-caps';
import { MATCH_NOT_FOUND } from './rows';
import type { CurrencyCode } from './rules';

type MarketInsights = components['schemas']['MarketInsights'];
type YourPrice = Exclude<MarketInsights['your_price'], null>;

export const SOLD_RECENTLY_DAYS = 7 as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The payout is priced as paid from SB Pay: no payment fee, the buyer's fees otherwise as at checkout. */
const PAYOUT_METHOD: PaymentMethod = 1;

export interface InsightAsk {
  match_id: number;
  category: string;
  price?: number;
  face_value?: number;
  currency?: CurrencyCode;
  quantity?: number;
  ticket_type_id?: number;
}

/** The median of sorted integers, the two middle ones' mean rounded half up. */
export function medianOf(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[mid] as number;
  return Math.floor(((sorted[mid - 1] as number) + (sorted[mid] as number) + 1) / 2);
}

export function rankOf(price: number, sorted: readonly number[]): YourPrice {
  const cheaper = sorted.filter((p) => p < price).length;
  const dearer = sorted.filter((p) => p > price).length;
  const median = medianOf(sorted);
  let position: YourPrice['position'];
  if (sorted.length === 0) position = 'only';
  else if (price <= (sorted[0] as number)) position = 'lowest';
  else if (price >= (sorted.at(-1) as number)) position = 'highest';
  else if (median !== null && price < median) position = 'below_median';
  else if (price === median) position = 'median';
  else position = 'above_median';
  return { price, rank: cheaper + 1, cheaper_count: cheaper, dearer_count: dearer, position };
}

/**
 * Where a price stands among the other sellers' listings on sale for the same match and category, the tickets of
 * that match and category sold in the last 7 days, and the price for a buyer (the purchase's fee schedule) against
 * what the seller receives.
 */
export async function marketInsights(db: Db, sellerId: number, ask: InsightAsk, now: Date): Promise<MarketInsights> {
  const { match_id: matchId, category, price, currency } = ask;
  const event = await db.selectFrom('events').select('id').where('id', '=', matchId).executeTakeFirst();
  if (!event) throw new HttpError(404, MATCH_NOT_FOUND);
  const inCurrency: CurrencyCode = currency ?? 'GBP';

  const since = new Date(now.getTime() - SOLD_RECENTLY_DAYS * DAY_MS).toISOString();
  const [others, sold] = await Promise.all([
    db
      .selectFrom('listings')
      .select(['price', 'currency', 'available'])
      .where('event_id', '=', matchId)
      .where('category', '=', category)
      .where('seller_id', '<>', sellerId)
      .where('available', '>', 0)
      .execute(),
    db
      .selectFrom('orders')
      .select((eb) => eb.fn.sum<number>('orders.quantity').as('n'))
      .where('orders.event_id', '=', matchId)
      .where('orders.category', '=', category)
      .where('orders.status', '<>', 'cancelled')
      .where('orders.created_at', '>=', since)
      .executeTakeFirst(),
  ]);
  const caps = (await capsOfEvents(db, [matchId])).get(matchId) ?? [];
  const prices = others.map((o) => convert(o.price, o.currency as CurrencyCode, inCurrency)).sort((a, b) => a - b);
  const n = ask.quantity ?? 1;
  return {
    match_id: matchId,
    category,
    currency: inCurrency,
    lowest_price: prices[0] ?? null,
    median_price: medianOf(prices),
    highest_price: prices.at(-1) ?? null,
    listings_count: prices.length,
    tickets_available: others.reduce((sum, o) => sum + o.available, 0),
    sold_recently: Number(sold?.n ?? 0),
    sold_recently_days: SOLD_RECENTLY_DAYS,
    your_price: price === undefined ? null : rankOf(price, prices),
    payout:
      price === undefined
        ? null
        : {
            quantity: n,
            seller_receives: price * n,
            buyer_pays: priceBreakdown({
              currency: inCurrency,
              unitPrice: price,
              quantity: n,
              ticketTypeId: ask.ticket_type_id ?? 1,
              method: PAYOUT_METHOD,
            }),
          },
    price_caps: checkCaps(caps, { price, face_value: ask.face_value, currency: inCurrency }),
  };
}
