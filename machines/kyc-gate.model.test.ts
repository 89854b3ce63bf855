import { describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, createMachine } from 'xstate';
import { type KycGateInput, kycGateMachine } from './kyc-gate.machine';
import type { menuCountsMachine } from './menu-counts.machine';
import { modelPaths, replay, uncovered } from './testing/model';

const events = [
  { type: 'kyc.updated', kycStatus: 0 },
  { type: 'kyc.updated', kycStatus: 1 },
  { type: 'kyc.updated', kycStatus: 2 },
];

const inputs: KycGateInput[] = [
  { userType: 'sellers', kycStatus: 0, permissions: ['dashboard', 'sales', 'notification'] },
  { userType: 'sellers', kycStatus: 1, permissions: ['dashboard', 'sales'] },
  { userType: 'sellers', kycStatus: 2 },
  { userType: 'team_members', kycStatus: 0, permissions: ['dashboard', 'sales', 'notification'] },
  { userType: 'team_members', kycStatus: 1, permissions: ['notification'] },
  { userType: 'admin', kycStatus: 2, permissions: ['sales', 'notification'] },
];

/** A stand-in for the menu counts that keeps the input it was started with. */
const countsStandIn = createMachine({
  types: { context: {} as { canSeeSales: boolean; canSeeNotifications: boolean } },
  context: ({ input }) => input as { canSeeSales: boolean; canSeeNotifications: boolean },
  // it takes the place of the menu counts machine, whose events it never needs
}) as unknown as typeof menuCountsMachine;

describe('KYC gate statechart, model-based', () => {
  const all = inputs.map((input) => ({ input, paths: modelPaths(kycGateMachine, { events, input }) }));

  it('the generated paths reach every state and every transition', () => {
    const { missingStates, missingTransitions } = uncovered(
      kycGateMachine,
      all.flatMap((a) => a.paths),
    );
    expect(missingStates).toEqual([]);
    expect(missingTransitions).toEqual([]);
  });

  for (const { input, paths } of all) {
    describe(`a ${input.userType} with kyc_status ${input.kycStatus}`, () => {
      for (const path of paths) {
        it(path.description, async () => {
          const actor = createActor(kycGateMachine.provide({ actors: { menuCounts: countsStandIn } }), {
            input,
          }).start();
          await replay(
            path,
            actor,
            async () => false,
            (real) => {
              // the rule, checked in every state: everyone but the back office is held until KYC is approved;
              // a team member's status is its seller's, and only the seller can complete it
              const { userType, kycStatus } = real.context;
              const held = userType !== 'admin' && kycStatus !== 1;
              expect(real.matches('held')).toBe(held);
              expect(real.matches('open')).toBe(!held);
              if (held) {
                expect(real.matches({ held: 'awaitingSeller' })).toBe(userType === 'team_members');
                expect(real.matches({ held: 'rejected' })).toBe(userType === 'sellers' && kycStatus === 2);
              }
              // the menu counts run only while the portal is open, with what the permissions allow
              const counts = real.children.menuCounts as AnyActorRef | undefined;
              expect(counts !== undefined).toBe(!held);
              if (counts) {
                expect(counts.getSnapshot().context).toEqual({
                  canSeeSales: input.permissions?.includes('sales') ?? false,
                  canSeeNotifications: input.permissions?.includes('notification') ?? false,
                });
              }
            },
          );
        });
      }
    });
  }
});
