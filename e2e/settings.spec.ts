import { expect, test } from '@playwright/test';
import { actAs, openAs } from './support';

// Settings' last four pages (issue 13, item 3) in the browser, as the demo seller, by role and label: the
// referral code and the people referred, a feature request with its confirmation, partner settings saved
// and read back, and the seller's contacts.

const SENT = 'Thank you! Your feature request has been sent to our product team.';

test.describe('settings', () => {
  actAs('seller');

  test('the seller reaches Referrals, Request a Feature, Partner Settings and Seller Contacts from the Settings menu', async ({
    page,
  }) => {
    await openAs(page, 'seller', '/settings/myAccount');
    const menu = page.getByRole('navigation', { name: 'Settings', exact: true });

    // Referrals: the code, the link to share (with the code), the people referred and their bookings
    await menu.getByRole('link', { name: 'Referrals' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Referrals');
    await expect(page.getByTestId('referral-code')).toHaveText('SBSELL24');
    await expect(page.getByLabel('Your referral link')).toHaveValue(/\/signup\?ref=SBSELL24$/);
    const people = page.getByRole('list', { name: 'People you referred', exact: true });
    await expect(people.getByRole('listitem')).toHaveCount(3);
    // the rival's 8 seeded purchases, and whatever the purchase specs running beside this one have added since
    const rory = people.getByRole('listitem').filter({ hasText: 'Rory R.' });
    await expect(rory).toContainText(/\d+ bookings/);
    expect(Number((await rory.textContent())?.match(/(\d+) bookings/)?.[1])).toBeGreaterThanOrEqual(8);
    const bookings = page.getByRole('list', { name: 'Bookings of the people you referred' }).getByRole('listitem');
    await expect.poll(() => bookings.count()).toBeGreaterThanOrEqual(8);

    // Request a Feature: a refused form first (nothing chosen), then sent and confirmed
    await menu.getByRole('link', { name: 'Request a Feature' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Request a feature');
    await page.getByLabel('Title').fill('Bulk price change');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByText('Choose a category.')).toBeVisible();
    await page.getByRole('combobox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Listings and inventory' }).click();
    await page.getByLabel('Description').fill('Change the price of many listings at once, by a percentage.');
    await page.getByRole('button', { name: 'Send request' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'We received “Bulk price change”' })).toBeVisible();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: SENT })).toBeVisible();
    await page.getByRole('button', { name: 'Send another request' }).click();
    await expect(page.getByLabel('Title')).toHaveValue('');

    // Partner Settings: a webhook that is not https is refused beside its field, then saved and read back
    await menu.getByRole('link', { name: 'Partner Settings' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Partner settings');
    await page.getByLabel('API access').check();
    await page.getByLabel('Webhook URL').fill('http://hooks.example.com/sb');
    await page.getByLabel('Partner notification email').fill('partners@example.com');
    await page.getByRole('button', { name: 'Save partner settings' }).click();
    await expect(page.getByLabel('Webhook URL')).toHaveAttribute('aria-invalid', 'true');
    await page.getByLabel('Webhook URL').fill('https://hooks.example.com/sb');
    await page.getByRole('button', { name: 'Save partner settings' }).click();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Partner settings saved.' })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Webhook URL')).toHaveValue('https://hooks.example.com/sb');
    await expect(page.getByLabel('API access')).toBeChecked();
    await expect(page.getByLabel('Partner notification email')).toHaveValue('partners@example.com');

    // Seller Contacts: the account manager first, then the default contacts
    await menu.getByRole('link', { name: 'Seller Contacts' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seller contacts');
    const contacts = page.getByRole('list', { name: 'Contacts' }).getByRole('listitem');
    await expect(contacts.first()).toContainText('Priya Shah');
    await expect(contacts.first()).toContainText('Account manager');
    await expect(contacts.filter({ hasText: 'Seller Support' })).toBeVisible();
  });
});
