import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { actAs, stateFile } from './support';

// The back office's home: the operator lands on /admin with its queues and their counts, a deposit is approved
// only after a confirmation that restates its amount, and the audit log lists the approval.

/** A seller's top-up request, sent as the wallet's form sends it (the arrangement; the test is the back office). */
async function requestDeposit(seller: BrowserContext, minor: number, key: string) {
  const token = (await seller.cookies()).find((c) => c.name === 'auth_token')?.value;
  const answer = await seller.request.post('/api/api/send-deposit-request', {
    headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
    multipart: { deposit_amount: String(minor), currency: 'GBP', payment_transfer_by: 'ONLINE' },
  });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { data: { deposit_id: number } }).data.deposit_id;
}

const card = (page: Page, label: string) =>
  page.getByRole('list', { name: 'Queues' }).getByRole('listitem').filter({ hasText: label });

async function waitingIn(page: Page, label: string): Promise<number> {
  const text = await card(page, label)
    .getByText(/^\d+ waiting$/)
    .textContent();
  return Number(/^(\d+)/.exec(text ?? '')?.[1]);
}

test.describe('the back office home', () => {
  actAs('admin');

  test('lands on /admin with the queues and their counts, without the seller menu', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Back office');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu.getByRole('link', { name: 'Deposit requests' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Audit log' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'My Listings' })).toHaveCount(0);
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    for (const label of [
      'Deposit requests',
      'KYC submissions',
      'Payout requests',
      'Event requests',
      'Erasure requests',
      'Orders needing action',
    ]) {
      await expect(card(page, label).getByText(/^\d+ waiting$/)).toBeVisible();
    }
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });

  test('counts new requests; Approve restates the amount, Cancel leaves it pending, Confirm approves; the log lists it', async ({
    page,
    browser,
  }) => {
    const seller = await browser.newContext({ storageState: stateFile('rival') });
    await page.goto('/admin');
    const before = await waitingIn(page, 'Deposit requests');

    const id = await requestDeposit(seller, 25_000, `e2e-home-${Date.now()}-a`);
    await requestDeposit(seller, 1_234, `e2e-home-${Date.now()}-b`);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(card(page, 'Deposit requests').getByText(`${before + 2} waiting`)).toBeVisible();

    await test.step('Approve asks first, restating the amount; Cancel leaves the request pending', async () => {
      await card(page, 'Deposit requests').getByRole('link').click();
      await expect(page).toHaveURL(/\/admin\/deposits$/);
      const row = page.getByRole('row', { name: `Deposit #${id}` });
      await expect(row).toContainText('£250.00');
      await row.getByRole('button', { name: `Approve deposit #${id}` }).click();
      const dialog = page.getByRole('dialog', { name: `Approve deposit #${id}?` });
      await expect(dialog).toContainText('£250.00 will be credited to the SB Pay wallet');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toBeHidden();
      await page.reload();
      await expect(row).toBeVisible();
      await expect(row.getByRole('button', { name: `Approve deposit #${id}` })).toBeEnabled();
    });

    await test.step('Confirm approves it: it leaves the queue', async () => {
      const row = page.getByRole('row', { name: `Deposit #${id}` });
      await row.getByRole('button', { name: `Approve deposit #${id}` }).click();
      const dialog = page.getByRole('dialog', { name: `Approve deposit #${id}?` });
      await dialog.getByRole('button', { name: 'Credit £250.00' }).click();
      await expect(page.getByText(`Deposit #${id} approved`)).toBeVisible();
      await expect(row).toHaveCount(0);
    });

    await test.step('the audit log lists the approval, and its filter by action', async () => {
      await page.goto('/admin/audit-log');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit log');
      const entry = page.getByRole('row').filter({ hasText: `deposit #${id}` });
      await expect(entry).toContainText('Deposit approved');
      await expect(entry).toContainText('£250.00');
      await expect(entry).toContainText('admin@demo.test');
      const action = page.getByRole('combobox', { name: 'Action' });
      await action.click();
      await page.getByRole('option', { name: 'Deposit rejected' }).click();
      await expect(entry).toHaveCount(0);
      await action.click();
      await page.getByRole('option', { name: 'Deposit approved' }).click();
      await expect(entry).toHaveCount(1);
    });

    await test.step('back home, the count is one less than with both waiting', async () => {
      await page.goto('/admin');
      await expect(card(page, 'Deposit requests').getByText(`${before + 1} waiting`)).toBeVisible();
    });
    await seller.close();
  });
});
