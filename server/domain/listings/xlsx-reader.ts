import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import ExcelJS from 'exceljs';

type ZipEntry = NodeJS.ReadableStream & AsyncIterable<Buffer> & { path: string; autodrain(): void };
type ReaderEvent = { eventType: string; value: unknown };

/** What ExcelJS's WorkbookReader keeps and parses with (4.4.0, pinned in package.json). */
interface ReaderInternals {
  sharedStrings?: unknown[];
  workbookRels?: unknown;
  model: { sheets: unknown[] };
  _parseRels(entry: ZipEntry): Promise<void>;
  _parseWorkbook(entry: ZipEntry): Promise<void>;
  _parseSharedStrings(entry: ZipEntry): AsyncGenerator<ReaderEvent>;
  _parseWorksheet(chunks: AsyncIterable<Buffer>, sheetNo: string): Generator<ReaderEvent>;
}

const require = createRequire(import.meta.url);
// unzipper: ExcelJS's own zip reader (its dependency), the one its WorkbookReader uses
const unzipper = require('unzipper') as { Parse(o: { forceStream: true }): NodeJS.ReadWriteStream };

const SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;

/**
 * ExcelJS's streaming workbook reader, with its walk over the zip's entries mended.
 *
 * ExcelJS 4.4 walks the entries with its own `iterateStream`, which stops at the zip parser's 'end' event. unzipper
 * 0.10 emits that event as soon as it has parsed the whole input, while entries it has already parsed may still
 * wait in its buffer for the reader. The reader is slow on an entry whenever a sheet comes before the shared
 * strings (Excel's own order, and ExcelJS's writer's): the sheet is copied to a temporary file first. The entries
 * after it (sharedStrings.xml, workbook.xml) were then dropped, and every text cell read as `{sharedString: n}`:
 * 1 upload in 8 of the portal's own template failed, always with the same bytes (ExcelJS issue #683, open; the fix
 * proposed upstream, PR #2915, is not released). Node's own async iterator, used here, reads what the parser
 * buffered before it ends.
 *
 * The rest is ExcelJS's `parse()` for the options used here (no styles, hyperlinks or entry events): the sheets met
 * before the shared strings wait in a temporary folder of their own, removed when the walk ends or is left.
 * Delete this class once an ExcelJS release walks the zip so.
 */
export class XlsxReader extends ExcelJS.stream.xlsx.WorkbookReader {
  private readonly path: string;

  constructor(path: string) {
    super(path, {
      worksheets: 'emit',
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      entries: 'ignore',
    });
    this.path = path;
    // The reader names a sheet from xl/workbook.xml when it meets the sheet; in a zip where that entry comes after
    // the sheet, it read `this.model.sheets` of nothing and threw: an empty model until the workbook's entry
    // replaces it (only the first sheet's rows are read here, never its name).
    (this as unknown as ReaderInternals).model = { sheets: [] };
  }

  /** Copies a sheet met before the shared strings to a file, to be read once they are in. */
  protected async keep(entry: NodeJS.ReadableStream, file: string): Promise<void> {
    await pipeline(entry, createWriteStream(file));
  }

  override async *parse(): AsyncGenerator<ReaderEvent> {
    const reader = this as unknown as ReaderInternals;
    const input = createReadStream(this.path);
    const zip = input.pipe(unzipper.Parse({ forceStream: true }));
    const waiting: { sheetNo: string; file: string }[] = [];
    let folder: string | null = null;
    try {
      for await (const entry of zip as unknown as AsyncIterable<ZipEntry>) {
        const sheetNo = SHEET.exec(entry.path)?.[1];
        if (entry.path === 'xl/_rels/workbook.xml.rels') await reader._parseRels(entry);
        else if (entry.path === 'xl/workbook.xml') await reader._parseWorkbook(entry);
        else if (entry.path === 'xl/sharedStrings.xml') yield* reader._parseSharedStrings(entry);
        else if (sheetNo && reader.sharedStrings && reader.workbookRels) yield* reader._parseWorksheet(entry, sheetNo);
        else if (sheetNo) {
          folder ??= await mkdtemp(join(tmpdir(), 'sb-portal-xlsx-'));
          const file = join(folder, `sheet${sheetNo}.xml`);
          await this.keep(entry, file);
          waiting.push({ sheetNo, file });
        }
        entry.autodrain();
      }
      for (const { sheetNo, file } of waiting) yield* reader._parseWorksheet(createReadStream(file), sheetNo);
    } finally {
      input.destroy();
      (zip as unknown as { destroy(): void }).destroy();
      if (folder) await rm(folder, { recursive: true, force: true });
    }
  }
}
