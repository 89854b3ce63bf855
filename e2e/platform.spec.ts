import { expect, test } from '@playwright/test';
import { actAs, DEMO_PASSWORD, goInside, logIn, openAs } from './support';

const ACCESS_DENIED =
  "You don't have permission to access this page. Please contact your administrator if you believe this is an error.";

test.describe('the login form (the form machine on the contract’s constraints)', () => {
  test('shows the server’s 422 under the field it names', async ({ page }) => {
    // a client whose checks lag behind the contract: the request is changed on its way, the server is real
    await page.route('**/api/auth/login', async (route) => {
      const body = route.request().postDataJSON() as { email: string; password: string };
      await route.continue({ postData: JSON.stringify({ ...body, email: `${'x'.repeat(250)}@demo.test` }) });
    });
    await logIn(page, 'seller@demo.test');
    const email = page.getByRole('textbox', { name: 'Email' });
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription(/254/);
    await expect(email).toBeFocused();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test('shows a wrong password’s message above the form, and changing a field takes it away', async ({ page }) => {
    await logIn(page, 'rejected@demo.test', 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('checks the contract’s constraints before any call, under each field', async ({ page }) => {
    let calls = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/auth/login')) calls += 1;
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill('seller@demo');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(
      'Enter a valid email address, like name@example.com.',
    );
    await expect(page.getByRole('textbox', { name: 'Email' })).toBeFocused();
    await expect(page.getByLabel('Password')).toHaveAccessibleDescription('Enter your password.');
    expect(calls).toBe(0);
  });
});

test.describe('page identity', () => {
  actAs('seller');

  test('each page has its document title and one h1 naming it', async ({ page }) => {
    await openAs(page, 'seller');
    for (const [path, title, greeting] of [
      ['/dashboard', 'Dashboard', true],
      ['/notifications/home', 'Notifications', true],
      ['/settings/myAccount', 'My account', true],
      ['/sales/confirmed', 'Sales: Awaiting Delivery', true],
      ['/reports/wallet', 'Wallet', true],
      ['/my-listings', 'Inventory', false],
      ['/add-listings', 'Add Inventory', false],
    ] as const) {
      await goInside(page, path, title);
      await expect(page).toHaveTitle(`${title} · SB Portal`);
      await expect(page.locator('h1')).toHaveCount(1);
      // the spec's header: 'Welcome' and the first name, except on the listing pages, whose title it is
      await expect(page.getByText('Welcome Sam')).toHaveCount(greeting ? 1 : 0);
    }
  });

  test.describe('as a team member', () => {
    actAs('member');

    test('a mistyped address shows Page not found, a page the user may not open Access Denied', async ({ page }) => {
      await openAs(page, 'member');
      for (const path of ['/dashbord', '/sales/pendng', '/reports/history']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
        await expect(page).toHaveTitle('Page not found · SB Portal');
        await expect(page.getByText(ACCESS_DENIED)).toHaveCount(0);
      }
      await page.getByRole('link', { name: 'Go to the dashboard', exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto('/reports/wallet');
      await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Wallet');
    });
  });

  test('the sales badges say they count orders in every currency, the dashboard which one it counts', async ({
    page,
  }) => {
    await openAs(page, 'seller');
    await expect(page.getByRole('region', { name: 'Sales overview (GBP)' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Awaiting delivery (GBP)' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('button', { name: 'Sales' }).click();
    const awaiting = nav.getByRole('link', { name: /Awaiting Delivery/ });
    await expect(awaiting).toHaveAccessibleName(/awaiting delivery orders, all currencies/);
  });
});
