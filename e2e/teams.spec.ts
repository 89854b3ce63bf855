import { expect, type Page, test } from '@playwright/test';
import { actAs, logIn, openAs } from './support';

// Settings › My Teams (issue 13): the seller invites a member with a few permissions; the member opens the
// invite link from the development mail viewer, chooses a password, logs in and sees only the granted menu;
// the seller removes it and its open session ends at once.
actAs('seller');

async function menuEntries(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav.getByRole('button', { name: /Minimise menu|Expand menu/ })).toBeVisible();
  return nav.locator(':scope > ul > li > a, :scope > ul > li > button, :scope > button').evaluateAll((items) =>
    items.map((item) =>
      [...item.childNodes]
        .filter((node) => !(node instanceof Element && node.hasAttribute('data-badge')))
        .map((node) => node.textContent ?? '')
        .join('')
        .trim(),
    ),
  );
}

test('invite a member with two permissions, join by the emailed link, see only those; removal logs it out', async ({
  page,
  browser,
}) => {
  // four logins at OWASP's scrypt cost and two browser contexts: 45 s at a load average of 10, over the 60 s
  // limit at 16 to 20 on the shared machine
  test.slow();
  const email = `teammate-${Date.now()}@example.test`;
  const password = 'Team-mate-2026';
  await openAs(page, 'seller', '/settings/my-teams');
  await expect(page.getByRole('list', { name: 'Team members' })).toBeVisible();

  await page.getByRole('button', { name: 'Invite member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite member' });
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('First name').fill('Tess');
  await dialog.getByLabel('Last name').fill('Teammate');
  await dialog.getByRole('checkbox', { name: /^Dashboard/ }).check();
  await dialog.getByRole('checkbox', { name: /^Sales/ }).check();
  await dialog.getByRole('button', { name: 'Send invite' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole('listitem', { name: 'Tess Teammate' });
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Dashboard, Sales');

  // the member, in a browser of its own with no session
  const joiner = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const member = await joiner.newPage();
  await member.goto(`/dev/mail?to=${encodeURIComponent(email)}`);
  await member
    .getByRole('link', { name: /\/signup\/invite\// })
    .first()
    .click();
  await expect(member.getByRole('heading', { level: 1 })).toHaveText('Join your team');
  // a required field's label ends in its marker ('Password *')
  await member.getByLabel(/^Password/).fill(password);
  await member.getByLabel('Confirm password').fill(password);
  await member.getByRole('button', { name: 'Set password' }).click();
  await expect(member.getByText('Your password is set.')).toBeVisible();
  await logIn(member, email, password);
  await expect(member.getByText('Welcome Tess').first()).toBeVisible();
  expect(await menuEntries(member)).toEqual(['Minimise', 'Dashboard', 'Sales', 'Logout']);

  // the seller sees it active, then removes it
  await page.reload();
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: 'Remove Tess Teammate' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove this team member?' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('listitem', { name: 'Tess Teammate' })).toHaveCount(0);

  // its open session ends at once: the next page it opens asks it to log in
  await member.reload();
  await expect(member).toHaveURL(/\/login/);
  await joiner.close();
});
