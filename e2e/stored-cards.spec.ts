import { expect, test } from '@playwright/test';
import { actAs, openAs } from './support';

// Settings › Stored Cards, Add a card (issue 13): the sandbox gateway verifies the card (no money taken) and the
// server stores only what the gateway says. The rival's cards: the purchase specs pay with the seller's.

test.describe('stored cards', () => {
  actAs('rival');

  test('the declined card is refused and adds nothing; the 4242 card is verified, listed, and removed', async ({
    page,
  }) => {
    await openAs(page, 'rival', '/settings/stored-cards');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stored cards');
    // a holder name of this run's own, so that a rerun on the same database finds only its card
    const holder = `Rory Card ${Date.now().toString(36)}`;
    const mine = page.getByRole('list', { name: 'Cards' }).getByRole('listitem').filter({ hasText: holder });

    await page.getByRole('button', { name: 'Add a card' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a card' });
    await dialog.getByLabel('Name on the card').fill(holder);
    await dialog.getByLabel('Card number').fill('4000 0000 0000 0002');
    await dialog.getByLabel('Expiry (MM/YY)').fill('09/34');
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Verify and add' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Card not added: Your card was declined.');
    await expect(mine).toHaveCount(0);

    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByRole('button', { name: 'Verify and add' }).click();
    await expect(page.getByText('Card added.')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText('expires 09/2034');

    await mine.getByRole('button', { name: /^Remove the .* card ending 4242$/ }).click();
    await page.getByRole('dialog', { name: 'Remove this card?' }).getByRole('button', { name: 'Remove' }).click();
    await expect(mine).toHaveCount(0);
  });
});
