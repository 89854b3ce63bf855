import { randomUUID } from 'node:crypto';
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import { duplicates, type NewListing, PAST_CHANGE } from './checks';
import { type LogRow, writeLogs } from './logs';
import { capProblems, capsOfEvents, checkCaps, refuseOverCap } from './price-caps';
import {
  type Actor,
  findListingRow,
  findMyListing,
  invalid,
  type ListingStatus,
  type ListingUpdate,
  lockListings,
  notFound,
  ownedRows,
  soldAndHeld,
} from './rows';
import { listingProblems, restrictionsOf, todayOf } from './rules';
import { listingTemplateChange, setListingTemplates } from './templates';

// The changes of listings: creating them, editing one, publishing or unpublishing many, deleting one.

const iso = (d: Date) => d.toISOString();

/** A listing's text fields as stored: trimmed of the spaces around them, otherwise exactly as written. */
const text = (s: string | undefined | null) => (s === undefined || s === null ? null : s.trim() === '' ? null : s);

const summary = (l: NewListing) =>
  `${l.quantity} x ${l.category}, ${l.ticket_block}, row ${l.row} at ${l.price} ${l.currency}`;

/** Creates checked listings in the caller's transaction, with their 'created' log rows; answers their ids. */
export async function createListings(db: Db, actor: Actor, inputs: readonly NewListing[], now: Date) {
  const at = iso(now);
  const ids: number[] = [];
  for (let i = 0; i < inputs.length; i += 200) {
    const batch = inputs.slice(i, i + 200);
    const rows = await db
      .insertInto('listings')
      .values(
        batch.map((l) => {
          const publish = l.publish ?? true;
          return {
            seller_id: actor.sellerId,
            event_id: l.match_id,
            category: l.category,
            ticket_block: l.ticket_block,
            row: l.row,
            seats: text(l.seats),
            ticket_type_id: l.ticket_type_id,
            quantity: l.quantity,
            available: publish ? l.quantity : 0,
            withheld: publish ? 0 : l.quantity,
            status: publish ? 'published' : 'unpublished',
            split_type: l.split_type,
            price: l.price,
            face_value: l.face_value ?? null,
            currency: l.currency,
            restrictions: (l.restrictions ?? []).join(','),
            notes: text(l.notes),
            in_hand_date: l.in_hand_date ?? null,
            created_at: at,
            updated_at: at,
          };
        }),
      )
      .returning('id')
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  const links = inputs.flatMap((l, i) =>
    (l.additional_template_ids ?? []).map((t) => ({ listing_id: ids[i] as number, template_id: t })),
  );
  for (let i = 0; i < links.length; i += 500) {
    await db
      .insertInto('listing_templates')
      .values(links.slice(i, i + 500))
      .execute();
  }
  await writeLogs(
    db,
    actor,
    inputs.map((l, i) => ({
      listing_id: ids[i] as number,
      action: 'created' as const,
      new_value: `${summary(l)}${(l.publish ?? true) ? '' : ' (unpublished)'}`,
    })),
    now,
  );
  return ids;
}

const asText = (v: unknown): string | null =>
  v === null || v === undefined ? null : Array.isArray(v) ? v.join(',') : String(v);

/** The fields of an edit that are columns of the listing's row (its templates are rows of their own). */
type ColumnUpdate = Omit<ListingUpdate, 'template_ids'>;

/**
 * Edits one listing (PUT update-ticket): each changed field logged; the quantity moves the tickets on sale;
 * `template_ids` replaces the templates it carries (another seller's template: 404, before anything else is judged).
 */
export async function updateListing(db: Db, actor: Actor, id: number, update: ListingUpdate, now: Date) {
  const { template_ids: templateIds, ...changes } = update;
  const fields = Object.keys(changes) as (keyof ColumnUpdate)[];
  if (fields.length === 0 && templateIds === undefined) {
    throw invalid([{ path: '/body', message: 'must change at least one field' }]);
  }
  await lockListings(db, [id]);
  const row = await findListingRow(db, actor.sellerId, id);
  if (!row) throw notFound();
  const templates = templateIds === undefined ? null : await listingTemplateChange(db, actor.sellerId, id, templateIds);
  if (row.event_date < todayOf(now)) throw new HttpError(409, PAST_CHANGE);
  const templatesChanged = templates !== null && asText(templates.before) !== asText(templates.after);

  const current: Record<keyof ColumnUpdate, unknown> = {
    category: row.category,
    ticket_block: row.ticket_block,
    row: row.row,
    seats: row.seats,
    ticket_type_id: row.ticket_type_id,
    quantity: row.quantity,
    split_type: row.split_type,
    price: row.price,
    face_value: row.face_value,
    currency: row.currency,
    restrictions: restrictionsOf(row.restrictions),
    notes: row.notes,
    in_hand_date: row.in_hand_date,
  };
  const next = { ...current } as Record<keyof ColumnUpdate, unknown>;
  for (const f of fields) {
    const v = changes[f];
    next[f] = f === 'seats' || f === 'notes' ? text(v as string | null) : v;
  }
  const changed = fields.filter((f) => asText(next[f]) !== asText(current[f]));

  const errors = listingProblems(
    {
      category: next.category as string,
      quantity: next.quantity as number,
      split_type: next.split_type as string,
      restrictions: changes.restrictions,
      ticket_block: changes.ticket_block,
      row: changes.row,
      in_hand_date: next.in_hand_date as string | null,
      match_date: row.event_date,
    },
    '/body',
  ).filter((e) => {
    // a rule is checked where this change touches it (a listing made before a rule keeps what it has)
    const field = e.path.split('/')[2] as string;
    if (field === 'split_type') return changed.includes('split_type') || changed.includes('quantity');
    return changed.includes(field as keyof ColumnUpdate) || field === 'restrictions';
  });
  if (errors.length > 0) throw invalid(errors);
  // a changed price, face value or currency is checked against the resale caps of the match
  if (changed.some((f) => f === 'price' || f === 'face_value' || f === 'currency')) {
    const caps = (await capsOfEvents(db, [row.event_id])).get(row.event_id) ?? [];
    const asked = {
      price: next.price as number,
      face_value: next.face_value as number | null,
      currency: `${next.currency}`,
    };
    refuseOverCap(capProblems(checkCaps(caps, asked), (field) => `/body/${field}`));
  }
  if (changed.length === 0 && !templatesChanged) return findMyListing(db, actor.sellerId, id, now);

  const set: Record<string, unknown> = { updated_at: iso(now) };
  for (const f of changed) {
    if (f === 'quantity') continue;
    set[f] = f === 'restrictions' ? (next.restrictions as string[]).join(',') : next[f];
  }
  if (changed.includes('quantity')) {
    const quantity = next.quantity as number;
    const { sold, held } = await soldAndHeld(db, id);
    const unsold = row.available + row.withheld;
    const least = Math.max(sold + held, row.quantity - unsold);
    if (quantity < least) {
      throw invalid([
        {
          path: '/body/quantity',
          message: `must be at least ${least} (${sold} sold, ${held} in buyers' carts)`,
        },
      ]);
    }
    const delta = quantity - row.quantity;
    const column = row.status === 'published' ? 'available' : 'withheld';
    const done = await db
      .updateTable('listings')
      .set({ ...set, quantity, [column]: sql<number>`${sql.ref(column)} + ${delta}` })
      .where('id', '=', id)
      .where('quantity', '=', row.quantity)
      .where(sql<SqlBool>`${sql.ref(column)} + ${delta} >= 0`)
      .executeTakeFirst();
    if (done.numUpdatedRows !== 1n) {
      throw new HttpError(409, 'Tickets of this listing were just bought or held; reload it and try again.');
    }
  } else {
    await db.updateTable('listings').set(set).where('id', '=', id).execute();
  }
  const logs: LogRow[] = changed.map((f) => ({
    listing_id: id,
    action: f === 'price' ? ('price_changed' as const) : ('updated' as const),
    field: f,
    old_value: asText(current[f]),
    new_value: asText(next[f]),
  }));
  if (templates && templatesChanged) {
    await setListingTemplates(db, id, templates.after);
    logs.push({
      listing_id: id,
      action: 'updated',
      field: 'template_ids',
      old_value: templates.before.length > 0 ? asText(templates.before) : null,
      new_value: templates.after.length > 0 ? asText(templates.after) : null,
    });
  }
  await writeLogs(db, actor, logs, now);
  return findMyListing(db, actor.sellerId, id, now);
}

/** Publishes or unpublishes the seller's listings of `ids` (all or nothing). */
export async function setStatus(db: Db, actor: Actor, ids: number[], status: ListingStatus, now: Date) {
  const changeId = randomUUID();
  const errors = duplicates(ids, '/body/ticket_ids');
  if (errors.length > 0) throw invalid(errors);
  const rows = await ownedRows(db, actor.sellerId, ids);
  const today = todayOf(now);
  const toChange = rows.filter((r) => r.status !== status);
  if (status === 'published' && toChange.some((r) => r.event_date < today)) {
    throw new HttpError(409, 'A listing of a match that has taken place cannot be published.');
  }
  const changeIds = toChange.map((r) => r.id);
  const at = iso(now);
  for (let i = 0; i < changeIds.length; i += 500) {
    const batch = changeIds.slice(i, i + 500);
    if (status === 'published') {
      await db
        .updateTable('listings')
        .set({
          status: 'published',
          available: sql<number>`available + withheld`,
          withheld: 0,
          updated_at: at,
        })
        .where('id', 'in', batch)
        .where('status', '=', 'unpublished')
        .execute();
    } else {
      await db
        .updateTable('listings')
        .set({
          status: 'unpublished',
          withheld: sql<number>`withheld + available`,
          available: 0,
          updated_at: at,
        })
        .where('id', 'in', batch)
        .where('status', '=', 'published')
        .execute();
    }
  }
  await writeLogs(
    db,
    actor,
    toChange.map((r) => ({
      listing_id: r.id,
      action: status,
      field: 'status',
      old_value: r.status,
      new_value: status,
    })),
    now,
    changeId,
  );
  const after = new Map<number, number>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const r of await db
      .selectFrom('listings')
      .select(['id', 'available'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute()) {
      after.set(r.id, r.available);
    }
  }
  return {
    updated: toChange.length,
    change_id: toChange.length > 0 ? changeId : null,
    tickets: ids.map((id) => ({ ticket_id: id, status, available: after.get(id) ?? 0 })),
  };
}

/** Deletes a listing none of whose tickets were sold or are held. */
export async function deleteListing(db: Db, actor: Actor, id: number, now: Date) {
  await lockListings(db, [id]);
  const row = await findListingRow(db, actor.sellerId, id);
  if (!row) throw notFound();
  const { sold, held } = await soldAndHeld(db, id);
  if (sold > 0) {
    throw new HttpError(
      409,
      `This listing cannot be deleted: ${sold} ticket${sold === 1 ? ' of it was' : 's of it were'} sold. Unpublish it instead.`,
    );
  }
  if (held > 0) {
    throw new HttpError(
      409,
      "This listing cannot be deleted now: tickets of it are in a buyer's cart. Unpublish it, or try again when the hold ends (at most 15 minutes).",
    );
  }
  const at = iso(now);
  const done = await db
    .updateTable('listings')
    .set({ status: 'deleted', withheld: sql<number>`withheld + available`, available: 0, updated_at: at })
    .where('id', '=', id)
    .where('status', '<>', 'deleted')
    .executeTakeFirst();
  if (done.numUpdatedRows !== 1n) throw notFound();
  await writeLogs(db, actor, [{ listing_id: id, action: 'deleted', old_value: row.status, new_value: 'deleted' }], now);
  return { ticket_id: id };
}
