import { type Browser, expect, type Page, test } from '@playwright/test';
import { actAs, DEMO_PASSWORD, goInside, openAs, stateFile } from './support';

// Issue 14 (payouts) in the browser, against the real server: the seller adds a payout bank account in
// Settings, requests a payout of its available balance, the back office marks it sent, and the seller's
// history shows it paid.

const IBAN = 'GB82WEST12345698765432';
const BIC = 'NWBKGB2L';

/** Settings › Bank accounts: adds the account as the payout account (a holder name of its own per run). */
async function addPayoutAccount(page: Page, holder: string) {
  await goInside(page, '/settings/bank-accounts', 'Bank accounts');
  const section = page.getByRole('region', { name: 'Payout bank accounts' });
  await section.getByRole('button', { name: 'Add bank account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add bank account' });
  await dialog.getByLabel('Account holder').fill(holder);
  // a mistyped IBAN (its check digits fail): the form stays open with what was typed, the error beside the field
  await dialog.getByLabel('IBAN').fill(IBAN.replace(/2$/, '3'));
  await dialog.getByLabel('SWIFT/BIC').fill(BIC);
  await dialog.getByLabel('Make it the payout account').check();
  await dialog.getByLabel('Your password').fill(DEMO_PASSWORD);
  await dialog.getByRole('button', { name: 'Save bank account' }).click();
  await expect(dialog.getByLabel('IBAN')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Enter a valid IBAN')).toBeVisible();
  await expect(dialog.getByLabel('Account holder')).toHaveValue(holder);
  await dialog.getByLabel('IBAN').fill(IBAN);
  await dialog.getByRole('button', { name: 'Save bank account' }).click();
  await expect(dialog).toBeHidden();
  const added = section.getByRole('listitem').filter({ hasText: holder });
  await expect(added).toContainText('(payout account)');
  await expect(added).toContainText('5432');
  await expect(added).not.toContainText(IBAN);
}

/** The back office marks the payout sent; it leaves the queue. */
async function markSentAsAdmin(browser: Browser, reference: string) {
  const context = await browser.newContext({ storageState: stateFile('admin') });
  const page = await context.newPage();
  try {
    await openAs(page, 'admin');
    await goInside(page, '/admin/payouts', 'Payout requests');
    const row = page.getByRole('row', { name: `Payout ${reference}` });
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Mark sent ${reference}` }).click();
    await expect(row).toBeHidden();
  } finally {
    await context.close();
  }
}

test.describe('payouts', () => {
  actAs('seller');

  test('the seller adds a payout account, requests a payout of the available balance; the back office marks it sent and the seller sees it paid', async ({
    page,
    browser,
  }) => {
    test.slow();
    const holder = `Sam Seller ${Date.now() % 1_000_000}`;
    await openAs(page, 'seller');
    await test.step('Settings › Bank accounts: the seller adds a payout account with the password', () =>
      addPayoutAccount(page, holder));

    const history = page.getByRole('region', { name: 'Payout history' });
    const reference = await test.step('Payouts: the seller sees the balance and requests a payout of it', async () => {
      // the wallet links to Payouts, beside Top up
      await goInside(page, '/reports/wallet', 'Wallet');
      await page.getByRole('region', { name: 'SB Pay balance' }).getByRole('link', { name: 'Payouts' }).click();
      await expect(page).toHaveURL(/\/reports\/payouts$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payouts');
      await expect(page.getByRole('region', { name: 'Payout bank account' })).toContainText(holder);
      const balances = page.getByRole('region', { name: 'Balances' });
      // a currency whose available balance reaches the minimum (the demo's completed sales)
      const row = balances
        .getByRole('row', { name: /^[A-Z]{3} balance$/ })
        .filter({ has: page.getByRole('button', { name: /^Request payout in [A-Z]{3}$/, disabled: false }) })
        .first();
      await expect(row).toBeVisible();
      const request = row.getByRole('button', { name: /^Request payout in [A-Z]{3}$/ });
      const available = ((await row.getByRole('cell').nth(1).textContent()) ?? '').trim();
      expect(available).toMatch(/\d/);
      await request.click();
      const dialog = page.getByRole('dialog', { name: 'Request payout' });
      await expect(dialog).toContainText(`Pay out ${available}, your available balance.`);
      await dialog.getByRole('button', { name: 'Confirm payout' }).click();
      await expect(dialog).toBeHidden();
      // the newest payout heads the history: this one, in progress, for the whole available balance
      const newest = history.getByRole('row', { name: /^Payout \S+$/ }).first();
      await expect(newest.getByRole('cell').nth(4)).toHaveText('In progress');
      await expect(newest.getByRole('cell').nth(2)).toHaveText(available);
      await expect(newest).toContainText('5432');
      return ((await newest.getByRole('cell').first().textContent()) ?? '').trim();
    });
    expect(reference).not.toBe('');

    await test.step('the back office marks it sent', () => markSentAsAdmin(browser, reference));

    await test.step('the seller reloads Payouts and sees it paid', async () => {
      await page.reload();
      const row = history.getByRole('row', { name: `Payout ${reference}` });
      await expect(row.getByRole('cell').nth(4)).toHaveText('Paid');
    });
  });
});
