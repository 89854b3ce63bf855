import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing/render-signed-in';
import { type FakeCall, fakeApi } from '../../lib/testing/fake-api';
import { fakeIntersectionObserver } from '../../lib/testing/fake-intersection-observer';
import { fakeProfile } from '../../lib/testing/fake-profile';
import DashboardPage from './dashboard-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();
const reportFigures = (gross: number) => ({
  gross_sales: gross,
  tickets: 3,
  orders: 2,
  average_price: 0,
  fees: 0,
  net_earnings: gross,
  cancellations: 0,
  cancelled_amount: 0,
});
const USER_ID = 7;

/**
 * The seller's session and a dashboard whose money widgets answer in the currency asked; `more` sets answers
 * of the test's own over these, before anything is asked.
 */
function renderDashboard(more: () => void = () => {}) {
  fakeProfile({ account: { id: USER_ID }, permissions: ['dashboard'] });
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
  fakeApi.on('GET /dashboard/reports', (call) => ({
    currency: currencyOf(call),
    current: { date_from: '2026-03-03', date_to: '2026-04-01', figures: reportFigures(29999) },
    previous: { date_from: '2026-02-01', date_to: '2026-03-02', figures: reportFigures(70001) },
    change_pct: { gross_sales: -57.1, orders: 0, tickets: -57.1 },
    points: [{ date: '2026-04-01', gross_sales: 29999, orders: 2, tickets: 3 }],
  }));
  more();
  return renderSignedIn(<DashboardPage />, { now: NOW });
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

  it('shows the report widget: the last 30 days in the currency shown, against the 30 before, with a labelled chart', async () => {
    renderDashboard();
    const card = await screen.findByRole('region', { name: 'Last 30 days' });
    expect(await within(card).findByText('£299.99')).toBeVisible();
    expect(within(card).getByText(/-57.1% on the 30 days before/)).toBeVisible();
    const chart = within(card).getByRole('img');
    expect(chart).toHaveAccessibleName(/Gross sales a day/);
    // the library is fetched on demand (its first import is transformed here: allow for a busy machine)
    await waitFor(() => expect(chart.querySelectorAll('.ct-bar')).toHaveLength(1), { timeout: 15_000 });
  });

  it('is kept per user: another user opens in their own currency', async () => {
    localStorage.setItem('sb.dashboard-currency.8', 'USD');
    renderDashboard();
    expect(await screen.findByRole('combobox', { name: 'Currency' })).toHaveValue('GBP');
    expect(await screen.findByText('£16,830.00')).toBeVisible();
  });
});

describe('widgets below the fold', () => {
  beforeEach(() => {
    fakeApi.reset();
    localStorage.clear();
  });
  afterEach(() => {
    fakeApi.reset();
    vi.unstubAllGlobals();
  });

  it('are built as they come near the viewport; their calls are made with the others', async () => {
    const io = fakeIntersectionObserver();
    // one call not answered: the page is not done, so nothing is built that is not near
    renderDashboard(() => fakeApi.on('GET /dashboard/activity', () => new Promise(() => {})));
    const report = await screen.findByRole('region', { name: 'Last 30 days' });
    // nothing is laid out here, so every widget waits for the observer: the frame and its title, a placeholder
    expect(report).toHaveAttribute('aria-busy', 'true');
    expect(within(report).getByRole('status')).toHaveTextContent('Loading last 30 days');
    await waitFor(() => expect(fakeApi.calls.map((c) => c.path)).toContain('/dashboard/reports'));
    await new Promise((done) => setTimeout(done, 50));
    // its answer is there, not drawn: the widget is far
    expect(within(report).queryByText('£299.99')).toBeNull();
    expect(io.observed()).toContain(report);

    io.show((el) => el === report);
    expect(await within(report).findByText('£299.99')).toBeVisible();
    expect(report).toHaveAttribute('aria-busy', 'false');
    // the others still wait
    expect(screen.getByRole('region', { name: 'Top selling events' })).toHaveAttribute('aria-busy', 'true');
  });

  it('are all built once every call is answered and the page is idle', async () => {
    fakeIntersectionObserver();
    renderDashboard();
    const report = await screen.findByRole('region', { name: 'Last 30 days' });
    expect(await within(report).findByText('£299.99')).toBeVisible();
    expect(screen.getByRole('region', { name: 'Top selling events' })).toHaveAttribute('aria-busy', 'false');
    expect(screen.getByText('No tickets sold yet.')).toBeVisible();
  });

  it("are all built as soon as a keyboard's focus comes into the grid", async () => {
    const user = userEvent.setup();
    fakeIntersectionObserver();
    renderDashboard(() => fakeApi.on('GET /dashboard/activity', () => new Promise(() => {})));
    const report = await screen.findByRole('region', { name: 'Last 30 days' });
    await waitFor(() => expect(fakeApi.calls.map((c) => c.path)).toContain('/dashboard/reports'));
    await new Promise((done) => setTimeout(done, 50));
    expect(within(report).queryByText('£299.99')).toBeNull();
    // the currency dropdown is outside the grid: tabbing onto it builds nothing
    await user.tab();
    expect(screen.getByRole('combobox', { name: 'Currency' })).toHaveFocus();
    expect(within(report).queryByText('£299.99')).toBeNull();
    screen.getByTestId('dashboard-grid').dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    expect(await within(report).findByText('£299.99')).toBeVisible();
  });
});
