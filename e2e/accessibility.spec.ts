import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { type Route, routes } from '../src/routes';
import { actAs, openAs, scrollThrough, startLoggedOut } from './support';

/** WCAG 2.2 level AA, and the levels under it: what the accessibility statement promises. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Waits until nothing on the page is busy (every widget has come or failed), then scans it. */
async function expectNoSeriousIssues(page: Page) {
  await expect(page.getByRole('status').filter({ hasText: /^Loading\.\.\.$/ })).toHaveCount(0);
  await scrollThrough(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** A path of each page: its parameters filled as a person reaches it (a token that is not one opens its error). */
const SAMPLE_PARAMS: Record<string, Record<string, string>> = {
  '/verify-email/token/:token': { token: 'not-a-real-token' },
  '/reset-password/token/:token': { token: 'not-a-real-token' },
  '/signup/invite/:token': { token: 'not-a-real-token' },
  '/login/unlock/:token': { token: 'not-a-real-token' },
  '/sales/:status': { status: 'pending' },
};
/** Pages reached through another page (a match of the search, a machine of the viewer): opened by a click. */
const REACHED_FROM: Record<string, { from: string; link: string }> = {
  '/trade/events/:matchId': { from: '/trade/home', link: 'a[href*="/trade/events/"]' },
  '/flows/:id': { from: '/flows', link: 'a[href^="/flows/"]' },
};

const all = Object.values(routes) as Route[];
const byAccess = (access: (r: Route) => boolean) => all.filter(access);

async function open(page: Page, route: Route) {
  const reached = REACHED_FROM[route.pattern];
  if (reached) {
    await page.goto(reached.from);
    const link = page.locator(reached.link).first();
    await expect(link, `a link to ${route.pattern} on ${reached.from}`).toBeVisible();
    await page.goto((await link.getAttribute('href')) ?? '');
  } else {
    await page.goto(route.href(SAMPLE_PARAMS[route.pattern] ?? {}));
  }
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
}

test.describe('WCAG 2.2 AA: no serious or critical axe issue on any page', () => {
  test.describe('logged out', () => {
    startLoggedOut();
    for (const route of byAccess((r) => r.access === 'public')) {
      test(route.pattern, async ({ page }) => {
        await open(page, route);
        await expectNoSeriousIssues(page);
      });
    }
  });

  test.describe('as a seller', () => {
    actAs('seller');
    for (const route of byAccess((r) => r.access !== 'public' && r.access !== 'admin')) {
      test(route.pattern, async ({ page }) => {
        await open(page, route);
        await expectNoSeriousIssues(page);
      });
    }
  });

  test.describe('as the back office', () => {
    actAs('admin');
    for (const route of byAccess((r) => r.access === 'admin')) {
      test(route.pattern, async ({ page }) => {
        await open(page, route);
        await expectNoSeriousIssues(page);
      });
    }
  });
});

test.describe('WCAG 2.2 AA in the states a person meets', () => {
  test.describe('logged out', () => {
    startLoggedOut();
    test('the login form refusing a wrong password', async ({ page }) => {
      await page.goto('/login');
      await page.getByLabel('Email').fill('seller@demo.test');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      await expectNoSeriousIssues(page);
    });
  });

  test.describe('as a seller', () => {
    actAs('seller');
    test('the listing form open, with the market beside it', async ({ page }) => {
      await page.goto('/add-listings');
      const sell = page.getByRole('list', { name: 'Matches' }).getByRole('button', { name: /^Sell tickets for / });
      await sell.first().click();
      const form = page.getByRole('form', { name: 'Listing' });
      await form.getByRole('textbox', { name: 'Price per ticket' }).fill('87.50');
      await expect(form.getByRole('region', { name: 'Market insights' })).toBeVisible();
      await expectNoSeriousIssues(page);
    });

    test("the wallet's top-up drawer", async ({ page }) => {
      await openAs(page, 'seller', '/reports/wallet');
      await page
        .getByRole('button', { name: /^Top up/ })
        .first()
        .click();
      await expect(page.getByRole('dialog').first()).toBeVisible();
      await expectNoSeriousIssues(page);
    });
  });
});

test.describe('the accessibility statement', () => {
  startLoggedOut();
  test('is one click from the login page, dated the day of the version it describes', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Accessibility statement' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accessibility statement');
    await expect(page).toHaveTitle(/^Accessibility statement/);
    const checked = page.locator('time');
    // the build stamps the day of its commit: the version every page of which CI scanned before it landed
    await expect(checked).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
    const day = (await checked.getAttribute('datetime')) ?? '';
    const age = (Date.now() - Date.parse(`${day}T00:00:00Z`)) / 86_400_000;
    expect(age).toBeGreaterThanOrEqual(-1);
    expect(age).toBeLessThan(366);
    await expect(page.getByRole('link', { name: 'accessibility@sbportal.example' })).toBeVisible();
  });
});
