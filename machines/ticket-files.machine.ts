import { assign, emit, fromPromise, setup } from 'xstate';
import { type ListingFile, uploadTicketFiles } from './listings-api';
import { type NotifyEvent, notifyError } from './notify';

/** The ticket files one upload takes and the rules of each (the server's, checked again there by magic bytes). */
export const TICKET_FILE_TYPES = ['pdf', 'jpg', 'jpeg', 'png'] as const;
export const MAX_TICKET_FILES = 10;
export const TICKET_FILE_MAX_MB = 5;

/** The spec's texts for a refused file, or null when the choice may go out. */
export function ticketFilesProblem(files: readonly { name: string; size: number }[]): string | null {
  if (files.length > MAX_TICKET_FILES) return `Choose at most ${MAX_TICKET_FILES} files at once.`;
  for (const f of files) {
    const ext = f.name.includes('.') ? (f.name.split('.').pop() ?? '').toLowerCase() : '';
    if (!(TICKET_FILE_TYPES as readonly string[]).includes(ext)) {
      return `Invalid file type. Allowed types: ${TICKET_FILE_TYPES.join(', ')}`;
    }
    if (f.size > TICKET_FILE_MAX_MB * 1024 * 1024) return `File size exceeds ${TICKET_FILE_MAX_MB}MB limit`;
  }
  return null;
}

export interface TicketFilesContext {
  ticketId: number;
  files: ListingFile[];
  /** 0..100 while the files go out, else null */
  progress: number | null;
  message: string | null;
}

export type TicketFilesEvent =
  | { type: 'files.chosen'; files: File[] }
  | { type: 'upload.progressed'; fraction: number }
  | { type: 'message.dismissed' };

interface UploadInput {
  ticketId: number;
  files: File[];
  parent: { send: (e: TicketFilesEvent) => void };
}

const percent = (fraction: number) =>
  Math.floor(Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0)) * 100);

/**
 * Ticket files of an existing listing (Inventory's drawer): the seller chooses files; a wrong type, a file over
 * 5 MB or more than 10 files is refused at once with the spec's text; otherwise they go out with their progress
 * and the listing's files, as the server answers them, replace the list. The server's refusal (409 at 20 files,
 * 415, 413) shows as the message.
 */
export const ticketFilesMachine = setup({
  types: {
    context: {} as TicketFilesContext,
    events: {} as TicketFilesEvent,
    input: {} as { ticketId: number; files: ListingFile[] },
    emitted: {} as NotifyEvent,
  },
  actors: {
    upload: fromPromise<ListingFile[], UploadInput>(({ input, signal }) =>
      uploadTicketFiles(input.ticketId, input.files, signal, (fraction) =>
        input.parent.send({ type: 'upload.progressed', fraction }),
      ),
    ),
  },
  guards: {
    nothingChosen: ({ event }) => event.type === 'files.chosen' && event.files.length === 0,
    refused: ({ event }) => event.type === 'files.chosen' && ticketFilesProblem(event.files) !== null,
  },
  actions: {
    storeRefusal: assign({
      message: ({ event }) => (event.type === 'files.chosen' ? ticketFilesProblem(event.files) : null),
    }),
    startProgress: assign({ progress: 0, message: null }),
    storeProgress: assign({
      progress: ({ context, event }) =>
        event.type === 'upload.progressed'
          ? Math.max(context.progress ?? 0, percent(event.fraction))
          : context.progress,
    }),
    storeFiles: assign((_, files: ListingFile[]) => ({ files, progress: null, message: null })),
    storeFailure: assign((_, error: unknown) => ({
      progress: null,
      message:
        error instanceof Error && error.message
          ? error.message
          : 'An unexpected error occurred. Please try again later.',
    })),
    clearMessage: assign({ message: null }),
    toastFailure: emit(({ context }) => notifyError(context.message ?? '')),
    toastDone: emit({ type: 'notify', level: 'success', message: 'Files uploaded.' } as NotifyEvent),
  },
}).createMachine({
  id: 'ticketFiles',
  context: ({ input }) => ({ ticketId: input.ticketId, files: input.files, progress: null, message: null }),
  initial: 'idle',
  states: {
    idle: {
      description: "The listing's files are listed; the seller may choose more.",
      on: {
        'files.chosen': [
          { guard: 'nothingChosen' },
          { guard: 'refused', target: 'refused', actions: 'storeRefusal' },
          { target: 'uploading' },
        ],
      },
    },
    refused: {
      description: 'A chosen file breaks a rule (type, size, count): nothing went out; the message says which.',
      on: {
        'files.chosen': [
          { guard: 'nothingChosen' },
          { guard: 'refused', target: 'refused', reenter: true, actions: 'storeRefusal' },
          { target: 'uploading' },
        ],
        'message.dismissed': { target: 'idle', actions: 'clearMessage' },
      },
    },
    uploading: {
      tags: ['busy'],
      description: 'The files go out with their progress.',
      entry: 'startProgress',
      invoke: {
        id: 'upload',
        src: 'upload',
        input: ({ context, event, self }) => ({
          ticketId: context.ticketId,
          files: event.type === 'files.chosen' ? event.files : [],
          parent: self,
        }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'storeFiles', params: ({ event }: { event: { output: ListingFile[] } }) => event.output },
            'toastDone',
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            { type: 'storeFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            'toastFailure',
          ],
        },
      },
      on: { 'upload.progressed': { actions: 'storeProgress' } },
    },
    failed: {
      description: 'The server refused the upload (its message shown); the list is unchanged.',
      on: {
        'files.chosen': [
          { guard: 'nothingChosen' },
          { guard: 'refused', target: 'refused', actions: 'storeRefusal' },
          { target: 'uploading' },
        ],
        'message.dismissed': { target: 'idle', actions: 'clearMessage' },
      },
    },
  },
});
