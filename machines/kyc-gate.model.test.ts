import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { type KycGateInput, kycGateMachine } from './kyc-gate.machine';
import { modelPaths, replay, uncovered } from './testing/model';

const events = [
  { type: 'kyc.updated', kycStatus: 0 },
  { type: 'kyc.updated', kycStatus: 1 },
  { type: 'kyc.updated', kycStatus: 2 },
];

const inputs: KycGateInput[] = [
  { userType: 'sellers', kycStatus: 0 },
  { userType: 'sellers', kycStatus: 1 },
  { userType: 'sellers', kycStatus: 2 },
  { userType: 'team_members', kycStatus: 0 },
  { userType: 'team_members', kycStatus: 1 },
  { userType: 'admin', kycStatus: 2 },
];

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
          const actor = createActor(kycGateMachine, { input }).start();
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
            },
          );
        });
      }
    });
  }
});
