import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, createActor } from 'xstate';
import { kycMachine } from '../../../machines/kyc.machine';
import { selectKycStatus, sessionMachine } from '../../../machines/session.machine';
import type { MenuPreference } from '../../../machines/side-menu.machine';
import { fakeStore } from '../../../machines/testing/fake-store';
import { Session } from '../../app/session';
import { SideMenu } from '../../app/shell/shell-actors';
import { Logo, MenuNav } from '../../app/shell/side-menu';
import { fakeApi } from '../../lib/testing/fake-api';
import { fakeProfile } from '../../lib/testing/fake-profile';
import KycPage from './kyc-page';

vi.mock('../../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../../openapi/client')>()),
  api: (await import('../../lib/testing/fake-api')).fakeApi.client,
}));

// A held seller's open KYC page hears the back office's decision (the review poll, or the tab regaining focus):
// the KYC statechart tells the real session (`kyc.changed`), the session tells its real KYC gate child, and the
// menu and the logo open (or stay held, with the reason) in the same session: no new login, no profile reload.

const NOW = Date.now();
const REASON = 'The photo ID is blurred.';
type State = 'submitted' | 'approved' | 'rejected';

const doc = (kind: 'photo_id' | 'address_proof' | 'seller_contract', name: string) => ({
  kind,
  name,
  mime: kind === 'photo_id' ? 'image/png' : 'application/pdf',
  size: 68,
  uploaded_at: '2026-11-22T09:00:00.000Z',
});

/** The seller's submission as GET /auth/kyc-submission answers it in each state. */
const submission = (state: State) => ({
  state,
  account_type: 'individual',
  submission_id: 5,
  submitted_at: '2026-11-22T10:00:00.000Z',
  decided_at: state === 'submitted' ? null : '2026-11-22T11:00:00.000Z',
  rejection_reason: state === 'rejected' ? REASON : null,
  documents: {
    photo_id: doc('photo_id', 'passport.png'),
    address_proof: doc('address_proof', 'bill.pdf'),
    business: null,
    seller_contract: doc('seller_contract', 'seller-contract.pdf'),
  },
  esign_provider: 'sandbox',
});

/**
 * A seller whose KYC is under review (status 0), with the dashboard and reports permissions; the submission's
 * state is whatever `review.state` says when the page asks.
 */
function heldSeller() {
  const review: { state: State } = { state: 'submitted' };
  fakeProfile({
    account: {
      id: 12,
      email: 'kira@kyc.test',
      first_name: 'Kira',
      last_name: 'Kyc',
      kyc_status: 0,
      created_at: '2026-11-01T00:00:00Z',
    },
    permissions: ['dashboard', 'reports', { name: 'sales', is_can_access: 0 }],
  });
  fakeApi.on('GET /auth/kyc-submission', () => submission(review.state));
  return review;
}

const callsTo = (method: string, path: string) =>
  fakeApi.calls.filter((c) => c.method === method && c.path === path).length;

const memoryPreference: MenuPreference = { readExpanded: () => true, writeExpanded: () => {} };

function renderShell() {
  const store = fakeStore({ token: 't12', userToken: 'u12', issuedAt: NOW - 1000 });
  let session: AnyActorRef | undefined;
  function Probe() {
    session = Session.useActorRef();
    return null;
  }
  render(
    <Session.Provider options={{ input: { store: store.store, now: () => NOW } }}>
      <Probe />
      <SideMenu.Provider options={{ input: { preference: memoryPreference, salesOpen: false } }}>
        <Logo />
        <MenuNav variant="sidebar" />
      </SideMenu.Provider>
      <KycPage />
    </Session.Provider>,
  );
  const gate = () => (session?.getSnapshot().children.kycGate as AnyActorRef | undefined)?.getSnapshot();
  return { store, gate, session: () => session as AnyActorRef };
}

/** The profile's three calls were made once each, and nothing logged in again. */
function expectSameSession(store: ReturnType<typeof fakeStore>) {
  expect(callsTo('GET', '/settings/my-account')).toBe(1);
  expect(callsTo('GET', '/account/roles-permissions')).toBe(1);
  expect(callsTo('GET', '/account/kyc-status')).toBe(1);
  expect(callsTo('POST', '/auth/login')).toBe(0);
  expect(store.calls).toEqual([]);
}

describe('a KYC decision reaches the real session and its real KYC gate', () => {
  beforeEach(() => fakeApi.reset());
  afterEach(() => fakeApi.reset());

  it('an approval heard on focus opens the gate, the menu and the logo, without a new login', async () => {
    const review = heldSeller();
    const { store, gate, session } = renderShell();
    expect(await screen.findByText('Submitted: your documents are under review.')).toBeVisible();
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    // held: only the minimise item, no link to the dashboard
    expect(within(menu).getAllByRole('listitem')).toHaveLength(1);
    expect(within(menu).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(screen.getByRole('img', { name: 'SB Portal' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeVisible();
    expect(gate()?.value).toEqual({ held: 'notSubmitted' });

    review.state = 'approved';
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
    });

    expect(await screen.findByText('Approved: your identity is verified.')).toBeVisible();
    expect(gate()?.value).toBe('open');
    expect(selectKycStatus(session().getSnapshot())).toBe(1);
    expect(within(menu).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(within(menu).getByRole('link', { name: 'Report History' })).toBeVisible();
    // a permission the seller lacks stays out of the menu
    expect(within(menu).queryByRole('link', { name: 'Sales' })).toBeNull();
    expect(screen.getByRole('link', { name: 'SB Portal, go to the dashboard' })).toBeVisible();
    // the page's own Logout (for a held seller) is gone: the menu's is the only one left
    expect(screen.getAllByRole('button', { name: 'Logout' }).filter((b) => !menu.contains(b))).toEqual([]);
    expect(session().getSnapshot().value).toBe('loggedIn');
    expectSameSession(store);
  });

  it('a rejection keeps the seller held, now on its reason, in the same session', async () => {
    const review = heldSeller();
    const { store, gate, session } = renderShell();
    expect(await screen.findByText('Submitted: your documents are under review.')).toBeVisible();

    review.state = 'rejected';
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
    });

    expect(await screen.findByText(`Reason: ${REASON}`)).toBeVisible();
    expect(gate()?.value).toEqual({ held: 'rejected' });
    expect(session().getSnapshot().context.kyc).toEqual({ kyc_status: 2, rejection_reason: REASON });
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).queryByRole('link', { name: 'Dashboard' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Submit for approval' })).toBeEnabled();
    expectSameSession(store);
  });
});

describe('the review poll, on the machines alone', () => {
  afterEach(() => {
    vi.useRealTimers();
    fakeApi.reset();
  });

  it('the 10 s poll hears the approval and the session opens its gate', async () => {
    vi.useFakeTimers();
    const review = heldSeller();
    const store = fakeStore({ token: 't12', userToken: 'u12', issuedAt: NOW - 1000 });
    const session = createActor(sessionMachine, { input: { store: store.store, now: () => NOW } }).start();
    await vi.waitFor(() => expect(session.getSnapshot().value).toBe('loggedIn'));
    const gate = () => (session.getSnapshot().children.kycGate as AnyActorRef | undefined)?.getSnapshot();
    expect(gate()?.value).toEqual({ held: 'notSubmitted' });

    session.send({ type: 'view.opened', id: 'kyc', logic: kycMachine });
    const kyc = session.getSnapshot().context.views.kyc as AnyActorRef;
    await vi.waitFor(() => expect(kyc.getSnapshot().matches({ flow: 'underReview' })).toBe(true));

    review.state = 'approved';
    // not yet: the poll has not come round
    await vi.advanceTimersByTimeAsync(9_000);
    expect(gate()?.value).toEqual({ held: 'notSubmitted' });
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(() => expect(gate()?.value).toBe('open'));
    expect(kyc.getSnapshot().matches({ flow: 'approved' })).toBe(true);
    expect(selectKycStatus(session.getSnapshot())).toBe(1);
    expect(session.getSnapshot().value).toBe('loggedIn');
    expectSameSession(store);
    session.stop();
  });
});
