import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing/render-signed-in';
import { type FakeCall, fakeApi } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import { PayoutOrders } from './payout-orders';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const order = (id: number, payout_state: string, paid: number, available: number) => ({
  order_id: id,
  booking_no: `SB-${id}`,
  match_name: 'Arsenal vs Chelsea',
  currency: 'GBP',
  earned: 10000,
  paid,
  in_flight: 10000 - paid - available,
  available,
  payout_state,
  completed_at: '2026-11-01T10:00:00Z',
});

describe("Payouts' orders report", () => {
  beforeEach(() => fakeApi.reset());
  afterEach(() => fakeApi.reset());

  it('lists each completed order with what is paid out, and narrows the list by payout state', async () => {
    const user = userEvent.setup();
    fakeProfile({ permissions: ['lmt-pay'] });
    fakeApi.on('GET /payouts/myorder-history', (call: FakeCall) => {
      const all = [order(1, 'paid', 10000, 0), order(2, 'part_paid', 4000, 6000), order(3, 'unpaid', 0, 10000)];
      const rows = call.query?.payout_state ? all.filter((o) => o.payout_state === call.query?.payout_state) : all;
      return { order_list: rows, meta: { current_page: 1, last_page: 1, per_page: 10, total: rows.length } };
    });
    renderSignedIn(<PayoutOrders />);
    const report = await screen.findByRole('region', { name: 'Orders and payouts' });
    const partly = await within(report).findByRole('row', { name: 'Order SB-2' });
    expect(
      within(partly)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'SB-2',
      'Arsenal vs Chelsea',
      expect.stringMatching(/2026/),
      '£100.00',
      '£40.00',
      '£0.00',
      '£60.00',
      'Partly paid out',
    ]);
    await user.click(within(report).getByRole('combobox', { name: 'Payout state' }));
    await user.click(within(report).getByRole('option', { name: 'Not paid out' }));
    await waitFor(() => expect(within(report).queryByRole('row', { name: 'Order SB-2' })).toBeNull());
    expect(within(report).getByRole('row', { name: 'Order SB-3' })).toHaveTextContent('Not paid out');
    expect(fakeApi.calls.at(-1)?.query).toMatchObject({ payout_state: 'unpaid', page: 1 });
  });

  it('says so when no order is in the chosen state', async () => {
    const user = userEvent.setup();
    fakeProfile({ permissions: ['lmt-pay'] });
    fakeApi.on('GET /payouts/myorder-history', () => ({
      order_list: [],
      meta: { current_page: 1, last_page: 1, per_page: 10, total: 0 },
    }));
    renderSignedIn(<PayoutOrders />);
    expect(await screen.findByText('No earnings yet.')).toBeVisible();
    await user.click(screen.getByRole('combobox', { name: 'Payout state' }));
    await user.click(screen.getByRole('option', { name: 'In a payout' }));
    expect(await screen.findByText('No order is in a payout.')).toBeVisible();
  });
});
