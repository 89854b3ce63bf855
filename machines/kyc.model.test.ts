import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import { type ESignRequest, type KycDocument, type KycSubmission, kycMachine, REVIEW_POLL_MS } from './kyc.machine';
import { kycStepOf } from './kyc-steps';
import { controllableActors, modelPaths, replay, uncovered } from './testing/model';

const empty = { photo_id: null, address_proof: null, business: null, seller_contract: null };
const kyc = (state: KycSubmission['state'], extra: Partial<KycSubmission> = {}): KycSubmission => ({
  state,
  account_type: null,
  submission_id: null,
  submitted_at: null,
  decided_at: null,
  rejection_reason: null,
  documents: empty,
  esign_provider: 'sandbox',
  ...extra,
});
const doc = (kind: KycDocument['kind']): KycDocument => ({
  kind,
  name: `${kind}.pdf`,
  mime: 'application/pdf',
  size: 1000,
  uploaded_at: '2026-11-23T10:00:00Z',
});
const signing = (provider: 'sandbox' | 'zoho', status: 'pending' | 'signed'): ESignRequest => ({
  request_id: 7,
  provider,
  status,
  sign_url: provider === 'zoho' && status === 'pending' ? 'https://sign.zoho.com/zsign/webhost/x' : null,
  contract_text: 'SB Portal seller agreement',
  signer_name: status === 'signed' ? 'Kit Pending' : null,
  signed_at: status === 'signed' ? '2026-11-23T10:00:00Z' : null,
});
const file = new File(['%PDF-1.4'], 'passport.pdf', { type: 'application/pdf' });
const fail = new ApiError(500, 'down');

const events = [
  { type: 'xstate.done.actor.loadKyc', output: kyc('not_started') },
  { type: 'xstate.done.actor.loadKyc', output: kyc('approved') },
  { type: 'xstate.done.actor.loadKyc', output: kyc('submitted') },
  { type: 'xstate.error.actor.loadKyc', error: fail },
  { type: 'kyc.retried' },
  { type: 'account.changed', accountType: 'company' },
  { type: 'document.chosen', kind: 'photo_id', file },
  { type: 'document.chosen', kind: 'address_proof', file },
  { type: 'upload.progressed', fraction: 0.5 },
  { type: 'xstate.done.actor.uploadDocument', output: doc('photo_id') },
  { type: 'xstate.done.actor.uploadDocument', output: doc('address_proof') },
  { type: 'xstate.error.actor.uploadDocument', error: fail },
  { type: 'signing.started' },
  { type: 'xstate.done.actor.startSigning', output: signing('sandbox', 'pending') },
  { type: 'xstate.done.actor.startSigning', output: signing('zoho', 'pending') },
  { type: 'xstate.done.actor.startSigning', output: signing('sandbox', 'signed') },
  { type: 'xstate.error.actor.startSigning', error: fail },
  { type: 'signer.changed', name: 'Kit Pending' },
  { type: 'signature.confirmed' },
  { type: 'signature.completed' },
  { type: 'signature.cancelled' },
  { type: 'xstate.done.actor.signSandbox', output: signing('sandbox', 'signed') },
  { type: 'xstate.error.actor.signSandbox', error: fail },
  { type: 'xstate.done.actor.saveContract', output: doc('seller_contract') },
  { type: 'xstate.error.actor.saveContract', error: fail },
  { type: 'kyc.submitted' },
  { type: 'xstate.done.actor.submit', output: kyc('submitted') },
  { type: 'xstate.error.actor.submit', error: fail },
  { type: 'after.reviewPoll' },
  { type: 'review.checked' },
  { type: 'xstate.done.actor.checkReview', output: kyc('approved') },
  { type: 'xstate.done.actor.checkReview', output: kyc('rejected', { rejection_reason: 'Blurred' }) },
  { type: 'xstate.done.actor.checkReview', output: kyc('submitted') },
  { type: 'xstate.error.actor.checkReview', error: fail },
  { type: 'document.opened', kind: 'photo_id' },
  { type: 'xstate.done.actor.openDocument', output: { ...doc('photo_id'), content_base64: 'JVBERg==' } },
  { type: 'xstate.done.actor.openDocument', output: null },
  { type: 'xstate.error.actor.openDocument', error: fail },
];

const ACTORS = [
  'loadKyc',
  'uploadDocument',
  'startSigning',
  'signSandbox',
  'saveContract',
  'openDocument',
  'submit',
  'checkReview',
] as const;

// the session is the real parent; here the decision it hears is recorded
const quiet = kycMachine.provide({ actions: { tellSession: () => {} } });

/** What tells the flow's states apart: where it is, which documents are in, and how the contract is signed. */
const identity = (s: { value: unknown; context: (typeof quiet)['config']['context'] & Record<string, never> }) => {
  const c = s.context as unknown as {
    kyc: KycSubmission | null;
    accountType: string;
    signing: ESignRequest | null;
    signerName: string;
  };
  return [
    s.value,
    c.kyc?.state,
    Object.entries(c.kyc?.documents ?? {})
      .filter(([, d]) => d)
      .map(([k]) => k),
    c.accountType,
    c.signing?.provider,
    c.signing?.status,
    c.signerName.length > 0,
  ];
};

describe('KYC statechart, model-based', () => {
  const paths = modelPaths(quiet, { events, identity });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(quiet, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  for (const path of paths) {
    it(path.description, async () => {
      const told: unknown[] = [];
      const control = controllableActors(ACTORS);
      // the review check invokes the same loader under its own id
      const actors = { ...control.actors, loadKyc: control.actors.loadKyc };
      const actor = createActor(
        kycMachine.provide({
          actors,
          actions: { tellSession: (_, kyc: KycSubmission) => told.push(kyc.state) },
        }),
      ).start();
      await replay(
        path,
        actor,
        async (event) => {
          if (event.type === 'after.reviewPoll') {
            await vi.advanceTimersByTimeAsync(REVIEW_POLL_MS);
            return true;
          }
          const settled = event.type.replace('actor.checkReview', 'actor.loadKyc');
          return control.settle({ ...event, type: settled });
        },
        (real) => {
          // the session hears every decision and every submission, nothing else
          if (real.matches({ flow: 'approved' }) && real.context.kyc?.state === 'approved' && told.length > 0) {
            expect(told.at(-1)).toBe('approved');
          }
          if (real.hasTag('uploading')) expect(real.context.uploading?.file).toBe(file);
          // the stepper's step follows the flow: Review while under review, Approved once approved, Submit only
          // when every document and the contract are in, the documents before the contract
          const step = kycStepOf(real);
          if (real.matches({ flow: 'approved' })) expect(step).toBe('Approved');
          if (real.matches({ flow: 'underReview' })) expect(step).toBe('Review');
          if (real.matches({ flow: 'editing' })) {
            expect(step).toEqual(
              real.can({ type: 'kyc.submitted' }) ? 'Submit' : expect.stringMatching(/^(Documents|Contract|Submit)$/),
            );
            const d = real.context.kyc?.documents;
            if (!d?.photo_id || !d.address_proof) expect(step).toBe('Documents');
          }
          if (real.hasTag('loading') || real.hasTag('error')) expect(step).toBeNull();
        },
      );
    });
  }
});
