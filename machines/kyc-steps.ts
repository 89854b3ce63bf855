import type { SnapshotFrom } from 'xstate';
import type { kycMachine } from './kyc.machine';

/** The steps of identity verification, in the order a seller goes through them. */
export const KYC_STEPS = ['Documents', 'Contract', 'Submit', 'Review', 'Approved'] as const;
export type KycStep = (typeof KYC_STEPS)[number];

/**
 * Where the seller stands, read from the KYC statechart: the documents until each required one is uploaded, then
 * the contract until it is signed, then Submit, Review while under review, Approved once approved. A rejected
 * submission goes back to the first step that needs the seller (its documents are kept).
 */
export function kycStepOf(s: SnapshotFrom<typeof kycMachine>): KycStep | null {
  if (s.matches({ flow: 'loading' }) || s.matches({ flow: 'failed' }) || s.matches({ flow: 'routing' })) return null;
  if (s.matches({ flow: 'approved' })) return 'Approved';
  if (s.matches({ flow: 'underReview' }) || s.matches({ flow: 'checking' })) return 'Review';
  if (s.matches({ flow: 'submitting' })) return 'Submit';
  const d = s.context.kyc?.documents;
  const documentsDone = Boolean(
    d?.photo_id && d.address_proof && (s.context.accountType === 'individual' || d.business),
  );
  if (!documentsDone) return 'Documents';
  if (!d?.seller_contract) return 'Contract';
  return 'Submit';
}
