import { type Browser, expect, type Page, test } from '@playwright/test';
import { actAs, goInside, openAs, stateFile } from './support';

// A seller works through its sales as a person does: ticks pending orders and accepts them from the list, reads
// each open order's next deadline and its urgency in words, and lists tickets with an in-hand date that the buyer
// then sees. The seller is e2e/server.ts's workseller, whose orders no other spec touches.

actAs('work');

test('accepts three pending sales from the list at once, after a confirmation that says what happens', async ({
  page,
}) => {
  await openAs(page, 'work', '/sales/pending');
  const orders = page.getByRole('heading', { name: /^Pending orders/ });
  await expect(orders).toBeVisible();
  // each pending order says by when it must be accepted
  await expect(page.getByTestId('order-SB-WORK-P1').getByText(/Accept by/)).toBeVisible();
  for (const n of ['P1', 'P2', 'P3']) await page.getByRole('checkbox', { name: `Select order SB-WORK-${n}` }).check();
  const toolbar = page.getByRole('toolbar', { name: 'Selected orders' });
  await expect(toolbar.getByText('3 orders selected')).toBeVisible();
  await toolbar.getByRole('button', { name: 'Accept selected' }).click();

  const dialog = page.getByRole('dialog', { name: 'Accept 3 orders?' });
  await expect(dialog.getByText(/Each is confirmed and moves to Awaiting Delivery/)).toBeVisible();
  await expect(dialog.getByText(/SB-WORK-P2/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Accept 3 orders' }).click();

  const results = page.getByRole('status', { name: 'Results' });
  await expect(results.getByText('3 orders accepted.')).toBeVisible();
  for (const n of ['P1', 'P2', 'P3']) {
    await expect(results.getByText(`Done: SB-WORK-${n}: Order accepted.`)).toBeVisible();
  }
  // the list reloads without them, and Awaiting Delivery has them
  await expect(page.getByText('No pending orders.')).toBeVisible();
  await goInside(page, '/sales/confirmed', 'Sales: Awaiting Delivery');
  await expect(page.getByTestId('order-SB-WORK-P3')).toBeVisible();
});

test('shows each open order its next deadline, its urgency in words as well as colour', async ({ page }) => {
  await openAs(page, 'work', '/sales/confirmed');
  const cockpit = page.getByRole('list', { name: 'Orders by delivery deadline' });
  const late = cockpit.getByTestId('cockpit-SB-WORK-LATE');
  const soon = cockpit.getByTestId('cockpit-SB-WORK-SOON');
  const later = cockpit.getByTestId('cockpit-SB-WORK-LATER');
  await expect(late.getByText('Overdue', { exact: true })).toBeVisible();
  await expect(late.getByText(/Deliver by .* · Overdue by [23] h/)).toBeVisible();
  await expect(soon.getByText('Due within 24 h')).toBeVisible();
  await expect(soon.getByText(/Deliver by .* · due in [45] h/)).toBeVisible();
  await expect(later.getByText('On track')).toBeVisible();
  await expect(later.getByText(/Deliver by .* · due in 6 days/)).toBeVisible();
  await expect(late).toHaveAttribute('data-tone', 'overdue');
  await expect(soon).toHaveAttribute('data-tone', 'urgent');
  // the colour is there too: red for overdue, amber within 24 hours
  const colour = (row: typeof late) => row.getByTestId('deadline').locator('span').first();
  expect(await colour(late).evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
    await colour(soon).evaluate((el) => getComputedStyle(el).backgroundColor),
  );
  // the list says it for each row as well
  await expect(page.getByTestId('order-SB-WORK-LATE').getByText('Overdue', { exact: true })).toBeVisible();

  // the dashboard's Awaiting delivery too
  await goInside(page, '/dashboard', 'Dashboard');
  const awaiting = page.getByRole('region', { name: /Awaiting delivery/ });
  await expect(awaiting.getByText('Overdue', { exact: true })).toBeVisible();
  await expect(awaiting.getByText('Due within 24 h')).toBeVisible();
});

/** The buyer finds the match and opens its page. */
async function openMatchAsRival(browser: Browser, matchName: string): Promise<Page> {
  const context = await browser.newContext({ storageState: stateFile('rival') });
  const page = await context.newPage();
  await openAs(page, 'rival', '/trade/home');
  await page.getByLabel('Event name').fill(matchName);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('list', { name: 'Events' }).getByRole('link', { name: matchName }).first().click();
  await expect(page).toHaveURL(/\/trade\/events\/\d+$/);
  return page;
}

test('lists tickets in hand from a day, which the buyer sees on the event page and in the purchase', async ({
  page,
  browser,
}) => {
  const row = `IH${Date.now() % 100_000}`;
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  const shown = new RegExp(`Tickets in hand from \\w{3}, ${today.getDate()} \\w{3} ${today.getFullYear()}`);

  await openAs(page, 'work');
  await goInside(page, '/add-listings', 'Add Inventory');
  const sell = page.getByRole('list', { name: 'Matches' }).getByRole('button', { name: /^Sell tickets for / });
  await expect(sell.first()).toBeVisible();
  const matchName = ((await sell.first().textContent()) ?? '').replace(/^Sell tickets for /, '').trim();
  await sell.first().click();
  const form = page.getByRole('form', { name: 'Listing' });
  await page.getByRole('combobox', { name: 'Category' }).click();
  await page.getByRole('option').first().click();
  await form.getByRole('combobox', { name: 'Block' }).fill('101');
  await form.getByRole('textbox', { name: 'Row', exact: true }).fill(row);
  await form.getByRole('radiogroup', { name: 'Ticket type' }).locator('label').filter({ hasText: 'E-ticket' }).click();
  await form.getByRole('textbox', { name: 'Quantity' }).fill('1');
  await form.getByRole('textbox', { name: 'Price per ticket' }).fill('5.00');
  await form.getByLabel('Tickets in hand from (optional)').fill(day);
  await form.getByRole('button', { name: 'List tickets' }).click();
  await expect(page.getByRole('heading', { name: 'Listing created' })).toBeVisible();

  const buyer = await openMatchAsRival(browser, matchName);
  try {
    const offer = buyer
      .getByRole('list', { name: 'Tickets' })
      .getByRole('listitem')
      .filter({ hasText: `Row ${row}` });
    await expect(offer.getByText(shown)).toBeVisible();
    await offer.getByRole('button', { name: new RegExp(` row ${row}$`) }).click();
    const panel = buyer.getByRole('dialog', { name: 'Confirm Purchase' });
    await expect(panel.getByText(shown)).toBeVisible();
  } finally {
    await buyer.context().close();
  }
});
