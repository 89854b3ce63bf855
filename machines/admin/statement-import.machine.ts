import { assign, emit, fromPromise, sendTo, setup } from 'xstate';
import { ApiError, messageOf } from '../../openapi/client';
import type { paths } from '../../openapi/schema';
import { type UploadData, upload } from '../../openapi/upload';
import type { NotifyEvent } from '../notify';

export type StatementSummary = UploadData<paths, '/admin/bank-statements'>;

export interface StatementImportContext {
  file: File | null;
  summary: StatementSummary | null;
  problem: string | null;
}

export type StatementImportEvent = { type: 'file.chosen'; file: File | null } | { type: 'import.submitted' };

/** The list of lines waiting for a person, reloaded once an import has added some. */
export const BANK_LINES_LIST = 'adminBankLinesList';

/**
 * The back office imports a bank statement (CAMT.053 XML or a bank's CSV): choose the file, Import, then the
 * counts (credited without a person, left for one, already imported) and the queue of lines left reloads. A
 * refusal (a file in an unknown format) shows under the field; the file stays chosen.
 */
export const statementImportMachine = setup({
  types: {
    context: {} as StatementImportContext,
    events: {} as StatementImportEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    importStatement: fromPromise<StatementSummary, { file: File }>(async ({ input, signal }) => {
      const form = new FormData();
      form.append('file', input.file);
      return upload('/admin/bank-statements', form, {
        idempotencyKey: `statement-${input.file.name}-${input.file.size}-${input.file.lastModified}`,
        signal,
      });
    }),
  },
  guards: {
    hasFile: ({ context }) => context.file !== null,
  },
  actions: {
    storeFile: assign({ file: (_, file: File | null) => file, problem: null }),
    storeSummary: assign({ summary: (_, summary: StatementSummary) => summary, file: null }),
    // a refused file says why beside the field, not the 422's general 'Some fields are missing or invalid.'
    storeProblem: assign({
      problem: (_, error: unknown) =>
        (error instanceof ApiError ? error.errors.find((e) => e.path === '/body/file')?.message : undefined) ??
        messageOf(error),
    }),
    reloadQueue: sendTo(({ system }) => system.get(BANK_LINES_LIST), { type: 'list.refreshed' }),
    announce: emit(({ context }) => ({
      type: 'notify' as const,
      level: 'success' as const,
      message: `Statement imported: ${context.summary?.credited ?? 0} credited, ${context.summary?.to_review ?? 0} to review.`,
    })),
  },
}).createMachine({
  id: 'statementImport',
  context: { file: null, summary: null, problem: null },
  initial: 'choosing',
  on: {
    'file.chosen': { target: '.choosing', actions: { type: 'storeFile', params: ({ event }) => event.file } },
  },
  states: {
    choosing: {
      description: 'A statement file to choose; Import is enabled once one is chosen.',
      on: { 'import.submitted': { guard: 'hasFile', target: 'importing' } },
    },
    importing: {
      tags: ['submitting'],
      description: 'The file is read and each line matched to a pending top-up.',
      invoke: {
        id: 'importStatement',
        src: 'importStatement',
        input: ({ context }) => ({ file: context.file as File }),
        onDone: {
          target: 'imported',
          actions: [{ type: 'storeSummary', params: ({ event }) => event.output }, 'announce', 'reloadQueue'],
        },
        onError: {
          target: 'refused',
          actions: { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    imported: {
      description: 'The counts: credited without a person, left for one, already imported, skipped.',
    },
    refused: {
      tags: ['error'],
      description: 'The file was refused (unknown format, too big): the reason under the field.',
      on: { 'import.submitted': { guard: 'hasFile', target: 'importing' } },
    },
  },
});
