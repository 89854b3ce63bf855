import { expect, type Page, test } from '@playwright/test';

// A newcomer with no session: sign up, follow the verification link from the development mail viewer, log in;
// then forget the password, follow the reset link, set a new one and log in with it (issue 13).
test.use({ storageState: { cookies: [], origins: [] } });

async function openLinkFromMail(page: Page, email: string, path: RegExp) {
  await page.goto(`/dev/mail?to=${encodeURIComponent(email)}`);
  await page.getByRole('link', { name: path }).first().click();
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // a new seller has not done KYC yet: the KYC page is where it lands
  await expect(page).toHaveURL(/\/settings\/kyc\?handle=true/);
}

test('sign up, verify by the emailed link, log in; reset the password by its link and log in with the new one', async ({
  page,
}) => {
  const email = `newcomer-${Date.now()}@example.test`;
  await page.goto('/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
  await page.getByLabel('First name').fill('Nell');
  await page.getByLabel('Last name').fill('Newcomer');
  await page.getByLabel('Email').fill(email);
  await expect(page.getByText('This address is free.')).toBeVisible();
  await page.getByLabel(/^Password/).fill('First-pass-1');
  await page.getByLabel('Confirm password').fill('First-pass-1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText(`we sent a link to verify ${email}`)).toBeVisible();

  await openLinkFromMail(page, email, /\/verify-email\/token\//);
  await expect(page.getByText('Your email address is verified. You can log in now.')).toBeVisible();
  await page.getByRole('link', { name: 'Log in' }).click();
  await logIn(page, email, 'First-pass-1');

  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('we sent it a link to reset the password')).toBeVisible();

  await openLinkFromMail(page, email, /\/reset-password\/token\//);
  await page.getByLabel(/^New password/).fill('Second-pass-2');
  await page.getByLabel('Confirm new password').fill('Second-pass-2');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password is changed. Log in with your new password.')).toBeVisible();
  await page.getByRole('link', { name: 'Log in' }).click();
  await logIn(page, email, 'Second-pass-2');
});
