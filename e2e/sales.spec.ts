import { readFile } from 'node:fs/promises';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { actAs, goInside, openAs, stateFile } from './support';

// Issue 12 in the browser, against the real server: a sale made by another account in the trade area is
// accepted and delivered by the seller, and moves from Pending to Delivered; a list is exported.

/** A one-page PDF: what the server checks by its first bytes and its page objects. */
const ONE_PAGE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n' +
    '3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200]>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

async function pick(page: Page, label: string, option?: string) {
  await page.getByRole('combobox', { name: label }).click();
  const options = page.getByRole('option');
  await (option ? options.filter({ hasText: option }).first() : options.first()).click();
}

/** The seller lists one E-ticket at 5.00, the least price (so first on the event page), in a row of its own. */
async function listOneTicket(page: Page, row: string) {
  await openAs(page, 'seller');
  await goInside(page, '/add-listings', 'Add Inventory');
  const sell = page.getByRole('list', { name: 'Matches' }).getByRole('button', { name: /^Sell tickets for / });
  await expect(sell.first()).toBeVisible();
  const matchName = ((await sell.first().textContent()) ?? '').replace(/^Sell tickets for /, '').trim();
  await sell.first().click();
  const form = page.getByRole('form', { name: 'Listing' });
  await pick(page, 'Category');
  const category = (await page.getByRole('combobox', { name: 'Category' }).inputValue()).trim();
  await form.getByRole('combobox', { name: 'Block' }).fill('101');
  await form.getByRole('textbox', { name: 'Row', exact: true }).fill(row);
  await form.getByRole('radiogroup', { name: 'Ticket type' }).locator('label').filter({ hasText: 'E-ticket' }).click();
  await form.getByRole('textbox', { name: 'Quantity' }).fill('1');
  await form.getByRole('textbox', { name: 'Price per ticket' }).fill('5.00');
  await form.getByRole('button', { name: 'List tickets' }).click();
  await expect(page.getByRole('heading', { name: 'Listing created' })).toBeVisible();
  return { matchName, category };
}

/** Another account finds the match in the trade search and buys that ticket with SB Pay. */
async function buyAsRival(browser: Browser, matchName: string, row: string) {
  const context = await browser.newContext({ storageState: stateFile('rival') });
  const page = await context.newPage();
  try {
    await openAs(page, 'rival', '/trade/home');
    await page.getByLabel('Event name').fill(matchName);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('list', { name: 'Events' }).getByRole('link', { name: matchName }).first().click();
    await expect(page).toHaveURL(/\/trade\/events\/\d+$/);
    const buy = page.getByRole('list', { name: 'Tickets' }).getByRole('button', { name: new RegExp(` row ${row}$`) });
    await expect(buy).toBeVisible();
    await buy.click();
    const panel = page.getByRole('dialog', { name: 'Confirm Purchase' });
    await expect(panel.getByRole('radio', { name: 'SB Pay' })).toBeChecked();
    await panel.getByRole('button', { name: 'Confirm Purchase' }).click();
    await expect(page.getByText('Booking Confirmed Successfully').first()).toBeVisible();
    await expect(page).toHaveURL(/booking_no=BK\d+/);
    return new URL(page.url()).searchParams.get('booking_no') ?? '';
  } finally {
    await context.close();
  }
}

/** The buyer opens the booking from its purchase history, sees the ticket delivered and downloads the zip. */
async function downloadAsRival(browser: Browser, bookingNo: string) {
  const context = await browser.newContext({ storageState: stateFile('rival') });
  const page = await context.newPage();
  try {
    await openAs(page, 'rival', '/trade/purchase');
    // the buyer is told, and the notification opens the booking in the purchase history
    await openNotification(page, new RegExp(`Your tickets for .*\\(${bookingNo}\\) are ready`));
    await expect(page).toHaveURL(new RegExp(`/trade/purchase\\?booking_no=${bookingNo}$`));
    await expect(page.getByRole('heading', { name: `Booking ${bookingNo}` })).toBeVisible();
    const booking = page.getByRole('definition').filter({ hasText: /1 of 1 delivered/ });
    await expect(booking).toBeVisible();
    const saved = page.waitForEvent('download');
    await booking.getByRole('button', { name: 'Download tickets' }).click();
    const zip = await readFile(await (await saved).path());
    // a zip (PK), holding the PDF the seller uploaded
    expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
    expect(zip.includes(Buffer.from('ticket-1.pdf')) || zip.includes(Buffer.from('.pdf'))).toBe(true);
  } finally {
    await context.close();
  }
}

/** Opens the notifications panel from the side menu and follows the notification whose text matches. */
async function openNotification(page: Page, text: RegExp) {
  await page
    .getByTestId('side-menu')
    .getByRole('button', { name: /^Notifications/ })
    .click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await panel.getByRole('link', { name: text }).click();
  await expect(panel).toBeHidden();
}

async function findOrder(page: Page, path: string, title: string, bookingNo: string) {
  await goInside(page, path, title);
  await page.getByRole('textbox', { name: 'Order number' }).fill(bookingNo);
  await page.getByRole('button', { name: 'Search' }).click();
  const details = page.getByRole('button', { name: `Details of order ${bookingNo}` });
  await expect(details).toBeVisible();
  return details;
}

test.describe('sales', () => {
  actAs('seller');

  test('a ticket listed by the seller is bought by another account, accepted, delivered as a PDF and moves to Delivered; the buyer downloads it', async ({
    page,
    browser,
  }) => {
    test.slow();
    const row = `S${Date.now() % 1_000_000}`;
    const { matchName } = await test.step('the seller lists one ticket', () => listOneTicket(page, row));
    const bookingNo = await test.step('another account finds it in the trade search and buys it', () =>
      buyAsRival(browser, matchName, row));

    const drawer = page.getByRole('dialog', { name: `Order ${bookingNo}` });
    await test.step('the seller is notified; the notification opens the sale in Pending; the seller accepts it', async () => {
      await openNotification(page, new RegExp(`New order ${bookingNo}:`));
      await expect(page).toHaveURL(/\/sales\/pending\?order=\d+$/);
      await expect(drawer.getByText(matchName).first()).toBeVisible();
      await drawer.getByRole('button', { name: 'Accept order' }).click();
      await expect(drawer.getByText(/^Status: Awaiting Delivery/)).toBeVisible();
    });

    await test.step('the order waits in the delivery cockpit; its one-click Upload sends the PDF: the order is delivered', async () => {
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
      await goInside(page, '/sales/confirmed', 'Sales: Awaiting Delivery');
      const cockpit = page.getByRole('region', { name: 'Delivery cockpit' });
      const upload = cockpit.getByLabel(`Upload tickets for ${bookingNo}`);
      // a file that is not a PDF is named in the cockpit, and nothing opens
      await upload.setInputFiles({ name: 'ticket-1.txt', mimeType: 'text/plain', buffer: Buffer.from('not a pdf') });
      await expect(cockpit.getByRole('alert')).toHaveText('Invalid file type. Allowed types: pdf');
      await expect(drawer).toBeHidden();
      await upload.setInputFiles({ name: 'ticket-1.pdf', mimeType: 'application/pdf', buffer: ONE_PAGE_PDF });
      await expect(drawer.getByText(/^Status: Delivered/)).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(drawer).toBeHidden();
      await expect(cockpit.getByTestId(`cockpit-${bookingNo}`)).toHaveCount(0);
    });

    await test.step('it is listed under Delivered, and the list exports as CSV with it', async () => {
      await findOrder(page, '/sales/delivered', 'Sales: Delivered', bookingNo);
      const saved = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const csv = await readFile(await (await saved).path(), 'utf8');
      expect(csv.split(/\r?\n/)[1] ?? '').toContain(bookingNo);
    });

    await test.step('the buyer finds the ticket delivered in the purchase history and downloads it', () =>
      downloadAsRival(browser, bookingNo));
  });
});

test.describe('the delivery cockpit', () => {
  actAs('seller');

  const HOUR = 3_600_000;
  // the theme's tokens: danger #b91c1c, warning #b45309, success #15803d
  const RED = 'rgb(185, 28, 28)';
  const AMBER = 'rgb(180, 83, 9)';
  const GREEN = 'rgb(21, 128, 61)';

  test('an overdue order is red, one due within 24 hours amber, a later one green, each said in words', async ({
    page,
  }) => {
    await openAs(page, 'seller', '/sales/confirmed');
    const first = page.getByRole('list', { name: 'Orders by delivery deadline' }).getByRole('listitem').first();
    const id = (await first.getAttribute('data-testid')) ?? '';
    const deadline = Date.parse((await first.locator('time').getAttribute('datetime')) ?? '');
    expect(Number.isFinite(deadline), `the deadline of ${id}`).toBe(true);
    const item = page.getByTestId(id);

    /** The browser's clock `hours` before that deadline, then Awaiting Delivery drawn again (in the app). */
    const at = async (hours: number) => {
      await page.clock.setFixedTime(deadline - hours * HOUR);
      await goInside(page, '/sales/pending', 'Sales: Pending');
      await goInside(page, '/sales/confirmed', 'Sales: Awaiting Delivery');
      await expect(item).toBeVisible();
      return item.evaluate((li) => getComputedStyle(li).borderLeftColor);
    };

    expect(await at(5)).toBe(AMBER);
    await expect(item).toHaveAttribute('data-tone', 'urgent');
    await expect(item.getByText('Due within 24 h')).toBeVisible();
    await expect(item.getByText(/due in 5 h/)).toBeVisible();

    expect(await at(-2)).toBe(RED);
    await expect(item).toHaveAttribute('data-tone', 'overdue');
    await expect(item.getByText('Overdue', { exact: true })).toBeVisible();
    await expect(item.getByText(/Overdue by 2 h/)).toBeVisible();

    expect(await at(48)).toBe(GREEN);
    await expect(item).toHaveAttribute('data-tone', 'later');
    await expect(item.getByText('On track')).toBeVisible();
  });
});
