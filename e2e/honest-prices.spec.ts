import { expect, type Page, test } from '@playwright/test';
import { actAs, goInside, openAs, stateFile } from './support';

// The buyer's price all in, the ticket's terms beside it, one price by every method, and the resale cap.

/** '£1,234.50' or 'GBP 1,234.50' as minor units. */
const minorOf = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

async function openEvent(page: Page, competition: string) {
  await openAs(page, 'seller', '/trade/home');
  await page.getByLabel('Competition').fill(competition);
  await page.getByRole('button', { name: 'Search' }).click();
  const events = page.getByRole('list', { name: 'Events' });
  await expect(events.getByText(/from .+ a ticket, fees included/).first()).toBeVisible();
  await events.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/trade\/events\/\d+$/);
}

test.describe('honest prices as the demo seller buying', () => {
  actAs('seller');

  test('the first price on the event page for a quantity is the total to pay; face value shows; no card surcharge', async ({
    page,
  }) => {
    await openEvent(page, 'Premier League');
    const tickets = page.getByRole('list', { name: 'Tickets' });
    await test.step('two tickets: each listing is priced all in for two', async () => {
      await page.getByRole('combobox', { name: 'Tickets' }).click();
      await page.getByRole('option', { name: '2', exact: true }).click();
      await expect(tickets.getByText('for 2 tickets, fees included').first()).toBeVisible();
    });
    const first = tickets.getByRole('listitem').first();
    const shown = minorOf(await first.locator('strong').textContent());
    await test.step('face value, seats and restrictions beside the listing', async () => {
      await expect(first.getByRole('term').filter({ hasText: 'Face value' })).toBeVisible();
      await expect(first.getByRole('term').filter({ hasText: 'Restrictions' })).toBeVisible();
    });
    await first.getByRole('button', { name: /^Buy / }).click();
    const panel = page.getByRole('dialog', { name: 'Confirm Purchase' });
    const total = panel.getByRole('term').filter({ hasText: 'Total to pay' }).locator('xpath=following-sibling::dd[1]');
    await test.step('the panel opens for two tickets, and its total to pay is the price shown first', async () => {
      await expect(panel.getByRole('combobox', { name: 'Quantity' })).toHaveValue(/^2 · .+ all in$/);
      await expect(total).toBeVisible();
      expect(minorOf(await total.textContent())).toBe(shown);
      await expect(panel.getByRole('term').filter({ hasText: 'Face value' })).toBeVisible();
    });
    await test.step("the same price by card: 'Same price by SB Pay or card: no card surcharge'", async () => {
      await expect(panel.getByText('Same price by SB Pay or card: no card surcharge')).toBeVisible();
      await panel.getByRole('radio', { name: 'Card', exact: true }).check();
      await expect(panel.getByRole('radio', { name: 'Card', exact: true })).toBeChecked();
      await expect(total).toHaveText(/\d/);
      expect(minorOf(await total.textContent())).toBe(shown);
    });
  });
});

test.describe('a resale cap set by the operator', () => {
  actAs('seller');

  test('a listing over an active cap is refused, with the cap in words', async ({ page, browser }) => {
    await openAs(page, 'seller');
    await goInside(page, '/add-listings', 'Add Inventory');
    const sell = page.getByRole('list', { name: 'Matches' }).getByRole('button', { name: /^Sell tickets for / });
    await expect(sell.nth(2)).toBeVisible();
    const matchName = ((await sell.nth(2).textContent()) ?? '').replace(/^Sell tickets for /, '').trim();
    await sell.nth(2).click();
    // its id, as the trade search names it
    const sellerToken = (await page.context().cookies()).find((c) => c.name === 'auth_token')?.value ?? '';
    const found = await page.request.get(
      `/api/purchase/lmt-trade/events-search?name=${encodeURIComponent(matchName)}`,
      { headers: { authorization: `Bearer ${sellerToken}` } },
    );
    const matchId =
      ((await found.json()) as { data: { events: { match_id: number }[] } }).data.events[0]?.match_id ?? 0;

    // the operator caps this match at face value (the back office's call, with the admin's session)
    const admin = await browser.newContext({ storageState: stateFile('admin') });
    const token = (await admin.cookies()).find((c) => c.name === 'auth_token')?.value ?? '';
    const setCap = (active: 0 | 1) =>
      admin.request.put('/api/admin/price-caps', {
        headers: { authorization: `Bearer ${token}` },
        data: { event_id: matchId, markup_bps: 0, active },
      });
    expect(matchId).toBeGreaterThan(0);
    expect((await setCap(1)).status()).toBe(200);
    try {
      const form = page.getByRole('form', { name: 'Listing' });
      await page.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option').first().click();
      await form.getByRole('combobox', { name: 'Block' }).fill('101');
      await form.getByRole('textbox', { name: 'Row', exact: true }).fill(`CAP${Date.now() % 100_000}`);
      await form
        .getByRole('radiogroup', { name: 'Ticket type' })
        .locator('label')
        .filter({ hasText: 'Mobile ticket' })
        .click();
      await form.getByRole('textbox', { name: 'Quantity' }).fill('2');
      await form.getByRole('radiogroup', { name: 'Split' }).locator('label').filter({ hasText: 'Pairs only' }).click();
      await form.getByRole('textbox', { name: 'Face value (optional)' }).fill('50');
      await form.getByRole('textbox', { name: 'Price per ticket' }).fill('60');
      const caps = form.getByRole('list', { name: 'Resale price caps' });
      await expect(
        caps.getByText(`Over the resale cap for ${matchName}: at most GBP 50.00 a ticket (face value).`),
      ).toBeVisible();
      await form.getByRole('button', { name: 'List tickets' }).click();
      await expect(form.getByText(/Over the resale cap for/).first()).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Listing created' })).toHaveCount(0);
    } finally {
      await setCap(0);
      await admin.close();
    }
  });
});
