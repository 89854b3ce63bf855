import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStore } from '../../../machines/testing/fake-store';
import { ApiError } from '../../../openapi/client';
import type { UploadOptions } from '../../../openapi/upload';
import { NotifyBridge } from '../../app/notify-bridge';
import { Session } from '../../app/session';
import Toasts from '../../app/toasts';
import { fakeApi } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import { TOP_UP_TITLE, TopUpDrawer } from './top-up-drawer';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

// the multipart call: the test answers it by hand, and sees what was sent
const uploads: Array<{ path: string; form: FormData; options: UploadOptions; settle: (ok: boolean) => void }> = [];
vi.mock('../../../openapi/upload', () => ({
  upload: (path: string, form: FormData, options: UploadOptions) =>
    new Promise((resolve, reject) => {
      uploads.push({
        path,
        form,
        options,
        settle: (ok) => (ok ? resolve({ deposit_id: 9 }) : reject(new ApiError(500, 'down'))),
      });
    }),
}));

const NOW = Date.now();
const WAIT = { timeout: 5000 };
const FAILED = 'Unable to save deposit request. Please try again or reach out to support if the issue persists.';

function loggedInSeller() {
  fakeProfile({ account: { id: 1 }, permissions: ['lmt-pay'] });
  fakeApi.on('GET /currencies', () => [
    { code: 'GBP', name: 'Pound sterling', symbol: '£', minor_unit: 2 },
    { code: 'AED', name: 'UAE dirham', symbol: 'AED', minor_unit: 2 },
  ]);
  fakeApi.on('GET /lmt-pay/bank-account-details', (call) => ({
    bank_account_details: {
      account_name: call.query?.currency === 'AED' ? 'SB Portal FZ-LLC' : 'SB Portal Ltd',
      iban: 'GB33BUKB20201555555555',
      swiftcode: call.query?.currency === 'AED' ? null : 'BUKBGB22',
      reference: 'SBP000001-23',
      currency: call.query?.currency ?? 'GBP',
    },
  }));
}

function LoggedIn({ children }: { children: ReactNode }) {
  return Session.useSelector((s) => s.matches('loggedIn')) ? children : null;
}

function renderDrawer(onClose = vi.fn()) {
  const store = fakeStore({ token: 'stored', userToken: 'u1', issuedAt: NOW - 1000 });
  render(
    <Session.Provider options={{ input: { store: store.store, now: () => NOW } }}>
      <NotifyBridge toasts={Toasts} />
      <LoggedIn>
        <TopUpDrawer open onClose={onClose} currency="GBP" />
      </LoggedIn>
    </Session.Provider>,
  );
  return onClose;
}

async function choose(label: string, option: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('combobox', { name: new RegExp(`^${label}`) }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe("the 'Top up your SB pay Account' panel", () => {
  beforeEach(() => {
    fakeApi.reset();
    uploads.length = 0;
    loggedInSeller();
  });
  afterEach(() => fakeApi.reset());

  it('shows the bank details of the currency (a dash for a missing Swift), and Submit waits for the required fields', async () => {
    renderDrawer();
    const panel = await screen.findByRole('dialog', { name: TOP_UP_TITLE }, WAIT);
    expect(await within(panel).findByText('BUKBGB22', {}, WAIT)).toBeVisible();
    expect(within(panel).getByRole('note')).toHaveTextContent('Include the reference SBP000001-23');
    const submit = within(panel).getByRole('button', { name: 'Submit' });
    expect(submit).toBeDisabled();

    await choose('Currency', 'AED (UAE dirham)');
    expect(await within(panel).findByText('SB Portal FZ-LLC', {}, WAIT)).toBeVisible();
    expect(within(panel).getAllByRole('definition')[2]).toHaveTextContent('-');
    expect(within(panel).queryByRole('button', { name: 'Copy Swift' })).toBeNull();

    await userEvent.setup().type(within(panel).getByLabelText(/^Deposit amount/), '10');
    expect(submit).toBeDisabled();
    await choose('Payment transfer by', 'Cheque');
    expect(submit).toBeEnabled();
  });

  it('posts the multipart request with its progress and key; a failure toasts the spec’s text; a success closes', async () => {
    const onClose = renderDrawer();
    const user = userEvent.setup();
    const panel = await screen.findByRole('dialog', { name: TOP_UP_TITLE }, WAIT);
    await user.type(within(panel).getByLabelText(/^Deposit amount/), '1234.5');
    await choose('Payment transfer by', 'Online transfer');
    const proof = new File(['%PDF-1.4'], 'receipt.pdf', { type: 'application/pdf' });
    await user.upload(within(panel).getByLabelText('Proof of payment'), proof);
    await user.click(within(panel).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(uploads).toHaveLength(1), WAIT);
    const [first] = uploads;
    if (!first) throw new Error('no upload');
    expect(first.path).toBe('/api/send-deposit-request');
    expect(
      Object.fromEntries([...first.form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : v.name])),
    ).toEqual({
      deposit_amount: '123450',
      currency: 'GBP',
      payment_transfer_by: 'ONLINE',
      proof: 'receipt.pdf',
    });
    first.options.onProgress?.({ loaded: 4, total: 8, fraction: 0.5 });
    expect(await within(panel).findByRole('progressbar', { name: 'Uploading receipt.pdf' }, WAIT)).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
    first.settle(false);
    // the toast's text may be in the page a moment before sonner shows it
    await waitFor(() => expect(screen.getByText(FAILED)).toBeVisible(), WAIT);
    expect(onClose).not.toHaveBeenCalled();

    // sent again unchanged: the same key, and this time it is stored
    await user.click(within(panel).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(uploads).toHaveLength(2), WAIT);
    expect(uploads[1]?.options.idempotencyKey).toBe(first.options.idempotencyKey);
    uploads[1]?.settle(true);
    await waitFor(() => expect(onClose).toHaveBeenCalled(), WAIT);
  });
});
