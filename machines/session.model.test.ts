import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  type Account,
  type Kyc,
  type PageProfile,
  type Roles,
  type SessionContext,
  sessionMachine,
} from './session.machine';
import { fakeStore, frozenStore } from './testing/fake-store';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const account: Account = {
  id: 1,
  email: 'seller@demo.test',
  first_name: 'Sam',
  last_name: 'Seller',
  user_type: 'sellers',
  kyc_status: 1,
  currency: 'GBP',
  user_token: 'u1',
  team_owner_id: null,
  created_at: '2026-01-01T00:00:00Z',
};
const roles: Roles = { user_type: 'sellers', permissions: [{ name: 'dashboard', is_can_access: 1 }] };
const kyc: Kyc = { kyc_status: 1, rejection_reason: null };
const stored = { token: 'stored-token', userToken: 'u1', issuedAt: NOW - 60_000 };
/** What a page opened with that session carries (server/http/static.ts). */
const pageProfile: PageProfile = { issuedAt: stored.issuedAt, account, roles, kyc };

/** A view's actor, as a feed would join the system. */
const viewLogic = createMachine({ id: 'view' });

const events = [
  {
    type: 'xstate.done.actor.loginForm',
    output: { token: 'new-token', user_token: 'u1', first_name: 'Sam', last_name: 'Seller', expires_at: '' },
  },
  { type: 'xstate.done.actor.loadAccount', output: account },
  { type: 'xstate.done.actor.loadRoles', output: roles },
  { type: 'xstate.done.actor.loadKyc', output: kyc },
  // each loader can fail for real (profileFailed) or because the token died (401: logged out)
  ...['loadAccount', 'loadRoles', 'loadKyc'].flatMap((id) => [
    { type: `xstate.error.actor.${id}`, error: new ApiError(500, 'Error loading account details') },
    { type: `xstate.error.actor.${id}`, error: new ApiError(401, 'Your session has expired. Please log in again.') },
  ]),
  { type: 'xstate.done.actor.logout', output: undefined },
  { type: 'xstate.error.actor.logout', error: new ApiError(500, 'down') },
  { type: 'account.updated', account: { ...account, first_name: 'Renamed' } },
  { type: 'kyc.changed', kyc: { kyc_status: 1, rejection_reason: null } },
  { type: 'view.opened', id: 'panel', logic: viewLogic },
  { type: 'view.closed', id: 'panel' },
  // a view's actor that fails
  { type: 'xstate.error.actor.x:1', error: new Error('broken view') },
];

const ACTORS = ['loginForm', 'loadAccount', 'loadRoles', 'loadKyc', 'logout'] as const;

function realSession(initial: typeof stored | null, profile: PageProfile | null) {
  const fake = fakeStore(initial);
  const control = controllableActors(ACTORS);
  const actor = createActor(sessionMachine.provide({ actors: control.actors }), {
    input: { store: fake.store, now: () => NOW, profile },
  });
  actor.start();
  return { actor, control, fake };
}

describe('session statechart, model-based', () => {
  // two sessions are the same state when they show the same things (the views' actors are refs, not data)
  const identity = ({ value, context }: { value: unknown; context: SessionContext }) => [
    value,
    context.token,
    context.account?.id,
    context.roles?.user_type,
    context.kyc?.kyc_status,
    context.error,
    Object.keys(context.views),
  ];
  const fromScratch = modelPaths(sessionMachine, {
    events,
    input: { store: frozenStore(null), now: () => NOW },
    identity,
  });
  const fromStored = modelPaths(sessionMachine, {
    events,
    input: { store: frozenStore(stored), now: () => NOW },
    identity,
  });
  const fromPage = modelPaths(sessionMachine, {
    events,
    input: { store: frozenStore(stored), now: () => NOW, profile: pageProfile },
    identity,
  });

  it('the generated paths reach every state and every transition', () => {
    const { missingStates, missingTransitions } = uncovered(sessionMachine, [
      ...fromScratch,
      ...fromStored,
      ...fromPage,
    ]);
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });

  for (const [label, paths, initial, profile] of [
    ['no stored session', fromScratch, null, null],
    ['a stored session', fromStored, stored, null],
    ['a stored session and its profile in the page', fromPage, stored, pageProfile],
  ] as const) {
    describe(`starting with ${label}`, () => {
      for (const path of paths) {
        it(path.description, async () => {
          const { actor, control, fake } = realSession(initial, profile);
          const failures = vi.spyOn(console, 'error').mockImplementation(() => {});
          // the session's running actors settle as the path says; a failure from any other actor (a view's) is sent
          const perform = async (e: { type: string }) =>
            ACTORS.some((name) => e.type.endsWith(`.actor.${name}`) && control.isPending(name))
              ? control.settle(e)
              : false;
          await replay(path, actor, perform, (real) => {
            // what each state promises the views
            if (real.matches('loggedIn')) {
              expect(real.context.account).not.toBeNull();
              expect(real.context.roles).not.toBeNull();
              expect(real.context.kyc).not.toBeNull();
              expect(fake.stored?.token).toBe(real.context.token);
            }
            if (real.matches('loggedOut')) {
              expect(real.context.token).toBeNull();
              expect(fake.stored).toBeNull();
            }
            if (real.matches('profileFailed')) expect(real.hasTag('error')).toBe(true);
            // a view's actor is a child of the session while its view is open
            for (const [key, view] of Object.entries(real.context.views)) {
              expect(key).toBe('panel');
              expect(Object.values(real.children)).toContain(view);
            }
            // a failing view's actor is logged, and the session lives on
            expect(real.status).toBe('active');
          });
          failures.mockRestore();
          actor.stop();
        });
      }
    });
  }
});
