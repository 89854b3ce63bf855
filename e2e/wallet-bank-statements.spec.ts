import { expect, type Page, test } from '@playwright/test';
import { actAs, openAs, stateFile } from './support';

// Bank-statement matching: a seller sends a top-up with their reference written loosely, the back office imports
// the bank's CSV, the line credits the wallet at once; the line no one can place waits for a person; the same
// statement imported again credits nothing twice. The broker's wallet: no other spec touches it.

async function requestTopUp(page: Page, amount: string): Promise<string> {
  await page.getByRole('button', { name: 'Top up' }).click();
  const panel = page.getByRole('dialog', { name: 'Top up your SB pay Account' });
  await expect(panel.getByText('can take up to 24 hours')).toBeVisible();
  const reference = (await panel.getByRole('definition').nth(3).textContent()) ?? '';
  expect(reference).toMatch(/^SBP\d{6}-\d{2}$/);
  await panel.getByLabel('Deposit amount').fill(amount);
  await panel.getByRole('combobox', { name: 'Payment transfer by' }).click();
  await page.getByRole('option', { name: 'Online transfer', exact: true }).click();
  await panel.getByRole('button', { name: 'Submit' }).click();
  await expect(panel).toBeHidden();
  return reference;
}

test.describe('bank statements', () => {
  actAs('broker');

  test('an imported statement credits the top-up its line names, once; the unplaced line waits and is dismissed', async ({
    page,
    browser,
  }) => {
    await openAs(page, 'broker', '/reports/wallet');
    const gbp = page.getByTestId('balance-GBP');
    await expect(gbp).toHaveText('£0.00');
    const reference = await requestTopUp(page, '313.37');
    const history = page.getByRole('region', { name: 'Deposit history' });
    await expect(
      history
        .getByRole('row')
        .filter({ hasText: '£313.37' })
        .getByText(/left of 24 h/),
    ).toBeVisible();

    const run = Date.now().toString(36);
    const today = new Date().toISOString().slice(0, 10);
    // the reference as people type it: lower case, a space for the dash, inside other words
    const loose = reference.toLowerCase().replace('-', ' ');
    const csv = [
      'Date,Amount,Currency,Reference,Payer,Transaction ID',
      `${today},313.37,GBP,Top up ${loose} thanks,Bea Broker,${run}-1`,
      `${today},41.20,GBP,INVOICE ${run} WIDGETS,Acme Widgets Ltd,${run}-2`,
      `${today},-12.00,GBP,Monthly account fee,,${run}-3`,
    ].join('\n');
    const statement = { name: `statement-${run}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) };

    const admin = await browser.newContext({ storageState: stateFile('admin') });
    const back = await admin.newPage();
    await back.goto('/admin/bank-statements');
    const importer = back.getByRole('region', { name: 'Import a bank statement' });
    const importButton = importer.getByRole('button', { name: 'Import' });
    await expect(importButton).toBeDisabled();

    await test.step('a file that is not a statement is refused with the reason, and stays chosen', async () => {
      await importer
        .getByLabel('Statement file')
        .setInputFiles({ name: 'notes.csv', mimeType: 'text/csv', buffer: Buffer.from('name,colour\nBea,blue\n') });
      await importButton.click();
      await expect(importer.getByText(/^This file is not a bank statement we can read/)).toBeVisible();
      await expect(importButton).toBeEnabled();
    });

    await test.step('the statement: one line credited without a person, one left to review, the debit skipped', async () => {
      await importer.getByLabel('Statement file').setInputFiles(statement);
      await importButton.click();
      await expect(importer.getByRole('status')).toHaveText(
        '2 credit lines read: 1 credited without a person, 1 to review, 0 already imported, 1 skipped (debits).',
      );
      await expect(back.getByText('Statement imported: 1 credited, 1 to review.')).toBeVisible();
      const line = back.getByRole('row').filter({ hasText: `INVOICE ${run} WIDGETS` });
      await expect(line).toContainText('£41.20');
      await expect(line).toContainText('No seller reference found');
      await expect(back.getByRole('row').filter({ hasText: 'Top up' })).toHaveCount(0);
    });

    await test.step('the same statement again credits nothing twice', async () => {
      await importer.getByLabel('Statement file').setInputFiles({ ...statement, buffer: Buffer.from(`${csv}\n`) });
      await importButton.click();
      await expect(importer.getByRole('status')).toHaveText(
        '2 credit lines read: 0 credited without a person, 0 to review, 2 already imported, 1 skipped (debits).',
      );
    });

    await test.step('the line no one can place is dismissed with a reason and leaves the queue', async () => {
      const line = back.getByRole('row').filter({ hasText: `INVOICE ${run} WIDGETS` });
      await line.getByRole('button', { name: /^Dismiss statement line #\d+$/ }).click();
      const dialog = back.getByRole('dialog', { name: /^Dismiss statement line #\d+$/ });
      await dialog.getByLabel('Reason (kept in the audit log)').fill('A customer payment, not a top-up');
      await dialog.getByRole('button', { name: 'Dismiss' }).click();
      await expect(line).toHaveCount(0);
    });
    await admin.close();

    await test.step('the seller sees the top-up approved and the balance credited once', async () => {
      await page.reload();
      await expect(gbp).toHaveText('£313.37');
      const row = page.getByRole('region', { name: 'Deposit history' }).getByRole('row').filter({ hasText: '£313.37' });
      await expect(row.getByText('approved', { exact: true })).toBeVisible();
    });
  });
});
