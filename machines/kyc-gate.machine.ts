import { assign, setup } from 'xstate';

export type GateUserType = 'sellers' | 'team_members' | 'admin';

export interface KycGateInput {
  userType: GateUserType;
  kycStatus: 0 | 1 | 2;
}

export type KycGateEvent = { type: 'kyc.updated'; kycStatus: 0 | 1 | 2 };

/**
 * The KYC gate, a child of the session. A seller (user_type `sellers`) whose KYC is not approved (status 0,
 * not submitted, or 2, rejected) is held on /settings/kyc?handle=true with a menu of only the minimise item;
 * approval (status 1) opens the portal. Other user types are never held.
 */
export const kycGateMachine = setup({
  types: {
    context: {} as KycGateInput,
    input: {} as KycGateInput,
    events: {} as KycGateEvent,
  },
  guards: {
    isApprovedOrNotASeller: ({ context }) => context.userType !== 'sellers' || context.kycStatus === 1,
    isRejected: ({ context }) => context.kycStatus === 2,
  },
}).createMachine({
  id: 'kycGate',
  context: ({ input }) => ({ ...input }),
  initial: 'evaluating',
  states: {
    evaluating: {
      always: [
        { guard: 'isApprovedOrNotASeller', target: 'open' },
        { guard: 'isRejected', target: 'held.rejected' },
        { target: 'held.notSubmitted' },
      ],
    },
    open: {
      description: 'The whole portal, as far as the permissions go; the logo leads to /dashboard.',
    },
    held: {
      description: 'Only /settings/kyc?handle=true; the menu shows only the minimise item.',
      initial: 'notSubmitted',
      states: {
        notSubmitted: { description: 'KYC not submitted yet (status 0).' },
        rejected: { description: 'KYC rejected (status 2): the reason is shown.' },
      },
    },
  },
  on: {
    'kyc.updated': {
      target: '.evaluating',
      actions: assign({ kycStatus: ({ event }) => event.kycStatus }),
    },
  },
});
