import { type ActorRef, assign, emit, fromPromise, type Snapshot, setup } from 'xstate';
import {
  type BulkCheck,
  type BulkOutcome,
  type BulkPreview,
  type BulkPreviewRow,
  type BulkRowError,
  downloadBulkTemplate,
  previewBulkFile,
  uploadBulkFile,
} from './bulk-upload-api';
import { type NotifyEvent, notifyError } from './notify';

export type { BulkCheck, BulkOutcome, BulkPreview, BulkPreviewRow, BulkRowError };

/** The template's file name when the browser saves it. */
export const TEMPLATE_FILE = 'bulk-listing-template.xlsx';
export const TEMPLATE_FAILED = 'Failed to download the template';

export interface BulkUploadContext {
  file: File | null;
  /** 0 to 100 while the file goes out, else null. */
  progress: number | null;
  /** The server's plan of the file last checked: every row, create, skip or refuse, and why. */
  preview: BulkPreview | null;
  /** The server's report of the last file refused as a whole: every problem by row and column. */
  report: BulkRowError[];
  /** What the confirmed upload did. */
  created: number | null;
  skipped: number;
  leftOut: number;
  /** The refusal's message (the file as a whole, or the report's summary). */
  message: string | null;
}

export type BulkUploadEvent =
  | { type: 'file.chosen'; file: File }
  | { type: 'file.cleared' }
  | { type: 'upload.submitted' }
  | { type: 'upload.progressed'; fraction: number }
  | { type: 'upload.cancelled' }
  | { type: 'preview.confirmed' }
  | { type: 'template.requested' };

export type BulkUploadEmitted = NotifyEvent | { type: 'template.ready'; file: Blob; name: string };

export interface UploadInput {
  file: File;
  /** The bulk actor: the upload tells it how far the file has gone. */
  parent: ActorRef<Snapshot<unknown>, BulkUploadEvent>;
}
export interface ConfirmInput extends UploadInput {
  preview: BulkPreview;
}

const percent = (fraction: number) =>
  Math.floor(Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0)) * 100);

/** A file going out with its progress, then the server at work on it. */
const sendingThenProcessing = (processing: string) => ({
  initial: 'sending' as const,
  states: {
    sending: {
      on: {
        'upload.progressed': [
          { guard: 'isFullySent' as const, target: 'processing', actions: 'storeProgress' as const },
          { actions: 'storeProgress' as const },
        ],
      },
    },
    processing: { description: processing },
  },
});

/**
 * Bulk Inventory (/bulk-listings): the seller downloads the .xlsx template (its columns and drop-down lists come
 * from the catalogue), fills it and uploads it. The file first goes out for its preview: the server says, row by
 * row, what it would create, skip (the template's unchanged examples, tickets already listed) or refuse and why,
 * and writes nothing. Confirm sends the same file again with the preview's digest: the rows to create are created
 * at once (refused ones left out) and the page says how many. A file that cannot be read at all answers its
 * report instead of a preview.
 */
export const bulkUploadMachine = setup({
  types: {
    context: {} as BulkUploadContext,
    events: {} as BulkUploadEvent,
    emitted: {} as BulkUploadEmitted,
  },
  actors: {
    preview: fromPromise<BulkCheck, UploadInput>(({ input, signal }) =>
      previewBulkFile(input.file, signal, (fraction) => input.parent.send({ type: 'upload.progressed', fraction })),
    ),
    upload: fromPromise<BulkOutcome, ConfirmInput>(({ input, signal }) =>
      uploadBulkFile(input.file, input.preview, signal, (fraction) =>
        input.parent.send({ type: 'upload.progressed', fraction }),
      ),
    ),
    downloadTemplate: fromPromise<Blob>(({ signal }) => downloadBulkTemplate(signal)),
  },
  guards: {
    isPreview: (_, check: BulkCheck) => check.kind === 'preview',
    isCreated: (_, outcome: BulkOutcome) => outcome.kind === 'created',
    isFullySent: ({ event }) => event.type === 'upload.progressed' && event.fraction >= 1,
    hasRowsToCreate: ({ context }) => (context.preview?.to_create ?? 0) > 0,
  },
  actions: {
    chooseFile: assign({
      file: ({ event }) => (event.type === 'file.chosen' ? event.file : null),
      preview: null,
      message: null,
    }),
    clearFile: assign({ file: null, preview: null, message: null }),
    startProgress: assign({ progress: 0 }),
    storeProgress: assign({
      progress: ({ context, event }) =>
        event.type === 'upload.progressed'
          ? Math.max(context.progress ?? 0, percent(event.fraction))
          : context.progress,
    }),
    storePreview: assign((_, check: BulkCheck) => ({
      preview: check.kind === 'preview' ? check.preview : null,
      created: null,
      report: [],
      message: null,
    })),
    storeCreated: assign((_, outcome: BulkOutcome) => ({
      created: outcome.kind === 'created' ? outcome.created : null,
      skipped: outcome.kind === 'created' ? outcome.skipped : 0,
      leftOut: outcome.kind === 'created' ? outcome.leftOut : 0,
      preview: null,
      report: [],
      message: null,
    })),
    storeReport: assign((_, outcome: BulkCheck | BulkOutcome) => ({
      preview: null,
      created: null,
      report: outcome.kind === 'rejected' ? outcome.rows : [],
      message: outcome.kind === 'rejected' ? outcome.message : null,
    })),
    storeFailure: assign((_, error: unknown) => ({
      preview: null,
      message:
        error instanceof Error && error.message
          ? error.message
          : 'An unexpected error occurred. Please try again later.',
    })),
    stopProgress: assign({ progress: null }),
    toastFailure: emit(({ context }) => notifyError(context.message ?? '')),
    announceTemplate: emit((_, file: Blob) => ({ type: 'template.ready' as const, file, name: TEMPLATE_FILE })),
    toastTemplateFailure: emit(notifyError(TEMPLATE_FAILED)),
  },
}).createMachine({
  id: 'bulkUpload',
  context: {
    file: null,
    progress: null,
    preview: null,
    report: [],
    created: null,
    skipped: 0,
    leftOut: 0,
    message: null,
  },
  type: 'parallel',
  states: {
    template: {
      initial: 'idle',
      states: {
        idle: { on: { 'template.requested': 'downloading' } },
        downloading: {
          tags: ['downloadingTemplate'],
          invoke: {
            id: 'downloadTemplate',
            src: 'downloadTemplate',
            onDone: { target: 'idle', actions: { type: 'announceTemplate', params: ({ event }) => event.output } },
            onError: { target: 'idle', actions: 'toastTemplateFailure' },
          },
        },
      },
    },
    upload: {
      initial: 'empty',
      states: {
        empty: { description: 'No file chosen yet: Check file is disabled.' },
        chosen: {
          description: 'A file is chosen: Check file sends it for its preview.',
          on: { 'upload.submitted': 'checking', 'file.cleared': { target: 'empty', actions: 'clearFile' } },
        },
        checking: {
          description: 'The file goes out with its progress, then the server judges every row; nothing is written.',
          tags: ['busy'],
          entry: 'startProgress',
          exit: 'stopProgress',
          ...sendingThenProcessing('Every byte is sent: the server checks every row.'),
          invoke: {
            id: 'preview',
            src: 'preview',
            input: ({ context, self }) => ({ file: context.file as File, parent: self }),
            onDone: [
              {
                guard: { type: 'isPreview', params: ({ event }) => event.output },
                target: 'previewed',
                actions: { type: 'storePreview', params: ({ event }) => event.output },
              },
              { target: 'rejected', actions: { type: 'storeReport', params: ({ event }) => event.output } },
            ],
            onError: {
              target: 'failed',
              actions: [
                { type: 'storeFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
                'toastFailure',
              ],
            },
          },
          on: { 'upload.cancelled': 'chosen' },
        },
        previewed: {
          description:
            'The plan, row by row (create, skip, refuse and why); nothing is written until the seller confirms. ' +
            'Confirm is offered only when some row would be created.',
          tags: ['preview'],
          on: {
            'preview.confirmed': { guard: 'hasRowsToCreate', target: 'importing' },
            'file.cleared': { target: 'empty', actions: 'clearFile' },
          },
        },
        importing: {
          description: 'The same file goes out again with its preview: the rows to create are created in one go.',
          tags: ['busy'],
          entry: 'startProgress',
          exit: 'stopProgress',
          ...sendingThenProcessing('Every byte is sent: the server creates the listings.'),
          invoke: {
            id: 'upload',
            src: 'upload',
            input: ({ context, self }) => ({
              file: context.file as File,
              preview: context.preview as BulkPreview,
              parent: self,
            }),
            onDone: [
              {
                guard: { type: 'isCreated', params: ({ event }) => event.output },
                target: 'imported',
                actions: { type: 'storeCreated', params: ({ event }) => event.output },
              },
              { target: 'rejected', actions: { type: 'storeReport', params: ({ event }) => event.output } },
            ],
            onError: {
              target: 'failed',
              actions: [
                { type: 'storeFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
                'toastFailure',
              ],
            },
          },
          on: { 'upload.cancelled': 'previewed' },
        },
        rejected: {
          description: "The file was refused: nothing was created; the server's report, row by row.",
          tags: ['report'],
        },
        imported: { description: 'The confirmed rows were created in one go; skipped and refused rows were not.' },
        failed: {
          description:
            'The file was refused as a whole (type, size, changed since its preview, a network failure): its ' +
            'message; check it again.',
          tags: ['error'],
          on: { 'upload.submitted': 'checking' },
        },
      },
      on: { 'file.chosen': { target: '.chosen', actions: 'chooseFile' } },
    },
  },
});
