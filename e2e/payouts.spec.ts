import { type Browser, expect, type Page, test } from '@playwright/test';
import { actAs, DEMO_PASSWORD, goInside, openAs, pickOption, stateFile } from './support';

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

/** The back office marks the payout sent, or failed with a reason; it leaves the queue either way. */
async function decideAsAdmin(browser: Browser, reference: string, decision: { failed: string } | 'sent') {
  const context = await browser.newContext({ storageState: stateFile('admin') });
  const page = await context.newPage();
  try {
    await openAs(page, 'admin');
    await goInside(page, '/admin/payouts', 'Payout requests');
    const row = page.getByRole('row', { name: `Payout ${reference}` });
    await expect(row).toBeVisible();
    if (decision === 'sent') {
      await row.getByRole('button', { name: `Mark sent ${reference}` }).click();
      const dialog = page.getByRole('dialog', { name: `Mark payout ${reference} sent?` });
      await dialog.getByRole('button', { name: /^Mark .* sent$/ }).click();
    } else {
      await row.getByRole('button', { name: `Mark failed ${reference}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Mark payout failed' });
      const confirm = dialog.getByRole('button', { name: 'Mark failed' });
      await expect(confirm).toBeDisabled();
      await dialog.getByLabel('Reason (the seller reads it)').fill(decision.failed);
      await confirm.click();
      await expect(dialog).toBeHidden();
    }
    await expect(row).toBeHidden();
  } finally {
    await context.close();
  }
}

/** An amount as shown ('£1,234.50', 'AED 1,234.50') in minor units. */
const minorOf = (shown: string) => Math.round(Number(shown.replace(/[^\d.]/g, '')) * 100);

test.describe('payouts', () => {
  actAs('seller');

  // Each run pays out the minimum (20.00) of one currency's balance, not all of it, so the spec can run again
  // and again on one database (--repeat-each) until the demo's earnings are spent.
  test('the seller adds a payout account and requests 20.00; the back office marks it failed (the money comes back), then a second one sent, and the seller sees it paid', async ({
    page,
    browser,
  }) => {
    test.slow();
    const holder = `Sam Seller ${Date.now() % 1_000_000}`;
    await openAs(page, 'seller');
    await test.step('Settings › Bank accounts: the seller adds a payout account with the password', () =>
      addPayoutAccount(page, holder));

    const history = page.getByRole('region', { name: 'Payout history' });
    const balances = page.getByRole('region', { name: 'Balances' });
    /** The available balance shown for `currency`, in minor units. */
    const availableIn = async (currency: string) =>
      minorOf(
        (await balances
          .getByRole('row', { name: `${currency} balance` })
          .getByRole('cell')
          .nth(1)
          .textContent()) ?? '',
      );
    /** Requests 20.00 in `currency` (after trying less than the minimum); answers the new payout's reference. */
    const requestMinimum = async (currency: string, symbol: string) => {
      const row = balances.getByRole('row', { name: `${currency} balance` });
      const available = ((await row.getByRole('cell').nth(1).textContent()) ?? '').trim();
      await row.getByRole('button', { name: `Request payout in ${currency}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Request payout' });
      const amount = dialog.getByLabel(`Amount (${currency})`);
      // it starts at the whole available balance
      expect(minorOf(await amount.inputValue())).toBe(minorOf(available));
      await amount.fill('19.99');
      await expect(dialog.getByText(`The smallest payout is ${symbol}20.00.`)).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Confirm payout' })).toBeDisabled();
      await amount.fill('20');
      await expect(dialog).toContainText(`Pay out ${symbol}20.00. After the ${symbol}1.00 fee, ${symbol}19.00 reaches`);
      await dialog.getByRole('button', { name: 'Confirm payout' }).click();
      await expect(dialog).toBeHidden();
      // the newest payout heads the history: this one, in progress, for 20.00
      const newest = history.getByRole('row', { name: /^Payout \S+$/ }).first();
      await expect(newest.getByRole('cell').nth(4)).toHaveText('In progress');
      await expect(newest.getByRole('cell').nth(2)).toHaveText(`${symbol}20.00`);
      await expect(newest).toContainText('5432');
      const reference = ((await newest.getByRole('cell').first().textContent()) ?? '').trim();
      expect(reference).not.toBe('');
      return reference;
    };

    const { currency, symbol, before } = await test.step('Payouts: the seller sees its balances', async () => {
      // the wallet links to Payouts, beside Top up
      await goInside(page, '/reports/wallet', 'Wallet');
      await page.getByRole('region', { name: 'SB Pay balance' }).getByRole('link', { name: 'Payouts' }).click();
      await expect(page).toHaveURL(/\/reports\/payouts$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payouts');
      await expect(page.getByRole('region', { name: 'Payout bank account' })).toContainText(holder);
      // a currency whose available balance reaches the minimum (the demo's completed sales)
      const request = balances.getByRole('button', { name: /^Request payout in [A-Z]{3}$/, disabled: false }).first();
      await expect(request).toBeVisible();
      const currency = ((await request.textContent()) ?? '').replace(/^Request payout in /, '').trim();
      expect(currency).toMatch(/^[A-Z]{3}$/);
      const shown = (
        (await balances
          .getByRole('row', { name: `${currency} balance` })
          .getByRole('cell')
          .nth(1)
          .textContent()) ?? ''
      ).trim();
      return { currency, symbol: shown.replace(/[\d.,]+$/, ''), before: minorOf(shown) };
    });

    const failed = await test.step('requests 20.00: it is in progress and the balance is 20.00 less', async () => {
      const reference = await requestMinimum(currency, symbol);
      await expect.poll(() => availableIn(currency)).toBe(before - 2_000);
      return reference;
    });

    await test.step('the back office marks it failed with a reason', () =>
      decideAsAdmin(browser, failed, { failed: 'The bank returned it: account closed' }));

    await test.step('the seller reloads: failed, with the reason, and the 20.00 is available again', async () => {
      await page.reload();
      const row = history.getByRole('row', { name: `Payout ${failed}` });
      await expect(row.getByRole('cell').nth(4)).toHaveText('Failed');
      await expect.poll(() => availableIn(currency)).toBe(before);
      await row.getByRole('button', { name: `Details of ${failed}` }).click();
      const details = page.getByRole('dialog', { name: `Payout ${failed}` });
      await expect(details).toContainText('The bank returned it: account closed');
      await details.getByRole('button', { name: /close/i }).first().click();
      await expect(details).toBeHidden();
    });

    const sent = await test.step('requests 20.00 again', () => requestMinimum(currency, symbol));

    await test.step('the back office marks it sent', () => decideAsAdmin(browser, sent, 'sent'));

    await test.step('the seller reloads Payouts and sees it paid, its balance 20.00 less', async () => {
      await page.reload();
      const row = history.getByRole('row', { name: `Payout ${sent}` });
      await expect(row.getByRole('cell').nth(4)).toHaveText('Paid');
      await expect.poll(() => availableIn(currency)).toBe(before - 2_000);
    });

    await test.step('Orders and payouts: the sales it was paid from show as paid out, and the filter narrows', async () => {
      const report = page.getByRole('region', { name: 'Orders and payouts' });
      // a state cell, not the column headers of the same words
      const paidOut = report.getByRole('cell').filter({ hasText: /^(Paid out|Partly paid out)$/ });
      await expect(paidOut.first()).toBeVisible();
      await pickOption(report, 'Payout state', 'Not paid out');
      await expect(report.getByRole('cell', { name: 'Not paid out', exact: true }).first()).toBeVisible();
      await expect(paidOut).toHaveCount(0);
    });
  });
});
