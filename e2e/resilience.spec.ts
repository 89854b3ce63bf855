import { expect, type Page, test } from '@playwright/test';
import { ACCOUNTS, actAs, logIn, PROFILE_CALLS, startLoggedOut } from './support';

// Code loaded on demand that does not arrive (offline, or a redeployment removed the chunk), and code that
// does not wait for what it does not need.

/** Requests for a chunk of the build (its name before the content hash) fail while `blocked()` says so. */
async function failChunk(page: Page, name: string, blocked: () => boolean = () => true) {
  await page.route(new RegExp(`/assets/${name}-[\\w-]+\\.js$`), (route) =>
    blocked() ? route.abort('internetdisconnected') : route.continue(),
  );
}

test.describe('a chunk that fails to load', () => {
  actAs('seller');

  test('a page’s chunk: the message with Reload inside the shell, whose menu keeps working', async ({ page }) => {
    let blocked = true;
    await failChunk(page, 'dashboard-page', () => blocked);
    await page.goto('/dashboard');
    const main = page.getByRole('main');
    await expect(main.getByRole('alert')).toContainText('This page could not be loaded');
    await expect(main.getByRole('alert')).toContainText('Check your connection, then reload the page.');
    // the shell is whole: its header names the page, its menu leads elsewhere
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
    await expect(page.getByText('Welcome Sam')).toBeVisible();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    // the name opens the seller panel (spec section 2), whose Settings link leads to My Account
    await menu.getByRole('button', { name: 'Sam Seller' }).click();
    await page.getByRole('dialog', { name: 'Seller panel' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings\/myAccount$/);
    await expect(main.getByText('seller@demo.test')).toBeVisible();
    await expect(main.getByRole('alert')).toHaveCount(0);
    // back on the page that failed: still the message, and Reload brings it once the chunk can be had
    await menu.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(main.getByRole('button', { name: 'Reload' })).toBeVisible();
    blocked = false;
    await main.getByRole('button', { name: 'Reload' }).click();
    await expect(page.getByRole('region', { name: /^Sales overview/ })).toBeVisible();
    await expect(main.getByRole('alert')).toHaveCount(0);
  });

  test('the notifications panel’s chunk: the message where the panel opens, the page stays', async ({ page }) => {
    await failChunk(page, 'notifications-panel');
    await page.goto('/dashboard');
    await expect(page.getByRole('region', { name: /^Sales overview/ })).toBeVisible();
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel.getByRole('alert')).toContainText('This page could not be loaded');
    await expect(panel.getByRole('button', { name: 'Reload' })).toBeVisible();
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('dialog', { name: 'Notifications' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: /^Sales overview/ })).toBeVisible();
  });

  test('the shell’s own chunk: the message and Reload, never a blank page', async ({ page }) => {
    await failChunk(page, 'shell-layout');
    await page.goto('/dashboard');
    await expect(page.getByRole('alert')).toContainText('This page could not be loaded');
    await expect(page.getByRole('button', { name: 'Reload' })).toBeVisible();
  });
});

test.describe('the request chain', () => {
  /**
   * Holds the API calls `calls` matches until the page's chunks have been asked for: a page whose chunks waited
   * for one of them would never get them (and the test would time out).
   */
  async function holdCallsUntilChunks(page: Page, calls: RegExp, chunks: readonly string[]) {
    const asked = new Set<string>();
    page.on('request', (request) => {
      for (const chunk of chunks)
        if (new RegExp(`/assets/${chunk}-[\\w-]+\\.js$`).test(request.url())) asked.add(chunk);
    });
    // a RegExp matches the whole URL; `calls` is matched against its path
    await page.route(
      (url) => calls.test(url.pathname),
      async (route) => {
        await expect.poll(() => chunks.filter((c) => !asked.has(c))).toEqual([]);
        await route.continue();
      },
    );
  }

  test.describe('a page opened with a session', () => {
    actAs('seller');

    // its profile is in the page (e2e/session.spec.ts): no call stands before its chunks
    test('asks for its chunks before any API call is answered', async ({ page }) => {
      await holdCallsUntilChunks(page, /^\/api\//, ['shell-layout', 'gated-routes', 'dashboard-page']);
      await page.goto('/dashboard');
      await expect(page.getByRole('region', { name: /^Sales overview/ })).toBeVisible();
    });

    test('the notifications page too', async ({ page }) => {
      await holdCallsUntilChunks(page, /^\/api\//, ['shell-layout', 'gated-routes', 'notifications-page']);
      await page.goto('/notifications/home');
      await expect(page.getByRole('tab', { name: /Notifications/ })).toBeVisible();
    });
  });

  test.describe('logging in', () => {
    startLoggedOut();

    test('the next page’s chunks load while the profile does', async ({ page }) => {
      await page.goto('/login');
      await holdCallsUntilChunks(page, PROFILE_CALLS, ['shell-layout', 'gated-routes', 'dashboard-page']);
      await logIn(page, ACCOUNTS.seller.email);
      await expect(page.getByText('Welcome Sam')).toBeVisible();
    });

    test('/login itself loads no page of the shell', async ({ page }) => {
      const scripts: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
      });
      await page.goto('/login');
      await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(scripts.filter((s) => /shell-layout|gated-routes|dashboard-page|toasts/.test(s))).toEqual([]);
    });
  });
});

test.describe('the toasts', () => {
  actAs('seller');

  test('their code comes with the first notice, and the notice is shown', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/dashboard');
    await expect(page.getByRole('region', { name: /^Sales overview/ })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((s) => /toasts/.test(s))).toEqual([]);
    await page.route('**/api/notification/history?*', (route) =>
      route.fulfill({ status: 500, json: { success: false, message: 'boom' } }),
    );
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Failed to load notifications' })).toHaveCount(
      1,
    );
    expect(scripts.filter((s) => /toasts/.test(s))).toHaveLength(1);
  });
});
