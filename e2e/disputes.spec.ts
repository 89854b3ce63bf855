import { expect, test } from '@playwright/test';
import { actAs, expectOpensInNewTab, openAs, stateFile } from './support';

// Buyers' claims: the buyer opens a claim on a paid booking from their purchases; the back office reads its
// dispute pack and upholds it with a refund; the buyer reads the outcome. The rules: docs/decisions/disputes.md.

test.describe('a buyer’s claim', () => {
  actAs('seller');

  test('opened from the purchase page, resolved from the dispute pack with a refund', async ({ page, browser }) => {
    const bookingNo = await test.step('the buyer pays a ticket by SB Pay', async () => {
      await openAs(page, 'seller', '/trade/home');
      await page.getByLabel('Competition').fill('Serie A');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('list', { name: 'Events' }).getByRole('link').first().click();
      await expect(page).toHaveURL(/\/trade\/events\/\d+$/);
      await page.getByRole('list', { name: 'Tickets' }).getByRole('button', { name: /^Buy / }).first().click();
      const panel = page.getByRole('dialog', { name: 'Confirm Purchase' });
      await expect(panel.getByRole('radio', { name: 'SB Pay' })).toBeChecked();
      await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
      await expect(page).toHaveURL(/\/trade\/purchase\?success=true&booking_no=BK\d+/);
      return new URL(page.url()).searchParams.get('booking_no') ?? '';
    });

    await test.step('the buyer opens a claim: a reason and what happened', async () => {
      await page.goto(`/trade/purchase?booking_no=${bookingNo}`);
      await page.getByRole('button', { name: `Open a claim on ${bookingNo}` }).click();
      const form = page.getByRole('form', { name: `Claim on ${bookingNo}` });
      await form.getByRole('combobox', { name: 'What went wrong' }).click();
      await page.getByRole('option', { name: 'Tickets not received', exact: true }).click();
      await form.getByLabel('What happened').fill('Nothing arrived by the morning of the match.');
      await form.getByRole('button', { name: 'Send claim' }).click();
      await expect(page.getByText('Claim opened: the back office will look into it.').first()).toBeVisible();
      await expect(page.getByText(/Claim \(Tickets not received\) opened .*: open: the back office/)).toBeVisible();
    });

    await test.step('the back office downloads the pack and upholds the claim with a refund', async () => {
      const admin = await browser.newContext({ storageState: stateFile('admin') });
      const back = await admin.newPage();
      await back.goto('/admin/disputes');
      await expect(back.getByRole('heading', { level: 1 })).toBeVisible();
      const row = back.getByRole('row', { name: `Claim on ${bookingNo}` });
      await expect(row).toContainText('Nothing arrived by the morning of the match.');
      await expectOpensInNewTab(back, () => row.getByRole('button', { name: `Download pack of ${bookingNo}` }).click());
      await row.getByRole('button', { name: `Uphold the claim on ${bookingNo}` }).click();
      const dialog = back.getByRole('dialog', { name: `Uphold the claim on ${bookingNo}?` });
      await dialog.getByRole('combobox', { name: 'Outcome' }).click();
      await back.getByRole('option', { name: 'Refund the buyer' }).click();
      await dialog.getByLabel('Note (the seller and the buyer read it)').fill('The seller sent no tickets.');
      await dialog.getByRole('button', { name: 'Resolve claim' }).click();
      await expect(row).toHaveCount(0);
      await admin.close();
    });

    await test.step('the buyer reads that they were refunded', async () => {
      await page.reload();
      await expect(page.getByText(/upheld: you were refunded\. The seller sent no tickets\./)).toBeVisible();
    });
  });
});
