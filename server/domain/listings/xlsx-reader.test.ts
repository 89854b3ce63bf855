import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { XlsxReader } from './xlsx-reader';

const folder = mkdtempSync(join(tmpdir(), 'sb-xlsx-reader-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A workbook as ExcelJS writes one (the portal's template too): its sheets before its shared strings. */
async function workbook(name: string): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const listings = wb.addWorksheet('Listings');
  listings.addRow(['Match', 'Category', 'Block']);
  listings.addRow(['12 | Arsenal vs Chelsea | 2026-12-01', 'Longside Upper Tier', 'Block 40']);
  const lists = wb.addWorksheet('Lists');
  for (let i = 0; i < 30; i++) lists.addRow([`Choice ${i}`, `Other ${i}`]);
  const path = join(folder, name);
  writeFileSync(path, Buffer.from(await wb.xlsx.writeBuffer()));
  return path;
}

/** The first sheet's rows, as text, read by the reader given. */
async function firstSheet(reader: XlsxReader): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const sheet of reader) {
    for await (const row of sheet) rows.push((row.values as unknown[]).slice(1));
    break;
  }
  return rows;
}

/** A reader slow to copy a sheet met before the shared strings, as under a busy disk or thread pool. */
class SlowCopy extends XlsxReader {
  protected override async keep(entry: NodeJS.ReadableStream, file: string): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 50));
    return super.keep(entry, file);
  }
}

describe('XlsxReader (ExcelJS streaming reader, its walk over the zip mended)', () => {
  it('writes sheets before shared strings, as the test needs (ExcelJS writer order)', async () => {
    const path = await workbook('order.xlsx');
    const names = Object.keys((await JSZip.loadAsync(readFileSync(path))).files);
    expect(names.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(names.indexOf('xl/sharedStrings.xml'));
  });

  it('reads the shared strings that come after a sheet, even when copying that sheet is slow', async () => {
    const path = await workbook('slow.xlsx');
    // ExcelJS 4.4's own walk lost every entry after the slow one here (the cells read as {sharedString: n})
    for (let i = 0; i < 3; i++) {
      expect(await firstSheet(new SlowCopy(path))).toEqual([
        ['Match', 'Category', 'Block'],
        ['12 | Arsenal vs Chelsea | 2026-12-01', 'Longside Upper Tier', 'Block 40'],
      ]);
    }
    expect(await firstSheet(new XlsxReader(path))).toHaveLength(2);
  });

  it('removes the sheets it copied, when the walk ends and when it is left early', async () => {
    const path = await workbook('temp.xlsx');
    const ours = () => readdirSync(tmpdir()).filter((n) => n.startsWith('sb-portal-xlsx-'));
    const before = ours().length;
    await firstSheet(new XlsxReader(path));
    const all: unknown[] = [];
    for await (const sheet of new XlsxReader(path)) all.push(sheet);
    expect(all).toHaveLength(2);
    expect(ours().length).toBe(before);
  });
});
