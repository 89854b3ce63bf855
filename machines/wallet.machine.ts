import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, type DataOf, messageOf, unwrap } from '../openapi/client';
import type { components } from '../openapi/schema';
import { upload } from '../openapi/upload';
import { createListMachine, fromPageMeta } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';

export type WalletDetails = DataOf<'/lmt-pay/details', 'get'>;
export type WalletDeposit = DataOf<'/lmt-pay/deposit-history', 'get'>['deposit_list'][number];
export type WalletTransaction = DataOf<'/lmt-pay/transaction-history', 'get'>['transaction_list'][number];
export type DepositStatus = components['schemas']['DepositStatus'];
export type WalletTransactionType = components['schemas']['WalletTransactionType'];
export type ProofFile = NonNullable<DataOf<'/lmt-pay/deposits/{deposit_id}/proof', 'get'>>;

export const WALLET_LOAD_ERROR = 'Failed to fetch data';
/** The toast when a proof sent after the request is kept (the server's message). */
export const PROOF_ADDED = 'The proof of payment is added to your deposit request.';
/** Rows a page of either history holds. */
export const WALLET_PAGE_SIZE = 10;
/** While a deposit is pending admin approval, the wallet asks the server this often whether it was decided. */
export const WALLET_POLL_MS = 4000;

export interface DepositFilters {
  from: string | null;
  to: string | null;
  status: DepositStatus | null;
}
export interface TransactionFilters {
  from: string | null;
  to: string | null;
  type: WalletTransactionType | null;
}

/** The filters as query parameters: an unset filter is not sent. */
function query<F extends object>(filters: F) {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== null)) as {
    [K in keyof F]?: NonNullable<F[K]>;
  };
}

async function depositPage(page: number, filters: DepositFilters, perPage: number, signal?: AbortSignal) {
  return unwrap(
    await api.GET('/lmt-pay/deposit-history', {
      params: { query: { page, per_page: perPage, ...query(filters) } },
      signal,
    }),
    WALLET_LOAD_ERROR,
  );
}

async function transactionPage(page: number, filters: TransactionFilters, perPage: number, signal?: AbortSignal) {
  return unwrap(
    await api.GET('/lmt-pay/transaction-history', {
      params: { query: { page, per_page: perPage, ...query(filters) } },
      signal,
    }),
    WALLET_LOAD_ERROR,
  );
}

/** The deposit history (numbered pages), newest first, filtered by date range and status. */
export const walletDepositsMachine = createListMachine<WalletDeposit, DepositFilters>({
  id: 'walletDeposits',
  fetchPage: async ({ page, filters }, signal) => {
    const data = await depositPage(page, filters, WALLET_PAGE_SIZE, signal);
    return fromPageMeta(data.deposit_list, data.meta);
  },
  keyOf: (d) => d.deposit_id,
  errorMessage: () => WALLET_LOAD_ERROR,
});

/** The transaction history (numbered pages), newest first, filtered by date range and type. */
export const walletTransactionsMachine = createListMachine<WalletTransaction, TransactionFilters>({
  id: 'walletTransactions',
  fetchPage: async ({ page, filters }, signal) => {
    const data = await transactionPage(page, filters, WALLET_PAGE_SIZE, signal);
    return fromPageMeta(data.transaction_list, data.meta);
  },
  keyOf: (t) => t.id,
  errorMessage: () => WALLET_LOAD_ERROR,
});

/** Every row of a history under its filters (the CSV export), 50 a page. */
export async function allRows(
  kind: 'deposits' | 'transactions',
  filters: DepositFilters | TransactionFilters,
): Promise<Array<WalletDeposit | WalletTransaction>> {
  const rows: Array<WalletDeposit | WalletTransaction> = [];
  for (let page = 1; page <= 1000; page++) {
    const data =
      kind === 'deposits'
        ? await depositPage(page, filters as DepositFilters, 50)
        : await transactionPage(page, filters as TransactionFilters, 50);
    rows.push(...('deposit_list' in data ? data.deposit_list : data.transaction_list));
    if (page >= data.meta.last_page) break;
  }
  return rows;
}

export type CsvKind = 'deposits' | 'transactions';
export interface CsvRows {
  kind: CsvKind;
  rows: Array<WalletDeposit | WalletTransaction>;
}

export type WalletDetail =
  | { kind: 'deposit'; deposit: WalletDeposit }
  | { kind: 'transaction'; transaction: WalletTransaction };

export interface WalletContext {
  details: WalletDetails | null;
  detail: WalletDetail | null;
  proof: ProofFile | null;
}

export type WalletEvent =
  | { type: 'wallet.refreshed' }
  | { type: 'details.retried' }
  | { type: 'detail.opened'; detail: WalletDetail }
  | { type: 'detail.closed' }
  | { type: 'proof.requested' }
  /** A proof chosen for a pending deposit request sent without one (`/api/upload-pop`). */
  | { type: 'proof.chosen'; file: File }
  | { type: 'csv.requested'; kind: 'deposits' | 'transactions'; filters: DepositFilters | TransactionFilters };

export type WalletEmitted = NotifyEvent | ({ type: 'csv.ready' } & CsvRows) | { type: 'proof.ready'; proof: ProofFile };

const pendingTotal = (details: WalletDetails | null) => details?.balances.reduce((sum, b) => sum + b.pending, 0) ?? 0;
const sameFigures = (a: WalletDetails | null, b: WalletDetails) =>
  JSON.stringify(a?.balances) === JSON.stringify(b.balances);

/**
 * The wallet page (reports/wallet), in the app's actor system as `wallet`: the balance in every currency and
 * what is pending admin approval, the deposit history and the transaction history (two list machines, its
 * children). While a deposit is pending it asks the server again every few seconds; when the figures change
 * (an admin approved or rejected it) it reloads both histories and tells the menu counts, so the balance,
 * the statuses and the notification badge follow without a reload. A submitted top-up (the deposit machine)
 * sends `wallet.refreshed`. A row opens its detail; a history exports as CSV.
 */
export const walletMachine = setup({
  types: {
    context: {} as WalletContext,
    events: {} as WalletEvent,
    emitted: {} as WalletEmitted,
  },
  actors: {
    loadDetails: fromPromise<WalletDetails>(async ({ signal }) =>
      unwrap(await api.GET('/lmt-pay/details', { signal }), WALLET_LOAD_ERROR),
    ),
    loadProof: fromPromise<ProofFile | null, { id: number }>(async ({ input, signal }) =>
      unwrap(
        await api.GET('/lmt-pay/deposits/{deposit_id}/proof', { params: { path: { deposit_id: input.id } }, signal }),
      ),
    ),
    addProof: fromPromise<WalletDeposit, { id: number; file: File; key: string }>(async ({ input, signal }) => {
      const form = new FormData();
      form.append('deposit_id', String(input.id));
      form.append('proof', input.file, input.file.name);
      return upload('/api/upload-pop', form, { idempotencyKey: input.key, signal });
    }),
    exportRows: fromPromise<CsvRows, { kind: CsvKind; filters: DepositFilters | TransactionFilters }>(
      async ({ input }) => ({ kind: input.kind, rows: await allRows(input.kind, input.filters) }),
    ),
    deposits: walletDepositsMachine,
    transactions: walletTransactionsMachine,
  },
  delays: { poll: WALLET_POLL_MS },
  guards: {
    hasPending: ({ context }) => pendingTotal(context.details) > 0,
    figuresChanged: ({ context }, details: WalletDetails) => !sameFigures(context.details, details),
    isDeposit: ({ context }) => context.detail?.kind === 'deposit' && context.detail.deposit.proof !== null,
    /** A pending request sent without a proof may get one; a proof sent is never replaced. */
    canAddProof: ({ context }) =>
      context.detail?.kind === 'deposit' &&
      context.detail.deposit.status === 'pending' &&
      context.detail.deposit.proof === null,
  },
  actions: {
    storeDetails: assign((_, details: WalletDetails) => ({ details })),
    // the histories as they run, by their system ids (the test model has no children to resolve a name against)
    reloadLists: enqueueActions(({ enqueue, system }) => {
      for (const id of ['walletDeposits', 'walletTransactions']) {
        const list = system.get(id);
        if (list) enqueue.sendTo(list, { type: 'list.refreshed' });
      }
    }),
    // the notification badge: an approval or a rejection wrote the seller a notification
    tellCounts: enqueueActions(({ system, enqueue }) => {
      const counts = system.get('menuCounts');
      if (counts) enqueue.sendTo(counts, { type: 'counts.refreshed' });
    }),
    openDetail: assign({
      detail: ({ event }) => (event.type === 'detail.opened' ? event.detail : null),
      proof: null,
    }),
    closeDetail: assign({ detail: null, proof: null }),
    announceProof: emit((_, proof: ProofFile | null) =>
      proof ? { type: 'proof.ready' as const, proof } : notifyError('This request was sent without a proof.'),
    ),
    failProof: emit(notifyError('Failed to load the proof')),
    storeDeposit: assign((_, deposit: WalletDeposit) => ({ detail: { kind: 'deposit' as const, deposit } })),
    announceProofAdded: emit({ type: 'notify', level: 'success', message: PROOF_ADDED } satisfies NotifyEvent),
    failAddProof: emit((_, error: unknown) => notifyError(messageOf(error))),
    announceCsv: emit((_, out: CsvRows) => ({ type: 'csv.ready' as const, ...out })),
    failCsv: emit(notifyError('Failed to export the CSV')),
  },
}).createMachine({
  id: 'wallet',
  context: { details: null, detail: null, proof: null },
  invoke: [
    {
      id: 'deposits',
      systemId: 'walletDeposits',
      src: 'deposits',
      input: { filters: { from: null, to: null, status: null } },
    },
    {
      id: 'transactions',
      systemId: 'walletTransactions',
      src: 'transactions',
      input: { filters: { from: null, to: null, type: null } },
    },
  ],
  type: 'parallel',
  states: {
    details: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loading'],
          invoke: {
            id: 'loadDetails',
            src: 'loadDetails',
            onDone: { target: 'ready', actions: { type: 'storeDetails', params: ({ event }) => event.output } },
            onError: 'failed',
          },
        },
        failed: { tags: ['error'], on: { 'details.retried': 'loading' } },
        ready: {
          initial: 'deciding',
          states: {
            deciding: { always: [{ guard: 'hasPending', target: 'watching' }, { target: 'idle' }] },
            idle: { description: 'Nothing pending: no polling.' },
            watching: {
              description: 'A deposit is pending admin approval: the wallet asks again in a few seconds.',
              after: { poll: 'refreshing' },
            },
            refreshing: {
              invoke: {
                id: 'refreshDetails',
                src: 'loadDetails',
                onDone: [
                  {
                    guard: { type: 'figuresChanged', params: ({ event }) => event.output },
                    target: 'deciding',
                    actions: [
                      { type: 'storeDetails', params: ({ event }) => event.output },
                      'reloadLists',
                      'tellCounts',
                    ],
                  },
                  { target: 'deciding' },
                ],
                // a failed poll is tried again at the next one
                onError: 'deciding',
              },
            },
          },
        },
      },
      on: {
        'wallet.refreshed': { target: '.loading', actions: 'reloadLists' },
      },
    },
    detail: {
      initial: 'closed',
      states: {
        closed: {},
        open: {
          initial: 'shown',
          states: {
            shown: {
              on: {
                'proof.requested': { guard: 'isDeposit', target: 'loadingProof' },
                'proof.chosen': { guard: 'canAddProof', target: 'addingProof' },
              },
            },
            addingProof: {
              description: 'The proof goes to /api/upload-pop for the pending request sent without one.',
              tags: ['addingProof'],
              invoke: {
                id: 'addProof',
                src: 'addProof',
                input: ({ context, event }) => ({
                  id: context.detail?.kind === 'deposit' ? context.detail.deposit.deposit_id : 0,
                  file: (event as { file: File }).file,
                  key: globalThis.crypto.randomUUID(),
                }),
                onDone: {
                  target: 'shown',
                  actions: [
                    { type: 'storeDeposit', params: ({ event }) => event.output },
                    'reloadLists',
                    'announceProofAdded',
                  ],
                },
                onError: {
                  target: 'shown',
                  actions: { type: 'failAddProof', params: ({ event }: { event: { error: unknown } }) => event.error },
                },
              },
            },
            loadingProof: {
              tags: ['loadingProof'],
              invoke: {
                id: 'loadProof',
                src: 'loadProof',
                input: ({ context }) => ({
                  id: context.detail?.kind === 'deposit' ? context.detail.deposit.deposit_id : 0,
                }),
                onDone: { target: 'shown', actions: { type: 'announceProof', params: ({ event }) => event.output } },
                onError: { target: 'shown', actions: 'failProof' },
              },
            },
          },
          on: { 'detail.closed': { target: 'closed', actions: 'closeDetail' } },
        },
      },
      on: { 'detail.opened': { target: '.open', actions: 'openDetail' } },
    },
    csv: {
      initial: 'idle',
      states: {
        idle: { on: { 'csv.requested': 'exporting' } },
        exporting: {
          tags: ['exporting'],
          invoke: {
            id: 'exportRows',
            src: 'exportRows',
            input: ({ event }) =>
              event.type === 'csv.requested'
                ? { kind: event.kind, filters: event.filters }
                : { kind: 'deposits' as const, filters: { from: null, to: null, status: null } },
            onDone: {
              target: 'idle',
              actions: { type: 'announceCsv', params: ({ event }) => event.output },
            },
            onError: { target: 'idle', actions: 'failCsv' },
          },
        },
      },
    },
  },
});
