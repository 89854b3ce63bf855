import { expect, test } from '@playwright/test';
import { actAs } from './support';

// A team member inherits its seller's KYC hold (issue 8, item 5): heldmember@e2e.test belongs to
// newseller@demo.test, whose documents are not submitted.
const AWAITING_SELLER_TEXT = "Your seller's identity verification (KYC) is not complete yet.";

test.describe('a team member of a held seller', () => {
  actAs('heldmember');

  test('is held on the KYC page with its seller, whatever page it asks for', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/settings\/kyc\?handle=true$/);
    await expect(page.getByText(AWAITING_SELLER_TEXT)).toBeVisible();
    await page.goto('/sales/pending');
    await expect(page).toHaveURL(/\/settings\/kyc\?handle=true$/);
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  });

  test("the seller's data is refused to it by the server too", async ({ page }) => {
    await page.goto('/settings/kyc?handle=true');
    await expect(page.getByText(AWAITING_SELLER_TEXT)).toBeVisible();
    const token = (await page.context().cookies()).find((c) => c.name === 'auth_token')?.value;
    const answer = await page.request.get('/api/dashboard/sales-overview?currency=GBP', {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(answer.status()).toBe(403);
  });
});
