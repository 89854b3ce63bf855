import { expect, type Page, test } from '@playwright/test';
import { actAs, openAs } from './support';

// Strong Customer Authentication offline: the sandbox's cards whose bank asks for 3-D Secure (4000 0027 6000 3184
// passes the challenge, 4000 0027 6000 3192 fails it), stored in Settings by the rival and paid with at checkout.

async function openPanel(page: Page, competition: string) {
  await openAs(page, 'rival', '/trade/home');
  await page.getByLabel('Competition').fill(competition);
  await page.getByRole('button', { name: 'Search' }).click();
  const events = page.getByRole('list', { name: 'Events' });
  await events.getByRole('link').first().click();
  await expect(page).toHaveURL(/\/trade\/events\/\d+$/);
  const tickets = page.getByRole('list', { name: 'Tickets' });
  await tickets.getByRole('button', { name: /^Buy / }).first().click();
  const panel = page.getByRole('dialog', { name: 'Confirm Purchase' });
  await expect(panel.getByRole('heading', { name: 'Payment' })).toBeVisible();
  return panel;
}

// The cards a test stored, removed after it: a buyer stores at most 5, and the stored-cards spec adds one more.
const added: string[] = [];

async function addCard(page: Page, number: string) {
  await openAs(page, 'rival', '/settings/stored-cards');
  await page.getByRole('button', { name: 'Add a card' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a card' });
  const holder = `Sca ${number.slice(-4)} ${Date.now().toString(36)}`;
  added.push(holder);
  await dialog.getByLabel('Name on the card').fill(holder);
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiry (MM/YY)').fill('09/34');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByRole('button', { name: 'Verify and add' }).click();
  await expect(page.getByText('Card added.')).toBeVisible();
}

test.describe('a card whose bank asks for 3-D Secure', () => {
  actAs('rival');

  test.afterEach(async ({ page }) => {
    if (added.length === 0) return;
    await openAs(page, 'rival', '/settings/stored-cards');
    for (const holder of added.splice(0)) {
      const card = page.getByRole('list', { name: 'Cards' }).getByRole('listitem').filter({ hasText: holder });
      if ((await card.count()) === 0) continue;
      await card.getByRole('button', { name: /^Remove the .* card ending/ }).click();
      await page.getByRole('dialog', { name: 'Remove this card?' }).getByRole('button', { name: 'Remove' }).click();
      await expect(card).toHaveCount(0);
    }
  });

  test('a stored card goes through the challenge and pays; the purchase page says how it was authenticated', async ({
    page,
  }) => {
    await addCard(page, '4000 0027 6000 3184');
    const panel = await openPanel(page, 'Premier League');
    const steps = panel.getByRole('navigation', { name: 'Review and pay' });
    await expect(steps.getByText('1. Review')).toHaveAttribute('aria-current', 'step');
    await panel.getByRole('radio', { name: /^Stored card/ }).check();
    await panel.getByRole('combobox', { name: 'Stored card' }).click();
    await page.getByRole('option', { name: /3184/ }).first().click();
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    const challenge = panel.getByRole('region', { name: 'Your bank asks you to confirm this payment' });
    await expect(challenge).toBeVisible();
    await expect(steps.getByText('2. Pay')).toHaveAttribute('aria-current', 'step');
    // a challenge is not a decline
    await expect(page.getByText(/declined/)).toHaveCount(0);
    await challenge.getByRole('button', { name: 'Confirm payment' }).click();
    await expect(page.getByText('Booking Confirmed Successfully').first()).toBeVisible();
    await expect(
      page.getByRole('definition').filter({ hasText: '3-D Secure: confirmed with your bank' }),
    ).toBeVisible();
    // the booking shows the ticket's terms as the listing gave them: face value first
    const terms = page.getByRole('definition').getByLabel('Ticket terms of this booking');
    await expect(terms.getByText('Face value')).toBeVisible();
    await expect(terms.getByText('Restrictions')).toBeVisible();
  });

  test('a failed challenge says so clearly, charges nothing and keeps the hold; another card then pays', async ({
    page,
  }) => {
    await addCard(page, '4000 0027 6000 3192');
    const panel = await openPanel(page, 'La Liga');
    await panel.getByRole('radio', { name: /^Stored card/ }).check();
    await panel.getByRole('combobox', { name: 'Stored card' }).click();
    await page.getByRole('option', { name: /3192/ }).first().click();
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    const challenge = panel.getByRole('region', { name: 'Your bank asks you to confirm this payment' });
    await challenge.getByRole('button', { name: 'Confirm payment' }).click();
    const refusal = 'Payment failed: Your bank could not confirm it was you (3-D Secure). Nothing was charged.';
    await expect(panel.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
    await expect(challenge).toHaveCount(0);
    // the tickets stay held for this booking: pay again with another card
    await expect(panel.getByRole('timer')).toContainText('Tickets held for');
    await panel.getByRole('combobox', { name: 'Stored card' }).click();
    await page.getByRole('option', { name: /4242/ }).first().click();
    await panel.getByRole('button', { name: 'Pay now' }).click();
    await expect(page.getByText('Booking Confirmed Successfully').first()).toBeVisible();
    await expect(page.getByRole('definition').filter({ hasText: 'No card authentication' })).toBeVisible();
  });

  test('a new card (method 2): the sandbox lists its test cards, and the challenge card pays after it', async ({
    page,
  }) => {
    const panel = await openPanel(page, 'Bundesliga');
    await panel.getByRole('radio', { name: 'Card', exact: true }).check();
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    const card = panel.getByRole('region', { name: 'Card payment' });
    await expect(card.getByRole('form', { name: 'Payment Details' })).toBeInViewport();
    await card.getByRole('button', { name: 'Use test card 4000 0027 6000 3184' }).click();
    await expect(card.getByLabel('Card number')).toHaveValue('4000 0027 6000 3184');
    await card.getByRole('button', { name: /^Pay / }).click();
    const challenge = card.getByRole('region', { name: 'Your bank asks you to confirm this payment' });
    await challenge.getByRole('button', { name: 'Confirm payment' }).click();
    await expect(page.getByText('Booking Confirmed Successfully').first()).toBeVisible();
    await expect(
      page.getByRole('definition').filter({ hasText: '3-D Secure: confirmed with your bank' }),
    ).toBeVisible();
  });
});
