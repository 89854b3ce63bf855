import { assign, setup } from 'xstate';
import type { components } from '../openapi/schema';

export type GateUserType = components['schemas']['UserType'];
export type GateKycStatus = components['schemas']['KycStatus'];

export interface KycGateInput {
  userType: GateUserType;
  /** The caller's KYC status; a team member is answered its seller's. */
  kycStatus: GateKycStatus;
}

export type KycGateEvent = { type: 'kyc.updated'; kycStatus: GateKycStatus };

/**
 * The KYC gate, a child of the session. A seller (user_type `sellers`) whose KYC is not approved (status 0,
 * not submitted, or 2, rejected) is held on /settings/kyc?handle=true with a menu of only the minimise item;
 * so is a team member while its seller's KYC is not approved (the server answers a member with its seller's
 * status): only the seller can complete it. Approval (status 1) opens the portal. The back office is never
 * held.
 */
export const kycGateMachine = setup({
  types: {
    context: {} as KycGateInput,
    input: {} as KycGateInput,
    events: {} as KycGateEvent,
  },
  guards: {
    isApprovedOrBackOffice: ({ context }) => context.userType === 'admin' || context.kycStatus === 1,
    isTeamMember: ({ context }) => context.userType === 'team_members',
    isRejected: ({ context }) => context.kycStatus === 2,
  },
}).createMachine({
  id: 'kycGate',
  context: ({ input }) => ({ ...input }),
  initial: 'evaluating',
  states: {
    evaluating: {
      always: [
        { guard: 'isApprovedOrBackOffice', target: 'open' },
        { guard: 'isTeamMember', target: 'held.awaitingSeller' },
        { guard: 'isRejected', target: 'held.rejected' },
        { target: 'held.notSubmitted' },
      ],
    },
    open: {
      description: 'The whole portal, as far as the permissions go; the logo leads to /dashboard.',
    },
    held: {
      description: 'Only /settings/kyc?handle=true; the menu shows only the minimise item and asks for no counts.',
      initial: 'notSubmitted',
      states: {
        notSubmitted: { description: 'A seller whose KYC is not submitted yet (status 0).' },
        rejected: { description: 'A seller whose KYC was rejected (status 2): the reason is shown.' },
        awaitingSeller: {
          description: "A team member whose seller's KYC is not approved: only the seller can complete it.",
        },
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
