import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Db } from '../../db/database';
import { type Row, SECTIONS, type Section } from './sections';

/** Rows read per query: large enough that 100,000 orders take 20 queries, small enough to stay a few MB. */
export const EXPORT_PAGE = 5000;

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. A text that a spreadsheet would
 * run as a formula (starting with =, +, -, @, tab or CR) is written after a single quote (OWASP's advice).
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (columns: readonly string[], row: Row) =>
  `${columns.map((c) => csvField((row[c] ?? null) as string | number | null)).join(',')}\r\n`;

async function* pages(db: Db, sellerId: number, section: Section): AsyncGenerator<Row[]> {
  let after = 0;
  for (;;) {
    const rows = await section.page(db, sellerId, after, EXPORT_PAGE);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_PAGE) return;
    after = Number(rows[rows.length - 1]?.id ?? after);
  }
}

/** `<name>.json`: an array of row objects, one a line, written a page at a time. */
async function* jsonOf(db: Db, sellerId: number, section: Section): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const rows of pages(db, sellerId, section)) {
    let chunk = '';
    for (const row of rows) {
      chunk += `${first ? '\n' : ',\n'}${JSON.stringify(row)}`;
      first = false;
    }
    yield chunk;
  }
  yield first ? ']\n' : '\n]\n';
}

/** `<name>.csv`: a header line, then the rows. */
async function* csvOf(db: Db, sellerId: number, section: Section): AsyncGenerator<string> {
  yield `${section.columns.join(',')}\r\n`;
  for await (const rows of pages(db, sellerId, section)) {
    let chunk = '';
    for (const row of rows) chunk += csvLine(section.columns, row);
    yield chunk;
  }
}

const README = (at: Date, counts: readonly [string, number][]) =>
  [
    'Your SB Portal data',
    `Made ${at.toISOString()}.`,
    '',
    'Each part is here twice: as JSON (an array of rows) and as CSV (a header line, then the rows).',
    'Money is in minor units (pence, cents) with its currency code. Times are UTC (ISO 8601).',
    '',
    ...counts.map(([name, n]) => `${name}: ${n} row${n === 1 ? '' : 's'}`),
    '',
  ].join('\r\n');

export interface AccountExport {
  /** How many rows the files hold, all sections together. */
  rows: number;
  fileName: string;
  /** The zip, made while it is read. */
  stream: ReadableStream<Uint8Array>;
}

/**
 * The seller's data as a zip, streamed: each section's rows are read a page at a time only when the zip reaches
 * its file and the reader has taken the bytes before (yazl writes one entry after another, pulling from each
 * entry's stream), so memory stays flat whatever the number of orders. Counted first, for the progress shown.
 */
export async function exportAccountData(db: Db, sellerId: number, now: Date): Promise<AccountExport> {
  const counts: [string, number][] = [];
  for (const section of SECTIONS) counts.push([section.name, await section.count(db, sellerId)]);
  const zip = new ZipFile();
  const mtime = now;
  zip.addBuffer(Buffer.from(README(now, counts)), 'README.txt', { mtime });
  for (const section of SECTIONS) {
    zip.addReadStream(Readable.from(jsonOf(db, sellerId, section)), `${section.name}.json`, { mtime });
    zip.addReadStream(Readable.from(csvOf(db, sellerId, section)), `${section.name}.csv`, { mtime });
  }
  zip.end();
  return {
    rows: counts.reduce((n, [, c]) => n + c, 0),
    fileName: `sb-portal-data-${now.toISOString().slice(0, 10)}.zip`,
    stream: Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>,
  };
}
