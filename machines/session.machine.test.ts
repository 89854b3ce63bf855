import { describe, expect, it, vi } from 'vitest';
import { type AnyActorRef, createActor, createMachine, fromPromise } from 'xstate';
import { SESSION_TTL_MS } from '../openapi/auth-cookies';
import { ApiError } from '../openapi/client';
import {
  type Account,
  type Kyc,
  type LoginOutput,
  type PageProfile,
  PROFILE_ERROR,
  type Roles,
  selectAllowedPermissions,
  sessionMachine,
} from './session.machine';
import { fakeStore } from './testing/fake-store';
import { flush } from './testing/model';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const LOADED_ACCOUNT: Account = {
  id: 1,
  email: 'seller@demo.test',
  first_name: 'Sam',
  last_name: 'Seller',
  user_type: 'sellers',
  kyc_status: 1,
  currency: 'GBP',
  user_token: 'u',
  team_owner_id: null,
  created_at: '2026-01-01T00:00:00Z',
};
const profile = {
  loadAccount: fromPromise<Account>(async () => LOADED_ACCOUNT),
  loadRoles: fromPromise<Roles>(async () => ({
    user_type: 'sellers' as const,
    permissions: [
      { name: 'dashboard' as const, is_can_access: 1 as const },
      { name: 'reports' as const, is_can_access: 0 as const },
    ],
  })),
  loadKyc: fromPromise<Kyc>(async () => ({ kyc_status: 1, rejection_reason: null })),
};

type Actors = Parameters<typeof sessionMachine.provide>[0]['actors'];
const LOGGED_IN: LoginOutput = {
  token: 'fresh',
  user_token: 'u9',
  first_name: 'Sam',
  last_name: 'Seller',
  expires_at: '2026-11-23T12:00:00Z',
};
/** A login form that the user has already filled in and the server accepted. */
const acceptedLogin = createMachine({ initial: 'done', states: { done: { type: 'final' } }, output: LOGGED_IN });

function start(issuedAt: number | null, actors: Actors = {}, pageProfile: PageProfile | null = null) {
  const fake = fakeStore(issuedAt === null ? null : { token: 't', userToken: 'u', issuedAt });
  const actor = createActor(sessionMachine.provide({ actors: { ...profile, ...actors } }), {
    input: { store: fake.store, now: () => NOW, profile: pageProfile },
  });
  const emitted: string[] = [];
  actor.on('notify', (e) => emitted.push(e.message));
  actor.start();
  return { actor, fake, emitted };
}

describe('session statechart', () => {
  it('restores a session issued less than 24 hours ago and exposes its permissions', async () => {
    const { actor } = start(NOW - SESSION_TTL_MS + 1);
    await flush();
    expect(actor.getSnapshot().value).toBe('loggedIn');
    expect(selectAllowedPermissions(actor.getSnapshot())).toEqual(['dashboard']);
  });

  describe('a page that carries its profile', () => {
    const pageAccount = { ...LOADED_ACCOUNT, first_name: 'From the page' };
    const ofPage = (issuedAt: number): PageProfile => ({
      issuedAt,
      account: pageAccount,
      roles: { user_type: 'sellers', permissions: [{ name: 'sales', is_can_access: 1 }] },
      kyc: { kyc_status: 2, rejection_reason: 'blurry' },
    });
    /** Profile calls that count themselves and never answer: a session that makes one is not logged in. */
    const counted = () => {
      const calls: string[] = [];
      const never = <T>(name: string) =>
        fromPromise<T>(() => {
          calls.push(name);
          return new Promise<T>(() => {});
        });
      return {
        calls,
        actors: {
          loadAccount: never<Account>('account'),
          loadRoles: never<Roles>('roles'),
          loadKyc: never<Kyc>('kyc'),
        },
      };
    };

    it('opens the portal at once with it, and makes none of the calls', () => {
      const { calls, actors } = counted();
      const issuedAt = NOW - 60_000;
      const { actor } = start(issuedAt, actors, ofPage(issuedAt));
      const snapshot = actor.getSnapshot();
      expect(snapshot.value).toBe('loggedIn');
      expect(calls).toEqual([]);
      expect(snapshot.context.account?.first_name).toBe('From the page');
      expect(selectAllowedPermissions(snapshot)).toEqual(['sales']);
      expect(snapshot.context.kyc).toEqual({ kyc_status: 2, rejection_reason: 'blurry' });
      expect(snapshot.context.token).toBe('t');
      // kept no longer than it is needed
      expect(snapshot.context.pageProfile).toBeNull();
      const gate = snapshot.children.kycGate?.getSnapshot() as { context: { kycStatus: number } } | undefined;
      expect(gate?.context.kycStatus).toBe(2);
    });

    it('made for another session (another stamp): the calls load the profile', () => {
      const { calls, actors } = counted();
      const { actor } = start(NOW - 60_000, actors, ofPage(NOW - 120_000));
      expect(actor.getSnapshot().value).toEqual({
        loadingProfile: { account: 'loading', roles: 'loading', kyc: 'loading' },
      });
      expect(calls.sort()).toEqual(['account', 'kyc', 'roles']);
      expect(actor.getSnapshot().context.account).toBeNull();
    });

    it('with a session that is no longer live, or none: logged out, nothing of it kept', () => {
      for (const issuedAt of [NOW - SESSION_TTL_MS, null]) {
        const { actor } = start(issuedAt, {}, ofPage(issuedAt ?? NOW - 60_000));
        expect(actor.getSnapshot().matches('loggedOut'), String(issuedAt)).toBe(true);
        expect(actor.getSnapshot().context.account, String(issuedAt)).toBeNull();
        expect(actor.getSnapshot().context.pageProfile, String(issuedAt)).toBeNull();
      }
    });
  });

  it('drops a session issued exactly 24 hours ago, clearing what was stored', () => {
    const { actor, fake } = start(NOW - SESSION_TTL_MS);
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(fake.calls).toEqual(['clear']);
  });

  it('drops a validity stamp from the future', () => {
    const { actor } = start(NOW + 60_000);
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
  });

  it('starts the login form when there is no session, and stores nothing until it succeeds', () => {
    const { actor, fake } = start(null);
    expect(actor.getSnapshot().matches({ loggedOut: 'idle' })).toBe(true);
    expect(actor.getSnapshot().children.loginForm).toBeDefined();
    expect(fake.stored).toBeNull();
  });

  it("stores the login form's token with the time it was issued, then loads the profile", async () => {
    const { actor, fake } = start(null, { loginForm: acceptedLogin as never });
    await flush();
    expect(fake.stored).toEqual({ token: 'fresh', userToken: 'u9', issuedAt: NOW });
    expect(actor.getSnapshot().value).toBe('loggedIn');
    expect(actor.getSnapshot().children.loginForm).toBeUndefined();
  });

  it("announces 'Error loading account details' and offers a retry when the profile fails", async () => {
    let calls = 0;
    const { actor, emitted } = start(NOW, {
      loadKyc: fromPromise<Kyc>(async () => {
        calls += 1;
        if (calls === 1) throw new ApiError(500, PROFILE_ERROR);
        return { kyc_status: 2 as const, rejection_reason: 'blurry' };
      }),
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('profileFailed');
    expect(emitted).toEqual([PROFILE_ERROR]);
    actor.send({ type: 'profile.retried' });
    await flush();
    expect(actor.getSnapshot().value).toBe('loggedIn');
    expect(actor.getSnapshot().context.kyc?.kyc_status).toBe(2);
  });

  it('logs out and clears everything even when the server call fails', async () => {
    const { actor, fake } = start(NOW, {
      logout: fromPromise<void>(async () => {
        throw new Error('network down');
      }),
    });
    await flush();
    actor.send({ type: 'logout.requested' });
    await flush();
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(fake.stored).toBeNull();
    expect(fake.calls).toContain('clear');
  });

  it("a view's actor joins the system: it reaches the system's actors, and leaves when its view closes", async () => {
    const { actor } = start(NOW);
    await flush();
    const view = createMachine({
      entry: ({ system }) => {
        found = system.get('kycGate');
      },
    });
    let found: AnyActorRef | undefined;
    actor.send({ type: 'view.opened', id: 'panel', logic: view });
    const child = actor.getSnapshot().context.views.panel;
    expect(found).toBe(actor.getSnapshot().children.kycGate);
    actor.send({ type: 'view.closed', id: 'panel' });
    expect(actor.getSnapshot().context.views).toEqual({});
    expect(child?.getSnapshot().status).toBe('stopped');
  });

  it("a view's actor that fails is logged and the session lives on", async () => {
    const { actor } = start(NOW);
    await flush();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = createMachine({
      entry: () => {
        throw new Error('broken view');
      },
    });
    actor.send({ type: 'view.opened', id: 'panel', logic: broken });
    await flush();
    expect(actor.getSnapshot().status).toBe('active');
    expect(actor.getSnapshot().value).toBe('loggedIn');
    expect(logged).toHaveBeenCalledWith('An actor of the app failed', expect.any(Error));
    logged.mockRestore();
  });
});
