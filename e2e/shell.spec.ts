import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { actAs, holdRequests, logIn, openAs, scrollThrough, startLoggedOut } from './support';

// the seller's stored session, unless a block says otherwise
actAs('seller');

const ACCESS_DENIED =
  "You don't have permission to access this page. Please contact your administrator if you believe this is an error.";

/** The spec's menu, in order, for an account with every permission (after the minimise item and the name). */
const EVERY_ENTRY = [
  'Dashboard',
  'Notifications',
  'Add Listings',
  'My Listings',
  'Bulk Listings',
  'Sales',
  'Report History',
  'Wallet',
  'Payouts',
  'Search Tickets',
  'Logout',
];

async function menuEntries(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav.getByRole('button', { name: /Minimise menu|Expand menu/ })).toBeVisible();
  // each entry's own label, without its count badge
  return nav.locator(':scope > ul > li > a, :scope > ul > li > button, :scope > button').evaluateAll((items) =>
    items.map((item) =>
      [...item.childNodes]
        .filter((node) => !(node instanceof Element && node.hasAttribute('data-badge')))
        .map((node) => node.textContent ?? '')
        .join('')
        .trim(),
    ),
  );
}

test.describe('the menu each account sees', () => {
  test.describe('a seller', () => {
    actAs('seller');

    test('a seller with every permission', async ({ page }) => {
      await openAs(page, 'seller');
      expect(await menuEntries(page)).toEqual(['Minimise', 'Sam Seller', ...EVERY_ENTRY]);
    });

    test('an unknown page says so (not Access Denied)', async ({ page }) => {
      await openAs(page, 'seller');
      await page.goto('/no-such-area/at-all');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
      await expect(page.getByText(ACCESS_DENIED)).toHaveCount(0);
    });
  });

  test.describe('a team member', () => {
    actAs('member');

    test('a team member with dashboard, sales and notification only', async ({ page }) => {
      await openAs(page, 'member');
      expect(await menuEntries(page)).toEqual(['Minimise', 'Dashboard', 'Notifications', 'Sales', 'Logout']);
    });

    test('the team member is blocked from the wallet with the spec’s text', async ({ page }) => {
      await openAs(page, 'member');
      await page.goto('/reports/wallet');
      await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
      await page.goto('/report-history');
      await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
    });
  });

  test.describe('the back office', () => {
    actAs('admin');

    test('the back office account: its own menu, not the seller’s', async ({ page }) => {
      await openAs(page, 'admin');
      expect(await menuEntries(page)).toEqual([
        'Minimise',
        'Ada Admin',
        'Back office',
        'Deposit requests',
        'Bank statements',
        'Payout requests',
        'KYC submissions',
        'Event requests',
        'Orders needing action',
        'Buyer claims',
        'Transfer windows',
        'Price caps',
        'Erasure requests',
        'System',
        'Audit log',
        'Flows',
        'Logout',
      ]);
    });
  });

  for (const [account, status] of [
    ['newseller', 'Not submitted'],
    ['rejected', 'Rejected'],
  ] as const) {
    test.describe(`held by KYC (${account})`, () => {
      actAs(account);

      test(`${account} is held on the KYC page with a one-item menu`, async ({ page }) => {
        await page.goto('/dashboard');
        await expect(page).toHaveURL(/\/settings\/kyc\?handle=true$/);
        await expect(page.getByText(new RegExp(`^${status}:`))).toBeVisible();
        expect(await menuEntries(page)).toEqual(['Minimise']);
        // the logo is not a way out
        await expect(page.getByRole('link', { name: /SB Portal/ })).toHaveCount(0);
        await page.goto('/sales/pending');
        await expect(page).toHaveURL(/\/settings\/kyc\?handle=true$/);
        if (status === 'Rejected') await expect(page.getByText(/Reason: The photo ID was unreadable/)).toBeVisible();
        await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      });
    });
  }

  test.describe('logging in', () => {
    startLoggedOut();

    test('a held seller logs in to the KYC page and logs out from it', async ({ page }) => {
      // a session of its own: logging out revokes the token the stored session holds
      await logIn(page, 'rejected@demo.test');
      await expect(page).toHaveURL(/\/settings\/kyc\?handle=true$/);
      await expect(page.getByText(/^Rejected:/)).toBeVisible();
      await page.getByRole('button', { name: 'Logout' }).click();
      await expect(page).toHaveURL(/\/login$/);
    });
  });
});

test('the menu collapses to 60 px and expands to 200 px, and remembers', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openAs(page, 'seller');
  const aside = page.getByTestId('side-menu');
  await expect.poll(async () => (await aside.boundingBox())?.width).toBe(200);
  await page.getByRole('button', { name: 'Minimise menu' }).click();
  await expect.poll(async () => (await aside.boundingBox())?.width).toBe(60);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Expand menu' })).toBeVisible();
  await expect.poll(async () => (await aside.boundingBox())?.width).toBe(60);
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect.poll(async () => (await aside.boundingBox())?.width).toBe(200);
});

test('a collapsed Sales leads to the first status with orders', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // the rule is the menu's, not the server's: counts where the first non-empty status is not pending
  await page.route('**/api/sales/sales-count', (route) =>
    route.fulfill({
      json: {
        success: true,
        data: [
          { status: 'pending', orders: 0 },
          { status: 'confirmed', orders: 0 },
          { status: 'delivered', orders: 3 },
          { status: 'completed', orders: 9 },
          { status: 'cancelled', orders: 0 },
          { status: 'replaced', orders: 0 },
        ],
      },
    }),
  );
  await openAs(page, 'seller');
  await page.getByRole('button', { name: 'Minimise menu' }).click();
  await page.getByRole('link', { name: 'Sales', exact: true }).click();
  await expect(page).toHaveURL(/\/sales\/delivered$/);
  await page.getByRole('button', { name: 'Expand menu' }).click();
  // expanded, Sales toggles its sub-list instead
  const sales = page.getByRole('button', { name: 'Sales' });
  await expect(sales).toHaveAttribute('aria-expanded', 'true');
  await sales.click();
  await expect(page.getByRole('link', { name: /Awaiting Delivery/ })).toHaveCount(0);
  await sales.click();
  await page.getByRole('link', { name: /Awaiting Delivery/ }).click();
  await expect(page).toHaveURL(/\/sales\/confirmed$/);
  await expect(page.getByRole('link', { name: /Awaiting Delivery/ })).toHaveAttribute('aria-current', 'page');
});

test('the active entry follows the path; a trade page highlights Search Tickets', async ({ page }) => {
  await openAs(page, 'seller');
  await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.goto('/trade/purchase?success=true&booking_no=SB-1');
  await expect(page.getByRole('link', { name: 'Search Tickets' })).toHaveAttribute('aria-current', 'page');
});

test('header titles follow the path', async ({ page }) => {
  await openAs(page, 'seller');
  for (const [path, title] of [
    ['/my-listings', 'Inventory'],
    ['/add-listings', 'Add Inventory'],
    ['/bulk-listings', 'Bulk Inventory'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  }
  // any other path: 'Welcome' and the first name, above the page's own h1
  await page.goto('/sales/pending');
  await expect(page.getByRole('banner').getByText('Welcome Sam')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sales: Pending');
});

test('the bot icon opens the support popup; Got it closes it', async ({ page }) => {
  await openAs(page, 'seller');
  await page.getByRole('button', { name: 'Support' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Need help?' })).toBeVisible();
  await expect(dialog.getByText(/Phone:/)).toBeVisible();
  await expect(dialog.getByText(/Email:/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Got it' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Support' })).toBeFocused();
});

test.describe('on a phone (375 px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the menu is a top bar with a drawer; the name leads to my account', async ({ page }) => {
    await openAs(page, 'seller');
    await expect(page.getByTestId('side-menu')).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer.getByRole('link', { name: 'Search Tickets' })).toBeVisible();
    await drawer.getByRole('link', { name: 'Sam Seller' }).click();
    await expect(page).toHaveURL(/\/settings\/myAccount$/);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
    await expect(page.getByText('seller@demo.test')).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
  });

  test('notifications open as a card that fits the screen', async ({ page }) => {
    await openAs(page, 'seller');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .getByRole('dialog', { name: 'Menu' })
      .getByRole('button', { name: /^Notifications/ })
      .click();
    const card = page.getByRole('dialog', { name: 'Notifications' });
    await expect(card.getByRole('tabpanel').getByRole('listitem').first()).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
    const box = await card.boundingBox();
    expect(box?.x).toBeGreaterThanOrEqual(0);
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(375);
  });

  test('Escape closes the drawer', async ({ page }) => {
    await openAs(page, 'seller');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
  });
});

test.describe('the notifications panel', () => {
  test('scrolls through every page to "All notifications loaded"', async ({ page }) => {
    await openAs(page, 'seller');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const list = panel.getByRole('tabpanel');
    await expect(list.getByRole('listitem').first()).toBeVisible();
    // scrolls to the bottom until the last page has come (no fixed waits: the poll asks again until it has)
    await expect
      .poll(
        async () => {
          await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          return panel.getByText('All notifications loaded').isVisible();
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const total = (await panel.getByRole('tab', { name: /Notifications/ }).textContent()) ?? '';
    // every notification is one row: a button, or a link when it opens a page (actionable notifications)
    expect(await list.getByRole('listitem').count()).toBe(Number(total.replace(/\D/g, '')));
  });

  test('switching to the activity log starts at page 1 and shows type badges', async ({ page }) => {
    await openAs(page, 'seller');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const requests: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/notification/activity-history'))
        requests.push(new URL(r.url()).searchParams.get('page') ?? '');
    });
    await panel.getByRole('tab', { name: /Activity log/ }).click();
    await expect(panel.getByText('Logged In').first()).toBeVisible();
    expect(requests[0]).toBe('1');
  });

  test('a failed page shows the message with Retry, and Retry loads it', async ({ page }) => {
    let failed = false;
    await page.route('**/api/notification/history?page=2*', async (route) => {
      if (!failed) {
        failed = true;
        await route.fulfill({ status: 500, json: { success: false, message: 'boom' } });
      } else {
        await route.continue();
      }
    });
    await openAs(page, 'seller');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const list = panel.getByRole('tabpanel');
    await expect(list.getByRole('listitem').first()).toBeVisible();
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(panel.getByText('Failed to load notifications')).toBeVisible();
    await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Failed to load notifications' })).toHaveCount(
      1,
    );
    const before = await list.getByRole('listitem').count();
    await panel.getByRole('button', { name: 'Retry' }).click();
    await expect.poll(() => list.getByRole('listitem').count()).toBeGreaterThan(before);
    await expect(panel.getByText('Failed to load notifications')).toHaveCount(0);
  });

  test('opening an unread notification marks it read and lowers the unread badge', async ({ page }) => {
    await openAs(page, 'seller');
    const entry = page.getByRole('button', { name: /^Notifications/ });
    const unreadOf = async () => Number(/(\d+) unread/.exec((await entry.textContent()) ?? '')?.[1]);
    await expect.poll(unreadOf).toBeGreaterThan(0);
    const before = await unreadOf();
    await entry.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const unread = panel.getByRole('button').filter({ hasText: 'New' }).first();
    await unread.click();
    await expect.poll(unreadOf).toBe(before - 1);
    await page.reload();
    await expect.poll(unreadOf).toBe(before - 1);
  });

  test('View all opens /notifications/home with the same lists', async ({ page }) => {
    await openAs(page, 'seller');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await page.getByRole('button', { name: 'View all' }).click();
    await expect(page).toHaveURL(/\/notifications\/home$/);
    await expect(page.getByRole('tab', { name: /Notifications/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel').getByRole('listitem').first()).toBeVisible();
  });

  test('an expired token mid-scroll goes to /login', async ({ page }) => {
    await openAs(page, 'seller');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const list = page.getByRole('dialog', { name: 'Notifications' }).getByRole('tabpanel');
    await expect(list.getByRole('listitem').first()).toBeVisible();
    // the token expires: the server refuses it from now on (the page keeps the token it read from its cookie; the
    // stored session is the other tests' too, so it is refused here rather than ended on the server)
    await page.route('**/api/**', (route) =>
      route.fulfill({ status: 401, json: { success: false, message: 'Your session has expired.' } }),
    );
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(page).toHaveURL(/\/login/);
  });
});

test.describe('no session', () => {
  startLoggedOut();

  test('a deep link to a sales page survives the login', async ({ page }) => {
    await page.goto('/sales/pending');
    await expect(page).toHaveURL(/\/login\?next=%2Fsales%2Fpending$/);
    await page.getByLabel('Email').fill('seller@demo.test');
    await page.getByLabel('Password').fill('Demo1234!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/sales\/pending$/);
  });
});

test.describe('the dashboard', () => {
  test('shows the seller’s figures from the server', async ({ page }) => {
    await openAs(page, 'seller');
    const overview = page.getByRole('region', { name: 'Sales overview' });
    await expect(overview.getByText('Total sales')).toBeVisible();
    await expect(overview.getByText(/£/).first()).toBeVisible();
    const topEvents = page.getByRole('region', { name: 'Top selling events' });
    await topEvents.scrollIntoViewIfNeeded();
    await expect(topEvents.getByRole('listitem').first()).toBeVisible();
    // the kit's dropdown; the choice is remembered for this user
    await page.getByRole('combobox', { name: 'Currency' }).click();
    await page.getByRole('listbox', { name: 'Currency' }).getByRole('option', { name: 'EUR' }).click();
    await expect(overview.getByText(/€/).first()).toBeVisible();
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Currency' })).toHaveValue('EUR');
    await expect(page.getByRole('heading', { name: 'Sales overview (EUR)' })).toBeVisible();
    await expect(overview.getByText(/€/).first()).toBeVisible();
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 800 } });

    test('a widget below the fold is built as it is scrolled to, with its answer already there', async ({ page }) => {
      // one widget's call held: the page is not done, so it builds nothing that is not near (once every call is
      // answered it builds the rest in its idle time)
      await holdRequests(page, '**/api/dashboard/reports*');
      const asked: string[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/dashboard/activity')) asked.push(r.url());
      });
      const answered = page.waitForResponse((r) => r.url().includes('/api/dashboard/activity'));
      await openAs(page, 'seller');
      const activity = page.getByRole('region', { name: 'Activity' });
      // its call is made with the other widgets' and answered...
      expect((await answered).ok()).toBe(true);
      // ...and half a second later its frame and title are there, its content still waits (built at once, it
      // would show by then)
      await page.waitForTimeout(500);
      await expect(activity.getByRole('heading', { name: 'Activity' })).toBeAttached();
      await expect(activity).toHaveAttribute('aria-busy', 'true');
      await expect(activity.getByRole('status')).toHaveText('Loading activity');
      await expect(activity.getByRole('listitem')).toHaveCount(0);
      await page.mouse.wheel(0, 5000);
      await expect(activity.getByRole('listitem').first()).toBeVisible();
      await expect(activity).toHaveAttribute('aria-busy', 'false');
      // no second call: the answer was kept
      expect(asked).toHaveLength(1);
    });

    test('a keyboard reaches the links of the widgets below the fold', async ({ page }) => {
      await holdRequests(page, '**/api/dashboard/reports*');
      await openAs(page, 'seller');
      const viewAll = page.getByRole('link', { name: /^View all notifications/ });
      await expect(page.getByRole('region', { name: 'Notifications' })).toHaveAttribute('aria-busy', 'true');
      await page.getByRole('combobox', { name: 'Currency' }).focus();
      // Tab from the currency: the first link in the grid, then on to the notifications widget's link
      for (let i = 0; i < 5; i++) {
        await page.keyboard.press('Tab');
        if (await viewAll.evaluate((el) => el === document.activeElement).catch(() => false)) break;
      }
      await expect(viewAll).toBeFocused();
    });
  });

  test.describe('the back office', () => {
    actAs('admin');

    test('an account with no sales sees empty states', async ({ page }) => {
      await openAs(page, 'admin');
      await scrollThrough(page);
      await expect(page.getByText('No orders are waiting for delivery.')).toBeVisible();
      await expect(page.getByText('No tickets sold yet.')).toBeVisible();
    });
  });
});

// every page's scan is e2e/accessibility.spec.ts; here the shell's own panel, open
test.describe('accessibility', () => {
  test('no serious or critical axe issues with the notifications panel open', async ({ page }) => {
    await openAs(page, 'seller');
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await expect(page.getByRole('dialog', { name: 'Notifications' }).getByRole('listitem').first()).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => v.id)).toEqual([]);
  });
});
