import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStore } from '../../../machines/testing/fake-store';
import { Session } from '../../app/session';
import { fakeApi, reply } from '../../lib/testing/fake-api';
import { LoginPage } from './login-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();

function renderLogin() {
  const store = fakeStore(null);
  render(
    <Session.Provider options={{ input: { store: store.store, now: () => NOW } }}>
      <LoginPage />
    </Session.Provider>,
  );
  return store;
}

const logins = () => fakeApi.calls.filter((c) => c.path === '/auth/login');

describe('the login page', () => {
  beforeEach(() => fakeApi.reset());
  afterEach(() => fakeApi.reset());

  it('checks the fields against the contract before any call, shows each problem under its field and focuses the first', async () => {
    const user = userEvent.setup();
    renderLogin();
    expect(document.title).toBe('Log in · SB Portal');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const email = screen.getByLabelText(/^Email/);
    expect(await screen.findByText('Enter your email address.')).toBeVisible();
    expect(screen.getByText('Enter your password.')).toBeVisible();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Enter your email address.');
    expect(email).toHaveFocus();
    await user.type(email, 'not-an-email');
    expect(screen.getByText('Enter a valid email address, like name@example.com.')).toBeVisible();
    await user.type(screen.getByLabelText(/^Password/), 'x');
    expect(screen.queryByText('Enter your password.')).toBeNull();
    expect(logins()).toEqual([]);
  });

  it("shows the server's 422 under the field it names", async () => {
    fakeApi.on('POST /auth/login', () =>
      reply(422, {
        success: false,
        message: 'The request is not valid.',
        errors: [{ path: '/body/email', message: 'Use the address of your seller account.' }],
      }),
    );
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText(/^Email/), '  sam@demo.test ');
    await user.type(screen.getByLabelText(/^Password/), 'Demo1234!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    const email = screen.getByLabelText(/^Email/);
    await waitFor(() => expect(email).toHaveAccessibleDescription('Use the address of your seller account.'));
    expect(email).toHaveFocus();
    // the form sent what it checked: the email trimmed
    expect(logins()[0]?.body).toEqual({ email: 'sam@demo.test', password: 'Demo1234!' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows a wrong password's message above the form, and a change takes it away", async () => {
    fakeApi.on('POST /auth/login', () => reply(401, { success: false, message: 'Incorrect email or password.' }));
    const user = userEvent.setup();
    const store = renderLogin();
    await user.type(screen.getByLabelText(/^Email/), 'seller@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password.');
    expect(store.stored).toBeNull();
    await user.type(screen.getByLabelText(/^Password/), '!');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the token the server gives and loads the profile', async () => {
    fakeApi.on('POST /auth/login', () => ({
      token: 'fresh',
      user_token: 'u1',
      first_name: 'Sam',
      last_name: 'Seller',
      expires_at: '2026-11-23T12:00:00Z',
    }));
    const user = userEvent.setup();
    const store = renderLogin();
    await user.type(screen.getByLabelText(/^Email/), 'seller@demo.test');
    await user.type(screen.getByLabelText(/^Password/), 'Demo1234!');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(store.stored).toEqual({ token: 'fresh', userToken: 'u1', issuedAt: NOW }));
    await waitFor(() => expect(fakeApi.calls.map((c) => c.path)).toContain('/account/kyc-status'));
  });
});
