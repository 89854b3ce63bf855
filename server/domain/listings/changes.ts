import { sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { FieldError } from '../../contract/contract';
import type { Db } from '../../db/database';
import { HttpError, MESSAGES } from '../../http/errors';
import { setStatus } from './commands';
import { writeLogs } from './logs';
import { applyPrices } from './prices';
import { type ListFilters, listingIdsMatching } from './queries';
import { type Actor, extrasOf, notFound, ownedRows } from './rows';

// Changes of a selection of Inventory beyond a price or a status: which listings a selection names (ids, or all
// that a filter matches), their deletion at once, and the undo of a change of prices or statuses.

export type ListingSelectionFilter = components['schemas']['ListingSelectionFilter'];
export interface Selection {
  ticket_ids?: number[];
  filter?: ListingSelectionFilter;
}

/** The most listings one change of a filter's matches touches (a seller has about 10,000 at most). */
export const MAX_SELECTED = 20_000;

const invalid = (errors: FieldError[]) => new HttpError(422, MESSAGES.validation, errors);
const iso = (d: Date) => d.toISOString();

/**
 * The ids a selection names: its `ticket_ids`, or the seller's listings that `filter` matches, read in the change's
 * own transaction; both given, the listings of `ticket_ids` that `filter` matches (each id must be the seller's
 * first: another's answers 404 whatever the filter).
 */
export async function selectedIds(db: Db, sellerId: number, selection: Selection): Promise<number[]> {
  const { ticket_ids: ids, filter } = selection;
  if (ids === undefined && filter === undefined) {
    throw invalid([{ path: '/body/ticket_ids', message: 'give ticket_ids, filter or both' }]);
  }
  if (!filter) return ids as number[];
  // another seller's id is 404 before the filter is judged
  if (ids) {
    const owned = await db
      .selectFrom('listings')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('seller_id', '=', sellerId)
      .where('status', '<>', 'deleted')
      .where('id', 'in', ids)
      .executeTakeFirstOrThrow();
    if (Number(owned.n) !== new Set(ids).size) throw notFound();
  }
  if (filter.date_from && filter.date_to && filter.date_from > filter.date_to) {
    throw invalid([{ path: '/body/filter/date_from', message: 'must not be after /body/filter/date_to' }]);
  }
  const matching = await listingIdsMatching(db, sellerId, filter as ListFilters);
  if (ids) {
    const named = new Set(ids);
    return matching.filter((id) => named.has(id));
  }
  if (matching.length > MAX_SELECTED) {
    throw invalid([
      {
        path: '/body/filter',
        message: `matches ${matching.length} listings; one change takes at most ${MAX_SELECTED}: narrow the filter`,
      },
    ]);
  }
  return matching;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Deletes the seller's listings of `ids` at once (all or nothing), as one deletion deletes one. */
export async function deleteListings(db: Db, actor: Actor, ids: number[], now: Date): Promise<{ deleted: number }> {
  if (new Set(ids).size !== ids.length) {
    throw invalid([{ path: '/body/ticket_ids', message: 'must not repeat an id' }]);
  }
  const rows = await ownedRows(db, actor.sellerId, ids);
  if (rows.length === 0) return { deleted: 0 };
  const extras = await extrasOf(db, ids);
  const sold = rows.filter((r) => (extras.sold.get(r.id) ?? 0) > 0);
  if (sold.length > 0) {
    throw new HttpError(
      409,
      `Nothing was deleted: tickets of ${plural(sold.length, 'listing')} of these were sold (listing ${sold
        .slice(0, 5)
        .map((r) => r.id)
        .join(', ')}${sold.length > 5 ? '…' : ''}). Unpublish those instead, or leave them out.`,
    );
  }
  const held = rows.filter((r) => (extras.held.get(r.id) ?? 0) > 0);
  if (held.length > 0) {
    throw new HttpError(
      409,
      `Nothing was deleted: tickets of ${plural(held.length, 'listing')} of these are in a buyer's cart. Unpublish them, or try again when the hold ends (at most 15 minutes).`,
    );
  }
  const at = iso(now);
  let deleted = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const done = await db
      .updateTable('listings')
      .set({ status: 'deleted', withheld: sql<number>`withheld + available`, available: 0, updated_at: at })
      .where('id', 'in', ids.slice(i, i + 500))
      .where('status', '<>', 'deleted')
      .executeTakeFirst();
    deleted += Number(done.numUpdatedRows);
  }
  if (deleted !== rows.length) throw notFound();
  await writeLogs(
    db,
    actor,
    rows.map((r) => ({ listing_id: r.id, action: 'deleted' as const, old_value: r.status, new_value: 'deleted' })),
    now,
  );
  return { deleted };
}

const UNDO_SUFFIX = '.undo';

/**
 * Undoes a change of prices or statuses (its log rows by change id): each listing still as the change left it goes
 * back through the rules of a new price or status; one changed again since, or deleted, is skipped.
 */
export async function undoChange(db: Db, actor: Actor, changeId: string, now: Date) {
  const logs = await db
    .selectFrom('listing_logs')
    .select(['listing_id', 'action', 'old_value', 'new_value'])
    .where('seller_id', '=', actor.sellerId)
    .where('change_id', '=', changeId)
    .where('action', 'in', ['price_changed', 'published', 'unpublished'])
    .orderBy('listing_id')
    .execute();
  if (logs.length === 0) throw new HttpError(404, 'Change not found.');
  const undone = await db
    .selectFrom('listing_logs')
    .select('id')
    .where('seller_id', '=', actor.sellerId)
    .where('change_id', '=', `${changeId}${UNDO_SUFFIX}`)
    .executeTakeFirst();
  if (undone) throw new HttpError(409, 'This change was already undone.');
  // the listings of the change that are still the seller's (a deleted one is skipped)
  const live = await db
    .selectFrom('listings')
    .select('id')
    .where('seller_id', '=', actor.sellerId)
    .where('status', '<>', 'deleted')
    .where(
      'id',
      'in',
      logs.map((l) => l.listing_id),
    )
    .execute();
  const rows = await ownedRows(
    db,
    actor.sellerId,
    live.map((r) => r.id),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const undoId = `${changeId}${UNDO_SUFFIX}`;
  let restored = 0;
  const prices = logs
    .filter((l) => l.action === 'price_changed')
    .flatMap((l) => {
      const row = byId.get(l.listing_id);
      return row && String(row.price) === l.new_value ? [{ row, price: Number(l.old_value) }] : [];
    });
  if (prices.length > 0) {
    const done = await applyPrices(db, actor, prices, '/body/change_id', now);
    restored += prices.length;
    if (done.change_id) await relabel(db, actor.sellerId, done.change_id, undoId);
  }
  for (const status of ['published', 'unpublished'] as const) {
    const back = logs
      .filter((l) => l.action !== 'price_changed' && l.old_value === status)
      .filter((l) => byId.get(l.listing_id)?.status === l.new_value)
      .map((l) => l.listing_id);
    if (back.length === 0) continue;
    const done = await setStatus(db, actor, back, status, now);
    restored += back.length;
    if (done.change_id) await relabel(db, actor.sellerId, done.change_id, undoId);
  }
  return { restored, skipped: logs.length - restored };
}

/** The log rows of `from` (an undo's own change) marked as the undo of its change, so that it is undone once. */
async function relabel(db: Db, sellerId: number, from: string, to: string) {
  await db
    .updateTable('listing_logs')
    .set({ change_id: to })
    .where('seller_id', '=', sellerId)
    .where('change_id', '=', from)
    .execute();
}

// ---------------------------------------------------------------------------------------------------------------
// Saved views of Inventory

export type ListingView = components['schemas']['ListingView'];
export type ListingViewInput = components['schemas']['ListingViewInput'];
export const MAX_VIEWS = 20;

const toView = (r: { id: number; name: string; settings: string; updated_at: string }): ListingView => {
  const settings = JSON.parse(r.settings) as Pick<ListingView, 'filters' | 'sort' | 'hidden'>;
  return { id: r.id, name: r.name, ...settings, updated_at: r.updated_at };
};

export async function listViews(db: Db, sellerId: number): Promise<ListingView[]> {
  const rows = await db
    .selectFrom('listing_views')
    .select(['id', 'name', 'settings', 'updated_at'])
    .where('seller_id', '=', sellerId)
    .orderBy('name_key')
    .execute();
  return rows.map(toView);
}

/** Saves a view under its name (a view of that name, whatever its case, is replaced); at most 20 a seller. */
export async function saveView(db: Db, sellerId: number, input: ListingViewInput, now: Date): Promise<ListingView> {
  const name = input.name.trim();
  if (name === '') throw invalid([{ path: '/body/name', message: 'is required' }]);
  const f = input.filters;
  if (f.date_from && f.date_to && f.date_from > f.date_to) {
    throw invalid([{ path: '/body/filters/date_from', message: 'must not be after /body/filters/date_to' }]);
  }
  const settings = JSON.stringify({ filters: input.filters, sort: input.sort, hidden: input.hidden });
  const at = iso(now);
  const key = name.toLowerCase();
  const existing = await db
    .selectFrom('listing_views')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('name_key', '=', key)
    .executeTakeFirst();
  if (existing) {
    await db
      .updateTable('listing_views')
      .set({ name, settings, updated_at: at })
      .where('id', '=', existing.id)
      .execute();
    return toView({ id: existing.id, name, settings, updated_at: at });
  }
  const count = await db
    .selectFrom('listing_views')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('seller_id', '=', sellerId)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_VIEWS) {
    throw invalid([
      { path: '/body/name', message: `You have ${MAX_VIEWS} saved views, the most: delete one to save another.` },
    ]);
  }
  const row = await db
    .insertInto('listing_views')
    .values({ seller_id: sellerId, name, name_key: key, settings, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return toView({ id: row.id, name, settings, updated_at: at });
}

export async function deleteView(db: Db, sellerId: number, id: number): Promise<void> {
  const done = await db
    .deleteFrom('listing_views')
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .executeTakeFirst();
  if (done.numDeletedRows !== 1n) throw new HttpError(404, 'View not found.');
}
