import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { actAs, openAs } from './support';

// KYC as steps: documents, contract, submit, review, approved, with where the seller stands (aria-current).

const steps = (page: Page) => page.getByRole('navigation', { name: 'Verification steps' }).getByRole('listitem');

async function expectAxeClean(page: Page) {
  const scan = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

test.describe('KYC steps, a seller not submitted yet', () => {
  actAs('newseller');
  test('stands at Documents, the first of five steps', async ({ page }) => {
    await openAs(page, 'newseller', '/settings/kyc?handle=true');
    await expect(steps(page)).toHaveText([/^1Documents/, /^2Contract/, /^3Submit/, /^4Review/, /^5Approved/]);
    const current = page.locator('[aria-current="step"]');
    await expect(current).toHaveCount(1);
    await expect(current).toContainText('Documents (current step)');
    await expectAxeClean(page);
  });
});

test.describe('KYC steps, an approved seller', () => {
  actAs('seller');
  test('stands at Approved, every step before it done', async ({ page }) => {
    await openAs(page, 'seller', '/settings/kyc?handle=true');
    await expect(page.locator('[aria-current="step"]')).toContainText('Approved (current step)');
    for (const name of ['Documents', 'Contract', 'Submit', 'Review']) {
      await expect(steps(page).filter({ hasText: name })).toContainText(`${name} (done)`);
    }
    await expectAxeClean(page);
  });
});
