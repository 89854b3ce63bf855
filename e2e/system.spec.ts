import { expect, test } from '@playwright/test';
import { stateFile } from './support';

// The back office's System page: the shop's health, its figures and the last hour, read live from the server.
test.use({ storageState: stateFile('admin') });

test('the back office watches the shop on the System page', async ({ page }) => {
  await page.goto('/dashboard');
  await page.getByRole('navigation').getByRole('link', { name: 'System' }).click();
  await expect(page).toHaveURL(/\/admin\/system$/);
  await expect(page.getByRole('heading', { level: 1, name: 'System' })).toBeVisible();

  await expect(page.getByRole('status').filter({ hasText: 'Ready: every process answers' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Processes' })).toContainText('Server: ready');
  await expect(page.getByText(/^Last good backup:/)).toBeVisible();

  const figures = page.getByRole('region', { name: 'Figures' });
  for (const label of ['Holds open', 'Deposits waiting', 'Payouts waiting', 'Mail queued', 'Purchases confirmed'])
    await expect(figures.getByText(label, { exact: true })).toBeVisible();
  await expect(figures.getByText('Database size', { exact: true })).toBeVisible();

  // this page's own calls are counted: the requests figure moves on Refresh
  const requests = figures.getByText('Requests', { exact: true }).locator('..').locator('dd');
  const before = Number(await requests.textContent());
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect.poll(async () => Number(await requests.textContent())).toBeGreaterThan(before);

  const hour = page.getByRole('region', { name: 'The last hour' });
  await expect(
    hour.getByRole('img', { name: /^Requests a minute: now \d+, peak \d+ in the last hour$/ }),
  ).toBeVisible();
  await expect(hour.getByRole('img', { name: /^Purchases a minute: / })).toBeVisible();
});

test('a seller has no System page', async ({ browser }) => {
  const seller = await browser.newContext({ storageState: stateFile('seller') });
  const page = await seller.newPage();
  await page.goto('/dashboard');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'System' })).toHaveCount(0);
  await seller.close();
});
