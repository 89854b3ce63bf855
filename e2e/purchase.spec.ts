import { expect, type Page, test } from '@playwright/test';
import { actAs, openAs } from './support';

// The purchase through the real server with the sandbox gateway (the default with no keys): its test cards
// (4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined) and the demo stored cards.

/** Searches a competition, opens its first event and its first ticket's Confirm Purchase panel. */
async function openPanel(page: Page, competition: string) {
  await openAs(page, 'seller', '/trade/home');
  await page.getByLabel('Competition').fill(competition);
  await page.getByRole('button', { name: 'Search' }).click();
  const events = page.getByRole('list', { name: 'Events' });
  await expect(events.getByRole('link').first()).toBeVisible();
  await events.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/trade\/events\/\d+$/);
  const tickets = page.getByRole('list', { name: 'Tickets' });
  await expect(tickets.getByRole('img').first()).toBeVisible();
  await tickets.getByRole('button', { name: /^Buy / }).first().click();
  const panel = page.getByRole('dialog', { name: 'Confirm Purchase' });
  await expect(panel.getByRole('heading', { name: 'Review Purchase' })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Billing Address' })).toBeVisible();
  await expect(panel.getByRole('heading', { name: 'Payment' })).toBeVisible();
  return panel;
}

async function expectSuccess(page: Page) {
  await expect(page.getByText('Booking Confirmed Successfully').first()).toBeVisible();
  await expect(page).toHaveURL(/\/trade\/purchase\?success=true&booking_no=BK\d+/);
  const bookingNo = new URL(page.url()).searchParams.get('booking_no') ?? '';
  await expect(page.getByRole('definition').filter({ hasText: 'confirmed' })).toBeVisible();
  // what was charged, as the payment says it (a booking not paid says 'Total … (not paid)' instead)
  await expect(page.getByRole('term').filter({ hasText: /^Paid$/ })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Purchases' }).getByRole('link', { name: bookingNo })).toBeVisible();
}

test.describe('purchase as the demo seller', () => {
  actAs('seller');

  test('SB Pay (method 1): the breakdown with zero fees as 0.00, the primary address, the balance with Deposit', async ({
    page,
  }) => {
    const panel = await openPanel(page, 'Premier League');
    await test.step('Review Purchase: the full price breakdown', async () => {
      const breakdown = panel.getByRole('definition');
      await expect(panel.getByText('Payment fee')).toBeVisible();
      await expect(breakdown.filter({ hasText: /^GBP 0\.00$/ }).first()).toBeVisible();
      await expect(panel.getByText('Total to pay')).toBeVisible();
    });
    await test.step('the primary billing address is chosen, SB Pay shows its balance and Deposit', async () => {
      await expect(panel.getByRole('radio', { name: /\(primary\)/ })).toBeChecked();
      await expect(panel.getByText('SB Pay balance:')).toBeVisible();
      await expect(panel.getByRole('radio', { name: 'SB Pay' })).toBeChecked();
      // Deposit opens the wallet's top-up panel over the purchase; Escape closes only it
      await panel.getByRole('button', { name: 'Deposit' }).click();
      const topUp = page.getByRole('dialog', { name: 'Top up your SB pay Account' });
      await expect(topUp).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(topUp).toHaveCount(0);
      await expect(panel).toBeVisible();
    });
    await test.step('Confirm Purchase pays from SB Pay and opens the purchase page', async () => {
      await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
      await expectSuccess(page);
    });
  });

  test('new card (method 2) through the sandbox: declined, Payment Failed, Cancel keeps the hold, Retry with 4242 pays', async ({
    page,
  }) => {
    const panel = await openPanel(page, 'Premier League');
    await panel.getByRole('radio', { name: /^Card/ }).check();
    // no card surcharge: the payment fee stays 0.00 by card
    await expect(panel.getByText('Same price by SB Pay or card: no card surcharge')).toBeVisible();
    await expect(panel.getByText('Payment fee').locator('xpath=following-sibling::dd[1]')).toHaveText('GBP 0.00');
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    const card = panel.getByRole('region', { name: 'Card payment' });

    await test.step("a declined card: 'Payment Failed' with Retry Payment and Cancel", async () => {
      await expect(card.getByRole('heading', { name: 'Payment Details' })).toBeVisible();
      await expect(panel.getByRole('timer')).toContainText(/Tickets held for \d\d:\d\d/);
      await card.getByRole('textbox', { name: 'Card number' }).fill('4000 0000 0000 0002');
      await card.getByRole('textbox', { name: 'Expiry (MM/YY)' }).fill('12/34');
      await card.getByRole('textbox', { name: 'CVC' }).fill('123');
      await card.getByRole('button', { name: /^Pay / }).click();
      await expect(card.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
      await expect(page.getByText(/^Payment failed: /).first()).toBeVisible();
      await expect(card.getByRole('button', { name: 'Retry Payment' })).toBeVisible();
    });

    await test.step('Cancel closes the card form and restores the buttons; the hold stays', async () => {
      await card.getByRole('button', { name: 'Cancel' }).click();
      await expect(card).toHaveCount(0);
      await expect(panel.getByRole('button', { name: 'Pay now' })).toBeEnabled();
      await expect(panel.getByRole('button', { name: 'Cancel booking' })).toBeVisible();
      await expect(panel.getByRole('timer')).toContainText(/Tickets held for \d\d:\d\d/);
    });

    await test.step('pay again: declined once more, then Retry Payment with 4242 succeeds', async () => {
      await panel.getByRole('button', { name: 'Pay now' }).click();
      await card.getByRole('textbox', { name: 'Card number' }).fill('4000 0000 0000 0002');
      await card.getByRole('textbox', { name: 'Expiry (MM/YY)' }).fill('12/34');
      await card.getByRole('textbox', { name: 'CVC' }).fill('123');
      await card.getByRole('button', { name: /^Pay / }).click();
      await expect(card.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
      await card.getByRole('button', { name: 'Retry Payment' }).click();
      await card.getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
      await card.getByRole('button', { name: /^Pay / }).click();
      await expectSuccess(page);
    });
  });

  test('stored card (method 3): a refused card says why and keeps the hold; the good card pays', async ({ page }) => {
    const panel = await openPanel(page, 'La Liga');
    await panel.getByRole('radio', { name: /^Stored card/ }).check();
    await test.step('the Mastercard **** 0002 is refused', async () => {
      await panel.getByRole('combobox', { name: 'Stored card' }).click();
      await page.getByRole('option', { name: /0002/ }).click();
      await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
      await expect(page.getByText('Payment failed: Your card was declined.', { exact: true }).first()).toBeVisible();
      await expect(page.getByText(/Payment failed: Payment failed/)).toHaveCount(0);
      await expect(panel.getByRole('button', { name: 'Pay now' })).toBeEnabled();
    });
    await test.step('switching to the Visa **** 4242 pays the same booking', async () => {
      await panel.getByRole('combobox', { name: 'Stored card' }).click();
      await page.getByRole('option', { name: /4242/ }).click();
      await panel.getByRole('button', { name: 'Pay now' }).click();
      await expectSuccess(page);
    });
  });

  test("billing and guests: 'Please add a billing address', then 'submit all guest details', then cancel", async ({
    page,
  }) => {
    const panel = await openPanel(page, 'Champions League');
    await test.step("'Other' with an empty billing form is refused", async () => {
      await panel.getByRole('radio', { name: 'Other' }).check();
      await expect(panel.getByRole('group', { name: 'New billing address' })).toBeVisible();
      await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
      await expect(page.getByText('Please add a billing address').first()).toBeVisible();
      await expect(panel.getByText('Enter the first name.')).toBeVisible();
    });
    await test.step('back to the primary address: the booking asks each guest its details', async () => {
      await panel.getByRole('radio', { name: /\(primary\)/ }).check();
      await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
      await expect(panel.getByRole('heading', { name: 'Guest Details' })).toBeVisible();
      await panel.getByRole('button', { name: 'Submit guest details' }).click();
      await expect(page.getByText('submit all guest details').first()).toBeVisible();
    });
    await test.step("'Copy my details to all guests' fills the buyer's names", async () => {
      await panel.getByRole('button', { name: 'Copy my details to all guests' }).click();
      await expect(panel.getByLabel('First name (guest 1)')).not.toHaveValue('');
      await expect(panel.getByLabel('Last name (guest 1)')).not.toHaveValue('');
    });
    await test.step('left unpaid, the booking is given up from the purchase page: its tickets go back on sale', async () => {
      await page.goto('/trade/purchase');
      const pending = page
        .getByRole('list', { name: 'Purchases' })
        .getByRole('listitem')
        .filter({ hasText: 'pending' })
        .first();
      await pending.getByRole('link').first().click();
      const booking = page.getByRole('definition').filter({ hasText: /^pending$/ });
      await expect(booking).toBeVisible();
      await expect(page.getByRole('term').filter({ hasText: /^Total$/ })).toBeVisible();
      await page.getByRole('button', { name: 'Cancel booking' }).click();
      await expect(page.getByRole('definition').filter({ hasText: /^cancelled$/ })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);
    });
  });
});
