import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SalesOrder, SalesOrderRow } from '../../../machines/sales-api';
import { renderSignedIn } from '../../app/testing/render-signed-in';
import { type FakeCall, fakeApi, reply } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import SalesPage from './sales-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();
const WAIT = { timeout: 8000 };
const inHours = (h: number) => new Date(NOW + h * 3_600_000).toISOString();

const row = (id: number, changes: Partial<SalesOrderRow> = {}): SalesOrderRow => ({
  booking_id: id,
  booking_no: `BK${String(id).padStart(6, '0')}`,
  status: 'confirmed',
  status_label: 'Awaiting Delivery',
  created_at: '2026-11-20T09:00:00Z',
  updated_at: '2026-11-20T09:00:00Z',
  match_id: 7,
  match_name: `Match ${id}`,
  tournament: 'Premier League',
  match_date: '2026-12-10',
  match_time: '20:00',
  stadium_name: 'Emirates Stadium',
  city_name: 'London',
  listing_id: 3,
  category: 'Longside Lower',
  ticket_block: '112',
  row: 'F',
  seats: null,
  ticket_type_id: 1,
  ticket_type: 'E-ticket',
  delivery_method: 'pdf',
  quantity: 2,
  delivered: 0,
  currency: 'GBP',
  unit_price: 12_500,
  amount: 22_500,
  accept_by: null,
  deliver_by: inHours(100),
  ...changes,
});

const details = (r: SalesOrderRow): SalesOrder => ({
  order: r,
  transfer: null,
  tickets: [1, 2].map((n) => ({
    ticket_no: n,
    ticket_block: '112',
    row: 'F',
    seat: null,
    delivered: false,
    delivery: null,
  })),
  guests: [{ ticket_no: 1, first_name: 'Ada', last_name: 'Lovelace' }],
  amounts: { currency: 'GBP', unit_price: 12_500, quantity: 2, subtotal: 25_000, seller_fee: 2_500, payout: 22_500 },
  notes: null,
  notes_updated_at: null,
  instruction_file: null,
  actions: { accept: false, decline: false, deliver: false, remove_ticket: false, cancel: false, replace: false },
});

const overview = (status: string, orders: number) => ({
  currencies: ['GBP', 'EUR', 'USD', 'AED'].map((currency) => ({
    currency,
    orders: currency === 'GBP' ? orders : 0,
    tickets: 0,
    amount: currency === 'GBP' ? orders * 22_500 : 0,
    statuses: ['pending', 'confirmed', 'delivered', 'completed', 'cancelled', 'replaced'].map((s) => ({
      status: s,
      orders: s === status && currency === 'GBP' ? orders : 0,
      tickets: 0,
      amount: s === status && currency === 'GBP' ? orders * 22_500 : 0,
    })),
  })),
});

function seller() {
  fakeProfile({ permissions: ['sales'] });
}

let lastNavigate: (to: string) => void = () => undefined;

function renderAt(path: string) {
  const rendered = renderSignedIn(<SalesPage />, { path, now: NOW });
  lastNavigate = rendered.navigate;
  return rendered;
}

/** Pending with no order at all, as it opens; the user that goes on from there. */
async function openEmptyPending() {
  fakeApi.on('GET /sales/overview-all-currency', () => overview('pending', 0));
  fakeApi.on('GET /sales/history-all-currency', () => ({
    orders: [],
    meta: { current_page: 1, last_page: 1, per_page: 20, total: 0 },
  }));
  const user = userEvent.setup();
  renderAt('/sales/pending');
  expect(await screen.findByText('No pending orders.', {}, WAIT)).toBeVisible();
  return user;
}

const listCalls = () => fakeApi.calls.filter((c: FakeCall) => c.path === '/sales/history-all-currency');

describe('the Sales pages', () => {
  beforeEach(() => {
    fakeApi.reset();
    seller();
  });
  afterEach(() => fakeApi.reset());

  it('Awaiting Delivery: the cockpit lists orders by deadline, with the urgency in words and colour', async () => {
    const orders = [
      row(1, { deliver_by: inHours(100) }),
      row(2, { deliver_by: inHours(5.5) }),
      row(3, { deliver_by: inHours(48) }),
    ];
    fakeApi.on('GET /sales/overview-all-currency', () => overview('confirmed', 3));
    fakeApi.on('GET /sales/history-all-currency', () => ({
      orders,
      meta: { current_page: 1, last_page: 1, per_page: 20, total: 3 },
    }));
    renderAt('/sales/confirmed');
    const cockpit = await screen.findByRole('list', { name: 'Orders by delivery deadline' }, WAIT);
    const items = within(cockpit).getAllByRole('listitem');
    expect(items.map((i) => i.dataset.testid)).toEqual(['cockpit-BK000002', 'cockpit-BK000003', 'cockpit-BK000001']);
    expect(items.map((i) => i.dataset.tone)).toEqual(['urgent', 'later', 'later']);
    expect(within(items[0] as HTMLElement).getByText('Due within 24 h')).toBeVisible();
    expect(within(items[0] as HTMLElement).getByText(/Deliver by .* due in 5 h/)).toBeVisible();
    expect(within(items[1] as HTMLElement).getByText('On track')).toBeVisible();
    // the cockpit asks by deadline; the list as the seller sorts it
    await waitFor(() => expect(listCalls().some((c) => c.query?.sort === 'deadline')).toBe(true));
    expect(listCalls().every((c) => c.query?.status === 'confirmed')).toBe(true);
    expect(await screen.findByTestId('overview-GBP')).toHaveTextContent('£675.00');
    // every open order shows its deadline in the list too
    const list = await screen.findByTestId('order-BK000002');
    expect(list.dataset.tone).toBe('urgent');
    expect(within(list).getByText('Due within 24 h')).toBeVisible();
  });

  it('Pending: ticked orders are declined together after a confirmation that asks the reason, each with its result', async () => {
    const pending = [51, 52, 53].map((id) =>
      row(id, {
        status: 'pending',
        status_label: 'Pending',
        accept_by: inHours(-1 + (id - 51) * 3),
        deliver_by: inHours(90),
      }),
    );
    fakeApi.on('GET /sales/overview-all-currency', () => overview('pending', 3));
    fakeApi.on('GET /sales/history-all-currency', () => ({
      orders: pending,
      meta: { current_page: 1, last_page: 1, per_page: 20, total: 3 },
    }));
    fakeApi.on('POST /sales/order-actions', () =>
      reply(200, {
        success: true,
        message: '1 order declined; 1 could not be.',
        data: {
          done: 1,
          refused: 1,
          results: [
            { booking_id: 51, booking_no: 'BK000051', ok: true, status: 'cancelled', message: 'Order declined.' },
            {
              booking_id: 53,
              booking_no: 'BK000053',
              ok: false,
              status: 'confirmed',
              message: 'This order is confirmed: it cannot be declined.',
            },
          ],
        },
      }),
    );
    const user = userEvent.setup();
    renderAt('/sales/pending');
    const first = await screen.findByTestId('order-BK000051', {}, WAIT);
    // the next deadline of a pending order is its acceptance, said in words beside its colour
    expect(first.dataset.tone).toBe('overdue');
    expect(within(first).getByText('Overdue')).toBeVisible();
    expect(within(screen.getByTestId('order-BK000052')).getByText('Due within 24 h')).toBeVisible();
    const toolbar = screen.getByRole('toolbar', { name: 'Selected orders' });
    expect(within(toolbar).getByRole('button', { name: 'Decline selected' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select order BK000051' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select order BK000053' }));
    expect(within(toolbar).getByText('2 orders selected')).toBeVisible();
    await user.click(within(toolbar).getByRole('button', { name: 'Decline selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline 2 orders?' });
    expect(within(dialog).getByText(/Each buyer is refunded in full/)).toBeVisible();
    const send = within(dialog).getByRole('button', { name: 'Decline 2 orders' });
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Reason for declining/ }), 'Sold elsewhere');
    await user.click(send);
    const results = await screen.findByRole('status', { name: 'Results' });
    expect(within(results).getByText('1 order declined; 1 could not be.')).toBeVisible();
    expect(
      within(results).getByText('Not changed: BK000053: This order is confirmed: it cannot be declined.'),
    ).toBeVisible();
    const sent = fakeApi.calls.find((c) => c.path === '/sales/order-actions');
    expect(sent?.body).toEqual({ booking_ids: [51, 53], action: 'decline', reason: 'Sold elsewhere' });
  });

  it('going from one list to another in the app (the menu) loads the other status, with its own empty filters', async () => {
    const user = await openEmptyPending();
    await user.type(screen.getByRole('textbox', { name: 'Order number' }), 'BK0009');
    lastNavigate('/sales/delivered');
    await waitFor(() => expect(listCalls().some((c) => c.query?.status === 'delivered')).toBe(true), WAIT);
    expect(await screen.findByText('No delivered orders.', {}, WAIT)).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Order number' })).toHaveValue('');
  });

  it('Pending with no orders says so; filters that match nothing say that instead', async () => {
    const user = await openEmptyPending();
    expect(screen.queryByRole('heading', { name: 'Delivery cockpit' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'Order number' }), 'BK0009');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No orders match these filters.', {}, WAIT)).toBeVisible();
    expect(listCalls().at(-1)?.query).toMatchObject({ status: 'pending', booking_no: 'BK0009', page: 1 });
  });

  it("forgives an order number's '#' and spaces, and says what one is instead of asking with any other character", async () => {
    const user = await openEmptyPending();
    const field = screen.getByRole('textbox', { name: 'Order number' });
    await user.type(field, '#SB 100014{Enter}');
    await waitFor(() => expect(listCalls().at(-1)?.query).toMatchObject({ booking_no: 'SB-100014' }));
    expect(field).toHaveValue('SB-100014');
    const asked = listCalls().length;
    await user.clear(field);
    await user.type(field, 'SB/100014{Enter}');
    expect(await screen.findByText(/An order number has only letters, digits and '-'/)).toBeVisible();
    expect(field).toHaveAccessibleDescription(/only letters, digits and '-'/);
    expect(listCalls().filter((c) => String(c.query?.booking_no ?? '').includes('/'))).toEqual([]);
    expect(listCalls().length).toBe(asked);
  });

  it('a pending order opens in the drawer; accepting it sends the action and reloads the list and the overview', async () => {
    let status: 'pending' | 'confirmed' = 'pending';
    const pending = row(41, { status: 'pending', status_label: 'Pending', accept_by: inHours(20) });
    fakeApi.on('GET /sales/overview-all-currency', () => overview('pending', status === 'pending' ? 1 : 0));
    fakeApi.on('GET /sales/history-all-currency', () => ({
      orders: status === 'pending' ? [pending] : [],
      meta: { current_page: 1, last_page: 1, per_page: 20, total: status === 'pending' ? 1 : 0 },
    }));
    fakeApi.on('GET /sales/order-details', () => details({ ...pending, status }));
    fakeApi.on('GET /sales/order-logs', () => ({
      logs: [],
      meta: { current_page: 1, last_page: 1, per_page: 100, total: 0 },
    }));
    fakeApi.on('GET /sales/inventory-logs', () => ({
      logs: [],
      meta: { current_page: 1, last_page: 1, per_page: 100, total: 0 },
    }));
    fakeApi.on('POST /sales/order-action', () => {
      status = 'confirmed';
      return details({ ...pending, status: 'confirmed', status_label: 'Awaiting Delivery' });
    });
    const user = userEvent.setup();
    renderAt('/sales/pending');
    const order = await screen.findByTestId('order-BK000041', {}, WAIT);
    await user.click(within(order).getByRole('button', { name: 'Details of order BK000041' }));
    const drawer = await screen.findByRole('dialog', { name: 'Order BK000041' }, WAIT);
    expect(within(drawer).getByText('Ticket 1: Ada Lovelace')).toBeVisible();
    expect(within(drawer).getByText('£225.00')).toBeVisible();
    await user.click(await within(drawer).findByRole('button', { name: 'Accept order' }));
    await waitFor(() => expect(fakeApi.calls.some((c) => c.path === '/sales/order-action')).toBe(true));
    expect(fakeApi.calls.find((c) => c.path === '/sales/order-action')?.body).toEqual({
      booking_id: 41,
      action: 'accept',
    });
    // the order left Pending without a reload
    expect(await screen.findByText('No pending orders.', {}, WAIT)).toBeVisible();
    expect(within(drawer).queryByRole('button', { name: 'Accept order' })).toBeNull();
  });

  it('deleting a delivered ticket asks first, in place; Keep it sends nothing', async () => {
    const delivered = row(41, { status: 'delivered', status_label: 'Delivered' });
    const order = {
      ...details(delivered),
      tickets: [1, 2].map((n) => ({
        ticket_no: n,
        ticket_block: '112',
        row: 'F',
        seat: null,
        delivered: true,
        delivery: null,
      })),
      actions: { accept: false, decline: false, deliver: true, remove_ticket: true, cancel: false, replace: false },
    };
    fakeApi.on('GET /sales/overview-all-currency', () => overview('delivered', 1));
    fakeApi.on('GET /sales/history-all-currency', () => ({
      orders: [delivered],
      meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
    }));
    fakeApi.on('GET /sales/order-details', () => order);
    for (const path of ['/sales/order-logs', '/sales/inventory-logs'] as const) {
      fakeApi.on(`GET ${path}`, () => ({ logs: [], meta: { current_page: 1, last_page: 1, per_page: 100, total: 0 } }));
    }
    fakeApi.on('POST /sales/delete-ticket', () => order);
    const deletes = () => fakeApi.calls.filter((c) => c.path === '/sales/delete-ticket');
    const user = userEvent.setup();
    renderAt('/sales/delivered');
    const listed = await screen.findByTestId('order-BK000041', {}, WAIT);
    await user.click(within(listed).getByRole('button', { name: 'Details of order BK000041' }));
    const drawer = await screen.findByRole('dialog', { name: 'Order BK000041' }, WAIT);
    await user.click(await within(drawer).findByRole('button', { name: 'Delete ticket 1' }, WAIT));
    const ask = within(drawer).getByRole('group', { name: 'Delete ticket 1?' });
    expect(ask).toHaveTextContent('It goes back to not delivered, and the buyer no longer has it.');
    await user.click(within(ask).getByRole('button', { name: 'Keep it' }));
    expect(deletes()).toEqual([]);
    await user.click(within(drawer).getByRole('button', { name: 'Delete ticket 1' }));
    await user.click(
      within(within(drawer).getByRole('group', { name: 'Delete ticket 1?' })).getByRole('button', {
        name: 'Delete ticket 1',
      }),
    );
    await waitFor(() => expect(deletes()).toHaveLength(1));
    expect(deletes()[0]?.body).toEqual({ booking_id: 41, ticket_no: 1 });
  });

  it('a notification link (?order=) opens that order at once', async () => {
    const order = row(9);
    fakeApi.on('GET /sales/overview-all-currency', () => overview('confirmed', 1));
    fakeApi.on('GET /sales/history-all-currency', () => ({
      orders: [order],
      meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
    }));
    fakeApi.on('GET /sales/order-details', () => details(order));
    fakeApi.on('GET /sales/order-logs', () => ({
      logs: [],
      meta: { current_page: 1, last_page: 1, per_page: 100, total: 0 },
    }));
    fakeApi.on('GET /sales/inventory-logs', () => ({
      logs: [],
      meta: { current_page: 1, last_page: 1, per_page: 100, total: 0 },
    }));
    renderAt('/sales/confirmed?order=9');
    expect(await screen.findByRole('dialog', { name: 'Order BK000009' }, WAIT)).toBeVisible();
    expect(fakeApi.calls.find((c) => c.path === '/sales/order-details')?.query).toEqual({ booking_id: 9 });
  });

  it('exports the filtered list as a file the browser saves', async () => {
    fakeApi.on('GET /sales/overview-all-currency', () => overview('delivered', 1));
    fakeApi.on('GET /sales/history-all-currency', () => ({
      orders: [row(5, { status: 'delivered', deliver_by: null })],
      meta: { current_page: 1, last_page: 1, per_page: 20, total: 1 },
    }));
    fakeApi.on('GET /sales/export-reports', () => ({
      name: 'sales-delivered.csv',
      mime: 'text/csv',
      size: 9,
      rows: 1,
      columns: [],
      content_base64: btoa('a,b\r\n1,2'),
    }));
    const saved: Blob[] = [];
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      saved.push(b as Blob);
      return 'blob:x';
    });
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const user = userEvent.setup();
    renderAt('/sales/delivered');
    await screen.findByTestId('order-BK000005', {}, WAIT);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(await (saved[0] as Blob).text()).toBe('a,b\r\n1,2');
    expect(fakeApi.calls.find((c) => c.path === '/sales/export-reports')?.query).toMatchObject({
      status: 'delivered',
      format: 'csv',
    });
    create.mockRestore();
    revoke.mockRestore();
    click.mockRestore();
  });
});
