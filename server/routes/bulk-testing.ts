import ExcelJS from 'exceljs';
import { COLUMNS } from '../domain/listings/bulk-columns';

/** The bulk template's column headers, in order (the bulk upload tests build their sheets with them). */
export const HEADERS = COLUMNS.map((c) => c.header);

/** A workbook with one sheet 'Listings': the header row, then `rows`. */
export async function xlsx(rows: unknown[][], header: unknown[] = HEADERS): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Listings');
  sheet.addRow(header);
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
