import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import ExcelJS from 'exceljs';
import { BulkFileError, type Cell, MAX_BULK_ROWS, MAX_UNPACKED_BYTES, type ParsedRow } from './bulk-columns';
import { XlsxReader } from './xlsx-reader';

const MAX_ZIP_ENTRIES = 500;

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
