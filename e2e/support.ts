import { expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo1234!';

export async function logIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function logInAsSeller(page: Page) {
  await logIn(page, 'seller@demo.test');
  await expect(page.getByText('Welcome Sam')).toBeVisible();
}
