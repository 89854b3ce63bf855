import type { AuthUser } from '../auth/session';
import type { Router } from '../contract/router';
import type { Db } from '../db/database';
import { readCsv, readXlsx } from '../domain/listings/bulk';
import { BulkFileError, type BulkRowError, COLUMNS, MAX_REPORT } from '../domain/listings/bulk-columns';
import { type PlannedRow, planUpload, refusalsOf, type UploadPlan } from '../domain/listings/bulk-plan';
import { templateWorkbook } from '../domain/listings/bulk-template';
import type { NewListing } from '../domain/listings/checks';
import { createListings } from '../domain/listings/commands';
import { sellerIdOf } from '../domain/sales/totals';
import { HttpError, MESSAGES } from '../http/errors';
import type { StoredFile } from '../http/multipart';
import { removeFiles } from '../http/multipart';
import { badFileName } from './wallet';

const invalid = (path: string, message: string) => new HttpError(422, MESSAGES.validation, [{ path, message }]);
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;

/** A 422 with the report of the rows (or the file) refused. */
const refused = (report: BulkRowError[], rowsTotal: number, what = 'nothing was created') => ({
  status: 422 as const,
  body: {
    success: false as const,
    message: `${plural(report.length, 'problem')} in the file; ${what}. Fix the rows and upload it again.`,
    errors: [],
    report: report.slice(0, MAX_REPORT),
    error_count: report.length,
    rows_total: rowsTotal,
  },
});

/** The one spreadsheet of a bulk call, its name checked. */
function theFile(files: Record<string, StoredFile[] | undefined>): StoredFile {
  const file = files.file?.[0];
  if (!file) throw invalid('/body/file', 'is required');
  const problem = badFileName(file.clientName);
  if (problem) throw invalid('/body/file', problem);
  return file;
}

/** Reads and plans the file: the plan, or the file's own refusal (unreadable, too big). */
async function planOf(db: Db, user: AuthUser, file: StoredFile, now: Date): Promise<UploadPlan> {
  try {
    const parsed = file.kind === 'xlsx' ? await readXlsx(file.path) : await readCsv(file.path);
    return await planUpload(db, sellerIdOf(user), parsed, now);
  } catch (error) {
    if (!(error instanceof BulkFileError)) throw error;
    return { fileErrors: [{ row: 1, column: '', value: '', message: error.message }], rows: [], matches: new Map() };
  }
}

/** A call that keeps nothing: the file's record (written by the router in this transaction) and the file go. */
async function forget(db: Db, file: StoredFile) {
  await db.deleteFrom('files').where('id', '=', file.id).execute();
  removeFiles([file]);
}

function previewRow(r: PlannedRow, plan: UploadPlan) {
  const l = r.listing;
  const match = l ? plan.matches.get(l.match_id) : undefined;
  return {
    row: r.row,
    action: r.action,
    reasons: r.reasons.slice(0, 20),
    ...(match ? { match: `${match.name}, ${match.event_date}`.slice(0, 300) } : {}),
    ...(l
      ? {
          category: l.category,
          ticket_block: l.ticket_block,
          seat_row: l.row,
          quantity: l.quantity,
          price: l.price,
          currency: l.currency,
        }
      : {}),
    ...(r.listingId === undefined ? {} : { listing_id: r.listingId }),
  };
}

/**
 * Bulk Inventory's calls: the template, the preview (what an upload of a file would do, row by row, writing
 * nothing) and the upload that carries a plan out, all in one transaction.
 */
export function bulkUploadRoutes({ route }: Router) {
  route('/bulk-listing/template', 'get', async (_input, { db, clock }) => {
    const file = await templateWorkbook(db, clock.now());
    return {
      status: 200,
      body: {
        success: true,
        data: {
          name: 'bulk-listing-template.xlsx',
          mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          size: file.length,
          columns: COLUMNS.map((c) => c.header),
          content_base64: file.toString('base64'),
        },
      },
    };
  });

  route('/bulk-listing/preview', 'post', async ({ user, files }, { db, clock }) => {
    const file = theFile(files);
    const plan = await planOf(db, user, file, clock.now());
    await forget(db, file);
    if (plan.fileErrors.length > 0) return refused(plan.fileErrors, 0, 'nothing can be listed from it');
    const count = (a: PlannedRow['action']) => plan.rows.filter((r) => r.action === a).length;
    const [create, skip, refuse] = [count('create'), count('skip'), count('refuse')];
    return {
      status: 200,
      body: {
        success: true,
        message: `${plural(create, 'listing')} to create, ${plural(skip, 'row')} skipped, ${plural(refuse, 'row')} refused.`,
        data: {
          sha256: file.sha256,
          rows_total: plan.rows.length,
          to_create: create,
          to_skip: skip,
          to_refuse: refuse,
          rows: plan.rows.map((r) => previewRow(r, plan)),
        },
      },
    };
  });

  route('/bulk-listing/upload-excel-tickets', 'post', async ({ user, body, files }, { db, clock }) => {
    const file = theFile(files);
    if (body.preview_sha256 !== undefined && body.preview_sha256 !== file.sha256) {
      throw new HttpError(
        409,
        'The file has changed since its preview: check it again, then confirm what the new preview shows.',
      );
    }
    const now = clock.now();
    const plan = await planOf(db, user, file, now);
    const refusals = refusalsOf(plan);
    const leaveRefused = body.leave_refused === true && plan.fileErrors.length === 0;
    if (refusals.length > 0 && !leaveRefused) return refused(refusals, plan.rows.length);
    const toCreate = plan.rows.filter((r) => r.action === 'create').map((r) => r.listing as NewListing);
    const skipped = plan.rows.filter((r) => r.action === 'skip').length;
    const leftOut = plan.rows.filter((r) => r.action === 'refuse').length;
    const dryRun = body.dry_run === true;
    // a dry run keeps nothing, nor does a file of which nothing is listed
    if (dryRun || toCreate.length === 0) await forget(db, file);
    const ids = dryRun ? [] : await createListings(db, { sellerId: sellerIdOf(user), userId: user.id }, toCreate, now);
    const rest = [
      skipped > 0 ? `${plural(skipped, 'row')} skipped` : '',
      leftOut > 0 ? `${plural(leftOut, 'refused row')} left out` : '',
    ].filter(Boolean);
    const tail = rest.length > 0 ? ` (${rest.join(', ')})` : '';
    return {
      status: 200,
      body: {
        success: true,
        message: dryRun
          ? `${plural(toCreate.length, 'row')} would be listed${tail}.`
          : `${plural(ids.length, 'listing')} created${tail}.`,
        data: {
          dry_run: dryRun,
          rows_total: plan.rows.length,
          created: ids.length,
          skipped,
          left_out: leftOut,
          ticket_ids: ids,
        },
      },
    };
  });
}
