import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { fakeStore } from '../../machines/testing/fake-store';
import { fakeApi, reply } from '../lib/testing/fake-api';
import { sessionWithEarlyProfile } from './early-profile';

vi.mock('../../openapi/client', async (real) => ({
  ...(await real<typeof import('../../openapi/client')>()),
  api: (await import('../lib/testing/fake-api')).fakeApi.client,
}));

const NOW = Date.now();
const PROFILE = ['/settings/my-account', '/account/roles-permissions', '/account/kyc-status'];

function answerProfile({ kycFails = false } = {}) {
  fakeApi.on('GET /settings/my-account', () => ({ id: 7, first_name: 'Sam', user_type: 'sellers', currency: 'GBP' }));
  fakeApi.on('GET /account/roles-permissions', () => ({ user_type: 'sellers', permissions: [] }));
  fakeApi.on('GET /account/kyc-status', () =>
    kycFails ? reply(500, { success: false, message: 'down' }) : { kyc_status: 1, rejection_reason: null },
  );
}
const profileCallsMade = () => fakeApi.calls.filter((c) => PROFILE.includes(c.path)).length;
const start = (logic: ReturnType<typeof sessionWithEarlyProfile>) =>
  createActor(logic, {
    input: { store: fakeStore({ token: 't', userToken: 'u', issuedAt: NOW - 1000 }).store, now: () => NOW },
  }).start();

afterEach(() => fakeApi.reset());

describe('sessionWithEarlyProfile', () => {
  it('makes the three profile calls before any session actor runs, and the first load takes them', async () => {
    answerProfile();
    const logic = sessionWithEarlyProfile();
    expect(fakeApi.calls.map((c) => c.path)).toEqual(PROFILE);
    const session = start(logic);
    await waitFor(session, (s) => s.matches('loggedIn'));
    expect(session.getSnapshot().context.account?.first_name).toBe('Sam');
    // nothing asked twice
    expect(profileCallsMade()).toBe(3);
    session.stop();
  });

  it("answers an early call's failure as the load's, and a retry calls again", async () => {
    answerProfile({ kycFails: true });
    const session = start(sessionWithEarlyProfile());
    await waitFor(session, (s) => s.matches('profileFailed'));
    answerProfile();
    session.send({ type: 'profile.retried' });
    await waitFor(session, (s) => s.matches('loggedIn'));
    expect(profileCallsMade()).toBe(6);
    session.stop();
  });
});
