import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { actAs, goInside, openAs } from './support';

// Bulk Inventory in the browser: the template, the preview of every row, Confirm, against the real server.

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The template as a seller fills it: row 2 (the first example) left as it came, row 3 (the second example) changed
 * as given and moved to row 2's match, and more rows after them.
 */
async function filled(template: Buffer, second: Record<string, string | number>, more: Record<string, unknown>[]) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const sheet = wb.getWorksheet('Listings') as ExcelJS.Worksheet;
  const headers = (sheet.getRow(1).values as unknown[]).map(String);
  const at = (column: string) => headers.indexOf(column);
  const match = String(sheet.getRow(2).getCell(at('Match')).value);
  sheet.getRow(3).getCell(at('Match')).value = match;
  for (const [column, value] of Object.entries(second)) sheet.getRow(3).getCell(at(column)).value = value;
  for (const [i, changes] of more.entries()) {
    const row = sheet.getRow(4 + i);
    for (let c = 1; c < headers.length; c++) row.getCell(c).value = sheet.getRow(3).getCell(c).value;
    for (const [column, value] of Object.entries(changes)) row.getCell(at(column)).value = value as ExcelJS.CellValue;
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test.describe('bulk inventory', () => {
  actAs('seller');

  test('a seller checks a filled template, sees each row marked create, skip or refuse with its reason, and confirms', async ({
    page,
  }) => {
    // rows no seeded listing has
    const stamp = Date.now() % 1_000_000;
    const [mine, broken] = [`B${stamp}A`, `B${stamp}B`];
    await openAs(page, 'seller');
    await goInside(page, '/bulk-listings', 'Bulk Inventory');

    const saved = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download template' }).click();
    const download = await saved;
    expect(download.suggestedFilename()).toBe('bulk-listing-template.xlsx');
    const template = await readFile(await download.path());
    const bytes = await filled(template, { Row: mine, Price: 99.5, Notes: '' }, [{ Row: broken, Price: 0 }]);

    const file = page.getByLabel('Listings file');
    const check = page.getByRole('button', { name: 'Check file', exact: true });
    await expect(check).toBeDisabled();
    await file.setInputFiles({ name: 'my-listings.xlsx', mimeType: XLSX, buffer: bytes });
    await check.click();

    const plan = page.getByRole('table', { name: 'What the upload will do, row by row' });
    const row = (n: number) =>
      plan.getByRole('row').filter({ has: page.getByRole('cell', { name: String(n), exact: true }) });
    await test.step("the preview: the untouched example skipped, the seller's row created, the bad row refused", async () => {
      await expect(
        page.getByRole('status').filter({ hasText: '1 listing to create, 1 row skipped, 1 row refused.' }),
      ).toBeVisible();
      await expect(row(2)).toContainText('Skip');
      await expect(row(2)).toContainText("The template's example row 1, unchanged: it is skipped.");
      await expect(row(3)).toContainText('Create');
      await expect(row(3)).toContainText(`row ${mine}`);
      await expect(row(4)).toContainText('Refuse');
      await expect(row(4)).toContainText("Price '0': must be from 5.00 to 100,000.00");
      // the preview as a person meets it: no serious or critical WCAG 2.2 AA issue
      const scan = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
        .analyze();
      expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual(
        [],
      );
    });

    await test.step('Confirm creates the one listing, leaving the others out', async () => {
      await page.getByRole('button', { name: 'Confirm: create 1 listing' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: '1 listing created. 1 row skipped. 1 refused row left out.' }),
      ).toBeVisible();
      await expect(plan).toHaveCount(0);
    });

    await test.step('the same file checked again: the listing is there, so nothing is listed twice', async () => {
      await file.setInputFiles({ name: 'my-listings.xlsx', mimeType: XLSX, buffer: bytes });
      await check.click();
      await expect(
        page.getByRole('status').filter({ hasText: '0 listings to create, 2 rows skipped, 1 row refused.' }),
      ).toBeVisible();
      await expect(row(3)).toContainText(/You already list these tickets \(listing \d+\): it is skipped\./);
      const confirm = page.getByRole('button', { name: 'Confirm', exact: true });
      await expect(confirm).toBeDisabled();
      await expect(confirm).toHaveAccessibleDescription(/Nothing to create/);
    });
  });
});
