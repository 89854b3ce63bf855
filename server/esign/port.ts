import type { Db } from '../db/database';

export type ESignProviderName = 'sandbox' | 'zoho';

export interface ESignSigner {
  name: string;
  email: string;
}

/** What the provider says of a signing request. */
export interface ESignStatus {
  signed: boolean;
  signerName: string | null;
  signedAt: string | null;
}

/**
 * The e-signature port: the seller contract is signed through it. Adapters: `sandbox` (the default, local and
 * offline: the seller types a name in the page) and `zoho` (Zoho Sign's API, embedded signing in an iframe).
 * Every method may throw ESignUnavailable when the provider cannot be reached or answers an error.
 */
export interface ESign {
  readonly provider: ESignProviderName;
  /** Makes a signing request of the contract for this signer; answers the provider's ids. */
  create(
    db: Db,
    signer: ESignSigner,
    contractText: string,
    now: Date,
  ): Promise<{ requestId: string; actionId: string | null }>;
  /** Where the signer signs, for an iframe (Zoho's embed URL for `host`); null when the page signs itself (sandbox). */
  signUrl(requestId: string, actionId: string | null, host: string): Promise<string | null>;
  status(db: Db, requestId: string): Promise<ESignStatus>;
  /** The signed PDF (only once signed). */
  signedPdf(db: Db, requestId: string): Promise<Buffer>;
}

/** The provider could not be reached or answered an error: the call answers 502 and nothing changes. */
export class ESignUnavailable extends Error {
  constructor(detail: string) {
    super(`e-signature provider: ${detail}`);
    this.name = 'ESignUnavailable';
  }
}
