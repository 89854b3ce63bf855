import { type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import { ACCOUNTS, actAs, DEMO_PASSWORD, holdRequests, logIn, openAs, PROFILE_CALLS, startLoggedOut } from './support';

test('the page title is the product name', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Log in · SB Portal');
});

test.describe('the login form in the HTML of /login', () => {
  test.use({ javaScriptEnabled: false });

  test('shows before any script runs, with Log in disabled until the app takes over', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Log in · SB Portal');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
    await expect(page.getByRole('textbox', { name: 'Email' })).toBeEditable();
    await expect(page.getByLabel('Password')).toBeEditable();
    await expect(page.getByRole('button', { name: 'Log in' })).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/reset-password');
  });

  test('in a browser with JavaScript turned off, says it needs it, and never shows the note to reload', async ({
    baseURL,
  }) => {
    // Playwright's javaScriptEnabled only stops scripts from running; the browser still parses <noscript> as if
    // they ran, so this one is started with JavaScript off in its settings
    const { launchOptions } = test.info().project.use;
    const browser = await chromium.launch({
      ...launchOptions,
      args: [...(launchOptions?.args ?? []), '--blink-settings=scriptEnabled=false'],
    });
    try {
      const page = await browser.newPage({ baseURL });
      await page.goto('/login');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
      // (Playwright's text and role locators do not look inside <noscript>, whose text they take for a script's)
      await expect(page.locator('noscript p')).toHaveText('SB Portal needs JavaScript to run.');
      await expect(page.locator('noscript p')).toBeInViewport();
      await expect(page.locator('.prerender-stalled:not(.prerender-noscript)')).toHaveCSS('display', 'none');
    } finally {
      await browser.close();
    }
  });
});

test('what is typed before the app has loaded goes on in its form, and logs in', async ({ page }) => {
  // the app's scripts wait until the email and the password are typed into the prerendered form
  const release = await holdRequests(page, '**/assets/*.js');
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByRole('textbox', { name: 'Email' }).fill(ACCOUNTS.seller.email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeDisabled();
  release();
  // the app's own form: Log in enabled, the values and the focus carried over
  await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue(ACCOUNTS.seller.email);
  await expect(page.getByLabel('Password')).toHaveValue(DEMO_PASSWORD);
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(ACCOUNTS.seller.lands)).toBeVisible();
});

test('when the app has not loaded after 10 seconds, the form says so; once it has, the note is gone', async ({
  page,
}) => {
  const stalled = 'This page is taking long to load. Check your connection, then reload the page.';
  const release = await holdRequests(page, '**/assets/*.js');
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Log in');
  await expect(page.getByRole('status').filter({ hasText: stalled })).toBeHidden();
  // a CSS animation's delay, not a script: the page's own clock
  await expect(page.getByRole('status').filter({ hasText: stalled })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Log in' })).toBeDisabled();
  release();
  await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();
  await expect(page.getByText(stalled)).toHaveCount(0);
});

test('a seller logs in and lands on the dashboard with a welcome', async ({ page, context }) => {
  await logIn(page, ACCOUNTS.seller.email);
  await expect(page.getByText('Welcome Sam')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const cookies = await context.cookies();
  expect(cookies.map((c) => c.name).sort()).toEqual(['auth_token', 'auth_token_validity', 'sb_device', 'user_token']);
  // the browser's device cookie is the server's: no script reads it, no other site sends it, only the login calls get it
  expect(cookies.find((c) => c.name === 'sb_device')).toMatchObject({
    httpOnly: true,
    sameSite: 'Strict',
    path: '/api/auth',
  });
});

test("a wrong password shows the server's message and keeps the user on /login", async ({ page }) => {
  await logIn(page, 'admin@demo.test', 'not-the-password');
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.');
  await expect(page).toHaveURL(/\/login$/);
});

test('empty and malformed fields are caught before any call, inline', async ({ page }) => {
  let calls = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/auth/login')) calls += 1;
  });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('Enter your email address.')).toBeVisible();
  await expect(page.getByText('Enter your password.')).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();
  await page.getByLabel('Email').fill('not-an-email');
  await expect(page.getByText('Enter a valid email address, like name@example.com.')).toBeVisible();
  expect(calls).toBe(0);
});

test('the form is usable with the keyboard alone', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').focus();
  await page.keyboard.type('seller@demo.test');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Demo1234!');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Welcome Sam')).toBeVisible();
});

test('logging out clears the cookies and storage and goes to /login', async ({ page, context }) => {
  // a session of its own: logging out revokes the token, which the stored session of the others must keep
  await logIn(page, ACCOUNTS.seller.email);
  await expect(page.getByText('Welcome Sam')).toBeVisible();
  await page.evaluate(() => {
    localStorage.setItem('leftover', '1');
    sessionStorage.setItem('leftover', '1');
  });
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  // only the device cookie stays: it names this browser to the account's login, and is no session
  expect((await context.cookies()).map((c) => c.name)).toEqual(['sb_device']);
  expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBe(0);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
});

test.describe("another tab's logout and login as someone else", () => {
  // sessions of their own (logging out revokes the token the stored sessions of the others keep)
  async function twoTabs(page: Page, context: BrowserContext) {
    await logIn(page, ACCOUNTS.seller.email);
    await expect(page.getByText('Welcome Sam')).toBeVisible();
    await page.goto('/settings/myAccount');
    await expect(page.getByLabel('First name')).toHaveValue('Sam');
    const other = await context.newPage();
    await other.goto('/dashboard');
    await expect(other.getByText('Welcome Sam')).toBeVisible();
    await other.getByRole('button', { name: 'Logout' }).click();
    await expect(other).toHaveURL(/\/login$/);
    await logIn(other, ACCOUNTS.rival.email);
    await expect(other.getByText('Welcome Rory')).toBeVisible();
    return other;
  }

  test("the first tab, shown again, shows the browser's session of now", async ({ page, context }) => {
    const other = await twoTabs(page, context);
    // a headless tab fires no visibilitychange of its own when it is brought to the front
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await expect(page.getByLabel('First name')).toHaveValue('Rory');
    await other.reload();
    await expect(other.getByText('Welcome Rory')).toBeVisible();
  });

  test("the first tab's save never writes into the other session, nor logs it out", async ({ page, context }) => {
    const other = await twoTabs(page, context);
    await page.getByLabel('First name').fill('SamEdited');
    await page.getByRole('button', { name: 'Save changes' }).click();
    // its own token was refused: it reloads as the browser's session of now, whose name is untouched
    await expect(page.getByLabel('First name')).toHaveValue('Rory');
    await other.reload();
    await expect(other.getByText('Welcome Rory')).toBeVisible();
  });
});

test('a next parameter the URL parser reads as another site (a tab inside //) is ignored', async ({ page }) => {
  await page.goto('/login?next=%2F%09%2Fevil.example');
  await page.getByLabel('Email').fill('seller@demo.test');
  await page.getByLabel('Password').fill('Demo1234!');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/);
  await expect(page.getByText('Welcome Sam')).toBeVisible();
});

test('a deep link comes back after login', async ({ page }) => {
  await page.goto('/dashboard?tab=sales');
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByLabel('Email').fill('seller@demo.test');
  await page.getByLabel('Password').fill('Demo1234!');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\?tab=sales$/);
});

test('a next parameter pointing off-site is ignored', async ({ page }) => {
  await page.goto('/login?next=//evil.example/phish');
  await page.getByLabel('Email').fill('seller@demo.test');
  await page.getByLabel('Password').fill('Demo1234!');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/);
});

test.describe('a stored session', () => {
  actAs('seller');

  test('the session survives a reload', async ({ page }) => {
    await openAs(page, 'seller');
    await page.reload();
    await expect(page.getByText('Welcome Sam')).toBeVisible();
  });

  test('logging out still ends on /login when the server call fails', async ({ page, context }) => {
    await openAs(page, 'seller');
    await page.route('**/api/auth/logout', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await context.cookies()).map((c) => c.name)).toEqual(['sb_device']);
  });

  test('a validity cookie older than 24 hours sends you to /login', async ({ page, context }) => {
    await openAs(page, 'seller');
    const cookies = await context.cookies();
    const validity = cookies.find((c) => c.name === 'auth_token_validity');
    if (!validity) throw new Error('no auth_token_validity cookie after login');
    const dayAndAMinuteAgo = Date.now() - 24 * 60 * 60 * 1000 - 60_000;
    await context.addCookies([{ ...validity, value: String(dayAndAMinuteAgo) }]);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login\?next=%2Fdashboard$/);
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  });

  test('a page opened with a session shows the loader before its scripts have come, then the page', async ({
    page,
  }) => {
    const release = await holdRequests(page, '**/assets/*.js');
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeVisible();
    release();
    await expect(page.getByText('Welcome Sam')).toBeVisible();
    await expect(page.getByText('Loading...', { exact: true })).toHaveCount(0);
  });

  test('a page opened with a session carries its profile: the portal opens without the profile calls', async ({
    page,
  }) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (PROFILE_CALLS.test(pathname)) calls.push(pathname);
    });
    await page.goto('/dashboard');
    await expect(page.getByText('Welcome Sam')).toBeVisible();
    await expect(page.getByRole('region', { name: /^Sales overview/ })).toBeVisible();
    expect(calls).toEqual([]);
  });

  test('a token the server no longer accepts reloads to /login', async ({ page, context }) => {
    await openAs(page, 'seller');
    const token = (await context.cookies()).find((c) => c.name === 'auth_token');
    if (!token) throw new Error('no auth_token cookie after login');
    await context.addCookies([{ ...token, value: 'revoked-or-tampered-token-value-000000000' }]);
    // the 401 may reload the page before its first load ends (the chunks load beside the profile calls)
    await page.goto('/dashboard', { waitUntil: 'commit' });
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
  });
});

test.describe('logging in, the profile calls', () => {
  startLoggedOut();

  test('a profile that fails to load: its message and title, Retry loads it', async ({ page }) => {
    let failing = true;
    await page.route('**/api/settings/my-account', (route) =>
      failing ? route.fulfill({ status: 500, json: { success: false, message: 'boom' } }) : route.continue(),
    );
    await logIn(page, ACCOUNTS.seller.email);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Error loading account details');
    await expect(page).toHaveTitle('Error loading account details · SB Portal');
    failing = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByText('Welcome Sam')).toBeVisible();
    await expect(page).toHaveTitle('Dashboard · SB Portal');
  });
});
