import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeStore } from '../../../machines/testing/fake-store';
import { Session } from '../../app/session';
import { fakeApi } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import KycPage, { AWAITING_SELLER_TEXT } from './kyc-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();

/** A logged-in account of this type whose KYC status (its seller's, for a team member) is `kycStatus`. */
function loggedIn(userType: 'sellers' | 'team_members', kycStatus: 0 | 1 | 2) {
  fakeProfile({
    account: {
      id: 4,
      email: 'member@demo.test',
      first_name: 'Mia',
      last_name: 'Member',
      user_type: userType,
      kyc_status: kycStatus,
      team_owner_id: userType === 'team_members' ? 2 : null,
    },
    permissions: ['dashboard'],
  });
  fakeApi.on('POST /auth/logout', () => ({}));
  fakeApi.on('GET /auth/kyc-submission', () => ({
    state: kycStatus === 1 ? 'approved' : kycStatus === 2 ? 'rejected' : 'not_started',
    account_type: null,
    submission_id: null,
    submitted_at: null,
    decided_at: null,
    rejection_reason: kycStatus === 2 ? 'The photo is blurred.' : null,
    documents: { photo_id: null, address_proof: null, business: null, seller_contract: null },
    esign_provider: 'sandbox',
  }));
  const store = fakeStore({ token: 't', userToken: 'u4', issuedAt: NOW - 1000 });
  render(
    <Session.Provider options={{ input: { store: store.store, now: () => NOW } }}>
      <KycPage />
    </Session.Provider>,
  );
  return store;
}

describe('the KYC page', () => {
  beforeEach(() => fakeApi.reset());
  afterEach(() => fakeApi.reset());

  it("tells a team member held by its seller's KYC that only the seller can complete it, with Logout", async () => {
    const user = userEvent.setup();
    const store = loggedIn('team_members', 0);
    expect(await screen.findByText(AWAITING_SELLER_TEXT)).toHaveAttribute('role', 'status');
    expect(screen.queryByText('Your documents')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await vi.waitFor(() => expect(store.calls).toContain('clear'));
  });

  it('shows a held seller what to send, and an approved member nothing about its seller', async () => {
    loggedIn('sellers', 2);
    expect(await screen.findByText('Rejected: your documents were not accepted.')).toBeVisible();
    expect(screen.getByText('Reason: The photo is blurred.')).toBeVisible();
    expect(screen.getByText('Your documents')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Submit for approval' })).toBeDisabled();
    expect(screen.queryByText(AWAITING_SELLER_TEXT)).toBeNull();
  });

  it('shows an approved team member its approved status', async () => {
    loggedIn('team_members', 1);
    expect(await screen.findByText('Approved: your identity is verified.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });
});
