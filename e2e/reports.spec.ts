import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { actAs, holdRequests, logIn, openAs, pickOption, startLoggedOut } from './support';

// Issue 14 in the browser: report history's period changes the figures and the chart; the export is the list.

test.describe('report history', () => {
  actAs('seller');

  test('a preset changes the totals and the chart; the CSV export holds the filtered orders', async ({ page }) => {
    // the charting library is held back: its placeholder keeps the chart's place (nothing moves when it draws)
    const release = await holdRequests(page, '**/assets/bar-chart-draw-*');
    await openAs(page, 'seller', '/report-history');
    const overview = page.getByRole('region', { name: 'Overview' });
    const gross = overview.locator('[data-figure=gross_sales]');
    const chart = overview.getByRole('img').first();
    await expect(overview).toHaveAttribute('aria-busy', 'false');
    await expect(chart).toHaveAttribute('data-chart', 'loading');
    const placeholder = await chart.boundingBox();
    release();
    await expect(chart).toHaveAttribute('data-chart', 'drawn');
    await expect(chart.locator('.ct-bar').first()).toBeAttached();
    expect((await chart.boundingBox())?.height).toBe(placeholder?.height);
    const monthGross = await gross.textContent();
    const monthChart = await chart.getAttribute('aria-labelledby');
    const monthSummary = await page.locator(`[id="${monthChart}"]`).textContent();

    await pickOption(page, 'Period', 'Year to date');
    await expect(overview.getByRole('heading', { level: 2 })).toContainText('1 Jan');
    await expect(overview).toHaveAttribute('aria-busy', 'false');
    await expect(gross).not.toHaveText(monthGross ?? '');
    const ytdSummary = await page.locator(`[id="${await chart.getAttribute('aria-labelledby')}"]`).textContent();
    expect(ytdSummary).not.toBe(monthSummary);

    const history = page.getByRole('region', { name: 'History' });
    const pages = history.getByRole('navigation', { name: 'History pages' });
    await expect(pages).toContainText(/\(\d+ orders\)/);
    const total = Number(/\((\d+) orders\)/.exec((await pages.textContent()) ?? '')?.[1]);
    const download = page.waitForEvent('download');
    await history.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^sales-report-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(await file.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('Order number');
    expect(lines).toHaveLength(total + 1);
  });

  test('scheduled reports: Weekly is saved and says what goes next, to whom; Off turns it off', async ({ page }) => {
    await openAs(page, 'seller', '/report-history');
    const section = page.getByRole('region', { name: 'Scheduled reports' });
    await pickOption(section, 'Email me the report', 'Weekly');
    await section.getByRole('button', { name: 'Save schedule' }).click();
    await expect(page.getByText('Scheduled reports saved.')).toBeVisible();
    await expect(section).toContainText('sent to seller@demo.test once it is over');
    await pickOption(section, 'Email me the report', 'Off');
    await section.getByRole('button', { name: 'Save schedule' }).click();
    await expect(page.getByText('Scheduled reports turned off.')).toBeVisible();
    await expect(section).toContainText('No report is emailed.');
  });
});

test.describe('the currency the dashboard and its report open in', () => {
  startLoggedOut();

  test('GBP by default (spec section 7); an account whose currency is EUR opens both in EUR', async ({ page }) => {
    await logIn(page, 'eurseller@e2e.test');
    await expect(page.getByRole('heading', { name: 'Sales overview (EUR)' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Currency' })).toHaveValue('EUR');
    await page.goto('/report-history');
    await expect(reportCurrency(page)).toHaveValue('EUR');
    await logOutAndIn(page, 'seller@demo.test');
    await expect(page.getByRole('heading', { name: 'Sales overview (GBP)' })).toBeVisible();
    await page.goto('/report-history');
    await expect(reportCurrency(page)).toHaveValue('GBP');
  });
});

async function logOutAndIn(page: Page, email: string) {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await logIn(page, email);
}

/** The report's own currency filter (the scheduled reports below have one too). */
const reportCurrency = (page: Page) => page.getByRole('combobox', { name: 'Currency', exact: true }).first();
