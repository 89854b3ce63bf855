import { type AnyActorRef, assign, emit, fromPromise, sendParent, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { upload } from '../openapi/upload';
import { type NotifyEvent, notifyError } from './notify';

export type KycSubmission = DataOf<'/auth/kyc-submission', 'get'>;
export type KycDocument = components['schemas']['KycDocument'];
export type KycDocumentKind = components['schemas']['KycDocumentKind'];
export type KycAccountType = components['schemas']['KycAccountType'];
export type ESignRequest = DataOf<'/zoho-sign/embed', 'get'>;
export type KycDocumentFile = NonNullable<DataOf<'/auth/photo-id', 'get'>>;
/** The uploads the seller makes itself (the contract is signed, not uploaded). */
export type UploadKind = Exclude<KycDocumentKind, 'seller_contract'>;

export const KYC_LOAD_ERROR = 'Failed to fetch data';
/** How often a submission under review asks whether it was decided (and on focus, at once). */
export const REVIEW_POLL_MS = 10_000;

const UPLOAD_PATHS = {
  photo_id: '/api/save-photo-id',
  address_proof: '/api/save-address-id',
  business: '/api/save-seller-business',
} as const satisfies Record<UploadKind, string>;
const READ_PATHS = {
  photo_id: '/auth/photo-id',
  address_proof: '/auth/address-id',
  business: '/auth/seller-business',
  seller_contract: '/auth/seller-contract',
} as const satisfies Record<KycDocumentKind, string>;

export interface KycContext {
  kyc: KycSubmission | null;
  accountType: KycAccountType;
  signing: ESignRequest | null;
  signerName: string;
  /** The upload on its way: its kind, file and progress (0 to 100). */
  uploading: { kind: UploadKind; file: File; percent: number } | null;
  error: string | null;
}

export type KycEvent =
  | { type: 'kyc.retried' }
  | { type: 'account.changed'; accountType: KycAccountType }
  | { type: 'document.chosen'; kind: UploadKind; file: File }
  | { type: 'upload.progressed'; fraction: number }
  | { type: 'signing.started' }
  | { type: 'signer.changed'; name: string }
  /** the sandbox signer: the typed name signs */
  | { type: 'signature.confirmed' }
  /** Zoho Sign: the seller finished in its page; the server checks with Zoho */
  | { type: 'signature.completed' }
  | { type: 'signature.cancelled' }
  | { type: 'document.opened'; kind: KycDocumentKind }
  | { type: 'kyc.submitted' }
  /** the page came back into view (focus): a submission under review asks at once */
  | { type: 'review.checked' };

export type KycEmitted = NotifyEvent | { type: 'document.ready'; document: KycDocumentFile };

const withDocument = (kyc: KycSubmission | null, document: KycDocument): KycSubmission | null =>
  kyc ? { ...kyc, state: 'draft', documents: { ...kyc.documents, [document.kind]: document } } : kyc;

/**
 * The seller's KYC (/settings/kyc?handle=true, /kyc-verification): loading where it stands, then editing (each
 * document uploaded with its progress and shown back; the seller contract signed through the e-signature port:
 * the sandbox signer's typed name, or Zoho Sign's page in an iframe; then 'submit for approval'), under review
 * (it asks every 10 s and when the page regains focus whether an admin decided), approved. A rejection brings
 * the seller back to editing with the reason; an approval or a rejection is told to the session, which opens or
 * holds the portal at once: no new login.
 */
export const kycMachine = setup({
  types: {
    context: {} as KycContext,
    events: {} as KycEvent,
    emitted: {} as KycEmitted,
  },
  actors: {
    loadKyc: fromPromise<KycSubmission>(async ({ signal }) =>
      unwrap(await api.GET('/auth/kyc-submission', { signal }), KYC_LOAD_ERROR),
    ),
    uploadDocument: fromPromise<KycDocument, { kind: UploadKind; file: File; parent: AnyActorRef }>(
      async ({ input, signal }) => {
        const form = new FormData();
        form.append('file', input.file, input.file.name);
        return upload(UPLOAD_PATHS[input.kind], form, {
          signal,
          onProgress: ({ fraction }) => input.parent.send({ type: 'upload.progressed', fraction }),
        });
      },
    ),
    startSigning: fromPromise<ESignRequest>(async ({ signal }) =>
      unwrap(await api.GET('/zoho-sign/embed', { signal })),
    ),
    signSandbox: fromPromise<ESignRequest, { requestId: number; name: string }>(async ({ input }) =>
      unwrap(
        await api.POST('/zoho-sign/sandbox/{request_id}/sign', {
          params: { path: { request_id: input.requestId } },
          body: { signer_name: input.name },
        }),
      ),
    ),
    saveContract: fromPromise<KycDocument, { requestId: number }>(async ({ input }) =>
      unwrap(await api.POST('/api/save-seller-contract', { body: { request_id: input.requestId } })),
    ),
    openDocument: fromPromise<KycDocumentFile | null, { kind: KycDocumentKind }>(async ({ input, signal }) =>
      unwrap(await api.GET(READ_PATHS[input.kind], { signal })),
    ),
    submit: fromPromise<KycSubmission, { accountType: KycAccountType }>(async ({ input }) =>
      unwrap(await api.POST('/auth/submit-kyc-for-approval', { body: { account_type: input.accountType } })),
    ),
  },
  guards: {
    isApproved: ({ context }) => context.kyc?.state === 'approved',
    isUnderReview: ({ context }) => context.kyc?.state === 'submitted',
    wasApproved: ({ event }) => (event as { output?: KycSubmission }).output?.state === 'approved',
    wasRejected: ({ event }) => (event as { output?: KycSubmission }).output?.state === 'rejected',
    isComplete: ({ context }) => {
      const d = context.kyc?.documents;
      return Boolean(
        d?.photo_id && d.address_proof && d.seller_contract && (context.accountType === 'individual' || d.business),
      );
    },
    isSandbox: ({ context }) => context.signing?.provider === 'sandbox',
    isZoho: ({ context }) => context.signing?.provider === 'zoho',
    hasSignerName: ({ context }) => context.signerName.trim().length >= 2,
    isSigned: ({ context }) => context.signing?.status === 'signed',
  },
  delays: { reviewPoll: REVIEW_POLL_MS },
  actions: {
    storeKyc: assign((_, kyc: KycSubmission) => ({
      kyc,
      error: null,
      accountType: kyc.account_type ?? 'individual',
    })),
    storeError: assign((_, error: unknown) => ({ error: messageOf(error, KYC_LOAD_ERROR) })),
    chooseAccount: assign({
      accountType: ({ context, event }) => (event.type === 'account.changed' ? event.accountType : context.accountType),
    }),
    beginUpload: assign({
      uploading: ({ event }) =>
        event.type === 'document.chosen' ? { kind: event.kind, file: event.file, percent: 0 } : null,
    }),
    trackUpload: assign({
      uploading: ({ context, event }) =>
        context.uploading && event.type === 'upload.progressed'
          ? { ...context.uploading, percent: Math.floor(Math.min(1, Math.max(0, event.fraction)) * 100) }
          : context.uploading,
    }),
    endUpload: assign({ uploading: null }),
    keepDocument: assign({ kyc: ({ context }, document: KycDocument) => withDocument(context.kyc, document) }),
    storeSigning: assign((_, signing: ESignRequest) => ({ signing })),
    nameSigner: assign({
      signerName: ({ context, event }) => (event.type === 'signer.changed' ? event.name : context.signerName),
    }),
    announceSaved: emit((_, document: KycDocument) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: `${document.name} saved`,
    })),
    announceSubmitted: emit({
      type: 'notify',
      level: 'success',
      message: 'Submitted for approval: an administrator will review your documents.',
    } as const),
    announceFailure: emit((_, error: unknown) => notifyError(messageOf(error))),
    announceDocument: emit((_, document: KycDocumentFile | null) =>
      document ? { type: 'document.ready' as const, document } : notifyError('Not uploaded yet.'),
    ),
    /** Tells the session (the parent) the new status: it opens or holds the portal without a new login. */
    tellSession: sendParent((_, kyc: KycSubmission) => ({
      type: 'kyc.changed' as const,
      kyc: {
        kyc_status: kyc.state === 'approved' ? (1 as const) : kyc.state === 'rejected' ? (2 as const) : (0 as const),
        rejection_reason: kyc.rejection_reason,
      },
    })),
  },
}).createMachine({
  id: 'kyc',
  context: {
    kyc: null,
    accountType: 'individual',
    signing: null,
    signerName: '',
    uploading: null,
    error: null,
  },
  type: 'parallel',
  states: {
    flow: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadKyc',
            src: 'loadKyc',
            onDone: { target: 'routing', actions: { type: 'storeKyc', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'storeError', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
        failed: {
          tags: ['error'],
          description: "The KYC did not load: 'Failed to fetch data' with Retry.",
          on: { 'kyc.retried': 'loading' },
        },
        routing: {
          always: [
            { guard: 'isApproved', target: 'approved' },
            { guard: 'isUnderReview', target: 'underReview' },
            { target: 'editing' },
          ],
        },
        editing: {
          description:
            'Not started, a draft, or rejected (with the reason): each document is uploaded and shown back, the contract signed, then submitted.',
          initial: 'idle',
          states: {
            idle: {
              on: {
                'account.changed': { actions: 'chooseAccount' },
                'document.chosen': { target: 'uploading', actions: 'beginUpload' },
                'signing.started': 'startingSignature',
                'kyc.submitted': { guard: 'isComplete', target: '#kyc.flow.submitting' },
              },
            },
            uploading: {
              tags: ['uploading'],
              on: { 'upload.progressed': { actions: 'trackUpload' } },
              invoke: {
                id: 'uploadDocument',
                src: 'uploadDocument',
                input: ({ context, self }) => ({
                  kind: context.uploading?.kind ?? 'photo_id',
                  file: context.uploading?.file as File,
                  parent: self,
                }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'keepDocument', params: ({ event }) => event.output },
                    { type: 'announceSaved', params: ({ event }) => event.output },
                    'endUpload',
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: [
                    { type: 'announceFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
                    'endUpload',
                  ],
                },
              },
            },
            startingSignature: {
              tags: ['signing'],
              invoke: {
                id: 'startSigning',
                src: 'startSigning',
                onDone: { target: 'signature', actions: { type: 'storeSigning', params: ({ event }) => event.output } },
                onError: {
                  target: 'idle',
                  actions: {
                    type: 'announceFailure',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                },
              },
            },
            signature: {
              description: "The contract to sign: the sandbox signer's typed name, or Zoho Sign's page in an iframe.",
              initial: 'choosing',
              states: {
                choosing: {
                  always: [
                    { guard: 'isSigned', target: '#kyc.flow.editing.savingContract' },
                    { guard: 'isZoho', target: 'zoho' },
                    { target: 'sandbox' },
                  ],
                },
                sandbox: {
                  on: {
                    'signer.changed': { actions: 'nameSigner' },
                    'signature.confirmed': { guard: 'hasSignerName', target: '#kyc.flow.editing.signingSandbox' },
                  },
                },
                zoho: {
                  on: { 'signature.completed': '#kyc.flow.editing.savingContract' },
                },
              },
              on: { 'signature.cancelled': 'idle' },
            },
            signingSandbox: {
              tags: ['signing'],
              invoke: {
                id: 'signSandbox',
                src: 'signSandbox',
                input: ({ context }) => ({
                  requestId: context.signing?.request_id ?? 0,
                  name: context.signerName.trim(),
                }),
                onDone: {
                  target: 'savingContract',
                  actions: { type: 'storeSigning', params: ({ event }) => event.output },
                },
                onError: {
                  target: 'signature',
                  actions: {
                    type: 'announceFailure',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                },
              },
            },
            savingContract: {
              tags: ['signing'],
              invoke: {
                id: 'saveContract',
                src: 'saveContract',
                input: ({ context }) => ({ requestId: context.signing?.request_id ?? 0 }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'keepDocument', params: ({ event }) => event.output },
                    { type: 'announceSaved', params: ({ event }) => event.output },
                  ],
                },
                onError: {
                  target: 'signature',
                  actions: {
                    type: 'announceFailure',
                    params: ({ event }: { event: { error: unknown } }) => event.error,
                  },
                },
              },
            },
          },
        },
        submitting: {
          tags: ['submitting'],
          invoke: {
            id: 'submit',
            src: 'submit',
            input: ({ context }) => ({ accountType: context.accountType }),
            onDone: {
              target: 'underReview',
              actions: [
                { type: 'storeKyc', params: ({ event }) => event.output },
                { type: 'tellSession', params: ({ event }) => event.output },
                'announceSubmitted',
              ],
            },
            onError: {
              target: 'editing',
              actions: { type: 'announceFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
        underReview: {
          description:
            'Submitted: an administrator reviews the documents. Asks every 10 s, and on focus, for the decision.',
          after: { reviewPoll: 'checking' },
          on: { 'review.checked': 'checking' },
        },
        checking: {
          invoke: {
            id: 'checkReview',
            src: 'loadKyc',
            onDone: [
              {
                guard: 'wasApproved',
                target: 'approved',
                actions: [
                  { type: 'storeKyc', params: ({ event }) => event.output },
                  { type: 'tellSession', params: ({ event }) => event.output },
                ],
              },
              {
                guard: 'wasRejected',
                target: 'editing',
                actions: [
                  { type: 'storeKyc', params: ({ event }) => event.output },
                  { type: 'tellSession', params: ({ event }) => event.output },
                ],
              },
              { target: 'underReview', actions: { type: 'storeKyc', params: ({ event }) => event.output } },
            ],
            // a failed check is asked again at the next tick
            onError: 'underReview',
          },
        },
        approved: {
          description: 'Approved: the identity is verified and the portal is open.',
        },
      },
    },
    viewer: {
      description: 'Opening a saved document to show it back (preview or download).',
      initial: 'idle',
      states: {
        idle: { on: { 'document.opened': 'opening' } },
        opening: {
          tags: ['opening'],
          invoke: {
            id: 'openDocument',
            src: 'openDocument',
            input: ({ event }) => ({ kind: event.type === 'document.opened' ? event.kind : 'photo_id' }),
            onDone: { target: 'idle', actions: { type: 'announceDocument', params: ({ event }) => event.output } },
            onError: {
              target: 'idle',
              actions: { type: 'announceFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            },
          },
        },
      },
    },
  },
});
