import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AdminEventRequest } from '../../../machines/admin/queues';
import { renderSignedIn } from '../../app/testing/render-signed-in';
import { fakeApi, reply } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import AdminEventRequestsPage from './admin-event-requests-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();
const WAIT = { timeout: 8000 };

const request = (id: number, name: string, time: string | null): AdminEventRequest => ({
  request_id: id,
  match_name: name,
  home_team: null,
  away_team: null,
  tournament: null,
  match_date: '2027-01-02',
  match_time: time,
  stadium_name: 'Celtic Park',
  city_name: 'Atlantis',
  notes: null,
  status: 'pending',
  status_reason: null,
  match_id: null,
  created_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  seller_id: 2,
  seller_name: 'Sam Seller',
});

function admin() {
  fakeProfile({
    account: { id: 9, email: 'admin@demo.test', first_name: 'Ada', last_name: 'Admin', user_type: 'admin' },
    permissions: ['event'],
  });
}

function renderPage() {
  return renderSignedIn(<AdminEventRequestsPage />, { path: '/admin/event-requests', userToken: 'u9', now: NOW });
}

describe('/admin/event-requests', () => {
  let pending: AdminEventRequest[];
  beforeEach(() => {
    fakeApi.reset();
    admin();
    pending = [request(1, 'Celtic vs Rangers', '12:30'), request(2, 'Hearts vs Hibs', null)];
    fakeApi.on('GET /admin/event-requests', () => ({
      requests: pending,
      meta: { current_page: 1, last_page: 1, per_page: 20, total: pending.length },
    }));
  });
  afterEach(() => fakeApi.reset());

  it('approves with the kick-off time given: no time is refused in the dialog, the server’s refusal shows there', async () => {
    const user = userEvent.setup();
    let answers = 0;
    fakeApi.on('POST /admin/event-requests/{id}/approve', ({ body }) => {
      answers++;
      if (answers === 1) {
        return reply(422, {
          success: false,
          message: 'Validation failed',
          errors: [
            { path: '/body/city_id', message: "is required: the request's city 'Atlantis' is not in the catalogue" },
          ],
        });
      }
      pending = [request(1, 'Celtic vs Rangers', '12:30')];
      return { ...request(2, 'Hearts vs Hibs', (body as { match_time: string }).match_time), status: 'approved' };
    });
    renderPage();
    const row = await screen.findByRole('row', { name: 'Hearts vs Hibs' }, WAIT);
    expect(row).toHaveTextContent('no kick-off time');
    await user.click(within(row).getByRole('button', { name: 'Approve Hearts vs Hibs' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve Hearts vs Hibs' });
    const time = within(dialog).getByLabelText(/^Kick-off time/);
    expect(time).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    // no time: the dialog says so, and nothing is sent
    expect(await within(dialog).findByText('Enter the kick-off time as HH:MM.')).toBeVisible();
    expect(fakeApi.calls.filter((c) => c.path.endsWith('/approve'))).toEqual([]);
    await user.type(time, '19:45');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "City is required: the request's city 'Atlantis' is not in the catalogue.",
    );
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Hearts vs Hibs' })).toBeNull(), WAIT);
    expect(fakeApi.calls.filter((c) => c.path.endsWith('/approve')).map((c) => c.body)).toEqual([
      { match_time: '19:45' },
      { match_time: '19:45' },
    ]);
  });

  it('rejects only with a reason, which is sent trimmed', async () => {
    const user = userEvent.setup();
    fakeApi.on('POST /admin/event-requests/{id}/reject', ({ body }) => {
      pending = [request(2, 'Hearts vs Hibs', null)];
      return {
        ...request(1, 'Celtic vs Rangers', '12:30'),
        status: 'rejected',
        status_reason: (body as { reason: string }).reason,
      };
    });
    renderPage();
    const row = await screen.findByRole('row', { name: 'Celtic vs Rangers' }, WAIT);
    await user.click(within(row).getByRole('button', { name: 'Reject Celtic vs Rangers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject Celtic vs Rangers' });
    const confirm = within(dialog).getByRole('button', { name: 'Reject' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox'), '  No such fixture.  ');
    await user.click(confirm);
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Celtic vs Rangers' })).toBeNull(), WAIT);
    expect(fakeApi.calls.find((c) => c.path.endsWith('/reject'))?.body).toEqual({ reason: 'No such fixture.' });
  });

  it('says when nothing is waiting', async () => {
    pending = [];
    renderPage();
    expect(await screen.findByText('No event request is waiting.', {}, WAIT)).toBeVisible();
  });
});
