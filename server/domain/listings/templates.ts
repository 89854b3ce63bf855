import { sql } from 'kysely';
import type { components } from '../../../openapi/schema';
import type { FieldError } from '../../contract/contract';
import { type Db, engineOf } from '../../db/database';
import { HttpError, MESSAGES } from '../../http/errors';
import { MAX_TEMPLATES } from '../../quotas/limits';

export type AdditionalTemplate = components['schemas']['AdditionalTemplate'];

export const TEMPLATE_NOT_FOUND = 'Template not found.';
const NAME_TAKEN = 'You already have a template with this name.';

const invalid = (errors: FieldError[]) => new HttpError(422, MESSAGES.validation, errors);
const keyOf = (name: string) => name.trim().toLowerCase();

function checkText(input: { name?: string; content?: string }) {
  const errors: FieldError[] = [];
  if (input.name !== undefined && input.name.trim() === '') errors.push({ path: '/body/name', message: 'is required' });
  if (input.content !== undefined && input.content.trim() === '') {
    errors.push({ path: '/body/content', message: 'is required' });
  }
  if (errors.length > 0) throw invalid(errors);
}

/** The seller's templates (or the ones of `ids`), by name, each with its file and how many listings carry it. */
async function templatesOf(db: Db, sellerId: number, ids?: number[]): Promise<AdditionalTemplate[]> {
  let q = db
    .selectFrom('additional_templates as t')
    .leftJoin('files', 'files.id', 't.file_id')
    .select([
      't.id',
      't.name',
      't.content',
      't.created_at',
      't.updated_at',
      'files.id as file_id',
      'files.original_name',
      'files.kind',
      'files.size',
      'files.created_at as file_created_at',
    ])
    .where('t.seller_id', '=', sellerId);
  if (ids) q = q.where('t.id', 'in', ids);
  const rows = await q.orderBy('t.name_key').orderBy('t.id').execute();
  if (rows.length === 0) return [];
  const counts = await db
    .selectFrom('listing_templates as lt')
    .innerJoin('listings', 'listings.id', 'lt.listing_id')
    .select(['lt.template_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where(
      'lt.template_id',
      'in',
      rows.map((r) => r.id),
    )
    .where('listings.status', '<>', 'deleted')
    .groupBy('lt.template_id')
    .execute();
  const count = new Map(counts.map((c) => [c.template_id, Number(c.n)]));
  return rows.map((r) => ({
    template_id: r.id,
    name: r.name,
    content: r.content,
    file:
      r.file_id === null
        ? null
        : {
            file_id: r.file_id,
            name: r.original_name ?? '',
            kind: r.kind ?? '',
            size: Number(r.size),
            created_at: r.file_created_at ?? r.created_at,
          },
    listings_count: count.get(r.id) ?? 0,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }));
}

export const listTemplates = (db: Db, sellerId: number) => templatesOf(db, sellerId);

async function findTemplate(db: Db, sellerId: number, id: number): Promise<AdditionalTemplate> {
  const [t] = await templatesOf(db, sellerId, [id]);
  if (!t) throw new HttpError(404, TEMPLATE_NOT_FOUND);
  return t;
}

async function nameTaken(db: Db, sellerId: number, name: string, except?: number) {
  let q = db
    .selectFrom('additional_templates')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('name_key', '=', keyOf(name));
  if (except !== undefined) q = q.where('id', '<>', except);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Adds a template (with a stored file of this call, or none) for the seller. */
export async function addTemplate(
  db: Db,
  sellerId: number,
  input: { name: string; content: string },
  fileId: string | null,
  now: Date,
): Promise<AdditionalTemplate> {
  checkText(input);
  // one seller's templates are added one at a time (a lock on the seller's row), so the limit and the name hold
  // (SQLite: the write transaction already runs alone)
  if (engineOf(db) === 'postgres') await sql`SELECT id FROM users WHERE id = ${sellerId} FOR UPDATE`.execute(db);
  const have = await db
    .selectFrom('additional_templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('seller_id', '=', sellerId)
    .executeTakeFirstOrThrow();
  if (Number(have.n) >= MAX_TEMPLATES) {
    throw new HttpError(409, `You have ${MAX_TEMPLATES} templates, the most kept; delete one to add another.`);
  }
  if (await nameTaken(db, sellerId, input.name)) throw invalid([{ path: '/body/name', message: NAME_TAKEN }]);
  const at = now.toISOString();
  const row = await db
    .insertInto('additional_templates')
    .values({
      seller_id: sellerId,
      name: input.name.trim(),
      name_key: keyOf(input.name),
      content: input.content,
      file_id: fileId,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return findTemplate(db, sellerId, row.id);
}

export async function updateTemplate(
  db: Db,
  sellerId: number,
  id: number,
  changes: { name?: string; content?: string },
  now: Date,
): Promise<AdditionalTemplate> {
  if (changes.name === undefined && changes.content === undefined) {
    throw invalid([{ path: '/body', message: 'must change the name or the content' }]);
  }
  checkText(changes);
  await findTemplate(db, sellerId, id);
  if (changes.name !== undefined && (await nameTaken(db, sellerId, changes.name, id))) {
    throw invalid([{ path: '/body/name', message: NAME_TAKEN }]);
  }
  await db
    .updateTable('additional_templates')
    .set({
      ...(changes.name === undefined ? {} : { name: changes.name.trim(), name_key: keyOf(changes.name) }),
      ...(changes.content === undefined ? {} : { content: changes.content }),
      updated_at: now.toISOString(),
    })
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .execute();
  return findTemplate(db, sellerId, id);
}

/** Deletes one of the seller's templates; the listings that carried it no longer do. */
export async function deleteTemplate(db: Db, sellerId: number, id: number): Promise<{ template_id: number }> {
  await findTemplate(db, sellerId, id);
  await db.deleteFrom('listing_templates').where('template_id', '=', id).execute();
  await db.deleteFrom('additional_templates').where('id', '=', id).where('seller_id', '=', sellerId).execute();
  return { template_id: id };
}

/**
 * The field errors of new listings' additional templates: each must be one of the seller's, given once.
 * Paths from `pathOf(index, 'additional_template_ids')`.
 */
/** The largest id an integer column holds (Postgres `integer`). */
const MAX_ID = 2 ** 31 - 1;

export async function checkListingTemplates(
  db: Db,
  sellerId: number,
  inputs: readonly { additional_template_ids?: number[] }[],
  pathOf: (index: number, field: string) => string,
): Promise<FieldError[]> {
  // an id past the integer columns' range is nobody's template (and Postgres would refuse it in the query)
  const wanted = [...new Set(inputs.flatMap((l) => l.additional_template_ids ?? []))].filter(
    (id) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_ID,
  );
  if (!inputs.some((l) => (l.additional_template_ids ?? []).length > 0)) return [];
  const mine = new Set(
    wanted.length === 0
      ? []
      : (
          await db
            .selectFrom('additional_templates')
            .select('id')
            .where('seller_id', '=', sellerId)
            .where('id', 'in', wanted)
            .execute()
        ).map((r) => r.id),
  );
  const errors: FieldError[] = [];
  for (const [i, l] of inputs.entries()) {
    const ids = l.additional_template_ids ?? [];
    const unknown = ids.filter((t) => !mine.has(t));
    if (unknown.length > 0) {
      errors.push({
        path: pathOf(i, 'additional_template_ids'),
        message: `has templates that are not yours: ${unknown.join(', ')}`,
      });
    } else if (new Set(ids).size !== ids.length) {
      errors.push({ path: pathOf(i, 'additional_template_ids'), message: 'must not repeat a template' });
    }
  }
  return errors;
}

/**
 * The templates a listing carries before and after an edit's `template_ids` (each list sorted). Any id that is
 * not one of the seller's templates answers 404 (another seller's id is nobody's business here), then a repeated
 * id 422 on /body/template_ids. Nothing is written.
 */
export async function listingTemplateChange(
  db: Db,
  sellerId: number,
  listingId: number,
  ids: readonly number[],
): Promise<{ before: number[]; after: number[] }> {
  const wanted = [...new Set(ids)];
  if (wanted.some((id) => !Number.isSafeInteger(id) || id < 1 || id > MAX_ID)) {
    throw new HttpError(404, TEMPLATE_NOT_FOUND);
  }
  if (wanted.length > 0) {
    const mine = await db
      .selectFrom('additional_templates')
      .select('id')
      .where('seller_id', '=', sellerId)
      .where('id', 'in', wanted)
      .execute();
    if (mine.length !== wanted.length) throw new HttpError(404, TEMPLATE_NOT_FOUND);
  }
  if (wanted.length !== ids.length) {
    throw invalid([{ path: '/body/template_ids', message: 'must not repeat a template' }]);
  }
  const before = (
    await db
      .selectFrom('listing_templates')
      .select('template_id')
      .where('listing_id', '=', listingId)
      .orderBy('template_id')
      .execute()
  ).map((r) => r.template_id);
  return { before, after: [...wanted].sort((a, b) => a - b) };
}

/** Replaces the templates a listing carries (in the caller's transaction). */
export async function setListingTemplates(db: Db, listingId: number, ids: readonly number[]) {
  await db.deleteFrom('listing_templates').where('listing_id', '=', listingId).execute();
  if (ids.length === 0) return;
  await db
    .insertInto('listing_templates')
    .values(ids.map((template_id) => ({ listing_id: listingId, template_id })))
    .execute();
}
