import type { components } from '../../../openapi/schema';
import type { NewListing } from './checks';
import {
  type CurrencyCode,
  type ListingRestriction,
  SPLIT_TYPES,
  type SplitType,
  STADIUM_LAYOUT,
  TICKET_TYPE_NAMES,
} from './rules';

export type Column = components['schemas']['BulkListingColumn'];
export type BulkRowError = components['schemas']['BulkRowError'];

/** The template's columns, in order, with the field of ListingInput each fills. */
export const COLUMNS: readonly { header: Column; field: keyof NewListing; required: boolean; width: number }[] = [
  { header: 'Match', field: 'match_id', required: true, width: 48 },
  { header: 'Category', field: 'category', required: true, width: 24 },
  { header: 'Block', field: 'ticket_block', required: true, width: 12 },
  { header: 'Row', field: 'row', required: true, width: 8 },
  { header: 'Seats', field: 'seats', required: false, width: 12 },
  { header: 'Ticket Type', field: 'ticket_type_id', required: true, width: 22 },
  { header: 'Quantity', field: 'quantity', required: true, width: 10 },
  { header: 'Split', field: 'split_type', required: true, width: 16 },
  { header: 'Price', field: 'price', required: true, width: 10 },
  { header: 'Face Value', field: 'face_value', required: false, width: 12 },
  { header: 'Currency', field: 'currency', required: true, width: 10 },
  { header: 'Restrictions', field: 'restrictions', required: false, width: 28 },
  { header: 'Notes', field: 'notes', required: false, width: 40 },
];
export const COLUMN_OF_FIELD = new Map<string, Column>(COLUMNS.map((c) => [c.field, c.header]));

/** The most rows one file may hold, the most report entries answered, and the zip's unpacked size limit. */
export const MAX_BULK_ROWS = 5_000;
export const MAX_REPORT = 1_000;
export const MAX_UNPACKED_BYTES = 50 * 1024 * 1024;
export const CURRENCIES: readonly CurrencyCode[] = ['GBP', 'EUR', 'USD', 'AED'];

/** A refusal of the whole file (not of a row): its message goes on row 1 or the file. */
export class BulkFileError extends Error {}

/** A cell as read: the text a person typed, a formula (never evaluated), or null when empty. */
export type Cell = string | null | { formula: true };

export interface ParsedRow {
  /** the spreadsheet's row number */
  row: number;
  cells: Cell[];
}

/** An example row of the template: every column but the match (the template's matches move with the calendar). */
export type ExampleRow = Omit<NewListing, 'match_id' | 'publish' | 'in_hand_date' | 'additional_template_ids'> & {
  split_type: SplitType;
  restrictions: ListingRestriction[];
};

const typeIds = Object.keys(TICKET_TYPE_NAMES).map(Number) as NewListing['ticket_type_id'][];

/**
 * The template's two example rows. An upload finds them by these values (any match): left as they are, they are
 * skipped, never listed; a row with any of them changed is the seller's own.
 */
export const EXAMPLE_ROWS: readonly ExampleRow[] = [
  {
    category: STADIUM_LAYOUT[0]?.name as string,
    ticket_block: STADIUM_LAYOUT[0]?.blocks[0] as string,
    row: '10',
    seats: '1-4',
    ticket_type_id: typeIds[0] as NewListing['ticket_type_id'],
    quantity: 4,
    split_type: SPLIT_TYPES[0] as SplitType,
    price: 12_550,
    face_value: 9_500,
    currency: 'GBP',
    restrictions: [],
    notes: 'Example row: replace it with your tickets',
  },
  {
    category: STADIUM_LAYOUT[1]?.name as string,
    ticket_block: STADIUM_LAYOUT[1]?.blocks[0] as string,
    row: '11',
    seats: undefined,
    ticket_type_id: typeIds[1] as NewListing['ticket_type_id'],
    quantity: 2,
    split_type: SPLIT_TYPES[1] as SplitType,
    price: 8_000,
    face_value: undefined,
    currency: 'GBP',
    restrictions: ['restricted_view'],
    notes: 'Example row: replace or delete it',
  },
];

/** Which example row (0-based) a listing read from a file is, unchanged but for its match; -1 when none. */
export function exampleIndex(l: NewListing): number {
  return EXAMPLE_ROWS.findIndex(
    (e) =>
      e.category === l.category &&
      e.ticket_block === l.ticket_block &&
      e.row === l.row &&
      (e.seats ?? null) === (l.seats ?? null) &&
      e.ticket_type_id === l.ticket_type_id &&
      e.quantity === l.quantity &&
      e.split_type === l.split_type &&
      e.price === l.price &&
      (e.face_value ?? null) === (l.face_value ?? null) &&
      e.currency === l.currency &&
      e.restrictions.join(',') === (l.restrictions ?? []).join(',') &&
      (e.notes ?? null) === (l.notes ?? null),
  );
}
