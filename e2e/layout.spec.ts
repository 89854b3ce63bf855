import { expect, type Locator, type Page, test } from '@playwright/test';
import { HOSTILE_ACCOUNT, LONG_WORD } from './hostile';
import { type AccountName, actAs, goInside, holdRequests, openAs, scrollThrough } from './support';

// Item 11 of issue 8: no page overflows sideways at 375 and 1280 px, with the hostile account's long strings
// (e2e/hostile.ts, seeded by e2e/server.ts) and with the demo seller's figures.

/**
 * What overflows sideways on the page as it is: the document wider than the viewport, a scroll container
 * (the menu included) whose content is wider than it, or an element wider than, or sticking out of, its
 * scroll container. Text cut with an ellipsis on purpose and the screen-reader-only texts are not overflow.
 */
async function sidewaysOverflow(page: Page): Promise<string[]> {
  // the drawer's slide-in and the menu's width transition have ended
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY),
  );
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    const viewport = root.clientWidth;
    if (root.scrollWidth > viewport) problems.push(`the page is ${root.scrollWidth} px wide in ${viewport} px`);
    const describe = (el: Element) => {
      const text = (el.textContent ?? '').trim().slice(0, 40);
      const id = el.id ? `#${el.id}` : '';
      const label = el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? '';
      return `<${el.tagName.toLowerCase()}${id}${label ? ` "${label}"` : ''}> ${JSON.stringify(text)}`;
    };
    const srOnly = (el: Element) => {
      for (let e: Element | null = el; e; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (s.clip === 'rect(0px, 0px, 0px, 0px)' || s.clipPath === 'inset(50%)') return true;
      }
      return false;
    };
    const scrollsSideways = (s: CSSStyleDeclaration) => s.overflowX !== 'visible';
    /** The right edge of the box an element must stay inside: its nearest scroll container's, or the viewport's. */
    const limitOf = (el: Element): { right: number; width: number; name: string } => {
      if (getComputedStyle(el).position === 'fixed') return { right: viewport, width: viewport, name: 'the viewport' };
      for (let e = el.parentElement; e && e !== document.body && e !== root; e = e.parentElement) {
        const s = getComputedStyle(e);
        if (scrollsSideways(s)) {
          const r = e.getBoundingClientRect();
          const right = r.left + e.clientLeft + e.clientWidth;
          return { right, width: e.clientWidth, name: describe(e) };
        }
        if (s.position === 'fixed') break;
      }
      return { right: viewport, width: viewport, name: 'the viewport' };
    };
    // an element inside one already reported is not reported again
    const reported = new Set<Element>();
    const report = (el: Element, problem: string) => {
      if (!(el.parentElement && reported.has(el.parentElement))) problems.push(problem);
      reported.add(el);
    };
    for (const el of document.body.querySelectorAll('*')) {
      const s = getComputedStyle(el);
      if (s.display === 'none' || s.visibility === 'hidden' || s.display === 'contents') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (srOnly(el)) continue;
      if (scrollsSideways(s) && s.textOverflow !== 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
        report(el, `${describe(el)} scrolls sideways: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
      }
      const limit = limitOf(el);
      if (r.width > limit.width + 1 || r.right > limit.right + 1) {
        report(
          el,
          `${describe(el)} (${Math.round(r.left)}..${Math.round(r.right)}) is wider than ${limit.name} (right edge ${Math.round(limit.right)})`,
        );
      }
    }
    return problems;
  });
}

/** Every widget and list has come (or failed), those below the fold too, and the page's h1 is there. */
async function settled(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await scrollThrough(page);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

const PAGES = [
  { name: 'the dashboard', path: '/dashboard', heading: 'Dashboard' },
  { name: 'notifications', path: '/notifications/home', heading: 'Notifications' },
  { name: 'my account', path: '/settings/myAccount', heading: 'My account' },
  { name: 'KYC', path: '/settings/kyc', heading: 'Identity verification (KYC)' },
  {
    name: 'Sales, Awaiting Delivery with its delivery cockpit (the Sales sub-list open)',
    path: '/sales/confirmed',
    heading: 'Sales: Awaiting Delivery',
  },
  { name: 'Sales, Pending', path: '/sales/pending', heading: 'Sales: Pending' },
  { name: 'the wallet', path: '/reports/wallet', heading: 'Wallet' },
  { name: 'Add Inventory', path: '/add-listings', heading: 'Add Inventory' },
  { name: 'Inventory', path: '/my-listings', heading: 'Inventory' },
  { name: 'Bulk Inventory', path: '/bulk-listings', heading: 'Bulk Inventory' },
  { name: 'Settings, Templates', path: '/settings/templates', heading: 'Templates' },
  { name: 'Report History', path: '/report-history', heading: 'Report History' },
  { name: 'Search Tickets', path: '/trade/home', heading: 'Search Tickets' },
  { name: 'Page not found', path: '/no-such-page', heading: 'Page not found' },
] as const;

const ACCOUNTS_UNDER_TEST: AccountName[] = ['longname', 'seller'];
const WIDTHS = [375, 1280] as const;

// One test per account and width: each page is a step, reached inside the app after the first load, so the
// sweep pays for one browser context and one app start per account and width instead of one per page.
for (const account of ACCOUNTS_UNDER_TEST) {
  for (const width of WIDTHS) {
    test.describe(`${account} at ${width} px`, () => {
      actAs(account);
      test.use({ viewport: { width, height: 800 } });

      test('no page, panel or drawer overflows sideways', async ({ page }) => {
        await openAs(page, account);
        // first, while the Sales list is still folded (opening a sales page unfolds it)
        if (width < 769) {
          await test.step('the phone drawer, Sales expanded', async () => {
            await page.getByRole('button', { name: 'Open menu' }).click();
            const drawer = page.getByRole('dialog', { name: 'Menu' });
            await drawer.getByRole('button', { name: 'Sales' }).click();
            await expect(drawer.getByRole('link', { name: /^Awaiting Delivery/ })).toBeVisible();
            expect(await sidewaysOverflow(page)).toEqual([]);
            await page.keyboard.press('Escape');
            await expect(drawer).toBeHidden();
          });
        }
        for (const { name, path, heading } of PAGES) {
          await test.step(`${name} (${path})`, async () => {
            await goInside(page, path, heading);
            await settled(page);
            expect(await sidewaysOverflow(page), `${name} at ${width} px`).toEqual([]);
          });
        }

        await test.step('the dashboard with the notifications panel open, both tabs', async () => {
          await goInside(page, '/dashboard', 'Dashboard');
          await settled(page);
          if (width < 769) {
            await page.getByRole('button', { name: 'Open menu' }).click();
            await page
              .getByRole('dialog', { name: 'Menu' })
              .getByRole('button', { name: /^Notifications/ })
              .click();
          } else {
            await page.getByRole('button', { name: /^Notifications/ }).click();
          }
          const panel = page.getByRole('dialog', { name: 'Notifications' });
          await expect(panel.getByRole('tabpanel').getByRole('listitem').first()).toBeVisible();
          await expect(panel.locator('[aria-busy="true"]')).toHaveCount(0);
          expect(await sidewaysOverflow(page)).toEqual([]);
          await panel.getByRole('tab', { name: /^Activity log/ }).click();
          await expect(panel.getByRole('tabpanel').getByRole('listitem').first()).toBeVisible();
          await expect(panel.locator('[aria-busy="true"]')).toHaveCount(0);
          expect(await sidewaysOverflow(page)).toEqual([]);
          await page.keyboard.press('Escape');
          await expect(panel).toBeHidden();
        });
      });
    });
  }
}

/** The rectangles of two elements share some area. */
const intersects = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test.describe('each defect of item 11', () => {
  test.describe('on a phone (375 px)', () => {
    test.use({ viewport: { width: 375, height: 800 } });

    test.describe('the demo seller', () => {
      actAs('seller');

      test("'Total sales £…' does not run into the Orders figure", async ({ page }) => {
        await openAs(page, 'seller');
        const overview = page.getByRole('region', { name: /^Sales overview/ });
        const total = overview.locator('dd').first();
        await expect(total).toHaveText(/£\d{1,3}(,\d{3})*\.\d{2}/);
        const figures = await overview.locator('dl > div').evaluateAll((divs) =>
          divs.map((div) => {
            const dd = div.querySelector('dd') as HTMLElement;
            // the text's own extent, not its box: overflowing text is what overlapped
            const range = document.createRange();
            range.selectNodeContents(dd);
            const r = range.getBoundingClientRect();
            const box = div.getBoundingClientRect();
            return {
              text: { x: r.x, y: r.y, width: r.width, height: r.height },
              box: { x: box.x, y: box.y, width: box.width, height: box.height },
              overflows: dd.scrollWidth > dd.clientWidth,
              // a figure reads on one line, not broken in the middle of the number
              lines: new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.bottom)))
                .size,
            };
          }),
        );
        expect(figures).toHaveLength(3);
        for (const [i, figure] of figures.entries()) {
          expect(figure.overflows).toBe(false);
          expect(figure.lines).toBe(1);
          for (const [j, other] of figures.entries()) {
            if (i !== j) expect(intersects(figure.text, other.box)).toBe(false);
          }
        }
      });

      /** How many lines a tab's label and count take. */
      const linesOf = (tab: Locator) =>
        tab.evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.bottom))).size;
        });

      test("'Activity log 51' stays on one line in the notifications card and page", async ({ page }) => {
        await openAs(page, 'seller');
        await page.getByRole('button', { name: 'Open menu' }).click();
        await page
          .getByRole('dialog', { name: 'Menu' })
          .getByRole('button', { name: /^Notifications/ })
          .click();
        const card = page.getByRole('dialog', { name: 'Notifications' });
        for (const name of [/^Notifications/, /^Activity log/]) {
          const tab = card.getByRole('tab', { name });
          await expect(tab).toHaveText(/\d+$/);
          expect(await linesOf(tab)).toBe(1);
        }
        await page.goto('/notifications/home');
        for (const name of [/^Notifications/, /^Activity log/]) {
          const tab = page.getByRole('main').getByRole('tab', { name });
          await expect(tab).toHaveText(/\d+$/);
          expect(await linesOf(tab)).toBe(1);
        }
      });

      test('the logo in the drawer closes it, on the dashboard too', async ({ page }) => {
        await openAs(page, 'seller');
        await page.getByRole('button', { name: 'Open menu' }).click();
        const drawer = page.getByRole('dialog', { name: 'Menu' });
        await drawer.getByRole('link', { name: 'SB Portal, go to the dashboard' }).click();
        await expect(drawer).toHaveCount(0);
        await expect(page).toHaveURL(/\/dashboard$/);
      });
    });
  });

  test.describe('on a desktop (1280 px)', () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test.describe('the demo seller', () => {
      actAs('seller');

      test('the collapsed badge does not cover the bell', async ({ page }) => {
        await openAs(page, 'seller');
        const menu = page.getByTestId('side-menu');
        await menu.getByRole('button', { name: 'Minimise menu' }).click();
        await expect(menu).toHaveCSS('width', '60px');
        const entry = menu.getByRole('button', { name: /^Notifications, \d+ unread$/ });
        const badge = entry.locator('[data-badge]');
        await expect(badge).toBeVisible();
        const bell = await entry.locator('svg').boundingBox();
        const mark = await badge.boundingBox();
        if (!bell || !mark) throw new Error('no bell or badge');
        expect(intersects(bell, mark)).toBe(false);
        // and the badge stays inside the 60 px menu
        expect(mark.x + mark.width).toBeLessThanOrEqual(60);
      });

      test('expanding Sales does not make the 200 px menu scroll sideways', async ({ page }) => {
        await openAs(page, 'seller');
        const menu = page.getByTestId('side-menu');
        await menu.getByRole('button', { name: 'Sales' }).click();
        await expect(menu.getByRole('link', { name: /^Awaiting Delivery/ })).toBeVisible();
        const { scrollWidth, clientWidth } = await menu.evaluate((el) => ({
          scrollWidth: el.scrollWidth,
          clientWidth: el.clientWidth,
        }));
        expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
        // the statuses are read in full, not cut
        for (const link of await menu.getByRole('list').last().getByRole('link').all()) {
          const label = link.locator('span').first();
          expect(await label.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
        }
      });
    });

    test.describe('the hostile account', () => {
      actAs('longname');

      test('a long name does not squash the menu icon', async ({ page }) => {
        await openAs(page, 'longname');
        // on desktop the name is the seller panel's button
        const entry = page
          .getByTestId('side-menu')
          .getByRole('button', { name: new RegExp(`^${HOSTILE_ACCOUNT.firstName}`) });
        const icon = await entry.locator('svg').boundingBox();
        expect(icon?.width).toBe(20);
      });

      test('a long word in a notification does not widen the dashboard', async ({ page }) => {
        await openAs(page, 'longname');
        const widget = page.getByRole('region', { name: 'Notifications' });
        await widget.scrollIntoViewIfNeeded();
        await expect(widget.getByText(LONG_WORD.slice(0, 20), { exact: false }).first()).toBeVisible();
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
      });
    });
  });
});

test.describe('a wide screen (1920 px)', () => {
  actAs('seller');
  test.use({ viewport: { width: 1920, height: 1080 } });

  test('the dashboard grid uses most of the width, with more columns', async ({ page }) => {
    await openAs(page, 'seller');
    await settled(page);
    const menu = await page.getByTestId('side-menu').boundingBox();
    const grid = page.getByTestId('dashboard-grid');
    const box = await grid.boundingBox();
    if (!menu || !box) throw new Error('no menu or grid');
    const room = 1920 - (menu.x + menu.width);
    expect(box.width / room).toBeGreaterThan(0.9);
    const columns = await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
    expect(columns).toBeGreaterThanOrEqual(3);
  });

  test('the card of each page is not held to a narrow column', async ({ page }) => {
    await openAs(page, 'seller');
    for (const [path, heading] of [
      ['/notifications/home', 'Notifications'],
      ['/settings/myAccount', 'My account'],
      ['/settings/kyc', 'Identity verification (KYC)'],
      ['/reports/wallet', 'Wallet'],
    ] as const) {
      await test.step(path, async () => {
        await goInside(page, path, heading);
        await settled(page);
        const card = await page.locator('main section').first().boundingBox();
        expect(card?.width, path).toBeGreaterThan(1400);
      });
    }
  });

  test('the notifications panel opens beside the menu, level with its entry', async ({ page }) => {
    await openAs(page, 'seller');
    const menu = page.getByTestId('side-menu');
    const entry = menu.getByRole('button', { name: /^Notifications/ });
    await entry.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel.getByRole('tabpanel').getByRole('listitem').first()).toBeVisible();
    const [entryBox, panelBox, menuBox] = await Promise.all([
      entry.boundingBox(),
      panel.boundingBox(),
      menu.boundingBox(),
    ]);
    if (!entryBox || !panelBox || !menuBox) throw new Error('no entry, panel or menu');
    expect(Math.abs(panelBox.y - entryBox.y)).toBeLessThanOrEqual(8);
    expect(panelBox.x).toBeGreaterThanOrEqual(menuBox.x + menuBox.width);
    expect(panelBox.x - (menuBox.x + menuBox.width)).toBeLessThanOrEqual(24);
  });

  test('collapsed, the panel still opens beside the 60 px menu, level with the bell', async ({ page }) => {
    await openAs(page, 'seller');
    const menu = page.getByTestId('side-menu');
    await menu.getByRole('button', { name: 'Minimise menu' }).click();
    await expect(menu).toHaveCSS('width', '60px');
    const entry = menu.getByRole('button', { name: /^Notifications/ });
    await entry.click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    await expect(panel.getByRole('tabpanel').getByRole('listitem').first()).toBeVisible();
    const [entryBox, panelBox] = await Promise.all([entry.boundingBox(), panel.boundingBox()]);
    expect(Math.abs((panelBox?.y ?? 0) - (entryBox?.y ?? 0))).toBeLessThanOrEqual(8);
    expect(panelBox?.x).toBeGreaterThanOrEqual(60);
  });
});

test.describe('loading does not move the dashboard (item 14)', () => {
  actAs('seller');
  for (const width of [375, 1280]) {
    test(`at ${width} px the 'Awaiting delivery' skeleton is as high as the rows that replace it`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const release = await holdRequests(page, '**/api/dashboard/awaiting-delivery*');
      await openAs(page, 'seller');
      await scrollThrough(page);
      const awaiting = page.getByRole('region', { name: /^Awaiting delivery/ });
      const activity = page.getByRole('region', { name: 'Activity' });
      // every other widget is in; only the awaiting list is still loading
      await expect(page.locator('main section[aria-busy="true"]')).toHaveCount(1);
      await expect(awaiting).toHaveAttribute('aria-busy', 'true');
      const before = { awaiting: await awaiting.boundingBox(), activity: await activity.boundingBox() };
      release();
      await expect(awaiting.getByRole('listitem').first()).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      const after = { awaiting: await awaiting.boundingBox(), activity: await activity.boundingBox() };
      expect(Math.abs((after.awaiting?.height ?? 0) - (before.awaiting?.height ?? 0))).toBeLessThanOrEqual(2);
      expect(Math.abs((after.activity?.y ?? 0) - (before.activity?.y ?? 0))).toBeLessThanOrEqual(2);
    });
  }
});
