import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing/render-signed-in';
import { type FakeCall, fakeApi } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import ReportHistoryPage from './report-history-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();

const figures = (gross: number) => ({
  gross_sales: gross,
  tickets: 4,
  orders: 2,
  average_price: gross / 4,
  fees: 0,
  net_earnings: gross,
  cancellations: 1,
  cancelled_amount: 500,
});

const order = {
  booking_id: 11,
  booking_no: 'BK-11',
  status: 'completed',
  status_label: 'Completed',
  created_at: '2026-03-02T10:00:00Z',
  updated_at: '2026-03-02T10:00:00Z',
  match_id: 3,
  match_name: 'Arsenal vs Chelsea',
  tournament: 'Premier League',
  match_date: '2026-04-01',
  match_time: '15:00',
  stadium_name: 'Emirates',
  city_name: 'London',
  listing_id: 5,
  category: 'Longside',
  ticket_block: '12',
  row: 'A',
  seats: null,
  ticket_type_id: 1,
  ticket_type: 'E-ticket',
  delivery_method: 'pdf',
  quantity: 2,
  delivered: 2,
  currency: 'GBP',
  unit_price: 5000,
  amount: 10000,
  accept_by: null,
  deliver_by: null,
};

function renderPage() {
  fakeProfile({ permissions: ['reports'] });
  fakeApi.on('GET /reports/overview', (call: FakeCall) => {
    const last = call.query?.period === 'last_month';
    return {
      currency: String(call.query?.currency ?? 'GBP'),
      period: last ? 'last_month' : 'this_month',
      date_from: last ? '2026-03-01' : '2026-04-01',
      date_to: last ? '2026-03-31' : '2026-04-15',
      granularity: 'day',
      figures: figures(last ? 20000 : 10000),
      series: [
        { date: '2026-03-01', gross_sales: last ? 20000 : 10000, orders: 2, tickets: 4 },
        { date: '2026-03-02', gross_sales: 0, orders: 0, tickets: 0 },
      ],
      top_matches: [
        {
          match_id: 3,
          match_name: 'Arsenal vs Chelsea',
          match_date: '2026-04-01',
          tournament: 'PL',
          orders: 2,
          tickets: 4,
          gross_sales: 10000,
        },
      ],
    };
  });
  fakeApi.on('GET /reports/events-search', () => ({
    events: [{ match_id: 3, match_name: 'Arsenal vs Chelsea', match_date: '2026-04-01', tournament: 'PL' }],
  }));
  fakeApi.on('GET /reports/history', () => ({
    orders: [order],
    meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
  }));
  fakeApi.on('GET /reports/order-details', () => ({
    order,
    tickets: [],
    guests: [],
    amounts: { currency: 'GBP', unit_price: 5000, quantity: 2, subtotal: 10000, seller_fee: 0, payout: 10000 },
    notes: 'Call first',
    notes_updated_at: null,
    instruction_file: null,
    actions: { accept: false, decline: false, deliver: false, remove_ticket: false, cancel: false, replace: false },
  }));
  fakeApi.on('GET /reports/order-logs', () => ({
    logs: [],
    meta: { current_page: 1, last_page: 1, per_page: 50, total: 0 },
  }));
  fakeApi.on('GET /reports/inventory-logs', () => ({
    logs: [
      {
        log_id: 1,
        ticket_id: 5,
        action: 'price_changed',
        field: 'price',
        old_value: '50.00',
        new_value: '55.00',
        user_id: 1,
        user_name: 'Sam Seller',
        created_at: '2026-03-01T09:00:00Z',
      },
    ],
    meta: { current_page: 1, last_page: 1, per_page: 100, total: 1 },
  }));
  fakeApi.on('POST /reports/save-notes', (call: FakeCall) => ({
    booking_id: 11,
    notes: (call.body as { notes: string }).notes,
    notes_updated_at: '2026-03-03T10:00:00Z',
  }));
  return renderSignedIn(<ReportHistoryPage />, { now: NOW });
}

describe('report history page', () => {
  beforeEach(() => fakeApi.reset());
  afterEach(() => fakeApi.reset());

  it('shows the figures and labelled charts with a table view, and a preset reloads them', async () => {
    const user = userEvent.setup();
    renderPage();
    const overview = await screen.findByRole('region', { name: 'Overview' });
    const gross = () => overview.querySelector('[data-figure=gross_sales]');
    await waitFor(() => expect(gross()).toHaveTextContent('£100.00'));
    expect(overview.querySelector('[data-figure=cancellations]')).toHaveTextContent('1');
    const charts = within(overview).getAllByRole('img');
    expect(charts[0]).toHaveAccessibleName(/Sales over time \(by day\): 2 bars, total £100\.00/);
    expect(charts[1]).toHaveAccessibleName(/Top matches: 1 bars/);
    // the library (loaded on demand) draws a bar per point, each titled with its label and value
    await waitFor(() => expect(charts[0]?.querySelectorAll('.ct-bar')).toHaveLength(2), { timeout: 15_000 });
    expect(charts[1]?.querySelectorAll('.ct-bar')).toHaveLength(1);
    expect(charts[0]?.querySelector('.ct-bar title')?.textContent).toMatch(/^\d{4}-\d{2}-\d{2}: £/);
    expect(within(overview).getAllByRole('table', { hidden: true })[0]).toBeDefined();
    await user.click(screen.getByRole('combobox', { name: 'Period' }));
    await user.click(screen.getByRole('option', { name: 'Last month' }));
    await waitFor(() => expect(gross()).toHaveTextContent('£200.00'));
    const asked = fakeApi.calls.filter((c) => c.path === '/reports/history').map((c) => c.query?.period);
    expect(asked).toContain('last_month');
  });

  it("lists the history and opens an order with its notes, its log and its listing's log", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'BK-11' }));
    const notes = await screen.findByRole('textbox', { name: 'Notes on this order' });
    expect(notes).toHaveValue('Call first');
    expect(screen.getByRole('list', { name: 'Inventory log' })).toHaveTextContent(
      'price changed price: 50.00 → 55.00 · Sam Seller',
    );
    await user.clear(notes);
    await user.type(notes, 'Buyer asked for paper tickets');
    await user.click(screen.getByRole('button', { name: 'Save notes' }));
    await waitFor(() =>
      expect(fakeApi.calls.find((c) => c.path === '/reports/save-notes')?.body).toEqual({
        order_id: 11,
        notes: 'Buyer asked for paper tickets',
      }),
    );
    expect(await screen.findByText(/^Saved /)).toBeVisible();
  });
});
