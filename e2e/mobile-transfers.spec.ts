import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { goInside, openAs, stateFile } from './support';

// Mobile tickets as the clubs hand them out. The rival bought four mobile tickets of the work seller
// (SB-WORK-MOB, e2e/server.ts). The operator sets when the match's club releases transfers; the seller delivers
// all four with the one link the club issued for the booking; the buyer opens it and says it was accepted, which
// the seller then sees.

test('one transfer link delivers a 4-seat order; the buyer accepts it; the operator sets the club’s window', async ({
  browser,
}) => {
  test.slow();
  const buyer = await (await browser.newContext({ storageState: stateFile('rival') })).newPage();
  const seller = await (await browser.newContext({ storageState: stateFile('work') })).newPage();
  const admin = await (await browser.newContext({ storageState: stateFile('admin') })).newPage();

  const matchName = await test.step('the buyer finds the booking in their purchases: not sent yet', async () => {
    await openAs(buyer, 'rival', '/trade/purchase?booking_no=SB-WORK-MOB');
    const booking = buyer.getByRole('definition').filter({ hasText: 'The seller has not sent the transfer yet.' });
    await expect(booking).toBeVisible();
    const event = buyer.getByRole('term').filter({ hasText: /^Event$/ });
    return ((await event.locator('xpath=following-sibling::dd[1]').textContent()) ?? '').trim();
  });

  await test.step('the operator sets the club’s window: transfers open 24 hours before kick-off', async () => {
    await openAs(admin, 'admin', '/admin');
    await admin.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Transfer windows' }).click();
    await expect(admin.getByRole('heading', { name: 'Transfer windows', level: 1 })).toBeVisible();
    await admin.getByRole('searchbox', { name: 'Find an event' }).fill(matchName.split(' vs ')[0] ?? matchName);
    const row = admin.getByRole('listitem', { name: matchName }).first();
    await expect(row).toBeVisible();
    const hours = row.getByRole('textbox', { name: 'Hours before kick-off' });
    // a window out of range is said so, and cannot be saved
    await hours.fill('200');
    await expect(row.getByText('A whole number of hours from 1 to 168, or empty for no window.')).toBeVisible();
    await expect(row.getByRole('button', { name: 'Save window' })).toBeDisabled();
    await hours.fill('24');
    await row.getByRole('button', { name: 'Save window' }).click();
    await expect(row.getByRole('status')).toContainText(/Saved\. Transfers open/);
    const scan = await new AxeBuilder({ page: admin }).withTags(['wcag2a', 'wcag2aa', 'wcag22aa']).analyze();
    expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  const drawer = seller.getByRole('dialog', { name: 'Order SB-WORK-MOB' });
  await test.step('the seller sends one link for the whole order: all four tickets are delivered', async () => {
    await openAs(seller, 'work', '/dashboard');
    await goInside(seller, '/sales/confirmed', 'Sales: Awaiting Delivery');
    await seller.getByRole('textbox', { name: 'Order number' }).fill('SB-WORK-MOB');
    await seller.getByRole('button', { name: 'Search' }).click();
    await seller.getByRole('button', { name: 'Details of order SB-WORK-MOB' }).click();
    await expect(drawer.getByText('The club opens transfers on', { exact: false })).toBeVisible();
    const form = drawer.getByRole('form', { name: 'Send mobile tickets' });
    await expect(form.getByRole('radio', { name: 'One link for the whole order' })).toBeChecked();
    const links = form.getByRole('textbox', { name: 'Transfer link for all 4 tickets' });
    // two links where one is meant: said at once, and not sent
    await links.fill('https://club.example/transfer/1\nhttps://club.example/transfer/2');
    await expect(form.getByRole('alert')).toHaveText('One link for the whole order: give exactly one transfer link.');
    await expect(form.getByRole('button', { name: 'Send mobile tickets' })).toBeDisabled();
    await links.fill('https://club.example/transfer/SB-WORK-MOB');
    await form.getByRole('button', { name: 'Send mobile tickets' }).click();
    await expect(drawer.getByText(/^Status: Delivered/)).toBeVisible();
    for (const n of [1, 2, 3, 4]) {
      await expect(drawer.getByTestId(`ticket-${n}`).getByText('Delivered', { exact: true })).toBeVisible();
    }
    await expect(drawer.getByText(/^Transfer not yet accepted by the buyer/)).toBeVisible();
  });

  await test.step('the buyer opens the transfer and says it was accepted', async () => {
    await buyer.reload();
    await expect(buyer.getByText('4 of 4 delivered')).toBeVisible();
    const open = buyer.getByRole('link', { name: 'Open the transfer' });
    await expect(open).toHaveAttribute('href', 'https://club.example/transfer/SB-WORK-MOB');
    await buyer.getByRole('button', { name: 'I have accepted the transfer' }).click();
    await expect(buyer.getByText(/^Accepted on /)).toBeVisible();
    await expect(buyer.getByRole('button', { name: 'I have accepted the transfer' })).toHaveCount(0);
  });

  await test.step('the seller sees the transfer accepted', async () => {
    await seller.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await goInside(seller, '/sales/delivered', 'Sales: Delivered');
    await seller.getByRole('textbox', { name: 'Order number' }).fill('SB-WORK-MOB');
    await seller.getByRole('button', { name: 'Search' }).click();
    await seller.getByRole('button', { name: 'Details of order SB-WORK-MOB' }).click();
    await expect(drawer.getByText(/^Transfer accepted by the buyer on /)).toBeVisible();
  });
});
