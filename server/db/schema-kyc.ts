import type { ColumnType, Generated } from 'kysely';

// The KYC tables (server/domain/kyc.ts): the documents, the submissions and the seller contract's signing.
// A part of server/db/schema.ts's Database.

export type KycDocumentKind = 'photo_id' | 'address_proof' | 'business' | 'seller_contract';

/** The document of each kind a seller has saved for KYC (migration 0016); a new upload replaces it. */
export interface KycDocumentTable {
  seller_id: number;
  kind: KycDocumentKind;
  file_id: string;
  uploaded_at: string;
}

/** A KYC submission (migration 0016): the files as submitted, then approved or rejected by the back office. */
export interface KycSubmissionTable {
  id: Generated<number>;
  seller_id: number;
  account_type: 'individual' | 'company';
  status: 'submitted' | 'approved' | 'rejected';
  photo_id_file: string;
  address_proof_file: string;
  business_file: string | null;
  seller_contract_file: string;
  rejection_reason: ColumnType<string | null, string | null | undefined, string | null>;
  decided_by: ColumnType<number | null, number | null | undefined, number | null>;
  decided_at: ColumnType<string | null, string | null | undefined, string | null>;
  submitted_at: string;
}

/** A signing request of the seller contract through the e-signature port (migration 0016). */
export interface ESignRequestTable {
  id: Generated<number>;
  seller_id: number;
  provider: 'sandbox' | 'zoho';
  provider_request_id: string;
  provider_action_id: string | null;
  status: 'pending' | 'signed';
  signer_name: ColumnType<string | null, string | null | undefined, string | null>;
  signed_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}

/** The local sandbox signer's own documents (server/esign/sandbox.ts, migration 0016). */
export interface ESignSandboxDocumentTable {
  id: string;
  signer_email: string;
  contract_text: string;
  signer_name: ColumnType<string | null, string | null | undefined, string | null>;
  signed_at: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
}
