import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { actAs, openAs } from './support';

// The operator caps resale prices in the back office: a cap for one event, found by search, restated before it
// is saved, listed with its rule, then turned off (the cap stays written down, inactive).

actAs('admin');

const serious = async (page: Page) =>
  (await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag22aa']).analyze()).violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );

test('the operator caps an event at face value plus 10%, sees it listed, and turns it off', async ({ page }) => {
  await openAs(page, 'admin', '/admin');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Price caps' }).click();
  await expect(page.getByRole('heading', { name: 'Resale price caps', level: 1 })).toBeVisible();

  const form = page.getByRole('form', { name: 'Add a cap' });
  const eventPick = form.getByRole('combobox', { name: 'Event' });
  const listed = form.getByRole('listbox', { name: 'Event' }).getByRole('option');
  // the last event to come: the one other specs are least likely to list on
  await eventPick.click();
  await expect(listed.first()).toBeVisible();
  const matchName = ((await listed.last().textContent()) ?? '').trim();
  expect(matchName).not.toBe('');
  await eventPick.press('Escape');
  await form.getByRole('searchbox', { name: 'Find an event' }).fill(matchName);
  await eventPick.click();
  await expect(listed).toHaveCount(1);
  await listed.first().click();
  await expect(eventPick).toHaveValue(matchName);

  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith('/api/admin/price-caps')) sent.push(r.url());
  });
  // a markup out of range is said beside the field, and nothing can be sent
  const markup = form.getByRole('textbox', { name: 'Markup over face value (%)' });
  await markup.fill('1200');
  await expect(form.getByText('A markup from 0 to 1000%, with at most two decimals.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Add cap' })).toBeDisabled();
  expect(sent).toEqual([]);

  await markup.fill('10');
  await form.getByRole('button', { name: 'Add cap' }).click();
  const dialog = page.getByRole('dialog', { name: `Cap: ${matchName}` });
  await expect(
    dialog.getByText(`Listings for ${matchName} may then cost at most face value plus 10%.`, { exact: false }),
  ).toBeVisible();
  expect(await serious(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cap at face value plus 10%' }).click();
  await expect(dialog).toHaveCount(0);

  const row = page.getByRole('list', { name: 'Caps' }).getByRole('listitem', { name: matchName });
  await expect(row).toContainText('One event · at most face value plus 10% · Active');
  await expect(row.getByRole('status')).toContainText('Saved.');

  await row.getByRole('button', { name: 'Turn off' }).click();
  const off = page.getByRole('dialog', { name: `Cap: ${matchName}` });
  await expect(
    off.getByText(`The cap on listings for ${matchName} (face value plus 10%) will no longer apply.`),
  ).toBeVisible();
  await off.getByRole('button', { name: 'Turn off' }).click();
  await expect(off).toHaveCount(0);
  await expect(row).toContainText('at most face value plus 10% · Inactive');
  await expect(row.getByRole('button', { name: 'Turn on' })).toBeVisible();
  expect(sent).toHaveLength(2);
  expect(await serious(page)).toEqual([]);
});
