import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { actAs } from './support';

// Inventory at a broker's scale: 10,000 listings (seeded by e2e/server.ts) in a dense, virtualised grid at 1280x800.

const rows = (page: Page) => page.getByRole('table', { name: 'Listings' }).locator('tbody tr[data-index]');

async function openInventory(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/my-listings');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Inventory');
  await expect(page.getByText(/^50 of 10,000 loaded$/)).toBeVisible();
}

/** The listing rows wholly inside the window, and whether each is one line (a wrapped word makes a row taller). */
const onScreen = (page: Page) =>
  page.evaluate(() => {
    const all = [...document.querySelectorAll('table[aria-label="Listings"] tbody tr[data-index]')];
    const seen = all.filter((tr) => {
      const box = tr.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
    });
    return {
      count: seen.length,
      heights: [...new Set(seen.map((tr) => Math.round(tr.getBoundingClientRect().height)))],
      wrapped: seen.flatMap((tr) =>
        [...tr.querySelectorAll('td')]
          .filter((td) => td.scrollHeight > td.clientHeight + 1)
          .map((td) => td.textContent),
      ),
      // a heading cut short ("So…", "Face v…") is a word broken too
      cutHeadings: [...document.querySelectorAll('table[aria-label="Listings"] thead th')]
        .filter((th) => th.scrollWidth > th.clientWidth)
        .map((th) => th.textContent),
      // the filters' band: nothing overflows it, no button's words on two lines
      bandOverflows: [...document.querySelectorAll('main button, main input')].some((el) => {
        const box = el.getBoundingClientRect();
        return box.right > (document.querySelector('main')?.getBoundingClientRect().right ?? 0) - 16;
      }),
      twoLineButtons: [...document.querySelectorAll('main button')]
        .filter((b) => {
          const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
          const range = document.createRange();
          for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            range.selectNodeContents(t);
            if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) return true;
          }
          return false;
        })
        .map((b) => b.textContent),
      sideways: document.documentElement.scrollWidth > window.innerWidth,
    };
  });

test.describe('Inventory at scale', () => {
  actAs('broker');

  test('shows at least 20 listings at 1280x800, one line each, no word broken, nothing sideways', async ({ page }) => {
    await openInventory(page);
    const seen = await onScreen(page);
    expect(seen.count).toBeGreaterThanOrEqual(20);
    expect(seen.heights).toEqual([26]);
    expect(seen.wrapped).toEqual([]);
    expect(seen.cutHeadings).toEqual([]);
    expect(seen.bandOverflows).toBe(false);
    expect(seen.twoLineButtons).toEqual([]);
    expect(seen.sideways).toBe(false);
  });

  test('scrolls through 10,000 listings with fewer than 100 rows in the DOM', async ({ page }) => {
    // 50 pages of 200 after the first 50, each read as the end of what is loaded comes into view
    test.setTimeout(240_000);
    await openInventory(page);
    const scroller = page.getByTestId('inventory-scroller');
    expect(await rows(page).count()).toBeLessThan(100);
    const loaded = async () =>
      Number(((await page.getByText(/ of 10,000 loaded$/).textContent()) ?? '0').split(' ')[0]?.replace(/,/g, ''));
    let count = await loaded();
    let most = 0;
    while (count < 10_000) {
      const before = count;
      await expect
        .poll(async () => {
          await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
          return loaded();
        })
        .toBeGreaterThan(before);
      count = await loaded();
      most = Math.max(most, await rows(page).count());
    }
    await expect(page.getByText(/^10,000 of 10,000 loaded$/)).toBeVisible();
    expect(most).toBeLessThan(100);
    // the last listing is reached, and a scroll back to the top shows the first again, the DOM as small
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(page.locator('tbody tr[data-index="9999"]')).toBeInViewport();
    await scroller.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(page.locator('tbody tr[data-index="0"]')).toBeInViewport();
    expect(await rows(page).count()).toBeLessThan(100);
  });

  test('edits a price in place: the payout shows while typing, Escape puts it back, Enter saves', async ({ page }) => {
    await openInventory(page);
    const first = rows(page).first();
    const price = first.getByRole('button', { name: /^Price of / });
    const before = (await price.textContent()) ?? '';
    await price.click();
    const field = first.getByRole('textbox', { name: /^New price of / });
    await field.fill('123.45');
    await expect(first.getByRole('status')).toHaveText('You receive £493.80 for 4 tickets');
    await field.press('Escape');
    await expect(field).toBeHidden();
    await expect(price).toHaveText(before);

    await price.press('Enter');
    await first.getByRole('textbox', { name: /^New price of / }).fill('123.45');
    await page.keyboard.press('Enter');
    await expect(first.getByRole('button', { name: /^Price of / })).toHaveText('£123.45');
    // the server keeps it: read again, the grid shows it
    await page.reload();
    await expect(page.getByText(/^50 of 10,000 loaded$/)).toBeVisible();
    await expect(
      rows(page)
        .first()
        .getByRole('button', { name: /^Price of / }),
    ).toHaveText('£123.45');
  });

  test('raises the price of a shift-clicked range by an amount, then Undo puts each back', async ({ page }) => {
    await openInventory(page);
    const prices = () => rows(page).locator('[data-col="price"]').allTextContents();
    const before = (await prices()).slice(3, 6);
    await rows(page).nth(3).getByRole('checkbox').click();
    await rows(page)
      .nth(5)
      .getByRole('checkbox')
      .click({ modifiers: ['Shift'] });
    const bar = page.getByRole('toolbar', { name: 'Selected listings' });
    await expect(bar.getByText('3 selected')).toBeVisible();
    await bar.getByRole('button', { name: 'Change price' }).click();
    const dialog = page.getByRole('dialog', { name: 'New price for 3 listings' });
    await dialog.getByText('Change by an amount').click();
    await dialog.getByRole('textbox', { name: /Amount to add/ }).fill('5');
    await expect(dialog.getByText('Raises the price of each of 3 listings by 5.00 GBP.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Update price' }).click();
    await expect(dialog).toBeHidden();
    const plus5 = before.map((p) => `£${(Number(p.replace(/[£,]/g, '')) + 5).toFixed(2)}`);
    await expect.poll(async () => (await prices()).slice(3, 6)).toEqual(plus5);

    const undo = page.getByRole('status', { name: 'Last change' });
    await expect(undo).toContainText('3 prices updated.');
    await undo.getByRole('button', { name: 'Undo' }).click();
    await expect(undo).toBeHidden();
    await expect.poll(async () => (await prices()).slice(3, 6)).toEqual(before);
  });

  test('no serious or critical axe issues on the grid, with a selection and a row menu open', async ({ page }) => {
    await openInventory(page);
    await rows(page).first().getByRole('checkbox').click();
    await rows(page)
      .nth(1)
      .getByRole('button', { name: /^Actions for / })
      .click();
    await expect(page.getByRole('menuitem', { name: 'Edit' })).toBeFocused();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
