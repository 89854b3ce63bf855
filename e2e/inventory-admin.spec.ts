import { expect, type Page, test } from '@playwright/test';
import { actAs, goInside, openAs, stateFile } from './support';

// Issue 11 in the browser, the parts around a listing: the seller's additional templates (Settings › Templates,
// picked in Add Inventory) and an event request that the back office approves, against the real server.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The 15th of next month, as the date picker names its day ('Tue, 15 Dec 2026'). */
function fifteenthOfNextMonth() {
  const now = new Date();
  const day = new Date(now.getFullYear(), now.getMonth() + 1, 15);
  return `${DAYS[day.getDay()]}, 15 ${MONTHS[day.getMonth()]} ${day.getFullYear()}`;
}

async function findMatch(page: Page, name: string) {
  const search = page.getByRole('form', { name: 'Find the match' });
  await search.getByRole('searchbox', { name: 'Match' }).fill(name);
  await search.getByRole('button', { name: 'Search' }).click();
  return page.getByRole('list', { name: 'Matches' }).getByRole('button', { name: `Sell tickets for ${name}` });
}

test.describe('templates and event requests', () => {
  actAs('seller');

  test('a seller adds a template and lists tickets with it; the back office approves its event request and the seller lists for the new match', async ({
    page,
    browser,
  }) => {
    const stamp = Date.now() % 1_000_000;
    const templateName = `E2E gate ${stamp}`;
    const eventName = `E2E Cup ${stamp}: Alpha vs Beta`;
    await openAs(page, 'seller');

    const template = page.getByRole('list', { name: 'Templates' }).getByRole('listitem', { name: templateName });
    await test.step('Settings › Templates: a new template', async () => {
      await goInside(page, '/settings/templates', 'Templates');
      await page.getByRole('button', { name: 'Add template' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add template' });
      await dialog.getByRole('textbox', { name: 'Name' }).fill(templateName);
      await dialog.getByRole('textbox', { name: 'Text' }).fill('Meet our runner at gate C, an hour before kick-off.');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await expect(template).toContainText('0 listings carry it');
    });

    await test.step('Add Inventory: the match is missing, so the seller requests it and sees it pending', async () => {
      await goInside(page, '/add-listings', 'Add Inventory');
      await page.getByRole('button', { name: 'Request an event' }).click();
      const form = page.getByRole('form', { name: 'Request an event' });
      await form.getByRole('textbox', { name: 'Event name' }).fill(eventName);
      await form.getByRole('button', { name: /^Event date/ }).click();
      const picker = page.getByRole('dialog', { name: 'Event date: choose a date' });
      await picker.getByRole('button', { name: 'Next month' }).click();
      await picker.getByRole('button', { name: fifteenthOfNextMonth() }).click();
      await form.getByRole('textbox', { name: 'Venue' }).fill(`E2E Arena ${stamp}`);
      await form.getByRole('textbox', { name: 'City (optional)' }).fill('London');
      await form.getByLabel('Kick-off time (optional)').fill('19:45');
      await form.getByRole('button', { name: 'Send request' }).click();
      await expect(form).toBeHidden();
      await expect(
        page.getByRole('list', { name: 'Your event requests' }).getByRole('listitem').filter({ hasText: eventName }),
      ).toContainText('Pending review');
    });

    await test.step('the back office approves the request: it leaves the queue', async () => {
      const context = await browser.newContext({ storageState: stateFile('admin') });
      const admin = await context.newPage();
      await openAs(admin, 'admin', '/admin/event-requests');
      const request = admin.getByRole('row', { name: eventName });
      await request.getByRole('button', { name: `Approve ${eventName}` }).click();
      const dialog = admin.getByRole('dialog', { name: `Approve ${eventName}` });
      await expect(dialog.getByLabel('Kick-off time')).toHaveValue('19:45');
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await expect(dialog).toBeHidden();
      await expect(request).toHaveCount(0);
      await context.close();
    });

    await test.step('the seller sees it added, and lists tickets for it with the template', async () => {
      await goInside(page, '/dashboard', 'Dashboard');
      await goInside(page, '/add-listings', 'Add Inventory');
      await expect(
        page.getByRole('list', { name: 'Your event requests' }).getByRole('listitem').filter({ hasText: eventName }),
      ).toContainText('Added');
      await (await findMatch(page, eventName)).click();
      const form = page.getByRole('form', { name: 'Listing' });
      await page.getByRole('combobox', { name: 'Category' }).click();
      await page.getByRole('option').first().click();
      await form.getByRole('combobox', { name: 'Block' }).fill('101');
      await form.getByRole('textbox', { name: 'Row', exact: true }).fill('A');
      await form
        .getByRole('radiogroup', { name: 'Ticket type' })
        .locator('label')
        .filter({ hasText: 'E-ticket' })
        .click();
      await form.getByRole('textbox', { name: 'Quantity' }).fill('2');
      await form.getByRole('textbox', { name: 'Price per ticket' }).fill('60');
      await form
        .getByRole('group', { name: 'Additional templates (optional)' })
        .getByRole('checkbox', { name: new RegExp(`^${templateName}`) })
        .check();
      await form.getByRole('button', { name: 'List tickets' }).click();
      await expect(page.getByRole('heading', { name: 'Listing created' })).toBeVisible();
      // the server's answer carries the template
      await expect(page.getByText(`With the templates: ${templateName}.`)).toBeVisible();
    });

    await test.step('the template now counts the listing that carries it', async () => {
      await goInside(page, '/settings/templates', 'Templates');
      await expect(template).toContainText('1 listing carries it');
    });
  });
});
