import type { components } from '../../../openapi/schema';
import type { FieldError } from '../../contract/contract';
import { amountText, MAX_PURCHASE_QUANTITY, MIN_TICKET_PRICE, TICKET_TYPE_NAMES } from '../purchase/pricing';

export type ListingInput = components['schemas']['ListingInput'];
export type ListingRestriction = components['schemas']['ListingRestriction'];
export type SplitType = components['schemas']['SplitType'];
export type CurrencyCode = components['schemas']['CurrencyCode'];

/** The contract's bounds, named once for the rules the contract's types cannot say (and for the spreadsheet). */
export const MAX_PRICE = 10_000_000;
/** The least price per ticket (the minimum charge's rule, server/domain/purchase/pricing.ts). */
export const MIN_PRICE = MIN_TICKET_PRICE;
/** 'from 5.00 to 100,000.00': the bounds of a price per ticket, as a person writes them. */
export const PRICE_RANGE = `from ${amountText(MIN_PRICE)} to ${amountText(MAX_PRICE)}`;
export const MAX_QUANTITY = 1_000;
export const MAX_FILES_PER_LISTING = 20;

export const RESTRICTIONS: readonly ListingRestriction[] = [
  'restricted_view',
  'age_restriction',
  'home_fans_only',
  'away_fans_only',
  'members_only',
  'id_required',
  'wheelchair_access',
  'alcohol_free',
];
export const SPLIT_TYPES: readonly SplitType[] = ['any', 'pairs', 'all_together', 'avoid_single'];
export const SPLIT_LABELS: Readonly<Record<SplitType, string>> = {
  any: 'Any',
  pairs: 'Pairs',
  avoid_single: 'No singles left',
  all_together: 'All together',
};
export { TICKET_TYPE_NAMES };

/**
 * The seating plan every stadium of the catalogue uses (the demo has no per-stadium plans): its categories, in the
 * order the form lists them, each with its blocks. A listing's category must be one of them; its block is free
 * text, these being suggestions.
 */
export const STADIUM_LAYOUT: readonly { name: string; blocks: readonly string[] }[] = [
  ['Longside Lower Tier', 1, 30],
  ['Longside Upper Tier', 31, 60],
  ['Shortside Lower Tier', 61, 85],
  ['Shortside Upper Tier', 86, 110],
  ['Away Section', 111, 120],
  ['VIP Hospitality', 121, 130],
].map(([name, from, to]) => ({
  name: name as string,
  blocks: Array.from({ length: (to as number) - (from as number) + 1 }, (_, i) => `Block ${(from as number) + i}`),
}));
export const CATEGORY_NAMES: ReadonlySet<string> = new Set(STADIUM_LAYOUT.map((c) => c.name));

export const PAST_MATCH = 'The match has already taken place.';
export const IN_HAND_AFTER_MATCH = 'The tickets must be in hand by the day of the match.';

export const todayOf = (now: Date) => now.toISOString().slice(0, 10);

export const restrictionsOf = (text: string): ListingRestriction[] =>
  text
    .split(',')
    .map((r) => r.trim())
    .filter((r): r is ListingRestriction => (RESTRICTIONS as readonly string[]).includes(r));

/** The rules of a listing beyond the contract's types, on the listing as it will be: field errors under `base`. */
export function listingProblems(
  l: {
    category: string;
    quantity: number;
    split_type: string;
    restrictions?: readonly string[];
    ticket_block?: string;
    row?: string;
    /** tickets in hand from (YYYY-MM-DD), checked against the match's date when both are given */
    in_hand_date?: string | null;
    match_date?: string;
  },
  base: string,
): FieldError[] {
  const problems: FieldError[] = [];
  if (!CATEGORY_NAMES.has(l.category)) {
    problems.push({
      path: `${base}/category`,
      message: `must be one of the stadium's categories: ${[...CATEGORY_NAMES].join(', ')}`,
    });
  }
  if (l.split_type === 'pairs' && l.quantity % 2 !== 0) {
    problems.push({ path: `${base}/split_type`, message: 'Pairs need an even quantity.' });
  }
  if (l.split_type === 'all_together' && l.quantity > MAX_PURCHASE_QUANTITY) {
    problems.push({
      path: `${base}/split_type`,
      message: `All together sells at most ${MAX_PURCHASE_QUANTITY} tickets (the most one purchase takes).`,
    });
  }
  if (l.restrictions && new Set(l.restrictions).size !== l.restrictions.length) {
    problems.push({ path: `${base}/restrictions`, message: 'must not repeat a restriction' });
  }
  for (const field of ['ticket_block', 'row'] as const) {
    const value = l[field];
    if (value !== undefined && value.trim() === '') problems.push({ path: `${base}/${field}`, message: 'is required' });
  }
  if (l.in_hand_date && l.match_date && l.in_hand_date > l.match_date) {
    problems.push({ path: `${base}/in_hand_date`, message: IN_HAND_AFTER_MATCH });
  }
  return problems;
}
