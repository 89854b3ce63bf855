import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import { textPdf } from './pdf';
import type { ESign, ESignStatus } from './port';

/**
 * The local sandbox signer, the default adapter when Zoho Sign is not configured: works offline, keeps its
 * documents in the database (so every server process on one database agrees), and is signed by the seller
 * typing a full name in the page. Its signed PDF says it is a sandbox signature, not a qualified one.
 */
export interface SandboxESign extends ESign {
  readonly provider: 'sandbox';
  /** The seller signs by typing a name; signing a signed document again changes nothing. */
  sign(db: Db, requestId: string, signerName: string, now: Date): Promise<ESignStatus>;
}

export const sandboxESign: SandboxESign = {
  provider: 'sandbox',
  async create(db, signer, contractText, now) {
    const id = `sbx_${randomBytes(16).toString('hex')}`;
    await db
      .insertInto('esign_sandbox_documents')
      .values({ id, signer_email: signer.email, contract_text: contractText, created_at: now.toISOString() })
      .execute();
    return { requestId: id, actionId: null };
  },
  async signUrl() {
    return null;
  },
  async status(db, requestId) {
    const row = await db
      .selectFrom('esign_sandbox_documents')
      .select(['signer_name', 'signed_at'])
      .where('id', '=', requestId)
      .executeTakeFirst();
    return { signed: Boolean(row?.signed_at), signerName: row?.signer_name ?? null, signedAt: row?.signed_at ?? null };
  },
  async sign(db, requestId, signerName, now) {
    // one conditional update: a second signature (a double click, a replay) keeps the first
    await db
      .updateTable('esign_sandbox_documents')
      .set({ signer_name: signerName, signed_at: now.toISOString() })
      .where('id', '=', requestId)
      .where('signed_at', 'is', null)
      .execute();
    return this.status(db, requestId);
  },
  async signedPdf(db, requestId) {
    const row = await db
      .selectFrom('esign_sandbox_documents')
      .selectAll()
      .where('id', '=', requestId)
      .executeTakeFirst();
    if (!row?.signed_at) throw new Error(`sandbox document ${requestId} is not signed`);
    return textPdf([
      ...row.contract_text.split('\n'),
      '',
      `Signed electronically by ${row.signer_name} (${row.signer_email}) on ${row.signed_at}.`,
      `Sandbox signer of SB Portal, document ${row.id}: a test signature, not a qualified electronic signature.`,
    ]);
  },
};
