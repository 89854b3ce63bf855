import { randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { blockedMessage, erasureBlockers } from './erasure-rules';
import { replaceEverywhere } from './scrub';

export const ERASED_NAME = 'Erased account';
export const ERASURE_PAGE = 20;
/** The address an erased account keeps (the column is unique): nobody's, on a reserved domain. */
export const erasedAddress = (userId: number) => `erased-${userId}@erased.invalid`;
/** No password hashes to it: the login's parser refuses it before any work. */
const NO_PASSWORD = '!erased';

export type ErasureRow = {
  id: number;
  seller_id: number;
  status: 'requested' | 'erased' | 'rejected';
  requested_at: string;
  rejection_reason: string | null;
  decided_at: string | null;
};

const latestOf = (db: Db, sellerId: number) =>
  db
    .selectFrom('erasure_requests')
    .select(['id', 'seller_id', 'status', 'requested_at', 'rejection_reason', 'decided_at'])
    .where('seller_id', '=', sellerId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/** What Settings shows: the latest request (none when never asked) and what stands in the way now. */
export async function erasureStatus(db: Db, sellerId: number) {
  const latest = await latestOf(db, sellerId);
  return {
    status: (latest?.status === 'requested' || latest?.status === 'rejected' ? latest.status : 'none') as
      | 'none'
      | 'requested'
      | 'rejected',
    requested_at: latest?.requested_at ?? null,
    rejection_reason: latest?.status === 'rejected' ? latest.rejection_reason : null,
    blockers: await erasureBlockers(db, sellerId),
  };
}

export type RequestOutcome = { kind: 'blocked'; message: string } | { kind: 'requested' };

/** The owner asks: refused while money is held or owed; a request already waiting is answered again. */
export async function requestErasure(db: Db, clock: Clock, sellerId: number): Promise<RequestOutcome> {
  const blockers = await erasureBlockers(db, sellerId);
  if (blockers.length > 0) return { kind: 'blocked', message: blockedMessage(blockers) };
  const now = clock.now().toISOString();
  const waiting = await db
    .selectFrom('erasure_requests')
    .select('id')
    .where('seller_id', '=', sellerId)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  if (!waiting) {
    await db
      .insertInto('erasure_requests')
      .values({ seller_id: sellerId, status: 'requested', requested_at: now })
      .execute();
  }
  return { kind: 'requested' };
}

/** A row of the back office's queue: the person while it waits, nobody once erased. */
export async function adminErasureView(db: Db, row: ErasureRow) {
  const user =
    row.status === 'erased'
      ? undefined
      : await db
          .selectFrom('users')
          .select(['first_name', 'last_name', 'email'])
          .where('id', '=', row.seller_id)
          .executeTakeFirst();
  return {
    id: row.id,
    status: row.status,
    name: user ? `${user.first_name} ${user.last_name}`.trim() : ERASED_NAME,
    email: user?.email ?? null,
    requested_at: row.requested_at,
    decided_at: row.decided_at,
    rejection_reason: row.rejection_reason,
    blockers: row.status === 'requested' ? await erasureBlockers(db, row.seller_id) : [],
  };
}

export async function adminErasurePage(db: Db, status: ErasureRow['status'], page: number) {
  const base = db.selectFrom('erasure_requests').where('status', '=', status);
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .select(['id', 'seller_id', 'status', 'requested_at', 'rejection_reason', 'decided_at'])
    .orderBy('requested_at')
    .orderBy('id')
    .limit(ERASURE_PAGE)
    .offset((page - 1) * ERASURE_PAGE)
    .execute();
  const views = [];
  for (const row of rows) views.push(await adminErasureView(db, row));
  return { rows: views, total };
}

export const findErasure = (db: Db, id: number) =>
  db
    .selectFrom('erasure_requests')
    .select(['id', 'seller_id', 'status', 'requested_at', 'rejection_reason', 'decided_at'])
    .where('id', '=', id)
    .executeTakeFirst();

export type DecideOutcome =
  | { kind: 'done'; row: ErasureRow }
  | { kind: 'missing' }
  | { kind: 'conflict'; message: string };

/** The back office rejects, with a reason the owner reads; an erased account cannot be un-erased (409). */
export async function rejectErasure(db: Db, clock: Clock, id: number, adminId: number, reason: string) {
  const taken = await db
    .updateTable('erasure_requests')
    .set({ status: 'rejected', rejection_reason: reason, decided_by: adminId, decided_at: clock.now().toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  const row = await findErasure(db, id);
  if (!row) return { kind: 'missing' } as const;
  if (row.status === 'erased') return { kind: 'conflict', message: 'This account was erased already.' } as const;
  // changed: this call rejected it (not a second click on a rejected one)
  return { kind: 'done', row, changed: Number(taken.numUpdatedRows) > 0 } as const;
}

/**
 * The back office erases the account, in the caller's transaction: refused while money is held or owed; the
 * request is taken by one conditional update (a second admin's click changes nothing); then the person goes
 * (server/domain/account-data/erase-person.ts). Files leave the disk after the rows, `unlinkFiles` by the route.
 */
export async function approveErasure(
  db: Db,
  clock: Clock,
  id: number,
  adminId: number,
): Promise<DecideOutcome & { files?: string[] }> {
  const row = await findErasure(db, id);
  if (!row) return { kind: 'missing' };
  if (row.status === 'erased') return { kind: 'done', row };
  if (row.status === 'rejected')
    return { kind: 'conflict', message: 'This request was rejected; the account may ask again.' };
  const blockers = await erasureBlockers(db, row.seller_id);
  if (blockers.length > 0) return { kind: 'conflict', message: blockedMessage(blockers, 'admin') };
  const now = clock.now().toISOString();
  const taken = await db
    .updateTable('erasure_requests')
    .set({ status: 'erased', decided_by: adminId, decided_at: now })
    .where('id', '=', id)
    .where('status', '=', 'requested')
    .executeTakeFirst();
  if (Number(taken.numUpdatedRows) === 0) return approveErasure(db, clock, id, adminId);
  const files = await erasePerson(db, row.seller_id, now);
  return { kind: 'done', row: { ...row, status: 'erased', decided_at: now }, files };
}

/** Removes files from the uploads folder; one already gone is fine. */
export async function unlinkFiles(dataDir: string, ids: readonly string[]) {
  for (const f of ids) await unlink(join(dataDir, 'uploads', f)).catch(() => {});
}

/**
 * Anonymises the seller and its team members: identity, addresses, cards, bank details, KYC and every uploaded
 * file of theirs, sessions and tokens, and every copy of their addresses in free text. Orders, bookings, payouts
 * and the ledger stay as they are, under the anonymous account, so the accounts stay whole and balanced.
 * Answers the ids of the files to remove from disk.
 */
async function erasePerson(db: Db, sellerId: number, now: string): Promise<string[]> {
  const people = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where((eb) => eb.or([eb('id', '=', sellerId), eb('team_owner_id', '=', sellerId)]))
    .execute();
  const ids = people.map((p) => p.id);
  const emails = people.map((p) => p.email);
  for (const p of people) {
    await db
      .updateTable('users')
      .set({
        email: erasedAddress(p.id),
        first_name: 'Erased',
        last_name: 'account',
        password_hash: NO_PASSWORD,
        user_token: randomBytes(32).toString('hex'),
        phone_dialing_code: null,
        phone_number: null,
        country_id: null,
        city_id: null,
        kyc_rejection_reason: null,
        invited_at: null,
        deleted_at: now,
      })
      .where('id', '=', p.id)
      .execute();
  }
  await db
    .updateTable('auth_tokens')
    .set({ revoked_at: now })
    .where('user_id', 'in', ids)
    .where('revoked_at', 'is', null)
    .execute();
  await db.updateTable('auth_tokens').set({ user_agent: null, client: null }).where('user_id', 'in', ids).execute();
  for (const table of [
    'account_tokens',
    'login_devices',
    'two_factor',
    'two_factor_recovery_codes',
    'two_factor_challenges',
    'activity_log',
    'notifications',
    'recently_viewed',
    'trade_tracking',
    'field_settings',
    'idempotency_keys',
  ] as const) {
    await db.deleteFrom(table).where('user_id', 'in', ids).execute();
  }
  await db.deleteFrom('addresses').where('owner_id', 'in', ids).execute();
  await db.deleteFrom('stored_cards').where('owner_id', 'in', ids).execute();
  for (const table of ['partner_settings', 'seller_contacts', 'feature_requests', 'report_schedules'] as const) {
    await db.deleteFrom(table).where('seller_id', '=', sellerId).execute();
  }
  await db.deleteFrom('referral_codes').where('user_id', 'in', ids).execute();
  await db
    .updateTable('bank_accounts')
    .set({ holder_name: ERASED_NAME, iban: 'ERASED', bic: 'ERASED', deleted_at: now })
    .where('seller_id', '=', sellerId)
    .execute();
  await db.updateTable('bookings').set({ billing: '{}', attendees: '[]' }).where('buyer_id', 'in', ids).execute();
  await db.updateTable('deposits').set({ notes: null }).where('user_id', '=', sellerId).execute();
  await db.deleteFrom('kyc_documents').where('seller_id', '=', sellerId).execute();
  await db.deleteFrom('kyc_submissions').where('seller_id', '=', sellerId).execute();
  await db.deleteFrom('esign_requests').where('seller_id', '=', sellerId).execute();
  await db.deleteFrom('esign_sandbox_documents').where('signer_email', 'in', emails).execute();
  // their uploads: every reference to them first, then the rows (the bytes leave the disk after the commit)
  const files = (await db.selectFrom('files').select('id').where('owner_id', 'in', ids).execute()).map((f) => f.id);
  if (files.length > 0) {
    await db.updateTable('deposits').set({ proof_file_id: null }).where('proof_file_id', 'in', files).execute();
    await db
      .updateTable('orders')
      .set({ instruction_file_id: null })
      .where('instruction_file_id', 'in', files)
      .execute();
    await db.updateTable('order_deliveries').set({ file_id: null }).where('file_id', 'in', files).execute();
    await db.updateTable('additional_templates').set({ file_id: null }).where('file_id', 'in', files).execute();
    await db.deleteFrom('listing_files').where('file_id', 'in', files).execute();
    await db.deleteFrom('files').where('id', 'in', files).execute();
  }
  const mails = db.selectFrom('mail_outbox').select('id').where('to_address', 'in', emails);
  await db.deleteFrom('mail_outbox_attachments').where('mail_id', 'in', mails).execute();
  await db.deleteFrom('mail_outbox').where('to_address', 'in', emails).execute();
  for (const p of people) {
    await replaceEverywhere(db, p.email, erasedAddress(p.id));
    if (p.email !== p.email.toLowerCase()) await replaceEverywhere(db, p.email.toLowerCase(), erasedAddress(p.id));
  }
  return files;
}
