import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdditionalTemplate, Listing } from '../../../../machines/inventory.machine';
import { renderSignedIn } from '../../../app/testing/render-signed-in';
import { fakeApi, reply } from '../../../lib/testing/fake-api';
import { fakeProfile, type PermissionName } from '../../../lib/testing/fake-profile';
import MyListingsPage from './page';

vi.mock('../../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../../openapi/client')>()),
  api: (await import('../../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();
const WAIT = { timeout: 8000 };

const template = (id: number, name: string): AdditionalTemplate => ({
  template_id: id,
  name,
  content: `${name}: the text`,
  file: null,
  listings_count: 0,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
});

const listing = (changes: Partial<Listing> = {}): Listing => ({
  id: 41,
  ticket_id: 41,
  sNo: 41,
  match_id: 7,
  match_name: 'Arsenal vs Chelsea',
  match_date: '2027-01-10',
  match_time: '15:00',
  tournament: 'Premier League',
  stadium_name: 'Emirates Stadium',
  city_name: 'London',
  country_name: 'United Kingdom',
  Category: 'Longside Lower',
  ticket_block: '112',
  row: 'F',
  seats: null,
  Ticket_type: 'E-ticket',
  ticket_type_id: 1,
  quantity: 4,
  sold: 0,
  held: 0,
  available: 4,
  split_type: 'any',
  split_list: [1, 2, 3, 4],
  price: 12_500,
  face_value: null,
  currency: 'GBP',
  restrictions: [],
  notes: null,
  status: 'published',
  additional_template_ids: [2],
  files_count: 0,
  match_passed: false,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  ...changes,
});

function seller(permissions: PermissionName[]) {
  fakeProfile({ permissions });
}

function renderPage() {
  return renderSignedIn(<MyListingsPage />, { path: '/my-listings', now: NOW });
}

const edits = () => fakeApi.calls.filter((c) => c.method === 'PUT' && c.path === '/my-listings/update-ticket/{id}');

// jsdom lays nothing out: the virtualised table sees a box of 0 pixels and shows no row unless its box has a size
const layout = ['clientHeight', 'clientWidth', 'offsetHeight', 'offsetWidth'] as const;
const realLayout = layout.map((k) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, k));
beforeAll(() => {
  for (const k of layout) Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => 600 });
});
afterAll(() => {
  layout.forEach((k, i) => {
    const real = realLayout[i];
    if (real) Object.defineProperty(HTMLElement.prototype, k, real);
    else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[k];
  });
});

describe("Inventory's edit dialog: the listing's additional templates", () => {
  let current: Listing;
  beforeEach(() => {
    fakeApi.reset();
    seller(['event', 'settings']);
    current = listing();
    fakeApi.on('GET /my-listings', () => ({
      tickets: [current],
      meta: { current_page: 1, last_page: 1, per_page: 200, total: 1, next_cursor: null },
    }));
    fakeApi.on('GET /ui-settings/field-settings', () => ({ page: 'my-listings', columns: [] }));
    fakeApi.on('GET /settings/additional-templates', () => ({
      templates: [template(1, 'Away section'), template(2, 'Collection point'), template(3, 'Lounge')],
    }));
    fakeApi.on('PUT /my-listings/update-ticket/{id}', ({ body }) => {
      const { template_ids, ...rest } = body as { template_ids?: number[] };
      current = { ...current, ...rest, ...(template_ids ? { additional_template_ids: template_ids } : {}) };
      return current;
    });
  });
  afterEach(() => fakeApi.reset());

  const openEdit = async (user: ReturnType<typeof userEvent.setup>) => {
    await user.click(await screen.findByRole('button', { name: /^Actions for/ }, WAIT));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit' }, WAIT));
    return screen.findByRole('dialog', { name: 'Edit listing' }, WAIT);
  };

  it('shows the templates the listing carries ticked, and sends the new set as template_ids', async () => {
    const user = userEvent.setup();
    renderPage();
    const dialog = await openEdit(user);
    const picker = within(dialog).getByRole('group', { name: 'Additional templates (optional)' });
    expect(await within(picker).findByRole('checkbox', { name: /Collection point/ }, WAIT)).toBeChecked();
    expect(within(picker).getByRole('checkbox', { name: /Away section/ })).not.toBeChecked();
    // nothing changed yet: nothing to save
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();

    await user.click(within(picker).getByRole('checkbox', { name: /Lounge/ }));
    await user.click(within(picker).getByRole('checkbox', { name: /Collection point/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(edits()).toHaveLength(1), WAIT);
    // only what changed: the templates, as the whole new set
    expect(edits()[0]?.body).toEqual({ template_ids: [3] });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit listing' })).toBeNull(), WAIT);

    // opened again, the dialog shows the listing as the server answered
    const again = await openEdit(user);
    expect(await within(again).findByRole('checkbox', { name: /Lounge/ }, WAIT)).toBeChecked();
    expect(within(again).getByRole('checkbox', { name: /Collection point/ })).not.toBeChecked();
  });

  it('keeps Columns disabled until the saved columns have loaded, so that no change is dropped', async () => {
    let answer: (value: unknown) => void = () => {};
    fakeApi.on('GET /ui-settings/field-settings', () => new Promise((resolve) => (answer = resolve)));
    renderPage();
    const columns = await screen.findByRole('combobox', { name: 'Columns' }, WAIT);
    expect(columns).toBeDisabled();
    answer({ page: 'my-listings', columns: [] });
    await waitFor(() => expect(columns).toBeEnabled(), WAIT);
  });

  it("another field's edit leaves the templates out; the server's refusal shows in the dialog", async () => {
    const user = userEvent.setup();
    fakeApi.on('PUT /my-listings/update-ticket/{id}', () =>
      reply(404, { success: false, message: 'Template not found.' }),
    );
    renderPage();
    const dialog = await openEdit(user);
    await within(dialog).findByRole('checkbox', { name: /Collection point/ }, WAIT);
    const row = within(dialog).getByRole('textbox', { name: /Row/ });
    await user.clear(row);
    await user.type(row, 'G');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(edits()).toHaveLength(1), WAIT);
    expect(edits()[0]?.body).toEqual({ row: 'G' });
    expect(await within(dialog).findByText('Template not found.', {}, WAIT)).toBeInTheDocument();
  });

  it("a refusal about a field the dialog does not show says what it is about (the split's pairs)", async () => {
    const user = userEvent.setup();
    fakeApi.on('PUT /my-listings/update-ticket/{id}', () =>
      reply(422, {
        success: false,
        message: 'Some fields are missing or invalid.',
        errors: [{ path: '/body/split_type', message: 'Pairs need an even quantity.' }],
      }),
    );
    renderPage();
    const dialog = await openEdit(user);
    await within(dialog).findByRole('checkbox', { name: /Collection point/ }, WAIT);
    const quantity = within(dialog).getByRole('textbox', { name: /Quantity/ });
    await user.clear(quantity);
    await user.type(quantity, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Some fields are missing or invalid. Pairs need an even quantity.', {}, WAIT),
    ).toBeInTheDocument();
  });

  it('when the templates cannot be read (no settings permission) the dialog says so, and Retry reads them again', async () => {
    const user = userEvent.setup();
    let tries = 0;
    fakeApi.on('GET /settings/additional-templates', () => {
      tries += 1;
      return tries === 1
        ? reply(403, { success: false, message: 'You do not have permission.' })
        : { templates: [template(2, 'Collection point')] };
    });
    renderPage();
    const dialog = await openEdit(user);
    expect(await within(dialog).findByText('Failed to load your templates', {}, WAIT)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    expect(await within(dialog).findByRole('checkbox', { name: /Collection point/ }, WAIT)).toBeChecked();
  });
});

describe("Inventory's new price for a selection", () => {
  beforeEach(() => {
    fakeApi.reset();
    seller(['event']);
    fakeApi.on('GET /my-listings', () => ({
      tickets: [
        listing({ id: 41, ticket_block: '101' }),
        listing({ id: 42, ticket_block: '102', currency: 'USD', price: 49_875 }),
        listing({ id: 43, ticket_block: '103' }),
      ],
      meta: { current_page: 1, last_page: 1, per_page: 200, total: 3, next_cursor: null },
    }));
    fakeApi.on('GET /ui-settings/field-settings', () => ({ page: 'my-listings', columns: [] }));
    fakeApi.on('POST /my-listings/update-ticket-price', () => ({ updated: 0, change_id: null, tickets: [] }));
  });
  afterEach(() => fakeApi.reset());

  it('prices listings of one currency in it, and asks no price for listings of several', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('checkbox', { name: /block 101/ }, WAIT));
    await user.click(screen.getByRole('checkbox', { name: /block 102/ }));
    await user.click(screen.getByRole('button', { name: 'Change price' }));
    const mixed = await screen.findByRole('dialog', { name: 'New price for 2 listings' }, WAIT);
    expect(within(mixed).getByRole('status')).toHaveTextContent(
      'These listings are priced in GBP, USD: a new price is an amount in one currency, so they change by a percentage.',
    );
    expect(within(mixed).queryByRole('textbox', { name: /Price per ticket/ })).toBeNull();
    expect(within(mixed).getByRole('radio', { name: 'Set a price' })).toBeDisabled();
    expect(within(mixed).getByRole('textbox', { name: /Percentage/ })).toBeVisible();
    expect(within(mixed).getByRole('button', { name: 'Update price' })).toBeDisabled();
    await user.click(within(mixed).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('checkbox', { name: /block 102/ }));
    await user.click(screen.getByRole('checkbox', { name: /block 103/ }));
    await user.click(screen.getByRole('button', { name: 'Change price' }));
    const one = await screen.findByRole('dialog', { name: 'New price for 2 listings' }, WAIT);
    expect(within(one).getByRole('textbox', { name: /Price per ticket/ })).toBeVisible();
    expect(within(one).queryByRole('status')).toBeNull();
  });

  it("shows the contract's bounds of a price per ticket, and refuses a price under the least", async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('checkbox', { name: /block 101/ }, WAIT));
    await user.click(screen.getByRole('button', { name: 'Change price' }));
    const dialog = await screen.findByRole('dialog', { name: 'New price' }, WAIT);
    const field = within(dialog).getByRole('textbox', { name: /Price per ticket/ });
    expect(field).toHaveAccessibleDescription('From 5.00 to 100,000.00 a ticket. You can undo it after.');
    await user.type(field, '4.99');
    expect(within(dialog).getByText('A ticket costs at least 5.00.')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Update price' })).toBeDisabled();
    await user.clear(field);
    await user.type(field, '5');
    expect(within(dialog).queryByText('A ticket costs at least 5.00.')).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Update price' })).toBeEnabled();
  });

  it('edits a price in place: the payout shows as it is typed, Escape puts it back, Enter saves', async () => {
    const user = userEvent.setup();
    renderPage();
    const price = await screen.findByRole('button', { name: /^Price of .*block 101.*: £125\.00\. Edit$/ }, WAIT);
    await user.click(price);
    const field = screen.getByRole('textbox', { name: /New price of .*block 101/ });
    await user.clear(field);
    await user.type(field, '130');
    expect(field).toHaveAccessibleDescription('You receive £520.00 for 4 tickets');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: /New price of/ })).toBeNull();
    expect(fakeApi.calls.filter((c) => c.path === '/my-listings/update-ticket-price')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: /^Price of .*block 101/ }));
    await user.clear(screen.getByRole('textbox', { name: /New price of .*block 101/ }));
    await user.type(screen.getByRole('textbox', { name: /New price of .*block 101/ }), '130{Enter}');
    await waitFor(
      () =>
        expect(fakeApi.calls.filter((c) => c.path === '/my-listings/update-ticket-price').map((c) => c.body)).toEqual([
          { ticket_ids: [41], price: 13_000 },
        ]),
      WAIT,
    );
  });
});
