import { type ActorRef, assign, emit, fromPromise, type Snapshot, setup } from 'xstate';
import { type BulkOutcome, type BulkRowError, downloadBulkTemplate, uploadBulkFile } from './listings-api';
import { type NotifyEvent, notifyError } from './notify';

export type { BulkOutcome, BulkRowError };

/** The template's file name when the browser saves it. */
export const TEMPLATE_FILE = 'bulk-listing-template.xlsx';
export const TEMPLATE_FAILED = 'Failed to download the template';

export interface BulkUploadContext {
  file: File | null;
  /** 0 to 100 while the file goes out, else null. */
  progress: number | null;
  /** The server's report of the last file refused: every problem by row and column. */
  report: BulkRowError[];
  /** How many listings the last accepted file created. */
  created: number | null;
  /** The refusal's message (the file as a whole, or the report's summary). */
  message: string | null;
}

export type BulkUploadEvent =
  | { type: 'file.chosen'; file: File }
  | { type: 'file.cleared' }
  | { type: 'upload.submitted' }
  | { type: 'upload.progressed'; fraction: number }
  | { type: 'upload.cancelled' }
  | { type: 'template.requested' };

export type BulkUploadEmitted = NotifyEvent | { type: 'template.ready'; file: Blob; name: string };

export interface UploadInput {
  file: File;
  /** The bulk actor: the upload tells it how far the file has gone. */
  parent: ActorRef<Snapshot<unknown>, BulkUploadEvent>;
}

const percent = (fraction: number) =>
  Math.floor(Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0)) * 100);

/**
 * Bulk Inventory (/bulk-listings): the seller downloads the .xlsx template (its columns and drop-down lists come
 * from the catalogue), fills it and uploads it. The file goes out with its progress, then the server validates
 * every row: a file with any bad row creates nothing and answers the report (row, column, value, message),
 * shown in the page; the seller fixes the file and chooses it again. A valid file creates all its listings at
 * once and the page says how many.
 */
export const bulkUploadMachine = setup({
  types: {
    context: {} as BulkUploadContext,
    events: {} as BulkUploadEvent,
    emitted: {} as BulkUploadEmitted,
  },
  actors: {
    upload: fromPromise<BulkOutcome, UploadInput>(({ input, signal }) =>
      uploadBulkFile(input.file, signal, (fraction) => input.parent.send({ type: 'upload.progressed', fraction })),
    ),
    downloadTemplate: fromPromise<Blob>(({ signal }) => downloadBulkTemplate(signal)),
  },
  guards: {
    isCreated: (_, outcome: BulkOutcome) => outcome.kind === 'created',
    isFullySent: ({ event }) => event.type === 'upload.progressed' && event.fraction >= 1,
  },
  actions: {
    chooseFile: assign({
      file: ({ event }) => (event.type === 'file.chosen' ? event.file : null),
      message: null,
    }),
    clearFile: assign({ file: null, message: null }),
    startProgress: assign({ progress: 0 }),
    storeProgress: assign({
      progress: ({ context, event }) =>
        event.type === 'upload.progressed'
          ? Math.max(context.progress ?? 0, percent(event.fraction))
          : context.progress,
    }),
    storeCreated: assign((_, outcome: BulkOutcome) => ({
      progress: null,
      created: outcome.kind === 'created' ? outcome.created : null,
      report: [],
      message: null,
    })),
    storeReport: assign((_, outcome: BulkOutcome) => ({
      progress: null,
      created: null,
      report: outcome.kind === 'rejected' ? outcome.rows : [],
      message: outcome.kind === 'rejected' ? outcome.message : null,
    })),
    storeFailure: assign((_, error: unknown) => ({
      progress: null,
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
  context: { file: null, progress: null, report: [], created: null, message: null },
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
        empty: { description: 'No file chosen yet: Upload is disabled.' },
        chosen: {
          description: 'A file is chosen: Upload sends it.',
          on: { 'upload.submitted': 'uploading', 'file.cleared': { target: 'empty', actions: 'clearFile' } },
        },
        uploading: {
          description: 'The file goes out with its progress, then the server checks every row.',
          tags: ['busy'],
          entry: 'startProgress',
          exit: 'stopProgress',
          initial: 'sending',
          states: {
            sending: {
              on: {
                'upload.progressed': [
                  { guard: 'isFullySent', target: 'processing', actions: 'storeProgress' },
                  { actions: 'storeProgress' },
                ],
              },
            },
            processing: { description: 'Every byte is sent: the server validates the rows and creates the listings.' },
          },
          invoke: {
            id: 'upload',
            src: 'upload',
            input: ({ context, self }) => ({ file: context.file as File, parent: self }),
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
          on: { 'upload.cancelled': 'chosen' },
        },
        rejected: {
          description: "The file has bad rows: nothing was created; the server's report, row by row.",
          tags: ['report'],
        },
        imported: { description: 'Every row was valid: the listings were created in one go.' },
        failed: {
          description: 'The file was refused as a whole (type, size, a network failure): its message; upload again.',
          tags: ['error'],
          on: { 'upload.submitted': 'uploading' },
        },
      },
      on: { 'file.chosen': { target: '.chosen', actions: 'chooseFile' } },
    },
  },
});
