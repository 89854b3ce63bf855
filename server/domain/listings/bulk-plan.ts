import type { Db } from '../../db/database';
import { type BulkRowError, type Cell, COLUMN_OF_FIELD, exampleIndex, type ParsedRow } from './bulk-columns';
import { clip, parseRows } from './bulk-rows';
import { checkNewListings, type NewListing } from './checks';

export type BulkAction = 'create' | 'skip' | 'refuse';

/** What an upload does with one row of the file, and why. */
export interface PlannedRow {
  row: number;
  action: BulkAction;
  /** The listing the row reads as (null when it could not be read). */
  listing: NewListing | null;
  /** Why a row is refused (every problem) or skipped (one reason); empty for a row to create. */
  reasons: BulkRowError[];
  /** The seller's listing this row already is (a skipped row). */
  listingId?: number;
}

export interface UploadPlan {
  /** Problems of the file as a whole (unreadable, columns): nothing of it can be planned. */
  fileErrors: BulkRowError[];
  rows: PlannedRow[];
  /** The matches the rows name, for the preview: id to name and date. */
  matches: Map<number, { name: string; event_date: string }>;
}

export const EXAMPLE_SKIPPED = (n: number) =>
  `The template's example row ${n}, unchanged: it is skipped. Replace it with your tickets, or delete it.`;
export const ALREADY_LISTED = (id: number) => `You already list these tickets (listing ${id}): it is skipped.`;

type Tickets = Pick<
  NewListing,
  'match_id' | 'category' | 'ticket_block' | 'row' | 'seats' | 'ticket_type_id' | 'quantity' | 'price' | 'currency'
>;
const sameTickets = (l: Tickets) =>
  JSON.stringify([
    l.match_id,
    l.category,
    l.ticket_block,
    l.row,
    l.seats ?? null,
    l.ticket_type_id,
    l.quantity,
    l.price,
    l.currency,
  ]);

/**
 * Judges every row of a file for the seller, writing nothing: refused (every problem, with the database's rules:
 * unknown or past match, the resale caps), skipped (the template's unchanged examples; tickets the seller already
 * lists, so that a file sent again lists nothing twice) or to create. The preview shows this plan; the confirm
 * carries it out.
 */
export async function planUpload(
  db: Db,
  sellerId: number,
  file: { header: Cell[]; rows: ParsedRow[] },
  now: Date,
): Promise<UploadPlan> {
  const parsed = parseRows(file);
  const matches = new Map<number, { name: string; event_date: string }>();
  if (parsed.fileErrors.length > 0) return { fileErrors: parsed.fileErrors, rows: [], matches };

  const rows: PlannedRow[] = [];
  const candidates: PlannedRow[] = [];
  const seen = new Map<string, number>();
  for (const v of parsed.rows) {
    const planned: PlannedRow = { row: v.row, action: 'refuse', listing: v.listing, reasons: v.problems };
    rows.push(planned);
    if (v.listing === null) continue;
    const example = exampleIndex(v.listing);
    if (example >= 0) {
      planned.action = 'skip';
      planned.reasons = [{ row: v.row, column: '', value: '', message: EXAMPLE_SKIPPED(example + 1) }];
      continue;
    }
    const key = JSON.stringify(v.listing);
    const first = seen.get(key);
    if (first !== undefined) {
      planned.reasons = [{ row: v.row, column: '', value: '', message: `This row repeats row ${first}.` }];
      continue;
    }
    seen.set(key, v.row);
    planned.action = 'create';
    candidates.push(planned);
  }

  const listings = candidates.map((c) => c.listing as NewListing);
  const checked = await checkNewListings(db, listings, now, (i, field) => `${i}/${field}`);
  const refuse = (i: number, reason: BulkRowError) => {
    const c = candidates[i] as PlannedRow;
    if (c.action === 'create') c.reasons = [];
    c.action = 'refuse';
    c.reasons.push(reason);
  };
  for (const i of checked.unknownMatch) {
    const c = candidates[i] as PlannedRow;
    refuse(i, { row: c.row, column: 'Match', value: String(c.listing?.match_id), message: 'No match has this id.' });
  }
  for (const e of checked.errors) {
    const [index, field] = e.path.split('/') as [string, string];
    const c = candidates[Number(index)] as PlannedRow;
    refuse(Number(index), {
      row: c.row,
      column: COLUMN_OF_FIELD.get(field) ?? '',
      value: clip(String((c.listing as unknown as Record<string, unknown>)[field] ?? '')),
      message: e.message,
    });
  }

  const ids = [...new Set(rows.flatMap((r) => (r.listing ? [r.listing.match_id] : [])))];
  const listed = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    for (const e of await db
      .selectFrom('events')
      .select(['id', 'name', 'event_date'])
      .where('id', 'in', chunk)
      .execute()) {
      matches.set(e.id, { name: e.name, event_date: e.event_date });
    }
    for (const l of await db
      .selectFrom('listings')
      .select(['id', 'event_id', 'category', 'ticket_block', 'row', 'seats', 'ticket_type_id', 'quantity'])
      .select(['price', 'currency'])
      .where('seller_id', '=', sellerId)
      .where('event_id', 'in', chunk)
      .where('status', '<>', 'deleted')
      .orderBy('id')
      .execute()) {
      const key = sameTickets({ ...l, match_id: l.event_id, seats: l.seats ?? undefined } as Tickets);
      if (!listed.has(key)) listed.set(key, l.id);
    }
  }
  for (const c of candidates) {
    if (c.action !== 'create') continue;
    const id = listed.get(sameTickets(c.listing as NewListing));
    if (id === undefined) continue;
    c.action = 'skip';
    c.listingId = id;
    c.reasons = [{ row: c.row, column: '', value: '', message: ALREADY_LISTED(id) }];
  }
  return { fileErrors: [], rows, matches };
}

/** Every refusal of a plan, in row order: the report of an upload refused. */
export const refusalsOf = (plan: UploadPlan): BulkRowError[] => [
  ...plan.fileErrors,
  ...plan.rows.filter((r) => r.action === 'refuse').flatMap((r) => r.reasons),
];
