import { expect, type Page, test } from '@playwright/test';
import { STRIPE_JS_STANDIN, stripeApiUrl, stripeAppUrl } from './stripe-standin';
import { actAs, openAs } from './support';

// The purchase by card (method 2) with the `stripe` gateway: the app on E2E_PORT + 1 creates and reads
// PaymentIntents at a local fake of Stripe's API, Stripe.js is a stand-in served for https://js.stripe.com, and
// its calls to https://api.stripe.com go to the same fake (e2e/stripe-standin.ts). The rival buys, so that the
// seller's purchases in e2e/purchase.spec.ts (the sandbox gateway, on E2E_PORT) are not in its way.

test.describe('purchase by card through Stripe (stand-in and local fake)', () => {
  actAs('rival');
  test.use({ baseURL: stripeAppUrl });

  /** Stripe.js's calls to Stripe's API, answered by the fake; the paths they asked, in order. */
  async function routeStripeApi(page: Page) {
    const asked: string[] = [];
    await page.route(/^https:\/\/api\.stripe\.com\//, async (route) => {
      const url = new URL(route.request().url());
      asked.push(`${route.request().method()} ${url.pathname}`);
      await route.fulfill({ response: await route.fetch({ url: `${stripeApiUrl}${url.pathname}${url.search}` }) });
    });
    return asked;
  }

  /** Searches a competition, opens its first event and its first ticket's Confirm Purchase panel, card chosen. */
  async function openCardPanel(page: Page) {
    await openAs(page, 'rival', '/trade/home');
    await page.getByLabel('Competition').fill('Premier League');
    await page.getByRole('button', { name: 'Search' }).click();
    const events = page.getByRole('list', { name: 'Events' });
    await events.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/trade\/events\/\d+$/);
    await page.getByRole('list', { name: 'Tickets' }).getByRole('button', { name: /^Buy / }).first().click();
    const panel = page.getByRole('dialog', { name: 'Confirm Purchase' });
    await expect(panel.getByRole('radio', { name: /\(primary\)/ })).toBeChecked();
    await panel.getByRole('radio', { name: /^Card/ }).check();
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    return panel;
  }

  test('a new card (method 2): declined at Stripe, then Retry Payment with 4242 confirms the booking', async ({
    page,
  }) => {
    await page.route('https://js.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'application/javascript', body: STRIPE_JS_STANDIN }),
    );
    const asked = await routeStripeApi(page);
    const panel = await openCardPanel(page);
    const card = panel.getByRole('region', { name: 'Card payment' });
    const fill = async (number: string) => {
      await card.getByLabel('Card number').fill(number);
      await card.getByLabel('MM / YY').fill('12 / 34');
      await card.getByLabel('CVC').fill('123');
      await card.getByRole('button', { name: /^Pay / }).click();
    };

    await test.step("Stripe declines 4000 0000 0000 0002: 'Payment Failed' with Retry Payment", async () => {
      await expect(card.getByRole('heading', { name: 'Payment Details' })).toBeVisible();
      await fill('4000 0000 0000 0002');
      await expect(card.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
      await expect(card.getByText('Your card was declined.')).toBeVisible();
      expect(asked.filter((a) => a.endsWith('/confirm'))).toHaveLength(1);
    });

    await test.step('Retry Payment with 4242 4242 4242 4242: the server reads succeeded and confirms', async () => {
      await card.getByRole('button', { name: 'Retry Payment' }).click();
      await fill('4242 4242 4242 4242');
      await expect(page.getByText('Booking Confirmed Successfully').first()).toBeVisible();
      await expect(page).toHaveURL(/\/trade\/purchase\?success=true&booking_no=BK\d+/);
      await expect(page.getByRole('definition').filter({ hasText: 'confirmed' })).toBeVisible();
      // both confirmations went to Stripe's API (the fake), from the page, with no other call in between
      expect(asked.filter((a) => a.endsWith('/confirm'))).toHaveLength(2);
    });
  });

  test("Stripe.js unreachable: 'Failed to load payment form', and Cancel brings the buttons back", async ({ page }) => {
    await page.route('https://js.stripe.com/**', (route) => route.abort('internetdisconnected'));
    const panel = await openCardPanel(page);
    const card = panel.getByRole('region', { name: 'Card payment' });
    await expect(card.getByText('Failed to load payment form')).toBeVisible();
    await card.getByRole('button', { name: 'Cancel' }).click();
    await expect(card).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Pay now' })).toBeEnabled();
    // giving the booking up puts the tickets back on sale and closes the panel
    await panel.getByRole('button', { name: 'Cancel booking' }).click();
    await expect(panel).toHaveCount(0);
  });
});
