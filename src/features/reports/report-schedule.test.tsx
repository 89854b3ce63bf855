import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSignedIn } from '../../app/testing/render-signed-in';
import { fakeApi, reply } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import { ScheduledReports } from './report-schedule';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();

const off = { frequency: 'off', currency: 'GBP', recipient: null, next_period: null, updated_at: null };

function renderControl(firstRead: () => unknown) {
  fakeProfile({ permissions: ['reports'] });
  fakeApi.on('GET /reports/schedule', firstRead);
  fakeApi.on('PUT /reports/schedule', (call) => {
    const body = call.body as { frequency: string; currency?: string };
    if (body.frequency === 'off') return off;
    return {
      frequency: body.frequency,
      currency: body.currency ?? 'GBP',
      recipient: 'seller@demo.test',
      next_period: { date_from: '2026-11-23', date_to: '2026-11-29' },
      updated_at: '2026-11-23T06:00:00.000Z',
    };
  });
  return renderSignedIn(<ScheduledReports />, { now: NOW });
}

describe('report history › scheduled reports', () => {
  beforeEach(() => fakeApi.reset());
  afterEach(() => fakeApi.reset());

  it('starts Off; Weekly in EUR is saved and says which period goes next, to whom; Off turns it off', async () => {
    const user = userEvent.setup();
    renderControl(() => off);
    const frequency = await screen.findByRole('combobox', { name: 'Email me the report' });
    expect(frequency).toHaveValue('Off');
    expect(screen.getByText('No report is emailed.')).toBeVisible();
    const currency = screen.getByRole('combobox', { name: 'Currency' });
    expect(currency).toBeDisabled();
    await user.click(frequency);
    await user.click(screen.getByRole('option', { name: 'Weekly' }));
    await user.click(currency);
    await user.click(screen.getByRole('option', { name: 'EUR' }));
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText(/sent to seller@demo\.test once it is over/)).toBeVisible();
    expect(screen.getByText(/\(EUR\)/)).toBeVisible();
    const puts = () => fakeApi.calls.filter((c) => c.method === 'PUT').map((c) => c.body);
    expect(puts()).toEqual([{ frequency: 'weekly', currency: 'EUR' }]);
    // the form starts again from what was stored
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Email me the report' })).toHaveValue('Weekly'));
    await user.click(screen.getByRole('combobox', { name: 'Email me the report' }));
    await user.click(screen.getByRole('option', { name: 'Off' }));
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText('No report is emailed.')).toBeVisible();
    expect(puts()).toHaveLength(2);
    expect(puts()[1]).toMatchObject({ frequency: 'off' });
  });

  it('a failed read says so with Retry, which reads again', async () => {
    const user = userEvent.setup();
    let reads = 0;
    renderControl(() => {
      reads++;
      return reads === 1 ? reply(500, { success: false, message: 'boom' }) : off;
    });
    expect(await screen.findByText('Failed to fetch data')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('combobox', { name: 'Email me the report' })).toHaveValue('Off');
    expect(reads).toBe(2);
  });
});
