import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { actAs, goInside, openAs } from './support';

// Payouts say when, and agree with Settings › Bank accounts, against the real server.

async function expectAxeClean(page: Page) {
  const scan = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

test.describe('payouts say when', () => {
  actAs('seller');

  test('the seller reads when the next payout can go and arrive, and finds the removed account of past payouts in Bank accounts', async ({
    page,
  }) => {
    await openAs(page, 'seller');
    await goInside(page, '/reports/payouts', 'Payouts');
    const balances = page.getByRole('region', { name: 'Balances' });
    await expect(balances.getByRole('paragraph').filter({ hasText: /^Next payout: / })).toContainText(/12:00 UK time/);

    const history = page.getByRole('region', { name: 'Payout history' });
    // the demo seller was paid to an account it has since removed: Payouts says so
    const toRemoved = history.getByRole('row').filter({ hasText: '(removed)' });
    await expect(toRemoved.first()).toBeVisible();
    const paid = history.getByRole('row').filter({ hasText: 'Paid' }).filter({ hasText: '(removed)' }).first();
    await expect(paid).toContainText(/by \w{3} \d{1,2} \w{3}/);
    const failed = history.getByRole('row').filter({ hasText: 'Failed' }).first();
    await expect(failed).toContainText('—');
    const masked = ((await paid.textContent()) ?? '').match(/[A-Z]{2}•• •••• \w{4}/)?.[0] as string;
    expect(masked).toBeTruthy();
    await expectAxeClean(page);

    await goInside(page, '/settings/bank-accounts', 'Bank accounts');
    const removed = page.getByRole('list', { name: 'Removed accounts' });
    await expect(removed.getByRole('listitem').filter({ hasText: masked })).toContainText('(removed');
    await expectAxeClean(page);
  });
});
