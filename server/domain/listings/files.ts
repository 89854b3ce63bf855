import type { Db } from '../../db/database';
import { HttpError } from '../../http/errors';
import { writeLogs } from './logs';
import {
  type Actor,
  findListingRow,
  findMyListing,
  type ListingFile,
  type ListingSale,
  lockListings,
  notFound,
} from './rows';
import { type CurrencyCode, MAX_FILES_PER_LISTING } from './rules';

const iso = (d: Date) => d.toISOString();

// A listing's ticket files and its history of sales.

export async function listingFiles(db: Db, id: number): Promise<ListingFile[]> {
  const rows = await db
    .selectFrom('listing_files')
    .innerJoin('files', 'files.id', 'listing_files.file_id')
    .select(['files.id', 'files.original_name', 'files.kind', 'files.size', 'listing_files.created_at'])
    .where('listing_files.listing_id', '=', id)
    .orderBy('listing_files.created_at')
    .orderBy('files.id')
    .execute();
  return rows.map((r) => ({
    file_id: r.id,
    name: r.original_name,
    kind: r.kind,
    size: Number(r.size),
    created_at: r.created_at,
  }));
}

/** Attaches stored files (rows of `files`, this call's) to one of the seller's listings. */
export async function attachFiles(
  db: Db,
  actor: Actor,
  id: number,
  files: { id: string; originalName: string }[],
  now: Date,
) {
  await lockListings(db, [id]);
  const row = await findListingRow(db, actor.sellerId, id);
  if (!row) throw notFound();
  const have = Number(
    (
      await db
        .selectFrom('listing_files')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('listing_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );
  if (have + files.length > MAX_FILES_PER_LISTING) {
    throw new HttpError(
      409,
      `A listing holds at most ${MAX_FILES_PER_LISTING} files; this one has ${have}, so at most ${Math.max(0, MAX_FILES_PER_LISTING - have)} more.`,
    );
  }
  if (files.length === 0) return listingFiles(db, id);
  const at = iso(now);
  await db
    .insertInto('listing_files')
    .values(files.map((f) => ({ listing_id: id, file_id: f.id, created_at: at })))
    .execute();
  await db.updateTable('listings').set({ updated_at: at }).where('id', '=', id).execute();
  await writeLogs(
    db,
    actor,
    [
      {
        listing_id: id,
        action: 'files_uploaded',
        field: 'files',
        old_value: String(have),
        new_value: files.map((f) => f.originalName || 'file').join(', '),
      },
    ],
    now,
  );
  return listingFiles(db, id);
}

export async function listingHistory(db: Db, sellerId: number, id: number, now: Date) {
  const ticket = await findMyListing(db, sellerId, id, now);
  const [sales, files] = await Promise.all([
    db
      .selectFrom('orders')
      .select(['id', 'booking_no', 'quantity', 'amount', 'currency', 'status', 'created_at'])
      .where('listing_id', '=', id)
      .where('seller_id', '=', sellerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1000)
      .execute(),
    listingFiles(db, id),
  ]);
  return {
    ticket,
    sales: sales.map(
      (o): ListingSale => ({
        order_id: o.id,
        booking_no: o.booking_no,
        quantity: o.quantity,
        amount: Number(o.amount),
        currency: o.currency as CurrencyCode,
        status: o.status,
        created_at: o.created_at,
      }),
    ),
    files,
  };
}
