import { ApiError, api, type DataOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { upload } from '../openapi/upload';
import { requestKeys } from './listings-api';

export type BulkRowError = components['schemas']['BulkRowError'];
export type BulkPreviewRow = components['schemas']['BulkPreviewRow'];
export type BulkPreview = DataOf<'/bulk-listing/preview', 'post'>;

/** What the server made of a file: its plan row by row, or the file refused as a whole (its report). */
export type BulkCheck =
  | { kind: 'preview'; preview: BulkPreview }
  | { kind: 'rejected'; rows: BulkRowError[]; message: string };
export type BulkOutcome =
  | { kind: 'created'; created: number; skipped: number; leftOut: number }
  | { kind: 'rejected'; rows: BulkRowError[]; message: string };

const bulkKeys = requestKeys();

const reportOf = (body: unknown): BulkRowError[] =>
  body && typeof body === 'object' && 'report' in body && Array.isArray(body.report)
    ? (body.report as BulkRowError[])
    : [];

/** A 422 with a row report is an outcome the page shows; any other refusal throws. */
function rejection(error: unknown): { kind: 'rejected'; rows: BulkRowError[]; message: string } {
  if (error instanceof ApiError && error.status === 422) {
    const rows = reportOf(error.body);
    // a 422 without rows is about the request as a whole: its field errors say what
    if (rows.length > 0) return { kind: 'rejected', rows, message: error.message };
    const first = error.errors[0]?.message;
    throw new ApiError(422, first ? `${error.message} ${first}` : error.message, error.errors, error.body);
  }
  throw error;
}

/** Sends the spreadsheet for its preview: nothing is written on the server. */
export async function previewBulkFile(
  file: File,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<BulkCheck> {
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    const preview = await upload('/bulk-listing/preview', form, {
      signal,
      onProgress: ({ fraction }) => onProgress(fraction),
    });
    return { kind: 'preview', preview };
  } catch (error) {
    return rejection(error);
  }
}

/**
 * Confirms a preview: sends the same file with the preview's digest (a file changed since is refused, 409) and,
 * when the preview refused rows, asks for them to be left out.
 */
export async function uploadBulkFile(
  file: File,
  preview: Pick<BulkPreview, 'sha256' | 'to_refuse'>,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<BulkOutcome> {
  const form = new FormData();
  form.append('preview_sha256', preview.sha256);
  if (preview.to_refuse > 0) form.append('leave_refused', 'true');
  form.append('file', file, file.name);
  try {
    const data = await upload('/bulk-listing/upload-excel-tickets', form, {
      idempotencyKey: bulkKeys.keyFor([file, preview.sha256]),
      signal,
      onProgress: ({ fraction }) => onProgress(fraction),
    });
    bulkKeys.succeeded();
    return { kind: 'created', created: data.created, skipped: data.skipped, leftOut: data.left_out };
  } catch (error) {
    return rejection(error);
  }
}

export async function downloadBulkTemplate(signal: AbortSignal): Promise<Blob> {
  const data = unwrap(await api.GET('/bulk-listing/template', { signal }));
  const bytes = Uint8Array.from(atob(data.content_base64), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: data.mime });
}
