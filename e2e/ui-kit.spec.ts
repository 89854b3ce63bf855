import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { pickFile } from './support';

// The gallery at /dev/ui (development and e2e builds) takes Wed 18 Nov 2026 as today.

const demo = (page: Page, title: string) => page.getByRole('region', { name: title, exact: true });

/** Serious and critical axe violations on the page, or only inside `part` when given. */
async function seriousViolations(page: Page, part?: Locator) {
  const builder = new AxeBuilder({ page });
  if (part)
    builder.include(
      await part.evaluate((el) => {
        el.setAttribute('data-axe-part', '');
        return '[data-axe-part]';
      }),
    );
  const { violations } = await builder.analyze();
  if (part) await part.evaluate((el) => el.removeAttribute('data-axe-part'));
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Stops the page's clock (timers, animation frames, Date) until the test moves it with `page.clock.runFor`. */
async function pauseClock(page: Page) {
  await page.clock.install();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'UI kit', level: 1 })).toBeVisible();
  await page.clock.pauseAt(Date.now() + 60_000);
}

/** Lets React finish what the last timers started: its scheduler runs on message events, which the clock does not stop. */
async function settle(page: Page) {
  for (let i = 0; i < 3; i++)
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
    );
}

test.beforeEach(async ({ page }) => {
  await page.goto('/dev/ui');
  await expect(page.getByRole('heading', { name: 'UI kit', level: 1 })).toBeVisible();
});

test.describe('date picker', () => {
  test('a range picked with the mouse: a pick before the start moves it, Confirm commits', async ({ page }) => {
    const card = demo(page, 'Range, empty');
    await card.getByRole('button', { name: /^Report period/ }).click();
    const dialog = card.getByRole('dialog');
    await expect(dialog).toHaveCSS('width', '280px');
    const grid = dialog.getByRole('grid', { name: 'November 2026' });
    await expect(grid.getByRole('gridcell')).toHaveCount(42);
    await expect(grid.getByRole('gridcell').first()).toHaveText('26'); // Mon 26 Oct 2026
    await expect(dialog.getByRole('button', { name: 'Confirm' })).toBeDisabled();
    await grid.getByRole('button', { name: 'Tue, 10 Nov 2026' }).click();
    await grid.getByRole('button', { name: 'Thu, 5 Nov 2026' }).click();
    await expect(dialog.getByText('Pick the end date')).toBeVisible();
    await grid.getByRole('button', { name: 'Fri, 20 Nov 2026' }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect(card.getByRole('button', { name: /^Report period/ })).toHaveText('Thu, 5 Nov 2026 – Fri, 20 Nov 2026');
    await expect(card.getByText('Committed: 2026-11-05 to 2026-11-20')).toBeVisible();
  });

  test('a range picked with the keyboard alone', async ({ page }) => {
    const card = demo(page, 'Range, empty');
    const trigger = card.getByRole('button', { name: /^Report period/ });
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(card.getByRole('button', { name: 'Wed, 18 Nov 2026' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowDown');
    await expect(card.getByRole('button', { name: 'Thu, 26 Nov 2026' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab'); // Reset
    await page.keyboard.press('Tab'); // Confirm
    await expect(card.getByRole('button', { name: 'Confirm' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(trigger).toHaveText('Thu, 19 Nov 2026 – Thu, 26 Nov 2026');
    await expect(trigger).toBeFocused();
  });

  test('Escape closes without committing; the arrows cross into the next month', async ({ page }) => {
    const card = demo(page, 'Range, empty');
    await card.getByRole('button', { name: /^Report period/ }).click();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(card.getByRole('grid', { name: 'December 2026' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Wed, 2 Dec 2026' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await expect(card.getByRole('grid')).toBeHidden();
    await expect(card.getByText('Committed: nothing')).toBeVisible();
  });

  test('days and months beyond the bounds are disabled', async ({ page }) => {
    const card = demo(page, 'Range, bounded (10 to 25 Nov 2026)');
    await card.getByRole('button', { name: /^Booking window/ }).click();
    const grid = card.getByRole('grid', { name: 'November 2026' });
    for (const name of ['Mon, 9 Nov 2026', 'Thu, 26 Nov 2026', 'Mon, 26 Oct 2026', 'Sun, 6 Dec 2026']) {
      await expect(grid.getByRole('button', { name })).toBeDisabled();
      await expect(grid.getByRole('gridcell', { name })).toHaveAttribute('aria-disabled', 'true');
    }
    await expect(grid.getByRole('button', { name: 'Tue, 10 Nov 2026' })).toBeEnabled();
    await expect(grid.getByRole('button', { name: 'Wed, 25 Nov 2026' })).toBeEnabled();
    await expect(card.getByRole('button', { name: 'Previous month' })).toBeDisabled();
    await expect(card.getByRole('button', { name: 'Next month' })).toBeDisabled();
    await expect(
      card.getByRole('combobox', { name: 'Month' }).getByRole('option', { name: 'December' }),
    ).toBeDisabled();
    // the keyboard stops at the bound too
    await card.getByRole('button', { name: 'Tue, 24 Nov 2026' }).click();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(card.getByRole('button', { name: 'Wed, 25 Nov 2026' })).toBeFocused();
    await grid.getByRole('button', { name: 'Thu, 26 Nov 2026' }).click({ force: true });
    await expect(card.getByText('Pick the end date')).toBeVisible();
  });

  test('single mode commits at once and closes', async ({ page }) => {
    const card = demo(page, 'Single, empty');
    await card.getByRole('button', { name: /^Match date/ }).click();
    await card.getByRole('button', { name: 'Sun, 22 Nov 2026' }).click();
    await expect(card.getByRole('dialog')).toBeHidden();
    await expect(card.getByText('Committed: 2026-11-22')).toBeVisible();
  });
});

test.describe('dropdown', () => {
  test("a search with no match says 'No options found'", async ({ page }) => {
    const box = demo(page, 'Searchable, empty').getByRole('combobox', { name: 'Country' });
    await box.fill('Atlantis');
    await expect(demo(page, 'Searchable, empty').getByText('No options found')).toBeVisible();
    await box.fill('');
    await box.pressSequentially('spa');
    await expect(page.getByRole('option')).toHaveText(['Spain']);
    await page.keyboard.press('Enter');
    await expect(box).toHaveValue('Spain');
    await expect(demo(page, 'Searchable, empty').getByText('Value: ES')).toBeVisible();
  });

  test('multi-select: Select all takes every option', async ({ page }) => {
    const card = demo(page, 'Multi-select with select all');
    await card.getByRole('combobox', { name: 'Teams' }).click();
    const list = card.getByRole('listbox', { name: 'Teams' });
    await list.getByRole('option', { name: 'Select all' }).click();
    const options = list.getByRole('option');
    await expect(options).toHaveCount(9);
    for (let i = 0; i < 9; i++) await expect(options.nth(i)).toHaveAttribute('aria-selected', 'true');
    await expect(card.getByText('Values: ARS, AVL, CHE, LIV, MCI, MUN, NEW, TOT')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(card.getByRole('combobox', { name: 'Teams' })).toHaveValue('8 selected');
  });

  test('the list is 40vh high, at least 120 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 250 });
    await demo(page, 'Multi-select with select all').getByRole('combobox', { name: 'Teams' }).click();
    const box = await page.getByRole('listbox', { name: 'Teams' }).boundingBox();
    expect(box?.height).toBe(120);
  });

  test('below 480 px wide the list is the small one: 30vh instead of 40vh (spec section 9)', async ({ page }) => {
    const listHeight = async (width: number) => {
      await page.setViewportSize({ width, height: 800 });
      const box = demo(page, 'Multi-select with select all').getByRole('combobox', { name: 'Teams' });
      await box.click();
      const height = (await page.getByRole('listbox', { name: 'Teams' }).boundingBox())?.height;
      await page.keyboard.press('Escape');
      return height;
    };
    expect(await listHeight(479)).toBe(240);
    expect(await listHeight(480)).toBe(320);
  });

  test('autoOpen: a second after it appears the dropdown clicks its own input (spec section 9)', async ({ page }) => {
    const card = demo(page, 'Opens itself after 1 second');
    await card.getByRole('button', { name: 'Show the dropdown' }).click();
    const box = card.getByRole('combobox', { name: 'Next match' });
    const shownAt = Date.now();
    await expect(box).toHaveAttribute('aria-expanded', 'false');
    await expect(box).toHaveAttribute('aria-expanded', 'true', { timeout: 5_000 });
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(900);
    await expect(box).toBeFocused();
    await card.getByRole('listbox', { name: 'Next match' }).getByRole('option', { name: 'Chelsea' }).click();
    await expect(box).toHaveValue('Chelsea');
  });
});

test.describe('file field', () => {
  test('a deposit proof of 10 MB and 1 byte is refused with the exact message', async ({ page }) => {
    const card = demo(page, 'Deposit proof (pdf, jpg, jpeg, png; 10 MB)');
    await pickFile(card.getByLabel('Deposit proof'), {
      name: 'proof.pdf',
      mimeType: 'application/pdf',
      size: 10 * 1024 * 1024 + 1,
    });
    await expect(card.getByText('File size exceeds 10MB limit', { exact: true })).toBeVisible();
    await card.getByLabel('Deposit proof').setInputFiles({
      name: 'proof.gif',
      mimeType: 'image/gif',
      buffer: Buffer.alloc(10),
    });
    await expect(
      card.getByText('Invalid file type. Allowed types: pdf, jpg, jpeg, png', { exact: true }),
    ).toBeVisible();
    await pickFile(card.getByLabel('Deposit proof'), {
      name: 'proof.png',
      mimeType: 'image/png',
      size: 10 * 1024 * 1024,
    });
    await expect(card.getByText('proof.png')).toBeVisible();
    await expect(card.getByText('10.0 MB')).toBeVisible();
    await expect(card.getByText(/exceeds|Invalid/)).toHaveCount(0);
  });

  test("an upload shows its progress as the uploader reports it: 'Uploading… 42%'", async ({ page }) => {
    const card = demo(page, 'Deposit proof, uploading (advance it by hand)');
    await expect(card.getByRole('progressbar')).toHaveCount(0);
    await card.getByRole('button', { name: 'Start upload' }).click();
    const bar = card.getByRole('progressbar', { name: 'Uploading deposit-proof.pdf' });
    await expect(bar).toHaveAttribute('aria-valuenow', '0');
    await card.getByRole('button', { name: 'Advance upload' }).click();
    await expect(bar).toHaveAttribute('aria-valuenow', '42');
    await expect(bar).toHaveAttribute('aria-valuetext', 'Uploading… 42%');
    await expect(card.getByText('Uploading… 42%')).toBeVisible();
    // while it uploads, the file cannot be removed
    await expect(card.getByRole('button', { name: 'Remove deposit-proof.pdf' })).toBeDisabled();
    await card.getByRole('button', { name: 'Advance upload' }).click();
    await expect(bar).toHaveAttribute('aria-valuenow', '84');
    await card.getByRole('button', { name: 'Advance upload' }).click();
    await expect(card.getByRole('status').filter({ hasText: 'deposit-proof.pdf uploaded' })).toBeVisible();
    await expect(card.getByRole('progressbar')).toHaveCount(0);
  });
});

test.describe('one of each control', () => {
  /** The box a pointer can hit: the element's own, or its label's when the element is hidden inside it. */
  const targetSize = (el: Locator) =>
    el.evaluate((node) => {
      const label = node.closest('label');
      const box =
        (getComputedStyle(node).opacity === '0' || node.getBoundingClientRect().width < 2) && label
          ? label.getBoundingClientRect()
          : node.getBoundingClientRect();
      return { width: Math.round(box.width), height: Math.round(box.height) };
    });
  const atLeast24 = async (el: Locator) => {
    const size = await targetSize(el);
    expect(size.width, 'target width').toBeGreaterThanOrEqual(24);
    expect(size.height, 'target height').toBeGreaterThanOrEqual(24);
  };

  test('the dropdown, its options and the file picker (zone, remove, row button) are 24 px targets or more', async ({
    page,
  }) => {
    const box = demo(page, 'Filled').getByRole('combobox', { name: 'Currency' });
    await atLeast24(box);
    await box.click();
    for (const option of await page.getByRole('listbox', { name: 'Currency' }).getByRole('option').all())
      await atLeast24(option);
    await page.keyboard.press('Escape');
    const several = demo(page, 'Several files (pdf)');
    await atLeast24(several.getByLabel('E-tickets'));
    await several.getByLabel('E-tickets').setInputFiles([
      { name: 'a.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') },
      { name: 'b.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') },
    ]);
    await expect(several.getByText('a.pdf')).toBeVisible();
    await expect(several.getByText('b.pdf')).toBeVisible();
    await atLeast24(several.getByRole('button', { name: 'Remove a.pdf' }));
    await several.getByRole('button', { name: 'Remove a.pdf' }).click();
    await expect(several.getByText('a.pdf')).toHaveCount(0);
    const row = demo(page, "A list row's button");
    const picker = row.getByLabel('Upload tickets for BK-1001');
    await atLeast24(picker);
    await picker.setInputFiles({ name: 't.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    await expect(row.getByText('Picked: t.pdf')).toBeVisible();
  });

  test('free text: the typed block stands, a suggestion fills it in', async ({ page }) => {
    const block = demo(page, 'Free text with suggestions').getByRole('combobox', { name: 'Block' });
    await block.fill('Upper 9');
    await expect(page.getByRole('listbox', { name: 'Block' })).toHaveCount(0);
    await block.fill('11');
    await page.getByRole('option', { name: '112', exact: true }).click();
    await expect(block).toHaveValue('112');
  });
});

test.describe('numeric inputs', () => {
  test("a pasted '1,234.5' shows 1,234.50 once blurred and counts 123450 minor units", async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.evaluate(() => navigator.clipboard.writeText('1,234.5'));
    const card = demo(page, 'Currency, empty');
    const field = card.getByLabel('Deposit amount');
    await field.focus();
    await page.keyboard.press('ControlOrMeta+V');
    await expect(field).toHaveValue('1234.5');
    await page.keyboard.press('Tab');
    await expect(field).toHaveValue('1,234.50');
    await expect(card.getByText('Value: 123450 minor units')).toBeVisible();
  });

  test("'.5' becomes 0.5, a second dot and a late '-' are refused", async ({ page }) => {
    const field = demo(page, 'Numeric').getByLabel('Quantity');
    await field.pressSequentially('.5.2-');
    await expect(field).toHaveValue('0.52');
    await field.fill('');
    await field.pressSequentially('-7');
    await expect(field).toHaveValue('-7');
  });
});

test.describe('drawer', () => {
  test('opens after 50 ms, unmounts 300 ms after closing, traps and returns the focus', async ({ page }) => {
    // the page's clock is stopped and moved by hand: the delays are checked to the millisecond on any machine
    await pauseClock(page);
    const opener = page.getByRole('button', { name: 'Open drawer' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Top up your SB pay Account' });
    await page.clock.runFor(49);
    await settle(page);
    await expect(drawer).toHaveCount(0);
    await page.clock.runFor(1);
    await expect(drawer).toBeVisible();
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press('Tab');
      expect(await drawer.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.clock.runFor(299);
    await settle(page);
    await expect(drawer).toHaveCount(1);
    await page.clock.runFor(1);
    await expect(drawer).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  test('Escape inside an open date picker closes only the picker', async ({ page }) => {
    await page.getByRole('button', { name: 'Open drawer' }).click();
    const drawer = page.getByRole('dialog', { name: 'Top up your SB pay Account' });
    await drawer.getByRole('button', { name: /^Transfer date/ }).click();
    await expect(drawer.getByRole('grid')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer.getByRole('grid')).toBeHidden();
    await expect(drawer).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
  });

  test('a modal closes on an outside click only when enabled', async ({ page }) => {
    await page.getByRole('button', { name: 'Open modal', exact: true }).click();
    await page.mouse.click(5, 5);
    await expect(page.getByRole('dialog', { name: 'Delete listing' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await page.getByRole('button', { name: 'Open dismissible modal' }).click();
    await page.mouse.click(5, 5);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Open dismissible modal' })).toBeFocused();
  });
});

test('the copy button shows a check mark for 2 seconds', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await pauseClock(page);
  const button = page.getByRole('button', { name: 'Copy IBAN' });
  await button.click();
  await expect(button).toHaveAttribute('data-copied');
  await page.clock.runFor(1999);
  await settle(page);
  await expect(button).toHaveAttribute('data-copied');
  await page.clock.runFor(1);
  await expect(button).not.toHaveAttribute('data-copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('GB29NWBK60161331926819');
});

test('field errors show only when showing errors is on', async ({ page }) => {
  const card = demo(page, 'Shown only when there is an error and showing errors is on');
  await expect(card.getByText('Enter the payout amount')).toHaveCount(0);
  await card.getByLabel('Show errors').check();
  await expect(card.getByText('Enter the payout amount')).toBeVisible();
  await expect(card.getByText('Enter the payout amount')).toHaveCSS('color', 'rgb(185, 28, 28)');
});

test.describe('accessibility', () => {
  // The whole gallery is scanned once, then each open popup (a part the page did not have before) on its own;
  // the drawer is modal, so with it open the whole page is scanned again. Three tests, each marked slow: one
  // test doing all of it took 59 s in a quiet CI run and passed the 60 s limit on a loaded machine.
  test('axe finds no serious or critical issue on the gallery', async ({ page }) => {
    test.slow();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('axe finds none in the open range picker and multi-select list', async ({ page }) => {
    test.slow();
    await test.step('a range picker open', async () => {
      await demo(page, 'Range, filled')
        .getByRole('button', { name: /^Sales period/ })
        .click();
      await expect(page.getByRole('grid')).toBeVisible();
      expect(await seriousViolations(page, demo(page, 'Range, filled'))).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('grid')).toHaveCount(0);
    });
    await test.step('a multi-select list open', async () => {
      await demo(page, 'Multi-select with select all').getByRole('combobox', { name: 'Teams' }).click();
      await expect(page.getByRole('listbox')).toBeVisible();
      expect(await seriousViolations(page, demo(page, 'Multi-select with select all'))).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('listbox')).toHaveCount(0);
    });
  });

  test('axe finds none on the page with the modal drawer open', async ({ page }) => {
    test.slow();
    await page.getByRole('button', { name: 'Open drawer' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on a phone the drawer takes the full width', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 700 });
    await page.getByRole('button', { name: 'Open drawer' }).click();
    const box = await page.getByRole('dialog').boundingBox();
    expect(box?.width).toBeCloseTo(375, 0);
  });
});
