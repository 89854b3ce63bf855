import type { FieldError } from '../../contract/contract';
import type { Db } from '../../db/database';
import { capProblems, capsOfEvents, checkCaps } from './price-caps';
import { type ListingInput, type ListingRestriction, listingProblems, PAST_MATCH, todayOf } from './rules';

// The checks of new listings and changes that need the database (the rules of one listing are in rules.ts).

export interface NewListing extends Omit<ListingInput, 'restrictions' | 'publish'> {
  restrictions?: ListingRestriction[];
  publish?: boolean;
}

/**
 * The problems of new listings that need the database: the match (unknown: `unknownMatch`; past: a field error).
 * Answers the field errors (paths from `pathOf(index, field)`) and the indexes whose match is unknown.
 */
export async function checkNewListings(
  db: Db,
  inputs: readonly NewListing[],
  now: Date,
  pathOf: (index: number, field: string) => string,
): Promise<{ errors: FieldError[]; unknownMatch: number[] }> {
  const ids = [...new Set(inputs.map((l) => l.match_id))];
  const dates = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const e of await db
      .selectFrom('events')
      .select(['id', 'event_date'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute()) {
      dates.set(e.id, e.event_date);
    }
  }
  const today = todayOf(now);
  const errors: FieldError[] = [];
  const unknownMatch: number[] = [];
  for (const [i, l] of inputs.entries()) {
    const date = dates.get(l.match_id);
    if (date === undefined) unknownMatch.push(i);
    else if (date < today) errors.push({ path: pathOf(i, 'match_id'), message: PAST_MATCH });
    for (const p of listingProblems({ ...l, restrictions: l.restrictions, match_date: date }, '')) {
      errors.push({ path: pathOf(i, p.path.slice(1)), message: p.message });
    }
  }
  // the resale caps of each match's market and of the match itself
  const caps = await capsOfEvents(db, ids);
  for (const [i, l] of inputs.entries()) {
    const applied = caps.get(l.match_id);
    if (applied) errors.push(...capProblems(checkCaps(applied, l), (field) => pathOf(i, field)));
  }
  return { errors, unknownMatch };
}

export const PAST_CHANGE = "This listing's match has already taken place; the listing can no longer be changed.";

export const duplicates = (ids: number[], path: string): FieldError[] =>
  new Set(ids).size === ids.length ? [] : [{ path, message: 'must not repeat an id' }];
