import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Selectable } from 'kysely';
import type { components } from '../../openapi/schema';
import type { Db } from '../db/database';
import type { KycDocumentKind, KycSubmissionTable } from '../db/schema-kyc';
import type { ESign } from '../esign/port';
import type { SandboxESign } from '../esign/sandbox';
import { nameForKind } from '../http/file-names';

export type KycDocument = components['schemas']['KycDocument'];
export type KycSubmission = components['schemas']['KycSubmission'];
export type KycAccountType = components['schemas']['KycAccountType'];
export type AdminKycSubmission = components['schemas']['AdminKycSubmission'];
export type KycSubmissionStatus = components['schemas']['KycSubmissionStatus'];
export type ESignRequest = components['schemas']['ESignRequest'];
export type { KycDocumentKind };

/** The documents every submission needs; a company also sends its business registration. */
export const REQUIRED_DOCUMENTS: readonly KycDocumentKind[] = ['photo_id', 'address_proof', 'seller_contract'];
const KINDS: readonly KycDocumentKind[] = ['photo_id', 'address_proof', 'business', 'seller_contract'];

/** The text of the seller contract the seller signs (the Zoho Sign template holds the same text). */
export const SELLER_CONTRACT_TEXT = [
  'SB Portal seller agreement',
  '',
  '1. The seller lists only tickets it holds or will hold in time for delivery, at the price it sets.',
  '2. The seller delivers each sold ticket by its delivery deadline, by the method of its ticket type.',
  '3. A sale the seller cannot honour is cancelled or replaced; the buyer is refunded or given other tickets.',
  '4. The seller is paid its payout for each completed sale, less any fees agreed, to its bank account.',
  '5. The seller keeps its account details, identity documents and bank details true and up to date.',
  '6. SB Portal may hold or end the account of a seller who breaks this agreement or the law.',
].join('\n');

export const KYC_MESSAGES = {
  underReview: 'Your documents are under review; they cannot be changed now.',
  approved: 'Your identity is already verified.',
  notSigned: 'The contract is not signed yet.',
  notFound: 'KYC submission not found.',
  requestNotFound: 'Signing request not found.',
} as const;

type FileRow = { id: string; original_name: string; mime: string; size: number | string; kind: string };

const documentOf = (kind: KycDocumentKind, file: FileRow, uploadedAt: string): KycDocument => ({
  kind,
  // named by the kind its bytes showed, whatever name an older row kept (`poly.html` for a PDF)
  name: nameForKind(file.original_name, file.kind),
  mime: file.mime,
  size: Number(file.size),
  uploaded_at: uploadedAt,
});

async function filesById(db: Db, ids: readonly string[]): Promise<Map<string, FileRow & { created_at: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('files')
    .select(['id', 'original_name', 'mime', 'size', 'kind', 'created_at'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

async function latestSubmission(db: Db, sellerId: number) {
  return db
    .selectFrom('kyc_submissions')
    .selectAll()
    .where('seller_id', '=', sellerId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The documents a seller has saved so far, by kind. */
async function savedDocuments(db: Db, sellerId: number) {
  const rows = await db
    .selectFrom('kyc_documents')
    .innerJoin('files', 'files.id', 'kyc_documents.file_id')
    .select([
      'kyc_documents.kind',
      'kyc_documents.uploaded_at',
      'files.id',
      'files.original_name',
      'files.mime',
      'files.size',
      'files.kind as file_kind',
    ])
    .where('kyc_documents.seller_id', '=', sellerId)
    .execute();
  return new Map(rows.map((r) => [r.kind, r]));
}

/**
 * Whether the seller may change its documents now: not while a submission is under review, nor once approved.
 * Answers the refusal's message, or null.
 */
export async function lockedReason(db: Db, sellerId: number): Promise<string | null> {
  const user = await db.selectFrom('users').select('kyc_status').where('id', '=', sellerId).executeTakeFirst();
  if (user?.kyc_status === 1) return KYC_MESSAGES.approved;
  const latest = await latestSubmission(db, sellerId);
  return latest?.status === 'submitted' ? KYC_MESSAGES.underReview : null;
}

/** Where a seller's KYC stands, with the documents saved so far (what the KYC page shows). */
export async function kycOf(db: Db, sellerId: number, esign: ESign): Promise<KycSubmission> {
  const user = await db
    .selectFrom('users')
    .select(['kyc_status', 'kyc_rejection_reason'])
    .where('id', '=', sellerId)
    .executeTakeFirstOrThrow();
  const latest = await latestSubmission(db, sellerId);
  const saved = await savedDocuments(db, sellerId);
  const documents = Object.fromEntries(
    KINDS.map((kind) => {
      const row = saved.get(kind);
      return [kind, row ? documentOf(kind, row, row.uploaded_at) : null];
    }),
  ) as KycSubmission['documents'];
  const state: KycSubmission['state'] =
    user.kyc_status === 1
      ? 'approved'
      : latest?.status === 'submitted'
        ? 'submitted'
        : latest?.status === 'rejected' || user.kyc_status === 2
          ? 'rejected'
          : saved.size > 0
            ? 'draft'
            : 'not_started';
  return {
    state,
    account_type: latest?.account_type ?? null,
    submission_id: latest?.id ?? null,
    submitted_at: latest?.submitted_at ?? null,
    decided_at: latest?.decided_at ?? null,
    rejection_reason: state === 'rejected' ? (latest?.rejection_reason ?? user.kyc_rejection_reason ?? null) : null,
    documents,
    esign_provider: esign.provider,
  };
}

/** Keeps an uploaded file (already in `files`, in this transaction) as the seller's document of that kind. */
export async function saveDocument(
  db: Db,
  sellerId: number,
  kind: KycDocumentKind,
  fileId: string,
  now: Date,
): Promise<KycDocument> {
  const at = now.toISOString();
  await db
    .insertInto('kyc_documents')
    .values({ seller_id: sellerId, kind, file_id: fileId, uploaded_at: at })
    .onConflict((oc) => oc.columns(['seller_id', 'kind']).doUpdateSet({ file_id: fileId, uploaded_at: at }))
    .execute();
  const file = (await filesById(db, [fileId])).get(fileId);
  if (!file) throw new Error(`file ${fileId} vanished inside its own transaction`);
  return documentOf(kind, file, at);
}

function fileContent(dataDir: string, kind: KycDocumentKind, file: FileRow, uploadedAt: string) {
  // the row commits with the file (the router's upload hook): a file missing on disk is a fault, not a 404
  const bytes = readFileSync(join(dataDir, 'uploads', file.id));
  return { ...documentOf(kind, file, uploadedAt), content_base64: bytes.toString('base64') };
}

/** The seller's own document of a kind with its content, or null when none is saved. */
export async function documentFile(db: Db, dataDir: string, sellerId: number, kind: KycDocumentKind) {
  const row = (await savedDocuments(db, sellerId)).get(kind);
  return row ? fileContent(dataDir, kind, row, row.uploaded_at) : null;
}

export type SubmitOutcome =
  | { kind: 'submitted' }
  | { kind: 'missing'; documents: KycDocumentKind[] }
  | { kind: 'locked'; message: string };

const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e?.code === '23505' || String(e?.code ?? '').startsWith('SQLITE_CONSTRAINT');
};

/**
 * Submits the saved documents for approval: a snapshot of their files, under review until an admin decides.
 * A rejected seller's hold stays (kyc_status 0 again: not approved, the old reason gone).
 */
export async function submitKyc(
  db: Db,
  sellerId: number,
  accountType: KycAccountType,
  now: Date,
): Promise<SubmitOutcome> {
  const locked = await lockedReason(db, sellerId);
  if (locked) return { kind: 'locked', message: locked };
  const saved = await savedDocuments(db, sellerId);
  const needed = accountType === 'company' ? [...REQUIRED_DOCUMENTS, 'business' as const] : REQUIRED_DOCUMENTS;
  const missing = needed.filter((kind) => !saved.has(kind));
  if (missing.length > 0) return { kind: 'missing', documents: missing };
  const fileOf = (kind: KycDocumentKind) => saved.get(kind)?.id as string;
  try {
    await db
      .insertInto('kyc_submissions')
      .values({
        seller_id: sellerId,
        account_type: accountType,
        status: 'submitted',
        photo_id_file: fileOf('photo_id'),
        address_proof_file: fileOf('address_proof'),
        business_file: accountType === 'company' ? fileOf('business') : null,
        seller_contract_file: fileOf('seller_contract'),
        submitted_at: now.toISOString(),
      })
      .execute();
  } catch (error) {
    // a second submission racing this one (the partial unique index allows one under review per seller)
    if (isUniqueViolation(error)) return { kind: 'locked', message: KYC_MESSAGES.underReview };
    throw error;
  }
  await db
    .updateTable('users')
    .set({ kyc_status: 0, kyc_rejection_reason: null })
    .where('id', '=', sellerId)
    .where('kyc_status', '<>', 1)
    .execute();
  return { kind: 'submitted' };
}

type SubmissionRow = Selectable<KycSubmissionTable>;
const SUBMISSION_FILES = {
  photo_id: 'photo_id_file',
  address_proof: 'address_proof_file',
  business: 'business_file',
  seller_contract: 'seller_contract_file',
} as const satisfies Record<KycDocumentKind, keyof KycSubmissionTable>;

async function adminSubmissionsOf(db: Db, rows: readonly SubmissionRow[]): Promise<AdminKycSubmission[]> {
  const fileIds = rows.flatMap((r) => KINDS.map((k) => r[SUBMISSION_FILES[k]]).filter((id): id is string => !!id));
  const files = await filesById(db, fileIds);
  const sellers = rows.length
    ? await db
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name'])
        .where(
          'id',
          'in',
          rows.map((r) => r.seller_id),
        )
        .execute()
    : [];
  const sellerOf = new Map(sellers.map((s) => [s.id, s]));
  return rows.map((r) => {
    const seller = sellerOf.get(r.seller_id);
    return {
      id: r.id,
      seller_id: r.seller_id,
      seller_name: `${seller?.first_name ?? ''} ${seller?.last_name ?? ''}`.trim(),
      seller_email: seller?.email ?? '',
      account_type: r.account_type,
      status: r.status,
      submitted_at: r.submitted_at,
      decided_at: r.decided_at,
      rejection_reason: r.rejection_reason,
      documents: KINDS.flatMap((kind) => {
        const id = r[SUBMISSION_FILES[kind]];
        const file = id ? files.get(id) : undefined;
        return file ? [documentOf(kind, file, file.created_at)] : [];
      }),
    };
  });
}

export async function findAdminSubmission(db: Db, id: number): Promise<AdminKycSubmission | undefined> {
  const row = await db.selectFrom('kyc_submissions').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? (await adminSubmissionsOf(db, [row]))[0] : undefined;
}

/** The back office's queue: every seller's submissions in one status, oldest first. */
export async function adminSubmissionPage(
  db: Db,
  status: KycSubmissionStatus,
  page: { limit: number; offset: number },
): Promise<{ rows: AdminKycSubmission[]; total: number }> {
  const rows = await db
    .selectFrom('kyc_submissions')
    .selectAll()
    .where('status', '=', status)
    .orderBy('submitted_at')
    .orderBy('id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const count = await db
    .selectFrom('kyc_submissions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', status)
    .executeTakeFirst();
  return { rows: await adminSubmissionsOf(db, rows), total: Number(count?.n ?? 0) };
}

/** A submitted document with its content, for the back office; undefined for an unknown submission. */
export async function submissionDocument(db: Db, dataDir: string, id: number, kind: KycDocumentKind) {
  const row = await db.selectFrom('kyc_submissions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const fileId = row[SUBMISSION_FILES[kind]];
  const file = fileId ? (await filesById(db, [fileId])).get(fileId) : undefined;
  return file ? fileContent(dataDir, kind, file, file.created_at) : null;
}

export type KycDecision = { kind: 'approve' } | { kind: 'reject'; reason: string };
export type KycDecisionOutcome =
  | { kind: 'decided'; submission: AdminKycSubmission }
  /** decided before (by another admin, or a second click): nothing changed */
  | { kind: 'already'; submission: AdminKycSubmission }
  | { kind: 'not_found' };

/**
 * Approves or rejects a submission, exactly once: it leaves `submitted` by one conditional update, so of two
 * admins at the same moment one changes it and the other finds it decided. The winner sets the seller's
 * kyc_status (1 releases the hold; 2 holds it with the reason) and tells the seller, in the same transaction.
 */
export async function decideKyc(
  db: Db,
  id: number,
  adminId: number,
  decision: KycDecision,
  now: Date,
): Promise<KycDecisionOutcome> {
  const at = now.toISOString();
  const reason = decision.kind === 'reject' ? decision.reason : null;
  const changed = await db
    .updateTable('kyc_submissions')
    .set({
      status: decision.kind === 'approve' ? 'approved' : 'rejected',
      rejection_reason: reason,
      decided_by: adminId,
      decided_at: at,
    })
    .where('id', '=', id)
    .where('status', '=', 'submitted')
    .returning(['seller_id'])
    .executeTakeFirst();
  if (!changed) {
    const submission = await findAdminSubmission(db, id);
    return submission ? { kind: 'already', submission } : { kind: 'not_found' };
  }
  await db
    .updateTable('users')
    .set({ kyc_status: decision.kind === 'approve' ? 1 : 2, kyc_rejection_reason: reason })
    .where('id', '=', changed.seller_id)
    .execute();
  await db
    .insertInto('notifications')
    .values({
      user_id: changed.seller_id,
      name: decision.kind === 'approve' ? 'kyc_approved' : 'kyc_rejected',
      description:
        decision.kind === 'approve'
          ? 'KYC approved: your identity is verified and the whole portal is open to you.'
          : `KYC rejected: ${reason}`,
      viewed: 0,
      created_at: at,
    })
    .execute();
  const submission = await findAdminSubmission(db, id);
  if (!submission) throw new Error(`KYC submission ${id} vanished inside its own transaction`);
  return { kind: 'decided', submission };
}

// The seller contract's signing requests through the e-signature port.

type SigningRow = {
  id: number;
  provider: 'sandbox' | 'zoho';
  provider_request_id: string;
  provider_action_id: string | null;
  status: 'pending' | 'signed';
  signer_name: string | null;
  signed_at: string | null;
};

export async function findSigning(db: Db, sellerId: number, id: number, esign: ESign) {
  return (await db
    .selectFrom('esign_requests')
    .select(['id', 'provider', 'provider_request_id', 'provider_action_id', 'status', 'signer_name', 'signed_at'])
    .where('id', '=', id)
    .where('seller_id', '=', sellerId)
    .where('provider', '=', esign.provider)
    .executeTakeFirst()) as SigningRow | undefined;
}

const signingOf = (row: SigningRow, signUrl: string | null): ESignRequest => ({
  request_id: row.id,
  provider: row.provider,
  status: row.status,
  sign_url: row.status === 'signed' ? null : signUrl,
  contract_text: SELLER_CONTRACT_TEXT,
  signer_name: row.signer_name,
  signed_at: row.signed_at,
});

/** Refreshes a pending request from the provider; answers it as it stands. */
async function refreshSigning(db: Db, row: SigningRow, esign: ESign): Promise<SigningRow> {
  if (row.status === 'signed') return row;
  const status = await esign.status(db, row.provider_request_id);
  if (!status.signed) return row;
  const signed = {
    ...row,
    status: 'signed' as const,
    signer_name: status.signerName,
    signed_at: status.signedAt,
  };
  await db
    .updateTable('esign_requests')
    .set({ status: 'signed', signer_name: status.signerName, signed_at: status.signedAt })
    .where('id', '=', row.id)
    .execute();
  return signed;
}

/**
 * The seller's signing request of the contract: the latest of the configured provider, or a new one. Answers
 * it with where to sign (Zoho's embed URL for `host`; null with the sandbox, which the page signs).
 */
export async function startSigning(
  db: Db,
  seller: { id: number; name: string; email: string },
  esign: ESign,
  host: string,
  now: Date,
): Promise<ESignRequest> {
  let row = (await db
    .selectFrom('esign_requests')
    .select(['id', 'provider', 'provider_request_id', 'provider_action_id', 'status', 'signer_name', 'signed_at'])
    .where('seller_id', '=', seller.id)
    .where('provider', '=', esign.provider)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()) as SigningRow | undefined;
  if (!row) {
    const created = await esign.create(db, { name: seller.name, email: seller.email }, SELLER_CONTRACT_TEXT, now);
    const { id } = await db
      .insertInto('esign_requests')
      .values({
        seller_id: seller.id,
        provider: esign.provider,
        provider_request_id: created.requestId,
        provider_action_id: created.actionId,
        status: 'pending',
        created_at: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    row = {
      id,
      provider: esign.provider,
      provider_request_id: created.requestId,
      provider_action_id: created.actionId,
      status: 'pending',
      signer_name: null,
      signed_at: null,
    };
  }
  row = await refreshSigning(db, row, esign);
  const url =
    row.status === 'signed' ? null : await esign.signUrl(row.provider_request_id, row.provider_action_id, host);
  return signingOf(row, url);
}

/** Signs a sandbox request by the typed name; undefined when it is not the seller's. */
export async function signSandbox(
  db: Db,
  sellerId: number,
  id: number,
  signerName: string,
  sandbox: SandboxESign,
  now: Date,
): Promise<ESignRequest | undefined> {
  const row = await findSigning(db, sellerId, id, sandbox);
  if (!row) return undefined;
  await sandbox.sign(db, row.provider_request_id, signerName, now);
  return signingOf(await refreshSigning(db, row, sandbox), null);
}

/** The signed PDF of a seller's request: undefined when not the seller's, null while not signed. */
export async function signedContract(
  db: Db,
  sellerId: number,
  id: number,
  esign: ESign,
): Promise<{ row: SigningRow; pdf: Buffer } | null | undefined> {
  const found = await findSigning(db, sellerId, id, esign);
  if (!found) return undefined;
  const row = await refreshSigning(db, found, esign);
  if (row.status !== 'signed') return null;
  return { row, pdf: await esign.signedPdf(db, row.provider_request_id) };
}

/**
 * Keeps a file the server made (the signed contract) as an upload would be kept: under a random name in
 * `<dataDir>/uploads` with its `files` row in the caller's transaction (a rollback leaves the file without a
 * row, which the housekeeping sweeps after an hour).
 */
export async function storeMadeFile(
  db: Db,
  dataDir: string,
  file: { ownerId: number; operationId: string; field: string; name: string; bytes: Buffer },
  now: Date,
): Promise<string> {
  const dir = join(dataDir, 'uploads');
  mkdirSync(dir, { recursive: true });
  const id = randomBytes(16).toString('hex');
  writeFileSync(join(dir, id), file.bytes, { flag: 'wx' });
  await db
    .insertInto('files')
    .values({
      id,
      owner_id: file.ownerId,
      operation_id: file.operationId,
      field: file.field,
      kind: 'pdf',
      mime: 'application/pdf',
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      original_name: file.name,
      created_at: now.toISOString(),
    })
    .execute();
  return id;
}
