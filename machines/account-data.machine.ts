import { assign, emit, fromCallback, fromPromise, setup } from 'xstate';
import { ApiError, api, type DataOf, messageOf, unwrap } from '../openapi/client';
import type { NotifyEvent } from './notify';

export type AccountErasure = DataOf<'/settings/account-data/erasure', 'get'>;

export const EXPORT_FAILED = 'The download failed. Please try again.';

export type DownloadEvent =
  | { type: 'download.progressed'; received: number; rows: number }
  | { type: 'download.finished'; file: Blob; name: string }
  | { type: 'download.failed'; message: string };

export type AccountDataEvent =
  | DownloadEvent
  | { type: 'export.requested' }
  | { type: 'erasure.retried' }
  | { type: 'erasure.started' }
  | { type: 'password.changed'; password: string }
  | { type: 'erasure.confirmed' }
  | { type: 'erasure.cancelled' };

export type AccountDataEmitted = NotifyEvent | { type: 'file.ready'; file: Blob; name: string };

export interface AccountDataContext {
  /** Bytes of the zip received so far, and the rows the server said it holds. */
  received: number;
  rows: number;
  /** The last file saved, for the page to say so. */
  saved: { name: string; size: number } | null;
  exportProblem: string | null;
  erasure: AccountErasure | null;
  password: string;
  erasureProblem: string | null;
}

/** Streams the zip from the server, telling the machine how much has arrived as it arrives. */
const download = fromCallback<{ type: 'noop' }, void>(({ sendBack }) => {
  const abort = new AbortController();
  void (async () => {
    try {
      const { response } = await api.GET('/settings/account-data/export', { parseAs: 'stream', signal: abort.signal });
      if (!response.ok || !response.body) {
        const body = (await response.json().catch(() => null)) as { message?: string } | null;
        throw new ApiError(response.status, body?.message ?? EXPORT_FAILED);
      }
      const rows = Number(response.headers.get('x-export-rows') ?? 0);
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'data.zip';
      const reader = response.body.getReader();
      const chunks: Uint8Array[] = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.byteLength;
        sendBack({ type: 'download.progressed', received, rows });
      }
      sendBack({ type: 'download.finished', file: new Blob(chunks as BlobPart[], { type: 'application/zip' }), name });
    } catch (error) {
      if (!abort.signal.aborted) sendBack({ type: 'download.failed', message: messageOf(error, EXPORT_FAILED) });
    }
  })();
  return () => abort.abort();
});

/**
 * Settings › Your data: the export (one click streams a zip of the account's data, its progress shown as it
 * arrives, then the file is saved) and the request to erase the account (it says what happens, asks for the
 * password, and is refused while money is held or owed; the back office then erases it).
 */
export const accountDataMachine = setup({
  types: {
    context: {} as AccountDataContext,
    events: {} as AccountDataEvent,
    emitted: {} as AccountDataEmitted,
  },
  actors: {
    download,
    loadErasure: fromPromise<AccountErasure>(async ({ signal }) =>
      unwrap(await api.GET('/settings/account-data/erasure', { signal })),
    ),
    requestErasure: fromPromise<AccountErasure, { password: string }>(async ({ input }) =>
      unwrap(await api.POST('/settings/account-data/erasure', { body: { password: input.password } })),
    ),
  },
  guards: {
    mayAsk: ({ context }) =>
      context.erasure !== null && context.erasure.status !== 'requested' && context.erasure.blockers.length === 0,
    hasPassword: ({ context }) => context.password.length > 0,
  },
  actions: {
    startDownload: assign({ received: 0, rows: 0, exportProblem: null }),
    storeProgress: assign(({ event }) =>
      event.type === 'download.progressed' ? { received: event.received, rows: event.rows } : {},
    ),
    storeSaved: assign({
      saved: ({ event }) => (event.type === 'download.finished' ? { name: event.name, size: event.file.size } : null),
    }),
    handOver: emit(({ event }) =>
      event.type === 'download.finished'
        ? { type: 'file.ready' as const, file: event.file, name: event.name }
        : { type: 'notify' as const, level: 'error' as const, message: EXPORT_FAILED },
    ),
    storeExportProblem: assign({
      exportProblem: ({ event }) => (event.type === 'download.failed' ? event.message : EXPORT_FAILED),
    }),
    storeErasure: assign({ erasure: (_, erasure: AccountErasure) => erasure }),
    storePassword: assign({ password: ({ event }) => (event.type === 'password.changed' ? event.password : '') }),
    forgetPassword: assign({ password: '', erasureProblem: null }),
    storeErasureProblem: assign({ erasureProblem: (_, error: unknown) => messageOf(error) }),
    announceRequest: emit({
      type: 'notify' as const,
      level: 'success' as const,
      message: 'Your request was sent. The back office will erase your account.',
    }),
  },
}).createMachine({
  id: 'accountData',
  context: {
    received: 0,
    rows: 0,
    saved: null,
    exportProblem: null,
    erasure: null,
    password: '',
    erasureProblem: null,
  },
  type: 'parallel',
  states: {
    export: {
      initial: 'idle',
      states: {
        idle: { on: { 'export.requested': { target: 'downloading', actions: 'startDownload' } } },
        downloading: {
          description: 'The zip arrives as the server makes it; the page shows how much has come.',
          tags: ['downloading'],
          invoke: { id: 'download', src: 'download' },
          on: {
            'download.progressed': { actions: 'storeProgress' },
            'download.finished': { target: 'saved', actions: ['storeSaved', 'handOver'] },
            'download.failed': { target: 'failed', actions: 'storeExportProblem' },
          },
        },
        saved: { on: { 'export.requested': { target: 'downloading', actions: 'startDownload' } } },
        failed: { on: { 'export.requested': { target: 'downloading', actions: 'startDownload' } } },
      },
    },
    erasure: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loadingErasure'],
          invoke: {
            id: 'loadErasure',
            src: 'loadErasure',
            onDone: { target: 'known', actions: { type: 'storeErasure', params: ({ event }) => event.output } },
            onError: 'loadFailed',
          },
        },
        loadFailed: { on: { 'erasure.retried': 'loading' } },
        known: {
          on: { 'erasure.started': { guard: 'mayAsk', target: 'confirming', actions: 'forgetPassword' } },
        },
        confirming: {
          description: 'The dialog says what erasing does, and asks for the password.',
          on: {
            'password.changed': { actions: 'storePassword' },
            'erasure.confirmed': { guard: 'hasPassword', target: 'sending' },
            'erasure.cancelled': { target: 'known', actions: 'forgetPassword' },
          },
        },
        sending: {
          tags: ['sendingErasure'],
          invoke: {
            id: 'requestErasure',
            src: 'requestErasure',
            input: ({ context }) => ({ password: context.password }),
            onDone: {
              target: 'known',
              actions: [
                { type: 'storeErasure', params: ({ event }) => event.output },
                'forgetPassword',
                'announceRequest',
              ],
            },
            onError: {
              target: 'confirming',
              actions: {
                type: 'storeErasureProblem',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
      },
    },
  },
});
