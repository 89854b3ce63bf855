import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect, test as setup } from '@playwright/test';
import { ACCOUNTS, type AccountName, logIn, stateFile } from './support';

// Each account logs in through the form once per run; the specs reuse its cookies (the session) from here.
for (const name of Object.keys(ACCOUNTS) as AccountName[]) {
  setup(`log in as ${name}`, async ({ page }) => {
    const account = ACCOUNTS[name];
    await logIn(page, account.email);
    await expect(page.getByText(account.lands).first()).toBeVisible();
    const file = stateFile(name);
    mkdirSync(dirname(file), { recursive: true });
    await page.context().storageState({ path: file });
  });
}
