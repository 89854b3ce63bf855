import { fileTypeFromBuffer } from 'file-type';
import type { AuthUser } from '../auth/session';
import type { Router } from '../contract/router';
import { recordAdminAction } from '../domain/admin/audit';
import {
  adminSubmissionPage,
  decideKyc,
  documentFile,
  findSigning,
  KYC_MESSAGES,
  type KycDecisionOutcome,
  type KycDocumentKind,
  kycOf,
  lockedReason,
  saveDocument,
  signedContract,
  signSandbox,
  startSigning,
  storeMadeFile,
  submissionDocument,
  submitKyc,
} from '../domain/kyc';
import { metaOf } from '../domain/paging';
import type { ESign } from '../esign/port';
import { ESignUnavailable } from '../esign/port';
import type { SandboxESign } from '../esign/sandbox';
import { MESSAGES } from '../http/errors';
import { spend } from '../quotas/quota';
import { badFileName } from './wallet';

const invalid = (path: string, message: string) => ({
  status: 422 as const,
  body: { success: false as const, message: MESSAGES.validation, errors: [{ path, message }] },
});
const conflict = (message: string) => ({ status: 409 as const, body: { success: false as const, message } });
const ESIGN_FAILED = {
  status: 502,
  body: { success: false, message: 'The e-signature service did not answer. Please try again in a moment.' },
} as const;
const REQUEST_NOT_FOUND = { status: 404, body: { success: false, message: KYC_MESSAGES.requestNotFound } } as const;
const SUBMISSION_NOT_FOUND = { status: 404, body: { success: false, message: KYC_MESSAGES.notFound } } as const;

const fullName = (user: AuthUser) => `${user.first_name} ${user.last_name}`.trim() || user.email;

/** Runs a call to the e-signature provider; its failure is the 502 (and the call's transaction is undone). */
async function viaProvider<T, R>(work: () => Promise<T>, answer: (value: T) => R): Promise<R | typeof ESIGN_FAILED> {
  try {
    return answer(await work());
  } catch (error) {
    if (error instanceof ESignUnavailable) return ESIGN_FAILED;
    throw error;
  }
}

export interface KycRouteOptions {
  esign: ESign;
  /** The app's origin, given to Zoho Sign as the host that embeds its signing page. */
  appUrl: string;
}

/**
 * KYC (issue 13): the seller's documents through the upload hook (pdf, jpg, png by their first bytes, 10 MB),
 * the seller contract signed through the e-signature port, submission for approval; and the back office's queue
 * (x-role admin): list, read a document, approve (releases the hold), reject with a reason. Every seller call is
 * the caller's own (x-role seller): another seller's signing request answers 404.
 */
export function kycRoutes({ route }: Router, { esign, appUrl }: KycRouteOptions) {
  route('/auth/kyc-submission', 'get', async ({ user }, { db }) => ({
    status: 200,
    body: { success: true, data: await kycOf(db, user.id, esign) },
  }));

  const reads: [
    '/auth/photo-id' | '/auth/address-id' | '/auth/seller-business' | '/auth/seller-contract',
    KycDocumentKind,
  ][] = [
    ['/auth/photo-id', 'photo_id'],
    ['/auth/address-id', 'address_proof'],
    ['/auth/seller-business', 'business'],
    ['/auth/seller-contract', 'seller_contract'],
  ];
  for (const [path, kind] of reads) {
    route(path, 'get', async ({ user }, { db, dataDir }) => {
      const file = await documentFile(db, dataDir, user.id, kind);
      return { status: 200, body: { success: true, ...(file ? {} : { message: 'Not uploaded yet.' }), data: file } };
    });
  }

  const uploads: ['/api/save-photo-id' | '/api/save-address-id' | '/api/save-seller-business', KycDocumentKind][] = [
    ['/api/save-photo-id', 'photo_id'],
    ['/api/save-address-id', 'address_proof'],
    ['/api/save-seller-business', 'business'],
  ];
  for (const [path, kind] of uploads) {
    route(path, 'post', async ({ user, files }, { db, clock }) => {
      const file = files.file?.[0];
      if (!file) return invalid('/body/file', 'is required');
      const problem = badFileName(file.clientName);
      if (problem) return invalid('/body/file', problem);
      const locked = await lockedReason(db, user.id);
      if (locked) return conflict(locked);
      return {
        status: 200,
        body: {
          success: true,
          message: 'Document saved.',
          data: await saveDocument(db, user.id, kind, file.id, clock.now()),
        },
      };
    });
  }

  // signing is open whatever the documents' state: only saving the signed contract is locked while under review
  route('/zoho-sign/embed', 'get', async ({ user }, { db, clock }) => {
    return viaProvider(
      () => startSigning(db, { id: user.id, name: fullName(user), email: user.email }, esign, appUrl, clock.now()),
      (data) => ({ status: 200 as const, body: { success: true as const, data } }),
    );
  });

  route('/zoho-sign/sandbox/{request_id}/sign', 'post', async ({ user, params, body }, { db, clock }) => {
    if (esign.provider !== 'sandbox') return REQUEST_NOT_FOUND;
    const name = body.signer_name.trim();
    if (name.length < 2) return invalid('/body/signer_name', 'must not be blank');
    const signed = await signSandbox(db, user.id, params.request_id, name, esign as SandboxESign, clock.now());
    return signed
      ? { status: 200, body: { success: true, message: 'Contract signed.', data: signed } }
      : REQUEST_NOT_FOUND;
  });

  route('/zoho-sign/document/{request_id}', 'get', async ({ user, params }, { db }) =>
    viaProvider(
      () => signedContract(db, user.id, params.request_id, esign),
      (found) => {
        if (found === undefined) return REQUEST_NOT_FOUND;
        if (found === null) return conflict(KYC_MESSAGES.notSigned);
        return {
          status: 200 as const,
          body: {
            success: true as const,
            data: {
              kind: 'seller_contract' as const,
              name: 'seller-contract-signed.pdf',
              mime: 'application/pdf',
              size: found.pdf.length,
              uploaded_at: found.row.signed_at ?? '',
              content_base64: found.pdf.toString('base64'),
            },
          },
        };
      },
    ),
  );

  route('/api/save-seller-contract', 'post', async ({ user, body }, { db, clock, dataDir }) => {
    // whose request it is comes first: another seller's is 404 whatever the caller's own state
    if (!(await findSigning(db, user.id, body.request_id, esign))) return REQUEST_NOT_FOUND;
    const locked = await lockedReason(db, user.id);
    if (locked) return conflict(locked);
    let found: Awaited<ReturnType<typeof signedContract>>;
    try {
      found = await signedContract(db, user.id, body.request_id, esign);
    } catch (error) {
      if (error instanceof ESignUnavailable) return ESIGN_FAILED;
      throw error;
    }
    if (found === undefined) return REQUEST_NOT_FOUND;
    if (found === null) return conflict(KYC_MESSAGES.notSigned);
    // what the provider sent is kept only when it is the PDF it should be
    if ((await fileTypeFromBuffer(found.pdf))?.ext !== 'pdf') return ESIGN_FAILED;
    const now = clock.now();
    const fileId = await storeMadeFile(
      db,
      dataDir,
      {
        ownerId: user.id,
        operationId: 'proxySaveSellerContract',
        field: 'seller_contract',
        name: 'seller-contract-signed.pdf',
        bytes: found.pdf,
      },
      now,
    );
    return {
      status: 200,
      body: {
        success: true,
        message: 'Signed contract saved.',
        data: await saveDocument(db, user.id, 'seller_contract', fileId, now),
      },
    };
  });

  route('/auth/submit-kyc-for-approval', 'post', async ({ user, body }, deps) => {
    const { db, clock } = deps;
    // every submission is a review by a person: a refused one (locked, documents missing) counts nothing
    await spend(deps, 'kyc-submissions-daily', user.id);
    const outcome = await submitKyc(db, user.id, body.account_type, clock.now());
    if (outcome.kind === 'locked') return conflict(outcome.message);
    if (outcome.kind === 'missing') {
      return {
        status: 422,
        body: {
          success: false,
          message: MESSAGES.validation,
          errors: outcome.documents.map((kind) => ({ path: `/documents/${kind}`, message: 'is required' })),
        },
      };
    }
    return {
      status: 200,
      body: {
        success: true,
        message: 'Submitted for approval: an administrator will review your documents.',
        data: await kycOf(db, user.id, esign),
      },
    };
  });

  // the back office

  route('/admin/kyc', 'get', async ({ query }, { db }) => {
    const perPage = query.per_page ?? 20;
    const page = query.page ?? 1;
    const { rows, total } = await adminSubmissionPage(db, query.status ?? 'submitted', {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      status: 200,
      body: {
        success: true,
        data: { submission_list: rows, meta: metaOf({ page, perPage, limit: perPage, offset: 0 }, total) },
      },
    };
  });

  route('/admin/kyc/{id}/documents/{kind}', 'get', async ({ params }, { db, dataDir }) => {
    const file = await submissionDocument(db, dataDir, params.id, params.kind);
    if (file === undefined) return SUBMISSION_NOT_FOUND;
    return {
      status: 200,
      body: { success: true, ...(file ? {} : { message: 'Not part of this submission.' }), data: file },
    };
  });

  route('/admin/kyc/{id}/approve', 'post', async ({ user, params }, { db, clock }) => {
    const now = clock.now();
    const outcome = await decideKyc(db, params.id, user.id, { kind: 'approve' }, now);
    if (outcome.kind === 'decided')
      await recordAdminAction(db, user, 'kyc.approved', { type: 'kyc', id: params.id }, now);
    return answerDecision(outcome, 'approved');
  });

  route('/admin/kyc/{id}/reject', 'post', async ({ user, params, body }, { db, clock }) => {
    const reason = body.reason.trim();
    if (!reason) return invalid('/body/reason', 'must not be blank');
    const now = clock.now();
    const outcome = await decideKyc(db, params.id, user.id, { kind: 'reject', reason }, now);
    if (outcome.kind === 'decided') {
      await recordAdminAction(db, user, 'kyc.rejected', { type: 'kyc', id: params.id, detail: reason }, now);
    }
    return answerDecision(outcome, 'rejected');
  });
}

/** A decision's answer: the submission as decided; 409 saying how when it was decided before (by anyone). */
function answerDecision(outcome: KycDecisionOutcome, done: 'approved' | 'rejected') {
  switch (outcome.kind) {
    case 'not_found':
      return SUBMISSION_NOT_FOUND;
    case 'already':
      return conflict(
        `This KYC submission was already ${outcome.submission.status}${outcome.submission.decided_at ? ` at ${outcome.submission.decided_at}` : ''}; it cannot be ${done} now.`,
      );
    case 'decided':
      return {
        status: 200 as const,
        body: { success: true as const, message: `KYC ${done}.`, data: outcome.submission },
      };
  }
}
