import { expect, test } from '@playwright/test';
import { actAs, openAs } from './support';

// Issue 15: the flow viewer, as a product owner (an admin account) uses it.

test.describe('the flow viewer', () => {
  actAs('admin');

  test('a flow opens in two clicks, drawn with every state, and reads as text', async ({ page }) => {
    await openAs(page, 'admin');
    await page.getByRole('navigation').getByRole('link', { name: 'Flows' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Flows');
    await page.getByRole('link', { name: 'session', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Flow: session');

    const flow = page.getByRole('region', { name: 'Flow session' });
    const summary = await flow.getByText(/\d+ states, \d+ transitions/).textContent();
    const states = Number(/(\d+) states/.exec(summary ?? '')?.[1]);
    expect(states).toBeGreaterThan(10);
    const chart = page.getByRole('application', { name: /^Statechart of session/ });
    // one box per state, the machine's own included
    await expect(chart.locator('g[data-path]')).toHaveCount(states);
    for (const path of ['restoring', 'loadingProfile.account.loading', 'loggedIn', 'loggedOut.signedOut'])
      await expect(chart.locator(`g[data-path="${path}"]`)).toBeVisible();
    // this tab's own session is live: logged in
    await expect(chart.locator('g[data-path="loggedIn"]')).toHaveAttribute('data-active', 'true');

    await chart.focus();
    await page.keyboard.press('+');
    await expect(page.getByRole('toolbar', { name: 'Chart' })).toContainText('%');

    await page.getByRole('tab', { name: 'Text' }).click();
    const text = page.getByRole('tabpanel');
    await expect(
      text
        .getByRole('listitem')
        .filter({ hasText: /^loggedIn/ })
        .first(),
    ).toContainText('(current)');
    await expect(text.getByRole('list', { name: 'Transitions of restoring' })).toContainText(
      'always if hasValidStoredSession → session.loadingProfile',
    );

    const download = page.getByRole('link', { name: 'Download for Stately (JSON)' });
    await expect(download).toHaveAttribute('href', '/flows/session.machine.json');
    const machine = await (await page.request.get('/flows/session.machine.json')).json();
    expect(machine).toMatchObject({ id: 'session', initial: 'restoring' });
  });

  test('the live state follows the app used in another tab of the same browser', async ({ page, context }) => {
    await openAs(page, 'admin');
    const viewer = await context.newPage();
    await viewer.goto('/flows/sideMenu');
    const chart = viewer.getByRole('application', { name: /^Statechart of sideMenu/ });
    await expect(chart.locator('g[data-path="width.expanded"]')).toBeVisible();

    // in the app's tab, the menu is folded to 60 px: the viewer's highlight moves with it
    await page.bringToFront();
    await page.getByRole('button', { name: 'Minimise menu' }).click();
    await expect(page.getByTestId('side-menu')).toHaveCSS('width', '60px');
    const live = viewer.getByRole('region', { name: 'Live' });
    await expect(live.getByTestId('live-state')).toContainText('width.collapsed');
    await expect(chart.locator('g[data-path="width.collapsed"]')).toHaveAttribute('data-active', 'true');
    await expect(live.getByRole('list', { name: 'Last events' }).getByRole('listitem').first()).toHaveText(
      'menu.toggled',
    );

    await page.getByRole('button', { name: 'Expand menu' }).click();
    await expect(live.getByTestId('live-state')).toContainText('width.expanded');
    await expect(chart.locator('g[data-path="width.expanded"]')).toHaveAttribute('data-active', 'true');
    await viewer.close();
  });
});

// The admin has no SB Pay balance or billing address to buy with: the demo seller buys, and watches the flow in
// a second tab (the viewer opens to everyone in e2e builds; to admins only in production).
test.describe('the flow viewer, live during a purchase', () => {
  actAs('seller');

  test('a purchase started in another tab is followed from its panel to its confirmation', async ({
    page,
    context,
  }) => {
    const viewer = await context.newPage();
    await viewer.goto('/flows/purchase');
    const chart = viewer.getByRole('application', { name: /^Statechart of purchase/ });
    const flow = viewer.getByRole('region', { name: 'Flow purchase' });
    const states = Number(/(\d+) states/.exec((await flow.getByText(/\d+ states/).textContent()) ?? '')?.[1]);
    await expect(chart.locator('g[data-path]')).toHaveCount(states);
    const live = viewer.getByRole('region', { name: 'Live' });
    await expect(live).toContainText('Not running in any tab of this browser now.');

    await test.step('the buyer opens a ticket’s Confirm Purchase panel: the viewer shows it editing', async () => {
      await openAs(page, 'seller', '/trade/home');
      await page.getByLabel('Competition').fill('Premier League');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.getByRole('list', { name: 'Events' }).getByRole('link').first().click();
      await page.getByRole('list', { name: 'Tickets' }).getByRole('button', { name: /^Buy / }).first().click();
      await expect(
        page.getByRole('dialog', { name: 'Confirm Purchase' }).getByRole('heading', { name: 'Payment' }),
      ).toBeVisible();
      await expect(live.getByTestId('live-state')).toContainText('editing.price.idle');
      await expect(chart.locator('g[data-path="editing"]')).toHaveAttribute('data-active', 'true');
      await expect(chart.locator('g[data-path="loading"]')).not.toHaveAttribute('data-active', 'true');
    });

    await test.step('paying by SB Pay: the viewer ends on confirmed, with the events that led there', async () => {
      await page
        .getByRole('dialog', { name: 'Confirm Purchase' })
        .getByRole('button', { name: 'Confirm Purchase' })
        .click();
      await expect(page.getByText('Booking Confirmed Successfully').first()).toBeVisible();
      await expect(live.getByTestId('live-state')).toHaveText('confirmed');
      await expect(chart.locator('g[data-path="confirmed"]')).toHaveAttribute('data-active', 'true');
      await expect(live.getByRole('list', { name: 'Last events' })).toContainText('purchase.submitted');
    });
    await viewer.close();
  });
});
