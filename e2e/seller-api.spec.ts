import { expect, test } from '@playwright/test';
import { actAs, goInside, openAs } from './support';

// Settings › API tokens as a seller uses it, against the real server: a token made, used, revoked; the reference.

test.describe('the seller API', () => {
  actAs('seller');

  test('a seller makes a token, another system holds seats with it, and the seller revokes it', async ({
    page,
    request,
  }) => {
    await openAs(page, 'seller');
    await goInside(page, '/settings/api-tokens', 'API tokens');
    await page.getByRole('button', { name: 'Create API token' }).click();
    const form = page.getByRole('dialog', { name: 'Create API token' });
    const name = `Channel manager ${Date.now()}`;
    await form.getByRole('textbox', { name: 'What it is for' }).fill(name);
    await expect(form.getByRole('checkbox', { name: 'Listings (inventory and holds)' })).toBeChecked();
    await form.getByRole('button', { name: 'Create token' }).click();

    const shown = page.getByRole('dialog', { name: 'Your new API token' });
    await expect(shown).toContainText('it will not be shown again');
    const token = ((await shown.getByRole('status', { name: 'New API token' }).textContent()) ?? '').trim();
    expect(token).toMatch(/^sbk_/);
    await shown.getByRole('button', { name: 'Done' }).click();

    // another system calls with it: its own scope answers, the portal's own operations do not
    const bearer = { authorization: `Bearer ${token}` };
    expect((await request.get('/api/my-listings/holds', { headers: bearer })).status()).toBe(200);
    const refused = await request.get('/api/settings/api-tokens', { headers: bearer });
    expect(refused.status()).toBe(403);
    expect((await refused.json()).message).toContain('API tokens cannot call this operation');

    const row = page.getByRole('listitem', { name: new RegExp(`^${name}, ending`) });
    await expect(row).toContainText('Active');
    await page.reload();
    await expect(row).toContainText('last used');
    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('dialog', { name: 'Revoke API token' }).getByRole('button', { name: 'Revoke token' }).click();
    await expect(row).toContainText('Revoked');
    expect((await request.get('/api/my-listings/holds', { headers: bearer })).status()).toBe(401);
  });

  test('the reference lists what a token may call, with an example', async ({ page }) => {
    await openAs(page, 'seller');
    await goInside(page, '/settings/api-reference', 'Seller API reference');
    const hold = page.getByRole('article', { name: 'POST /my-listings/holds', exact: true });
    await expect(hold).toContainText('Hold a listing');
    await expect(hold).toContainText("curl -X POST 'https://<portal>/api/my-listings/holds'");
    await expect(page.getByRole('region', { name: 'Scope: sales' })).toBeVisible();
  });
});
