import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { startLoggedOut } from './support';

// The owner cannot be kept out: wrong guesses from many places lock an account for the browsers it does not know,
// but the owner's browser, which logged in before (its device cookie, set by the server and sent back by the
// browser on its own), still logs in; and the link the owner is mailed lifts the lock and lets a new browser in.
startLoggedOut();

const PASSWORD = 'Owner-pass-2026';
/** The wrong guesses that lock an account for browsers it does not know (server/auth/throttle.ts ACCOUNT_RULES). */
const LOCK_AFTER = 30;

/** A new verified account, made through the API and the development mail viewer as a person would. */
async function newAccount(request: APIRequestContext, email: string) {
  const signUp = await request.post('/api/auth/register', {
    data: { first_name: 'Olive', last_name: 'Owner', email, password: PASSWORD, password_confirmation: PASSWORD },
  });
  expect(signUp.status()).toBe(200);
  const token = await linkFromMail(request, email, /\/verify-email\/token\/([A-Za-z0-9_-]+)/);
  expect((await request.post('/api/auth/verify-email', { data: { token } })).status()).toBe(200);
}

async function linkFromMail(request: APIRequestContext, email: string, link: RegExp) {
  const html = await (await request.get(`/dev/mail?to=${encodeURIComponent(email)}`)).text();
  const token = link.exec(html)?.[1];
  if (!token) throw new Error(`no ${link} mailed to ${email}`);
  return token;
}

async function logInWithForm(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** A browser of its own: no cookie of any other. */
async function newBrowser(browser: Browser, baseURL: string | undefined) {
  const context = await browser.newContext({ baseURL, storageState: { cookies: [], origins: [] } });
  return { context, page: await context.newPage() };
}

test('an account locked by guesses from everywhere: the owner’s browser still logs in, and the mailed link unlocks', async ({
  page,
  browser,
  request,
  playwright,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const email = `owner-${Date.now()}@example.test`;
  await newAccount(request, email);

  // the owner logs in from this browser, which keeps the device cookie the server set (HttpOnly, SameSite=Strict)
  await logInWithForm(page, email);
  await expect(page).toHaveURL(/\/settings\/kyc\?handle=true/);
  const device = (await page.context().cookies()).find((c) => c.name === 'sb_device');
  expect(device).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // a botnet: one wrong guess from each of thirty places (a proxy says where each comes from)
  const attacker = await playwright.request.newContext({ baseURL });
  let last = 0;
  for (let i = 1; i <= LOCK_AFTER; i++) {
    const guess = await attacker.post('/api/auth/login', {
      data: { email, password: `guess-${i}` },
      headers: { 'x-forwarded-for': `198.51.100.${i}` },
    });
    last = guess.status();
  }
  expect(last).toBe(429);
  await attacker.dispose();

  // a browser the account does not know is refused, right password or not, and told where the way in is
  const stranger = await newBrowser(browser, baseURL);
  try {
    await logInWithForm(stranger.page, email);
    await expect(stranger.page.getByRole('alert')).toContainText('from browsers it does not know');
    await expect(stranger.page).toHaveURL(/\/login$/);

    // the owner's browser sends its cookie with the login form's call, and gets in
    await logInWithForm(page, email);
    await expect(page).toHaveURL(/\/settings\/kyc\?handle=true/);

    // the owner opens the mail in the new browser (the development mail viewer) and follows its link: the lock is
    // lifted and that browser logs in
    await stranger.page.goto(`/dev/mail?to=${encodeURIComponent(email)}`);
    const mailed = stranger.page.getByRole('link', { name: /\/login\/unlock\// }).first();
    const token = /\/login\/unlock\/([A-Za-z0-9_-]+)/.exec((await mailed.getAttribute('href')) ?? '')?.[1];
    await mailed.click();
    await expect(stranger.page).toHaveURL(new RegExp(`/login/unlock/${token}$`));
    await expect(stranger.page.getByRole('heading', { level: 1, name: 'Unlock your account' })).toBeVisible();
    await expect(stranger.page.getByText('Your account is unlocked')).toBeVisible();
    await stranger.page.getByRole('link', { name: 'Log in' }).click();
    await logInWithForm(stranger.page, email);
    await expect(stranger.page).toHaveURL(/\/settings\/kyc\?handle=true/);

    // the link worked once
    await stranger.page.goto(`/login/unlock/${token}`);
    await expect(stranger.page.getByRole('alert')).toHaveText(
      'This unlock link is not valid, was used already or has expired. Log in, or reset your password.',
    );
  } finally {
    await stranger.context.close();
  }
});
