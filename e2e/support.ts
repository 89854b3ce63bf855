import { fileURLToPath } from 'node:url';
import { type Download, expect, type Locator, type Page, test } from '@playwright/test';
import { HELD_MEMBER_EMAIL, HOSTILE_ACCOUNT } from './hostile';

export const DEMO_PASSWORD = 'Demo1234!';

/** The three calls a session loads its profile with when its page does not carry it (after a login), by path. */
export const PROFILE_CALLS = /^\/api\/(settings\/my-account|account\/roles-permissions|account\/kyc-status)$/;

/** The accounts the specs act as; e2e/auth.setup.ts logs each in once and stores its session. */
export const ACCOUNTS = {
  seller: { email: 'seller@demo.test', lands: 'Welcome Sam' },
  member: { email: 'member@demo.test', lands: 'Welcome Mia' },
  admin: { email: 'admin@demo.test', lands: 'Welcome Ada' },
  rival: { email: 'rival@demo.test', lands: 'Welcome Rory' },
  newseller: { email: 'newseller@demo.test', lands: 'Not submitted:' },
  rejected: { email: 'rejected@demo.test', lands: 'Rejected:' },
  longname: { email: HOSTILE_ACCOUNT.email, lands: `Welcome ${HOSTILE_ACCOUNT.firstName}` },
  heldmember: { email: HELD_MEMBER_EMAIL, lands: "Your seller's identity verification (KYC) is not complete yet." },
  // the wallet's round trip (e2e/wallet.spec.ts), seeded by e2e/server.ts
  wallet: { email: 'walletseller@e2e.test', lands: 'Welcome Wanda' },
  // working through sales (e2e/sales-work.spec.ts), seeded by e2e/server.ts
  work: { email: 'workseller@e2e.test', lands: 'Welcome Wes' },
  // a broker with 10,000 listings (e2e/inventory-grid.spec.ts), seeded by e2e/server.ts
  broker: { email: 'broker@e2e.test', lands: 'Welcome Bea' },
} as const;
export type AccountName = keyof typeof ACCOUNTS;

/** Where the setup project keeps an account's cookies and storage (git-ignored). */
export const stateFile = (account: AccountName) => fileURLToPath(new URL(`.auth/${account}.json`, import.meta.url));

/** The specs of a file or describe block start logged in as this account, from its stored session. */
export function actAs(account: AccountName) {
  test.use({ storageState: stateFile(account) });
}

/** The specs of a file or describe block start with no session (the login form's own tests). */
export function startLoggedOut() {
  test.use({ storageState: { cookies: [], origins: [] } });
}

/** Fills and sends the login form: for the tests about the login itself, or about a session they end. */
export async function logIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Opens a page with the stored session and waits until the account's greeting shows. */
export async function openAs(page: Page, account: AccountName, path = '/dashboard') {
  await page.goto(path);
  await expect(page.getByText(ACCOUNTS[account].lands).first()).toBeVisible();
}

/**
 * Scrolls the page to its foot half a screen at a time, as a person reading it would, then back to the top: what
 * is built as it comes near the viewport (the dashboard's widgets below the fold) is built on the way.
 */
export async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    // two frames a step: the intersection observers' notes, then the render they start
    const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
    for (let y = 0; y <= document.documentElement.scrollHeight; y += window.innerHeight / 2) {
      window.scrollTo(0, y);
      await frame();
      await frame();
    }
    window.scrollTo(0, 0);
  });
}

/**
 * Goes to a path inside the app as its own links do (wouter follows history.pushState), without a reload, and
 * waits until the header names the new page (it changes in the same render as the route) and the route's code
 * has loaded (the full-page 'Loading...' is gone).
 */
export async function goInside(page: Page, path: string, heading: string) {
  await page.evaluate((to) => window.history.pushState(null, '', to), path);
  await expect(page).toHaveURL(path);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  await expect(page.getByRole('status').filter({ hasText: /^Loading\.\.\.$/ })).toHaveCount(0);
}

/**
 * Picks a file of `size` zero bytes in a file input, made inside the page: what a person's file dialog gives
 * the input, without sending megabytes through the DevTools protocol (a 10 MB buffer given to setInputFiles
 * took about 10 s on the CI machine).
 */
export async function pickFile(input: Locator, file: { name: string; mimeType: string; size: number }) {
  await input.evaluate((el, f) => {
    if (!(el instanceof HTMLInputElement) || el.type !== 'file') throw new Error('not a file input');
    const picked = new DataTransfer();
    picked.items.add(new File([new Uint8Array(f.size)], f.name, { type: f.mimeType }));
    el.files = picked.files;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, file);
}

/**
 * Clicks what opens a stored file in a new tab and checks that the tab got the file from memory: a browser that
 * can show it navigates the tab to its blob: URL; the headless shell, which has no PDF viewer, downloads it (an
 * event of the page that opened the tab).
 */
export async function expectOpensInNewTab(page: Page, click: () => Promise<void>) {
  let downloaded = '';
  const onDownload = (download: Download) => {
    downloaded = download.url();
  };
  page.on('download', onDownload);
  const popup = page.waitForEvent('popup');
  await click();
  const tab = await popup;
  await expect.poll(() => (tab.url().startsWith('blob:') ? tab.url() : downloaded)).toMatch(/^blob:/);
  page.off('download', onDownload);
}

/**
 * Holds every request matching `url` until the returned function is called, then lets them go to the real
 * server: for a test that must see what shows while something loads (a skeleton, a progress bar, a form).
 */
export async function holdRequests(page: Page, url: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Picks an option of the kit's dropdown (a combobox with its listbox) as a person does: opens it, clicks the option. */
export async function pickOption(scope: Page | Locator, label: string, option: string) {
  await scope.getByRole('combobox', { name: label }).click();
  await scope.getByRole('listbox', { name: label }).getByRole('option', { name: option, exact: true }).click();
}
