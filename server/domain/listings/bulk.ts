import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';
import type { components } from '../../../openapi/schema';
import type { Db } from '../../db/database';
import { amountText } from '../purchase/pricing';
import { checkNewListings, type NewListing } from './listings';
import {
  CATEGORY_NAMES,
  type CurrencyCode,
  type ListingRestriction,
  MAX_PRICE,
  MAX_QUANTITY,
  MIN_PRICE,
  RESTRICTIONS,
  SPLIT_LABELS,
  SPLIT_TYPES,
  type SplitType,
  STADIUM_LAYOUT,
  TICKET_TYPE_NAMES,
  todayOf,
} from './rules';
import { XlsxReader } from './xlsx-reader';

type Column = components['schemas']['BulkListingColumn'];
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
const COLUMN_OF_FIELD = new Map<string, Column>(COLUMNS.map((c) => [c.field, c.header]));

/** The most rows one file may hold, the most report entries answered, and the zip's unpacked size limit. */
export const MAX_BULK_ROWS = 5_000;
export const MAX_REPORT = 1_000;
export const MAX_UNPACKED_BYTES = 50 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 500;
const CURRENCIES: readonly CurrencyCode[] = ['GBP', 'EUR', 'USD', 'AED'];
const TEMPLATE_ROWS = MAX_BULK_ROWS + 1;

/** A refusal of the whole file (not of a row): its message goes on row 1 or the file. */
export class BulkFileError extends Error {}

const matchLabel = (e: { id: number; name: string; event_date: string }) => `${e.id} | ${e.name} | ${e.event_date}`;

/**
 * The template workbook: sheet 'Listings' (the columns, two example rows, drop-down lists by data validation),
 * 'Matches' (the upcoming matches the Match column takes) and 'Lists' (the drop-downs' values).
 */
export async function templateWorkbook(db: Db, now: Date): Promise<Buffer> {
  const events = await db
    .selectFrom('events')
    .select(['id', 'name', 'event_date', 'event_time', 'stadium_name'])
    .where('event_date', '>=', todayOf(now))
    .orderBy('event_date')
    .orderBy('event_time')
    .orderBy('id')
    .limit(2_000)
    .execute();
  const wb = new ExcelJS.Workbook();
  wb.creator = 'SB Portal';
  wb.created = now;
  const sheet = wb.addWorksheet('Listings', { views: [{ state: 'frozen', ySplit: 1 }] });
  const matches = wb.addWorksheet('Matches');
  const lists = wb.addWorksheet('Lists');

  sheet.columns = COLUMNS.map((c) => ({ header: c.header, key: c.field, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  const typeNames = Object.values(TICKET_TYPE_NAMES);
  const splitNames = SPLIT_TYPES.map((s) => SPLIT_LABELS[s]);
  for (const [i, e] of events.slice(0, 2).entries()) {
    sheet.addRow([
      matchLabel(e),
      STADIUM_LAYOUT[i]?.name,
      STADIUM_LAYOUT[i]?.blocks[0],
      String(10 + i),
      i === 0 ? '1-4' : '',
      typeNames[i],
      i === 0 ? 4 : 2,
      splitNames[i],
      i === 0 ? 125.5 : 80,
      i === 0 ? 95 : null,
      'GBP',
      i === 0 ? '' : 'restricted_view',
      i === 0 ? 'Example row: replace it with your tickets' : 'Example row: replace or delete it',
    ]);
  }

  matches.columns = [
    { header: 'Match', key: 'label', width: 60 },
    { header: 'Date', key: 'date', width: 12 },
    { header: 'Kick-off', key: 'time', width: 10 },
    { header: 'Stadium', key: 'stadium', width: 30 },
  ];
  matches.getRow(1).font = { bold: true };
  for (const e of events) {
    matches.addRow({ label: matchLabel(e), date: e.event_date, time: e.event_time, stadium: e.stadium_name });
  }

  const columns: [string, readonly string[]][] = [
    ['Category', STADIUM_LAYOUT.map((c) => c.name)],
    ['Ticket Type', typeNames],
    ['Split', splitNames],
    ['Currency', CURRENCIES],
    ['Restrictions', RESTRICTIONS],
  ];
  lists.columns = columns.map(([header]) => ({ header, width: 26 }));
  lists.getRow(1).font = { bold: true };
  const longest = Math.max(...columns.map(([, v]) => v.length));
  for (let r = 0; r < longest; r++) lists.addRow(columns.map(([, v]) => v[r] ?? null));
  const listRange = (col: string, n: number) => [`Lists!$${col}$2:$${col}$${n + 1}`];

  const validate = (letter: string, v: ExcelJS.DataValidation) => {
    (
      sheet as unknown as { dataValidations: { add(range: string, v: ExcelJS.DataValidation): void } }
    ).dataValidations.add(`${letter}2:${letter}${TEMPLATE_ROWS}`, {
      showErrorMessage: true,
      errorStyle: 'error',
      ...v,
    });
  };
  validate('A', {
    type: 'list',
    allowBlank: false,
    formulae: [`Matches!$A$2:$A$${Math.max(2, events.length + 1)}`],
    errorTitle: 'Match',
    error: 'Pick a match from the list (sheet Matches).',
  });
  validate('B', { type: 'list', allowBlank: false, formulae: listRange('A', STADIUM_LAYOUT.length) });
  validate('F', { type: 'list', allowBlank: false, formulae: listRange('B', typeNames.length) });
  validate('H', { type: 'list', allowBlank: false, formulae: listRange('C', splitNames.length) });
  validate('K', { type: 'list', allowBlank: false, formulae: listRange('D', CURRENCIES.length) });
  validate('G', {
    type: 'whole',
    operator: 'between',
    allowBlank: false,
    formulae: [1, MAX_QUANTITY],
    error: `A whole number from 1 to ${MAX_QUANTITY}.`,
  });
  // the price per ticket (I) from the least price, the face value (J) from 0.01
  for (const [letter, least] of [
    ['I', MIN_PRICE],
    ['J', 1],
  ] as const) {
    validate(letter, {
      type: 'decimal',
      operator: 'between',
      allowBlank: letter === 'J',
      formulae: [least / 100, MAX_PRICE / 100],
      error: `An amount from ${amountText(least)} to ${amountText(MAX_PRICE)} with at most two decimals.`,
    });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

// ---------------------------------------------------------------------------------------------------------------
// Reading a filled file

type Cell = string | null | { formula: true };

/** A cell's value as the text a person typed, or a formula (never evaluated), or null when empty. */
function cellText(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if ('formula' in o || 'sharedFormula' in o) return { formula: true };
    if (Array.isArray(o.richText)) return (o.richText as { text?: string }[]).map((t) => t.text ?? '').join('');
    if (typeof o.text === 'string') return o.text;
    if ('error' in o) return String(o.error);
  }
  return String(value);
}

export interface ParsedRow {
  /** the spreadsheet's row number */
  row: number;
  cells: Cell[];
}

/** The unpacked size of a zip's entries, from its central directory, before anything is unpacked. */
async function unpackedSize(path: string): Promise<number> {
  const require = createRequire(import.meta.url);
  // unzipper: exceljs's own zip reader (its dependency); only the central directory is read here
  const unzipper = require('unzipper') as {
    Open: { file(p: string): Promise<{ files: { uncompressedSize: number }[] }> };
  };
  const dir = await unzipper.Open.file(path);
  if (dir.files.length > MAX_ZIP_ENTRIES) return Number.POSITIVE_INFINITY;
  return dir.files.reduce(
    (n, f) => n + (f.uncompressedSize >= 0xffffffff ? Number.POSITIVE_INFINITY : f.uncompressedSize),
    0,
  );
}

/**
 * Unpacks every entry of the zip (its local entries, as the workbook reader reads them) counting the inflated
 * bytes, and stops as soon as they pass `limit`: the central directory's sizes may lie, these bytes do not.
 * True when the whole zip unpacks within the limit.
 */
export async function unpacksWithin(path: string, limit: number): Promise<boolean> {
  const require = createRequire(import.meta.url);
  const unzipper = require('unzipper') as { Parse(o: { forceStream: true }): NodeJS.ReadWriteStream };
  const input = createReadStream(path);
  const zip = input.pipe(unzipper.Parse({ forceStream: true }));
  let total = 0;
  let entries = 0;
  try {
    for await (const entry of zip as AsyncIterable<AsyncIterable<Buffer>>) {
      entries += 1;
      if (entries > MAX_ZIP_ENTRIES) return false;
      for await (const chunk of entry) {
        total += chunk.length;
        if (total > limit) return false;
      }
    }
    return true;
  } finally {
    input.destroy();
    (zip as unknown as { destroy(): void }).destroy();
  }
}

/**
 * The header and the non-empty rows of the first sheet, read as a stream (a row at a time, shared strings
 * cached): at most MAX_BULK_ROWS rows; more, or a zip that unpacks past MAX_UNPACKED_BYTES, is a BulkFileError.
 */
export async function readXlsx(path: string): Promise<{ header: Cell[]; rows: ParsedRow[] }> {
  // the central directory's sizes first (cheap, refuses an honest big file at once), then the bytes really
  // inflated, counted while unpacking and stopped at the limit (a directory that lies about its sizes)
  let within: boolean;
  try {
    within = (await unpackedSize(path)) <= MAX_UNPACKED_BYTES && (await unpacksWithin(path, MAX_UNPACKED_BYTES));
  } catch {
    throw new BulkFileError('The file is not a readable .xlsx workbook.');
  }
  if (!within) {
    throw new BulkFileError(
      `The workbook unpacks to more than ${MAX_UNPACKED_BYTES / 1024 / 1024} MB; keep only the Listings sheet's rows.`,
    );
  }
  // ExcelJS's streaming reader, its walk over the zip mended (xlsx-reader.ts: it lost entries 1 time in 8)
  const reader = new XlsxReader(path);
  let header: Cell[] | null = null;
  const rows: ParsedRow[] = [];
  try {
    for await (const sheet of reader) {
      if (header !== null) break;
      header = [];
      for await (const row of sheet) {
        const values = (row.values as unknown[]).slice(1).map(cellText);
        if (row.number === 1) {
          header = values;
          continue;
        }
        if (header.length === 0) header = [];
        if (values.every((v) => v === null || (typeof v === 'string' && v.trim() === ''))) continue;
        rows.push({ row: row.number, cells: values });
        if (rows.length > MAX_BULK_ROWS) {
          throw new BulkFileError(`The file has more than ${MAX_BULK_ROWS.toLocaleString('en-GB')} rows of listings.`);
        }
      }
    }
  } catch (error) {
    if (error instanceof BulkFileError) throw error;
    throw new BulkFileError('The file is not a readable .xlsx workbook.');
  }
  return { header: header ?? [], rows };
}

/** The rows of a CSV file (its values as written, nothing converted), at most MAX_BULK_ROWS. */
export async function readCsv(path: string): Promise<{ header: Cell[]; rows: ParsedRow[] }> {
  const wb = new ExcelJS.Workbook();
  let sheet: ExcelJS.Worksheet;
  try {
    sheet = await wb.csv.readFile(path, { map: (v: unknown) => v, parserOptions: { trim: false } } as never);
  } catch {
    throw new BulkFileError('The file is not a readable CSV file.');
  }
  let header: Cell[] = [];
  const rows: ParsedRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    const values = (row.values as unknown[]).slice(1).map((v) => (v === undefined || v === null ? null : String(v)));
    if (number === 1) header = values;
    else if (values.some((v) => v !== null && v.trim() !== '')) rows.push({ row: number, cells: values });
  });
  if (rows.length > MAX_BULK_ROWS) {
    throw new BulkFileError(`The file has more than ${MAX_BULK_ROWS.toLocaleString('en-GB')} rows of listings.`);
  }
  return { header, rows };
}

const DECIMAL = /^\d{1,9}(\.\d{1,2})?$/;
const INTEGER = /^\d{1,9}$/;
const clip = (s: string) => (s.length > 200 ? s.slice(0, 200) : s);

/**
 * Checks every row and answers the listings, or every problem (row, column, value, message). Nothing here
 * writes; `checkNewListings` adds the database's rules (unknown or past match).
 */
export async function validateRows(
  db: Db,
  file: { header: Cell[]; rows: ParsedRow[] },
  now: Date,
): Promise<{ listings: NewListing[]; errors: BulkRowError[] }> {
  const errors: BulkRowError[] = [];
  const headerText = file.header.map((h) => (typeof h === 'string' ? h.trim().toLowerCase() : ''));
  const position = new Map<Column, number>();
  for (const c of COLUMNS) {
    const at = headerText.indexOf(c.header.toLowerCase());
    if (at < 0) errors.push({ row: 1, column: c.header, value: '', message: `The column '${c.header}' is missing.` });
    else if (headerText.indexOf(c.header.toLowerCase(), at + 1) >= 0) {
      errors.push({ row: 1, column: c.header, value: c.header, message: `The column '${c.header}' appears twice.` });
    } else position.set(c.header, at);
  }
  const known = new Set(COLUMNS.map((c) => c.header.toLowerCase()));
  for (const [i, h] of headerText.entries()) {
    if (h !== '' && !known.has(h)) {
      errors.push({
        row: 1,
        column: '',
        value: clip(String(file.header[i])),
        message: `Unknown column; the template's columns are ${COLUMNS.map((c) => c.header).join(', ')}.`,
      });
    }
  }
  if (errors.length > 0) return { listings: [], errors };
  if (file.rows.length === 0) {
    return { listings: [], errors: [{ row: 2, column: '', value: '', message: 'The file has no listings.' }] };
  }

  const listings: NewListing[] = [];
  const rowOf: number[] = [];
  const seen = new Map<string, number>();
  const typeByName = new Map(Object.entries(TICKET_TYPE_NAMES).map(([id, name]) => [name.toLowerCase(), Number(id)]));
  const splitByName = new Map<string, SplitType>(
    SPLIT_TYPES.flatMap((s) => [
      [s, s],
      [SPLIT_LABELS[s].toLowerCase(), s],
    ]),
  );
  for (const r of file.rows) {
    const problems: BulkRowError[] = [];
    const raw = (c: Column) => r.cells[position.get(c) as number] ?? null;
    const text = (c: Column): string | null => {
      const v = raw(c);
      if (v !== null && typeof v === 'object') {
        problems.push({
          row: r.row,
          column: c,
          value: '',
          message: 'Formulas are not accepted: type the value itself.',
        });
        return null;
      }
      return v === null || v.trim() === '' ? null : v;
    };
    const fail = (c: Column, value: string, message: string) =>
      problems.push({ row: r.row, column: c, value: clip(value), message });
    const required = (c: Column) => {
      const v = text(c);
      if (v === null && !problems.some((p) => p.column === c)) fail(c, '', 'is required');
      return v;
    };
    const bounded = (c: Column, v: string | null, max: number) => {
      if (v !== null && v.length > max) fail(c, v, `must be at most ${max} characters`);
      return v;
    };
    const money = (c: Column, v: string | null, least = 1): number | undefined => {
      if (v === null) return undefined;
      const t = v.trim();
      if (!DECIMAL.test(t)) {
        fail(c, v, 'must be an amount with at most two decimals, e.g. 125.50');
        return undefined;
      }
      const [units, cents = ''] = t.split('.');
      const minor = Number(units) * 100 + Number(cents.padEnd(2, '0'));
      if (minor < least || minor > MAX_PRICE)
        fail(c, v, `must be from ${amountText(least)} to ${amountText(MAX_PRICE)}`);
      return minor;
    };

    const matchText = required('Match');
    let matchId: number | undefined;
    if (matchText !== null) {
      const m = /^\s*(\d{1,10})\s*(\|.*)?$/s.exec(matchText);
      const id = m ? Number(m[1]) : Number.NaN;
      if (!m || id < 1 || id > 2 ** 31 - 1)
        fail('Match', matchText, "must be a match's id, or a match picked from the list");
      else matchId = id;
    }
    const category = bounded('Category', required('Category'), 100);
    if (category !== null && category.length <= 100 && !CATEGORY_NAMES.has(category)) {
      fail('Category', category, `must be one of the stadium's categories: ${[...CATEGORY_NAMES].join(', ')}`);
    }
    const block = bounded('Block', required('Block'), 50);
    const rowText = bounded('Row', required('Row'), 20);
    const seats = bounded('Seats', text('Seats'), 100);
    const typeText = required('Ticket Type');
    let ticketType: number | undefined;
    if (typeText !== null) {
      const t = typeText.trim();
      ticketType = /^[1-6]$/.test(t) ? Number(t) : typeByName.get(t.toLowerCase());
      if (ticketType === undefined)
        fail('Ticket Type', typeText, `must be one of ${Object.values(TICKET_TYPE_NAMES).join(', ')}`);
    }
    const quantityText = required('Quantity');
    let quantity: number | undefined;
    if (quantityText !== null) {
      const t = quantityText.trim();
      quantity = INTEGER.test(t) ? Number(t) : undefined;
      if (quantity === undefined || quantity < 1 || quantity > MAX_QUANTITY) {
        fail('Quantity', quantityText, `must be a whole number from 1 to ${MAX_QUANTITY.toLocaleString('en-GB')}`);
        quantity = undefined;
      }
    }
    const splitText = required('Split');
    const split = splitText === null ? undefined : splitByName.get(splitText.trim().toLowerCase());
    if (splitText !== null && split === undefined) {
      fail('Split', splitText, `must be one of ${SPLIT_TYPES.map((s) => SPLIT_LABELS[s]).join(', ')}`);
    }
    const price = money('Price', required('Price'), MIN_PRICE);
    const faceValue = money('Face Value', text('Face Value'));
    const currencyText = required('Currency');
    const currency = currencyText?.trim().toUpperCase() as CurrencyCode | undefined;
    if (currencyText !== null && !CURRENCIES.includes(currency as CurrencyCode)) {
      fail('Currency', currencyText, `must be one of ${CURRENCIES.join(', ')}`);
    }
    const restrictionText = text('Restrictions');
    const restrictions: ListingRestriction[] = [];
    if (restrictionText !== null) {
      for (const part of restrictionText
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        if (!(RESTRICTIONS as readonly string[]).includes(part)) {
          fail('Restrictions', restrictionText, `'${clip(part)}' is not one of ${RESTRICTIONS.join(', ')}`);
        } else if (restrictions.includes(part as ListingRestriction)) {
          fail('Restrictions', restrictionText, `'${part}' is given twice`);
        } else restrictions.push(part as ListingRestriction);
      }
    }
    const notes = bounded('Notes', text('Notes'), 1000);

    if (problems.length === 0) {
      const listing: NewListing = {
        match_id: matchId as number,
        category: category as string,
        ticket_block: block as string,
        row: rowText as string,
        seats: seats ?? undefined,
        ticket_type_id: ticketType as NewListing['ticket_type_id'],
        quantity: quantity as number,
        split_type: split as SplitType,
        price: price as number,
        face_value: faceValue,
        currency: currency as CurrencyCode,
        restrictions,
        notes: notes ?? undefined,
        publish: true,
      };
      const key = JSON.stringify(listing);
      const first = seen.get(key);
      if (first !== undefined) {
        problems.push({ row: r.row, column: '', value: '', message: `This row repeats row ${first}.` });
      } else {
        seen.set(key, r.row);
        listings.push(listing);
        rowOf.push(r.row);
      }
    }
    errors.push(...problems);
  }

  const checked = await checkNewListings(db, listings, now, (i, field) => `${i}/${field}`);
  for (const i of checked.unknownMatch) {
    errors.push({
      row: rowOf[i] as number,
      column: 'Match',
      value: String(listings[i]?.match_id),
      message: 'No match has this id.',
    });
  }
  for (const e of checked.errors) {
    const [index, field] = e.path.split('/') as [string, string];
    const l = listings[Number(index)] as NewListing;
    errors.push({
      row: rowOf[Number(index)] as number,
      column: COLUMN_OF_FIELD.get(field) ?? '',
      value: clip(String((l as unknown as Record<string, unknown>)[field] ?? '')),
      message: e.message,
    });
  }
  errors.sort((a, b) => a.row - b.row);
  return { listings: errors.length > 0 ? [] : listings, errors };
}
