import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { type Account, type Kyc, type Roles, sessionMachine } from './session.machine';
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

const events = [
  { type: 'login.submitted', email: 'seller@demo.test', password: 'Demo1234!' },
  { type: 'xstate.done.actor.login', output: { token: 'new-token', user_token: 'u1', first_name: 'Sam' } },
  { type: 'xstate.error.actor.login', error: new ApiError(401, 'Incorrect email or password.') },
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
];

const ACTORS = ['login', 'loadAccount', 'loadRoles', 'loadKyc', 'logout'] as const;

function realSession(initial: typeof stored | null) {
  const fake = fakeStore(initial);
  const control = controllableActors(ACTORS);
  const actor = createActor(sessionMachine.provide({ actors: control.actors }), {
    input: { store: fake.store, now: () => NOW },
  });
  actor.start();
  return { actor, control, fake };
}

describe('session statechart, model-based', () => {
  const fromScratch = modelPaths(sessionMachine, { events, input: { store: frozenStore(null), now: () => NOW } });
  const fromStored = modelPaths(sessionMachine, { events, input: { store: frozenStore(stored), now: () => NOW } });

  it('the generated paths reach every state and every transition', () => {
    const { missingStates, missingTransitions } = uncovered(sessionMachine, [...fromScratch, ...fromStored]);
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });

  for (const [label, paths, initial] of [
    ['no stored session', fromScratch, null],
    ['a stored session', fromStored, stored],
  ] as const) {
    describe(`starting with ${label}`, () => {
      for (const path of paths) {
        it(path.description, async () => {
          const { actor, control, fake } = realSession(initial);
          await replay(path, actor, control.settle, (real) => {
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
            if (real.matches({ loggedOut: 'failed' })) expect(real.context.error).toBe('Incorrect email or password.');
            if (real.matches('profileFailed')) expect(real.hasTag('error')).toBe(true);
            if (real.matches('loggingIn')) expect(real.hasTag('submitting')).toBe(true);
          });
          actor.stop();
        });
      }
    });
  }
});
