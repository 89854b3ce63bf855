import type { components } from '../../openapi/schema';
import type { Db } from '../db/database';

export type SellerLevel = components['schemas']['SellerLevel'];
export type SellerLevelSummary = components['schemas']['SellerLevelSummary'];

const DAY_MS = 86_400_000;

/**
 * The three seller levels (spec: 1 to 3, by quarterly GTV), as documented data: the quarterly GTV each needs, in
 * GBP minor units, and the benefits. The contract's getSellerLevelList says the same in words.
 */
export const SELLER_LEVELS: readonly { level: 1 | 2 | 3; quarterly_gtv: number; benefits: readonly string[] }[] = [
  { level: 1, quarterly_gtv: 0, benefits: ['Sell on the marketplace', 'Payouts within 7 days'] },
  {
    level: 2,
    quarterly_gtv: 2_500_000,
    benefits: ['Sell on the marketplace', 'Payouts within 7 days', 'Priority support', 'Reduced service fee'],
  },
  {
    level: 3,
    quarterly_gtv: 10_000_000,
    benefits: [
      'Sell on the marketplace',
      'Payouts within 7 days',
      'Priority support',
      'Reduced service fee',
      'Payouts within 48 hours',
      'Dedicated account manager',
    ],
  },
];
const ALL_BENEFITS = [...new Set(SELLER_LEVELS.flatMap((l) => l.benefits))];

const thresholdOf = (level: number) => SELLER_LEVELS.find((l) => l.level === level)?.quarterly_gtv ?? 0;

/** The highest level a quarter's GTV reaches. */
export function levelFor(gtv: number): 1 | 2 | 3 {
  let reached: 1 | 2 | 3 = 1;
  for (const l of SELLER_LEVELS) if (gtv >= l.quarterly_gtv) reached = l.level;
  return reached;
}

/** The calendar quarter (UTC) holding `at`, and the one before it. */
export function quarterOf(at: Date) {
  const year = at.getUTCFullYear();
  const q = Math.floor(at.getUTCMonth() / 3);
  const start = new Date(Date.UTC(year, q * 3, 1));
  const end = new Date(Date.UTC(year, q * 3 + 3, 1));
  const previousStart = new Date(Date.UTC(year, q * 3 - 3, 1));
  return { label: `Q${q + 1} ${year}`, start, end, previousStart };
}

/** A seller's GTV in a period: its completed sales priced in GBP whose order date falls in [from, to). */
export async function gtvBetween(db: Db, sellerId: number, from: Date, to: Date): Promise<number> {
  const row = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('seller_id', '=', sellerId)
    .where('status', '=', 'completed')
    .where('currency', '=', 'GBP')
    .where('created_at', '>=', from.toISOString())
    .where('created_at', '<', to.toISOString())
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * A seller's level this quarter: the higher of what last quarter's GTV earned and what this quarter's has reached
 * so far; what this quarter still needs to keep it; and a forecast at this quarter's pace.
 */
export async function sellerLevelSummary(db: Db, sellerId: number, now: Date): Promise<SellerLevelSummary> {
  const quarter = quarterOf(now);
  const [gtv, previous] = await Promise.all([
    gtvBetween(db, sellerId, quarter.start, quarter.end),
    gtvBetween(db, sellerId, quarter.previousStart, quarter.start),
  ]);
  const level = Math.max(levelFor(previous), levelFor(gtv)) as 1 | 2 | 3;
  const daysInQuarter = Math.round((quarter.end.getTime() - quarter.start.getTime()) / DAY_MS);
  const today = Math.floor((now.getTime() - quarter.start.getTime()) / DAY_MS);
  const elapsed = Math.min(daysInQuarter, today + 1);
  const projected = Math.round((gtv / elapsed) * daysInQuarter);
  const next = level < 3 ? level + 1 : null;
  return {
    level: `Level ${level}`,
    level_number: level,
    quarter: quarter.label,
    days_left: Math.max(0, daysInQuarter - elapsed),
    currency: 'GBP',
    gtv,
    required_to_maintain: Math.max(0, thresholdOf(level) - gtv),
    forecast: {
      projected_gtv: projected,
      projected_level: levelFor(projected),
      next_level: next,
      required_for_next_level: next === null ? null : Math.max(0, thresholdOf(next) - gtv),
    },
  };
}

/** The three levels with their benefits, the current one active. */
export function sellerLevelList(current: number): SellerLevel[] {
  return SELLER_LEVELS.map((l) => ({
    level: l.level,
    name: `Level ${l.level}`,
    is_active: l.level === current ? 1 : 0,
    quarterly_gtv: l.quarterly_gtv,
    benefits: ALL_BENEFITS.map((name) => ({ name, available: l.benefits.includes(name) ? 1 : 0 })),
  }));
}
