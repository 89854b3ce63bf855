import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { actAs, expectOpensInNewTab, holdRequests, openAs, stateFile } from './support';

// Issue 10 in the browser: the top-up panel, the wallet page, the back office and the seller panel.

const TOP_UP = 'Top up your SB pay Account';
const FAILED = 'Unable to save deposit request. Please try again or reach out to support if the issue persists.';
const DEPOSIT_CALL = '**/api/send-deposit-request';

/** A small real PDF (the server reads the type from the first bytes), padded so the upload takes a moment. */
const pdf = () => ({
  name: 'transfer-receipt.pdf',
  mimeType: 'application/pdf',
  buffer: Buffer.concat([
    Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n'),
    Buffer.alloc(256 * 1024, 0x20),
    // a whole PDF ends with its trailer and end-of-file marker: the server refuses one cut short
    Buffer.from('\ntrailer<</Root 1 0 R>>\n%%EOF\n'),
  ]),
});

async function openTopUp(page: Page) {
  await page.getByRole('button', { name: 'Top up' }).click();
  const panel = page.getByRole('dialog', { name: TOP_UP });
  await expect(panel).toBeVisible();
  return panel;
}

async function pick(page: Page, scope: ReturnType<Page['getByRole']>, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('the money round trip', () => {
  actAs('wallet');

  test('a seller tops up with a proof, an admin approves, the seller sees the balance and the notification', async ({
    page,
    browser,
  }) => {
    await openAs(page, 'wallet', '/reports/wallet');
    const gbp = page.getByTestId('balance-GBP');
    await expect(gbp).toHaveText('£0.00');

    await test.step('the seller submits a deposit with its proof, watching the upload', async () => {
      const panel = await openTopUp(page);
      const submit = panel.getByRole('button', { name: 'Submit' });
      await expect(submit).toBeDisabled();
      await panel.getByLabel('Deposit amount').fill('125.50');
      await pick(page, panel, 'Payment transfer by', 'Online transfer');
      await panel.getByLabel('Proof of payment').setInputFiles(pdf());
      await panel.getByLabel('Notes').fill('Sent from Barclays');
      await expect(submit).toBeEnabled();

      // the request waits until the bar has been seen, then goes to the real server
      const release = await holdRequests(page, DEPOSIT_CALL);
      await submit.click();
      await expect(panel.getByRole('progressbar', { name: 'Uploading transfer-receipt.pdf' })).toBeVisible();
      await expect(submit).toBeDisabled();
      release();
      await expect(panel).toBeHidden();
      await page.unroute(DEPOSIT_CALL);
      await expect(page.getByText('Deposit request submitted: pending admin approval')).toBeVisible();

      const history = page.getByRole('region', { name: 'Deposit history' });
      const row = history.getByRole('row').filter({ hasText: '£125.50' });
      await expect(row.getByText('pending admin approval')).toBeVisible();
      await expect(row.locator('[aria-current="step"]')).toHaveText('Under review →');
      await expect(row.getByText(/left of 24 h/)).toBeVisible();
      await expect(page.getByText('£125.50 pending admin approval')).toBeVisible();
      await expect(gbp).toHaveText('£0.00');
    });

    await test.step('an admin opens the proof and approves it after its confirmation (a double click approves once)', async () => {
      const admin = await browser.newContext({ storageState: stateFile('admin') });
      const back = await admin.newPage();
      await back.goto('/admin/deposits');
      await expect(back.getByRole('heading', { level: 1 })).toHaveText('Deposit requests');
      const row = back.getByRole('row').filter({ hasText: 'walletseller@e2e.test' });
      await expect(row).toHaveCount(1);
      await expectOpensInNewTab(back, () => row.getByRole('button', { name: /^View proof/ }).click());
      await row.getByRole('button', { name: /^Approve deposit/ }).click();
      await back.getByRole('dialog').getByRole('button', { name: 'Credit £125.50' }).dblclick();
      await expect(back.getByText(/^Deposit #\d+ approved$/)).toBeVisible();
      await expect(row).toHaveCount(0);
      await admin.close();
    });

    await test.step('the seller sees the new balance, the status and the notification without a reload', async () => {
      await expect(gbp).toHaveText('£125.50');
      await expect(page.getByText('£125.50 pending admin approval')).toHaveCount(0);
      const history = page.getByRole('region', { name: 'Deposit history' });
      const row = history.getByRole('row').filter({ hasText: '£125.50' });
      await expect(row.getByText('approved', { exact: true })).toBeVisible();
      const transactions = page.getByRole('region', { name: 'Transaction history' });
      await expect(transactions.getByRole('row').filter({ hasText: '+£125.50' })).toHaveCount(1);
      // the badge counts the notification the approval wrote, then the panel shows it
      const bell = page.getByRole('navigation', { name: 'Main menu' }).getByRole('button', { name: /^Notifications/ });
      await expect(bell).toContainText('1 unread notifications');
      await bell.click();
      await expect(
        page.getByRole('dialog', { name: 'Notifications' }).getByText('Deposit approved').first(),
      ).toBeVisible();
    });
  });
});

test.describe('a proof sent after the request', () => {
  actAs('rival');

  test('a request sent without its proof gets it from its detail, once', async ({ page }) => {
    await openAs(page, 'rival', '/reports/wallet');
    // an amount of its own, so that a rerun on the same database finds this run's request
    const amount = (10 + Math.floor(Math.random() * 89_999) / 100).toFixed(2);
    const panel = await openTopUp(page);
    await panel.getByLabel('Deposit amount').fill(amount);
    await pick(page, panel, 'Payment transfer by', 'Cash');
    await panel.getByRole('button', { name: 'Submit' }).click();
    await expect(panel).toBeHidden();

    const history = page.getByRole('region', { name: 'Deposit history' });
    const row = history.getByRole('row').filter({ hasText: amount });
    await row.getByRole('button', { name: /^Details/ }).click();
    const detail = page.getByRole('dialog', { name: /^Deposit #\d+$/ });
    await detail.getByLabel('Add proof of payment').setInputFiles(pdf());
    await expect(page.getByText('The proof of payment is added to your deposit request.')).toBeVisible();
    await expect(detail.getByRole('button', { name: 'View proof (transfer-receipt.pdf)' })).toBeVisible();
    // sent once, never replaced
    await expect(detail.getByLabel('Add proof of payment')).toHaveCount(0);
  });
});

test.describe('the top-up panel', () => {
  actAs('seller');

  test('missing fields keep Submit disabled; a refused request shows the spec’s toast and keeps the values', async ({
    page,
  }) => {
    await openAs(page, 'seller', '/reports/wallet');
    const panel = await openTopUp(page);
    const submit = panel.getByRole('button', { name: 'Submit' });
    await expect(submit).toBeDisabled();
    await panel.getByLabel('Deposit amount').fill('20');
    await expect(submit).toBeDisabled();
    await pick(page, panel, 'Payment transfer by', 'Cash');
    await expect(submit).toBeEnabled();
    await panel.getByLabel('Deposit amount').fill('');
    await expect(submit).toBeDisabled();
    await panel.getByLabel('Deposit amount').fill('20');

    await page.route(DEPOSIT_CALL, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"success":false,"message":"down"}' }),
    );
    await submit.click();
    await expect(page.getByText(FAILED, { exact: true })).toBeVisible();
    await expect(panel).toBeVisible();
    await expect(panel.getByLabel('Deposit amount')).toHaveValue('20.00');
    await expect(submit).toBeEnabled();
  });

  test('the bank transfer panel: a skeleton, then four copyable fields, a dash for a missing Swift', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openAs(page, 'seller', '/reports/wallet');
    const release = await holdRequests(page, '**/api/lmt-pay/bank-account-details*');
    const panel = await openTopUp(page);
    await expect(panel.getByRole('status').filter({ hasText: 'Loading the bank details' })).toBeVisible();
    release();
    await expect(panel.getByText('can take up to 24 hours')).toBeVisible();
    const reference = (await panel.getByRole('definition').nth(3).textContent()) ?? '';
    expect(reference).toMatch(/^SBP\d{6}-\d{2}$/);
    await expect(panel.getByRole('note')).toContainText(`Include the reference ${reference}`);

    for (const label of ['Account Name', 'IBAN', 'Swift', 'Reference']) {
      const copy = panel.getByRole('button', { name: `Copy ${label}` });
      await copy.click();
      await expect(copy.locator('[data-icon="check"]')).toBeVisible();
    }
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(reference);

    await pick(page, panel, 'Currency', 'AED (UAE dirham)');
    await expect(panel.getByText('SB Portal FZ-LLC')).toBeVisible();
    await expect(panel.getByRole('definition').nth(2)).toHaveText('-');
    await expect(panel.getByRole('button', { name: 'Copy Swift' })).toHaveCount(0);
  });
});

test.describe('the wallet page', () => {
  actAs('seller');

  test('filters by status, shows a row’s detail with the reason, and exports the rows as CSV', async ({ page }) => {
    await openAs(page, 'seller', '/reports/wallet');
    const history = page.getByRole('region', { name: 'Deposit history' });
    await pick(page, history, 'Deposit status', 'Rejected');
    const rows = history.getByRole('row');
    // the heading row and the seller's one rejected request
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1).getByText(/^Reason: /)).toBeVisible();
    await rows
      .nth(1)
      .getByRole('button', { name: /^Details/ })
      .click();
    const detail = page.getByRole('dialog', { name: /^Deposit #\d+$/ });
    await expect(detail.getByText('rejected', { exact: true })).toBeVisible();
    await detail.getByRole('button', { name: 'Close' }).click();

    const download = page.waitForEvent('download');
    await history.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('sb-pay-deposits.csv');
    const text = readFileSync(await file.path(), 'utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('Deposit,Submitted,Amount,Currency,Payment transfer by,Status,Reason,Reference,Notes');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',75.00,GBP,CASH,rejected,');
  });
});

test.describe('the seller panel', () => {
  actAs('seller');

  test('opens from the name at its offset, with the carousel at the current level, the summary and the forecast', async ({
    page,
  }) => {
    await openAs(page, 'seller');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('button', { name: 'Sam Seller' }).click();
    const panel = page.getByRole('dialog', { name: 'Seller panel' });
    const summary = panel.getByRole('region', { name: 'This quarter' });
    const level = summary.getByText(/^Level [123]$/);
    await expect(level).toBeVisible();
    const current = (await level.textContent()) ?? '';
    await expect(summary.getByText(/^Q[1-4] \d{4}$/)).toBeVisible();
    for (const term of ['Days left', 'GTV so far', 'Required to maintain']) {
      await expect(summary.getByText(term, { exact: true })).toBeVisible();
    }
    // the carousel opens at the current level, marked active
    const slide = panel.locator('[aria-roledescription="slide"]');
    await expect(slide.getByRole('heading')).toHaveText(current);
    await expect(slide).toHaveAttribute('aria-current', 'true');
    await expect(slide.getByText('Active', { exact: true })).toBeVisible();
    // full display: 165 px from the left
    expect((await panel.boundingBox())?.x).toBe(165);

    const previous = panel.getByRole('button', { name: 'Previous level' });
    const next = panel.getByRole('button', { name: 'Next level' });
    while (await previous.isEnabled()) await previous.click();
    await expect(slide.getByRole('heading')).toHaveText('Level 1');
    await expect(slide.getByText('Quarterly GTV from £0.00')).toBeVisible();
    await next.click();
    await next.click();
    await expect(slide.getByRole('heading')).toHaveText('Level 3');
    await expect(slide.getByText('Quarterly GTV from £100,000.00')).toBeVisible();
    await expect(slide.getByText('Dedicated account manager')).toBeVisible();
    await expect(next).toBeDisabled();
    await expect(panel.getByRole('region', { name: 'Forecast' })).toContainText("At this quarter's pace");
    await expect(panel.getByRole('link', { name: 'Settings' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Logout' })).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    // beside the collapsed menu: 60 px
    await menu.getByRole('button', { name: 'Minimise menu' }).click();
    await menu.getByRole('button', { name: 'Sam Seller, seller panel' }).click();
    await expect(panel).toBeVisible();
    expect((await panel.boundingBox())?.x).toBe(60);
  });
});
