import { type Kysely, sql } from 'kysely';
import { autoId } from './columns';

/**
 * KYC documents with back-office review (issue 13, item 2).
 * - `kyc_documents`: the document of each kind a seller has saved so far (photo ID, proof of address, business
 *   registration, signed seller contract), one per kind: a new upload replaces it. The file is in `files`.
 * - `kyc_submissions`: each submission for approval, with the files as they were submitted (so a replaced
 *   document never changes what an admin reviewed), its status (submitted, approved, rejected), the reason and
 *   who decided. At most one submission per seller is under review (a partial unique index).
 * - `esign_requests`: the seller contract's signing requests through the e-signature port (server/esign), with
 *   the provider's ids; `esign_sandbox_documents` is the local sandbox signer's own store.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('kyc_documents')
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull().references('files.id'))
    .addColumn('uploaded_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('kyc_documents_pk', ['seller_id', 'kind'])
    .execute();

  await db.schema
    .createTable('kyc_submissions')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('account_type', 'varchar(20)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('photo_id_file', 'varchar(64)', (c) => c.notNull().references('files.id'))
    .addColumn('address_proof_file', 'varchar(64)', (c) => c.notNull().references('files.id'))
    .addColumn('business_file', 'varchar(64)', (c) => c.references('files.id'))
    .addColumn('seller_contract_file', 'varchar(64)', (c) => c.notNull().references('files.id'))
    .addColumn('rejection_reason', 'varchar(500)')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id'))
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('submitted_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('kyc_submissions_status')
    .on('kyc_submissions')
    .columns(['status', 'submitted_at', 'id'])
    .execute();
  await db.schema.createIndex('kyc_submissions_seller').on('kyc_submissions').columns(['seller_id', 'id']).execute();
  await db.schema
    .createIndex('kyc_submissions_one_open')
    .on('kyc_submissions')
    .column('seller_id')
    .unique()
    .where(sql.ref('status'), '=', 'submitted')
    .execute();

  await db.schema
    .createTable('esign_requests')
    .addColumn('id', 'integer', autoId(db))
    .addColumn('seller_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('provider_request_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('provider_action_id', 'varchar(100)')
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('signer_name', 'varchar(100)')
    .addColumn('signed_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('esign_requests_seller').on('esign_requests').columns(['seller_id', 'id']).execute();

  await db.schema
    .createTable('esign_sandbox_documents')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('signer_email', 'varchar(255)', (c) => c.notNull())
    .addColumn('contract_text', 'text', (c) => c.notNull())
    .addColumn('signer_name', 'varchar(100)')
    .addColumn('signed_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('esign_sandbox_documents').execute();
  await db.schema.dropTable('esign_requests').execute();
  await db.schema.dropTable('kyc_submissions').execute();
  await db.schema.dropTable('kyc_documents').execute();
}
