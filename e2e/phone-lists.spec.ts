import { expect, type Locator, type Page, test } from '@playwright/test';
import { actAs, openAs } from './support';

// The seller's lists on a phone (375×812): Inventory, the six sales lists, Report History and Payouts read as
// compact cards, one a row, with their key fields and their action, and nothing scrolls sideways. The back
// office's lists (the audit log, a queue) are the same shared list section.

test.use({ viewport: { width: 375, height: 812 } });

/** How wide the page is beyond the screen (0: nothing scrolls sideways). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * The list's rows as a phone shows them: each a card (a grid of its lines, framed) inside the screen, the column
 * headings out of sight. Returns how many rows there are.
 */
async function readsAsCards(list: Locator) {
  const rows = list.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  for (const row of (await rows.all()).slice(0, 3)) {
    const card = await row.evaluate((el) => {
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return {
        display: style.display,
        framed: style.borderTopStyle !== 'none' || style.borderBottomStyle !== 'none',
        left: box.left,
        right: box.right,
        height: box.height,
      };
    });
    expect(['grid', 'block']).toContain(card.display);
    expect(card.framed).toBe(true);
    expect(card.left).toBeGreaterThanOrEqual(0);
    expect(card.right).toBeLessThanOrEqual(375);
  }
  // the headings are for screen readers only: the cards name their own fields
  const heads = list.locator('thead');
  if ((await heads.count()) > 0) {
    const box = await heads.first().boundingBox();
    expect(box === null || box.height <= 1).toBe(true);
  }
  return count;
}

test.describe('the seller', () => {
  actAs('seller');

  test('Inventory: each listing a card, its menu of actions in reach, nothing sideways', async ({ page }) => {
    await page.goto('/my-listings');
    await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
    const grid = page.getByRole('table', { name: 'Listings' });
    await readsAsCards(grid);
    expect(await sideways(page)).toBe(0);
    const menu = grid.getByRole('button', { name: /^Actions for / }).first();
    await menu.scrollIntoViewIfNeeded();
    await expect(menu).toBeInViewport();
    await menu.click();
    await expect(page.getByRole('menu').first().getByRole('menuitem').first()).toBeVisible();
  });

  test('the six sales lists: orders as cards with Details, nothing sideways', async ({ page }) => {
    await openAs(page, 'seller', '/dashboard');
    const seen: Record<string, number> = {};
    for (const [status, heading] of [
      ['pending', 'Pending'],
      ['confirmed', 'Awaiting Delivery'],
      ['delivered', 'Delivered'],
      ['completed', 'Completed'],
      ['cancelled', 'Cancelled'],
      ['replaced', 'Replaced'],
    ] as const) {
      await test.step(heading, async () => {
        await page.goto(`/sales/${status}`);
        const orders = page.getByRole('region', { name: new RegExp(`^${heading} orders`) });
        await expect(orders).toHaveAttribute('aria-busy', 'false');
        const empty = orders.getByText(/^No |nothing/i);
        if ((await orders.locator('tbody tr').count()) === 0) {
          await expect(empty.first()).toBeVisible();
          seen[status] = 0;
        } else {
          seen[status] = await readsAsCards(orders);
          const details = orders.getByRole('button', { name: /^Details of order / }).first();
          await details.scrollIntoViewIfNeeded();
          await expect(details).toBeInViewport();
          const box = await details.boundingBox();
          expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);
        }
        expect(await sideways(page), `${heading} scrolls sideways`).toBe(0);
      });
    }
    // the demo seller has orders to show in most lists: the test looked at cards, not only at empty pages
    expect(Object.values(seen).filter((n) => n > 0).length).toBeGreaterThanOrEqual(3);
  });

  test('a pending order opens in its drawer from its card', async ({ page }) => {
    await openAs(page, 'seller', '/sales/pending');
    const orders = page.getByRole('region', { name: /^Pending orders/ });
    await readsAsCards(orders);
    await orders
      .getByRole('button', { name: /^Details of order / })
      .first()
      .click();
    await expect(page.getByRole('dialog')).toBeVisible();
  });

  test('Report History: the orders as cards, an order opens from its card', async ({ page }) => {
    await openAs(page, 'seller', '/report-history');
    const history = page.getByRole('region', { name: 'History' });
    await readsAsCards(history);
    expect(await sideways(page)).toBe(0);
    const first = history.locator('tbody tr').first().getByRole('button').first();
    await first.scrollIntoViewIfNeeded();
    await first.click();
    await expect(page.getByRole('dialog')).toBeVisible();
  });

  test('Payouts: the history and the orders as cards, Details in reach', async ({ page }) => {
    await page.goto('/reports/payouts');
    const history = page.getByRole('region', { name: 'Payout history' });
    await readsAsCards(history);
    const orders = page.getByRole('region', { name: 'Orders and payouts' });
    await readsAsCards(orders);
    expect(await sideways(page)).toBe(0);
    const details = history.getByRole('button', { name: /^Details of / }).first();
    await details.scrollIntoViewIfNeeded();
    await details.click();
    await expect(page.getByRole('dialog')).toBeVisible();
  });
});

test.describe('the operator', () => {
  actAs('admin');

  test('the audit log and a queue are the same cards, nothing sideways', async ({ page }) => {
    await openAs(page, 'admin', '/admin/audit-log');
    const log = page.getByRole('region', { name: /^Every action of the back office/ });
    await expect(log).toHaveAttribute('aria-busy', 'false');
    if ((await log.locator('tbody tr').count()) > 0) await readsAsCards(log);
    expect(await sideways(page)).toBe(0);
    await page.goto('/admin/deposits');
    const queue = page.locator('main section[aria-labelledby$="-heading"]').first();
    await expect(queue).toHaveAttribute('aria-busy', 'false');
    if ((await queue.locator('tbody tr').count()) > 0) {
      await readsAsCards(queue);
      const approve = queue.locator('tbody tr').first().getByRole('button').first();
      await approve.scrollIntoViewIfNeeded();
      await expect(approve).toBeInViewport();
    }
    expect(await sideways(page)).toBe(0);
  });
});
