import { expect, type Page, test } from '@playwright/test';
import { actAs, goInside, openAs } from './support';

// Issue 11 in the browser: a seller lists tickets and manages them in Inventory, against the real server.

async function pick(page: Page, label: string, option?: string) {
  await page.getByRole('combobox', { name: label }).click();
  const options = page.getByRole('option');
  await (option ? options.filter({ hasText: option }).first() : options.first()).click();
}

test.describe('inventory', () => {
  actAs('seller');

  test('a seller lists tickets, finds them in Inventory, changes their price (seen in the log) and unpublishes them', async ({
    page,
  }) => {
    // a row no seeded listing has, so that this listing is found again among hundreds
    const row = `E2E${Date.now() % 1_000_000}`;
    // the listing pages' header names the page instead of greeting the seller
    await openAs(page, 'seller');
    await goInside(page, '/add-listings', 'Add Inventory');

    let matchName = '';
    await test.step('find the match and fill the listing, with the market beside the price', async () => {
      const sell = page.getByRole('list', { name: 'Matches' }).getByRole('button', { name: /^Sell tickets for / });
      await expect(sell.first()).toBeVisible();
      matchName = ((await sell.first().textContent()) ?? '').replace(/^Sell tickets for /, '').trim();
      await sell.first().click();
      await expect(page.getByRole('region', { name: 'Match' }).getByRole('heading', { name: matchName })).toBeVisible();

      const form = page.getByRole('form', { name: 'Listing' });
      const submit = form.getByRole('button', { name: 'List tickets' });
      await expect(submit).toBeDisabled();
      await pick(page, 'Category');
      await form.getByRole('combobox', { name: 'Block' }).fill('101');
      await form.getByRole('textbox', { name: 'Row', exact: true }).fill(row);
      // a person clicks the choice (its radio button is visually hidden inside it)
      await form
        .getByRole('radiogroup', { name: 'Ticket type' })
        .locator('label')
        .filter({ hasText: 'Mobile ticket' })
        .click();
      await expect(form.getByRole('radio', { name: 'Mobile ticket' })).toBeChecked();
      await form.getByRole('textbox', { name: 'Quantity' }).fill('4');
      await form.getByRole('radiogroup', { name: 'Split' }).locator('label').filter({ hasText: 'Pairs only' }).click();
      await expect(form.getByRole('radio', { name: 'Pairs only' })).toBeChecked();
      await form.getByRole('textbox', { name: 'Price per ticket' }).fill('87.50');
      const market = form.getByRole('region', { name: 'Market insights' });
      await expect(market.getByText(/^You receive /)).toBeVisible();
      await expect(market.getByText(/Your price ranks #\d+ of \d+/)).toBeVisible();
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(page.getByRole('heading', { name: 'Listing created' })).toBeVisible();
    });

    const listing = page.getByRole('row', { name: new RegExp(`, row ${row}$`) });
    await test.step('the listing is in Inventory under its match', async () => {
      await page.getByRole('link', { name: 'See it in Inventory' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inventory');
      const filters = page.getByRole('form', { name: 'Filter listings' });
      await filters.getByRole('searchbox', { name: 'Match' }).fill(matchName);
      await filters.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByRole('table', { name: 'Listings' }).getByText(matchName).first()).toBeVisible();
      await expect(listing).toBeVisible();
      await expect(listing).toContainText('87.50');
      await expect(listing).toContainText('Pairs only');
      await expect(listing).toContainText('Published');
    });

    await test.step('edited: two more tickets', async () => {
      await listing.getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit listing' });
      await dialog.getByRole('textbox', { name: 'Quantity' }).fill('6');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await expect(listing.getByRole('cell').nth(7)).toHaveText(/6$/);
    });

    await test.step('a new price, then the change in the listing log', async () => {
      // in place: Enter saves, what the seller receives shows while typing
      await listing.getByRole('button', { name: /^Price of / }).click();
      await listing.getByRole('textbox', { name: /^New price of / }).fill('80');
      await expect(listing.getByRole('status')).toHaveText(/^You receive £[\d,.]+ for \d+ tickets?$/);
      await page.keyboard.press('Enter');
      await expect(listing).toContainText('80.00');
      await listing.getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menuitem', { name: 'Details' }).click();
      const drawer = page.getByRole('dialog', { name: new RegExp(`^${matchName}`) });
      await expect(drawer.getByRole('button', { name: 'Logs', pressed: true })).toBeVisible();
      await expect(
        drawer
          .getByRole('list', { name: 'Ticket logs' })
          .getByText(/^Price changed/)
          .first(),
      ).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
    });

    await test.step('unpublished, it stays in Inventory as unpublished', async () => {
      await listing.getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menuitem', { name: 'Unpublish' }).click();
      await expect(listing).toContainText('Unpublished');
      await listing.getByRole('button', { name: /^Actions for / }).click();
      await expect(page.getByRole('menuitem', { name: 'Publish' })).toBeVisible();
      await page.keyboard.press('Escape');
      // the server keeps it so: a reload shows the same
      await goInside(page, '/dashboard', 'Dashboard');
      await goInside(page, '/my-listings', 'Inventory');
      const filters = page.getByRole('form', { name: 'Filter listings' });
      await filters.getByRole('searchbox', { name: 'Match' }).fill(matchName);
      await filters.getByRole('button', { name: 'Search' }).click();
      await expect(listing).toContainText('Unpublished');
    });
  });
});
