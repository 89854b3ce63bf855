import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStore } from '../../../machines/testing/fake-store';
import { Session } from '../../app/session';
import { type FakeCall, fakeApi } from '../../lib/testing/fake-api';
import DashboardPage from './dashboard-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();
const USER_ID = 7;

/** The app's gates open a page once the account is there. */
function OnceLoggedIn() {
  const loaded = Session.useSelector((s) => s.context.account !== null);
  return loaded ? <DashboardPage /> : null;
}

/** The seller's session and a dashboard whose money widgets answer in the currency asked. */
function renderDashboard() {
  fakeApi.on('GET /settings/my-account', () => ({
    id: USER_ID,
    email: 'seller@demo.test',
    first_name: 'Sam',
    last_name: 'Seller',
    user_type: 'sellers',
    kyc_status: 1,
    currency: 'GBP',
    user_token: 'u7',
    team_owner_id: null,
    created_at: '2026-01-01T00:00:00Z',
  }));
  fakeApi.on('GET /account/roles-permissions', () => ({
    user_type: 'sellers',
    permissions: [{ name: 'dashboard', is_can_access: 1 }],
  }));
  fakeApi.on('GET /account/kyc-status', () => ({ kyc_status: 1, rejection_reason: null }));
  const currencyOf = (call: FakeCall) => String(call.query?.currency);
  fakeApi.on('GET /dashboard/sales-overview', (call) => ({
    currency: currencyOf(call),
    total_sales: 1683000,
    orders: 12,
    tickets_sold: 30,
    statuses: [],
  }));
  fakeApi.on('GET /dashboard/awaiting-delivery', () => ({ total: 0, orders: [] }));
  fakeApi.on('GET /dashboard/top-selling-events', () => ({ events: [] }));
  fakeApi.on('GET /dashboard/notifications', () => ({ notification_list: [], unread_count: 0 }));
  fakeApi.on('GET /dashboard/activity', () => ({ activity_list: [] }));
  const store = fakeStore({ token: 't', userToken: 'u7', issuedAt: NOW - 1000 });
  return render(
    <Session.Provider options={{ input: { store: store.store, now: () => NOW } }}>
      <OnceLoggedIn />
    </Session.Provider>,
  );
}

const askedIn = () =>
  fakeApi.calls.filter((c) => c.path === '/dashboard/sales-overview').map((c) => String(c.query?.currency));

describe('the dashboard currency', () => {
  beforeEach(() => {
    fakeApi.reset();
    localStorage.clear();
  });
  afterEach(() => fakeApi.reset());

  it("is the kit's dropdown; a chosen currency reloads the figures in it and is there again next time", async () => {
    const user = userEvent.setup();
    const first = renderDashboard();
    const box = await screen.findByRole('combobox', { name: 'Currency' });
    expect(box).toHaveValue('GBP');
    expect(await screen.findByText('£16,830.00')).toBeVisible();
    await user.click(box);
    await user.click(within(screen.getByRole('listbox', { name: 'Currency' })).getByRole('option', { name: 'EUR' }));
    expect(await screen.findByText('€16,830.00')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Sales overview (EUR)' })).toBeVisible();
    expect(localStorage.getItem(`sb.dashboard-currency.${USER_ID}`)).toBe('EUR');
    first.unmount();

    fakeApi.calls.length = 0;
    renderDashboard();
    expect(await screen.findByRole('combobox', { name: 'Currency' })).toHaveValue('EUR');
    expect(await screen.findByText('€16,830.00')).toBeVisible();
    // it opened in EUR: no call asked in GBP first
    expect(askedIn()).toEqual(['EUR']);
  });

  it('is kept per user: another user opens in their own currency', async () => {
    localStorage.setItem('sb.dashboard-currency.8', 'USD');
    renderDashboard();
    expect(await screen.findByRole('combobox', { name: 'Currency' })).toHaveValue('GBP');
    expect(await screen.findByText('£16,830.00')).toBeVisible();
  });
});
