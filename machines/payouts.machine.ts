import { assign, emit, enqueueActions, fromPromise, raise, setup } from 'xstate';
import { ApiError, api, type DataOf, type FieldError, messageOf, unwrap } from '../openapi/client';
import { createListMachine, fromPageMeta } from './list.machine';
import type { NotifyEvent } from './notify';

export type PayoutSummary = DataOf<'/payouts/summary', 'get'>;
export type PayoutBalance = PayoutSummary['balances'][number];
export type Payout = DataOf<'/payouts/payout-details', 'get'>;
export type PayoutOrder = DataOf<'/payouts/payout-orders', 'get'>['order_list'][number];
export type PayoutExport = DataOf<'/payouts/exports', 'get'>;
export type BankAccount = NonNullable<PayoutSummary['bank_account']>;
export type PayoutEarnedOrder = DataOf<'/payouts/myorder-history', 'get'>['order_list'][number];
export type PayoutOrderState = PayoutEarnedOrder['payout_state'];
type CurrencyCode = PayoutBalance['currency'];

/** Spec section 8: payout calls that fail are only logged (no toast); the page shows what failed in place. */
export const logPayoutFailure = (what: string, error: unknown) => console.error(`payouts: ${what}`, error);

/** The seller's payout history, newest first, 10 a page. */
export const payoutHistoryMachine = createListMachine<Payout, Record<string, never>>({
  id: 'payoutHistory',
  fetchPage: async ({ page }, signal) => {
    const data = unwrap(await api.GET('/payouts/history', { params: { query: { page } }, signal }));
    return fromPageMeta(data.payout_list, data.meta);
  },
  keyOf: (p) => p.payout_id,
  errorMessage: () => 'Failed to fetch data',
});

export interface PayoutOrderFilters {
  payout_state: PayoutOrderState | null;
}

/**
 * The orders report of Payouts: each completed order's earnings and where they are (still available, in a
 * requested payout, paid), newest first, 10 a page, narrowed by payout state.
 */
export const payoutOrdersMachine = createListMachine<PayoutEarnedOrder, PayoutOrderFilters>({
  id: 'payoutOrders',
  fetchPage: async ({ page, filters }, signal) => {
    const query = { page, ...(filters.payout_state ? { payout_state: filters.payout_state } : {}) };
    const data = unwrap(await api.GET('/payouts/myorder-history', { params: { query }, signal }));
    return fromPageMeta(data.order_list, data.meta);
  },
  keyOf: (o) => o.order_id,
  errorMessage: () => 'Failed to fetch data',
});

export interface BankForm {
  account_holder: string;
  iban: string;
  swift: string;
  password: string;
}

export interface PayoutsContext {
  summary: PayoutSummary | null;
  /** The payout being asked for: its currency and amount in minor units. */
  ask: { currency: CurrencyCode; amount: number } | null;
  /** One key per intended payout: kept when the same request is sent again, renewed after an answer. */
  idempotencyKey: string;
  problem: string | null;
  fieldErrors: FieldError[];
  details: { payout: Payout; orders: PayoutOrder[] } | null;
}

export type PayoutsEvent =
  | { type: 'summary.retried' }
  | { type: 'summary.reload' }
  | { type: 'request.opened'; currency: CurrencyCode }
  /** The amount typed in the dialog, in minor units (null: not an amount). */
  | { type: 'request.amountChanged'; amount: number | null }
  | { type: 'request.submitted' }
  | { type: 'request.cancelled' }
  | { type: 'bank.opened' }
  | { type: 'bank.submitted'; form: BankForm }
  | { type: 'bank.cancelled' }
  | { type: 'details.opened'; payoutId: number }
  | { type: 'details.closed' }
  | { type: 'export.requested'; format: 'csv' | 'xlsx' };

export type PayoutsEmitted = NotifyEvent | { type: 'export.ready'; file: PayoutExport };

const newKey = () => `payout-${crypto.randomUUID()}`;

/**
 * The Payouts page (reports/payouts): the balances (available from the ledger, pending, in flight), the payout
 * bank account and its change (password-confirmed), 'Request payout' of an amount (the whole available balance
 * unless the seller types less; at least the minimum, at most the balance; one idempotency key per intended
 * payout, so a changed amount takes a new key), the history (a list machine child), a payout's details
 * with the orders it covers, and the exports. Failed payout calls are logged and shown in place, never toasted.
 */
export const payoutsMachine = setup({
  types: {
    context: {} as PayoutsContext,
    events: {} as PayoutsEvent,
    emitted: {} as PayoutsEmitted,
  },
  actors: {
    history: payoutHistoryMachine,
    loadSummary: fromPromise<PayoutSummary>(async ({ signal }) =>
      unwrap(await api.GET('/payouts/summary', { signal })),
    ),
    reloadSummary: fromPromise<PayoutSummary>(async ({ signal }) =>
      unwrap(await api.GET('/payouts/summary', { signal })),
    ),
    requestPayout: fromPromise<Payout, { currency: CurrencyCode; amount: number; key: string }>(async ({ input }) =>
      unwrap(
        await api.POST('/payouts/request', {
          params: { header: { 'Idempotency-Key': input.key } },
          body: { currency: input.currency, amount: input.amount },
        }),
      ),
    ),
    saveBank: fromPromise<BankAccount, BankForm>(async ({ input }) =>
      unwrap(await api.POST('/payouts/update-bank-account', { body: input })),
    ),
    loadDetails: fromPromise<{ payout: Payout; orders: PayoutOrder[] }, { payoutId: number }>(
      async ({ input, signal }) => {
        const query = { payout_id: input.payoutId };
        const payout = unwrap(await api.GET('/payouts/payout-details', { params: { query }, signal }));
        const orders = unwrap(
          await api.GET('/payouts/payout-orders', { params: { query: { ...query, per_page: 50 } }, signal }),
        );
        return { payout, orders: orders.order_list };
      },
    ),
    exportFile: fromPromise<PayoutExport, { format: 'csv' | 'xlsx' }>(async ({ input }) =>
      unwrap(await api.GET('/payouts/exports', { params: { query: { format: input.format } } })),
    ),
  },
  guards: {
    canRequest: ({ context }) => {
      const summary = context.summary;
      const ask = context.ask;
      if (!summary || !ask || !summary.bank_account) return false;
      const balance = summary.balances.find((b) => b.currency === ask.currency);
      return !!balance && ask.amount >= summary.minimum && ask.amount <= balance.available;
    },
  },
  actions: {
    storeSummary: assign({ summary: (_, summary: PayoutSummary) => summary }),
    pickCurrency: assign({
      ask: ({ context, event }) => {
        if (event.type !== 'request.opened') return context.ask;
        const balance = context.summary?.balances.find((b) => b.currency === event.currency);
        return { currency: event.currency, amount: balance?.available ?? 0 };
      },
      problem: null,
    }),
    changeAmount: assign({
      ask: ({ context, event }) =>
        event.type === 'request.amountChanged' && context.ask
          ? { ...context.ask, amount: event.amount ?? 0 }
          : context.ask,
      problem: null,
    }),
    forgetAsk: assign({ ask: null, problem: null, fieldErrors: [] }),
    renewKey: assign({ idempotencyKey: () => newKey() }),
    storeProblem: assign({
      problem: (_, error: unknown) => messageOf(error),
      fieldErrors: (_, error: unknown) => (error instanceof ApiError ? [...error.errors] : []),
    }),
    clearProblem: assign({ problem: null, fieldErrors: [] }),
    logFailure: (_, params: { what: string; error: unknown }) => logPayoutFailure(params.what, params.error),
    storeDetails: assign({ details: (_, details: PayoutsContext['details']) => details }),
    forgetDetails: assign({ details: null }),
    // the history list is reached through the system (absent in the path model, where invokes are events)
    // and the orders report (the page's own view actor), whose orders are now in a payout
    reloadHistory: enqueueActions(({ system, enqueue }) => {
      for (const id of ['payoutHistory', 'payoutOrders']) {
        const list = system.get(id);
        if (list) enqueue.sendTo(list, { type: 'list.refreshed' });
      }
    }),
    announce: emit((_, message: string) => ({ type: 'notify' as const, level: 'success' as const, message })),
    deliverExport: emit((_, file: PayoutExport) => ({ type: 'export.ready' as const, file })),
  },
}).createMachine({
  id: 'payouts',
  type: 'parallel',
  context: { summary: null, ask: null, idempotencyKey: newKey(), problem: null, fieldErrors: [], details: null },
  invoke: { id: 'history', systemId: 'payoutHistory', src: 'history', input: { filters: {} } },
  states: {
    summary: {
      initial: 'loading',
      states: {
        loading: {
          tags: ['loadingSummary'],
          invoke: {
            id: 'loadSummary',
            src: 'loadSummary',
            onDone: { target: 'ready', actions: { type: 'storeSummary', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'logFailure', params: ({ event }) => ({ what: 'summary', error: event.error }) },
            },
          },
        },
        ready: { description: 'Balances, the payout account and the payout rules are shown.' },
        failed: { on: { 'summary.retried': 'loading' } },
        reloading: {
          invoke: {
            id: 'reloadSummary',
            src: 'reloadSummary',
            onDone: { target: 'ready', actions: { type: 'storeSummary', params: ({ event }) => event.output } },
            onError: {
              target: 'ready',
              actions: { type: 'logFailure', params: ({ event }) => ({ what: 'summary', error: event.error }) },
            },
          },
        },
      },
      on: { 'summary.reload': '.reloading' },
    },
    request: {
      initial: 'idle',
      states: {
        idle: { on: { 'request.opened': { target: 'confirming', actions: 'pickCurrency' } } },
        confirming: {
          description:
            'The dialog: the amount (the available balance unless changed), the fee, what reaches the bank; Confirm payout.',
          on: {
            // another amount is another intended payout: a key sent with the earlier amount is not reused
            'request.amountChanged': { actions: ['changeAmount', 'renewKey'] },
            'request.submitted': { guard: 'canRequest', target: 'requesting' },
            'request.cancelled': { target: 'idle', actions: 'forgetAsk' },
          },
        },
        requesting: {
          tags: ['requesting'],
          invoke: {
            id: 'requestPayout',
            src: 'requestPayout',
            input: ({ context }) => ({
              currency: context.ask?.currency ?? 'GBP',
              amount: context.ask?.amount ?? 0,
              key: context.idempotencyKey,
            }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'announce', params: ({ event }) => `Payout ${event.output.reference} requested` },
                'forgetAsk',
                'renewKey',
                'reloadHistory',
                raise({ type: 'summary.reload' }),
              ],
            },
            onError: {
              target: 'confirming',
              actions: [
                {
                  type: 'logFailure',
                  params: ({ event }: { event: { error: unknown } }) => ({ what: 'request', error: event.error }),
                },
                { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
      },
    },
    bank: {
      initial: 'closed',
      states: {
        closed: { on: { 'bank.opened': { target: 'editing', actions: 'clearProblem' } } },
        editing: {
          description: 'The payout account form: holder, IBAN, SWIFT/BIC and the password that confirms it.',
          on: {
            'bank.submitted': 'saving',
            'bank.cancelled': { target: 'closed', actions: 'clearProblem' },
          },
        },
        saving: {
          tags: ['savingBank'],
          invoke: {
            id: 'saveBank',
            src: 'saveBank',
            input: ({ event }) => (event.type === 'bank.submitted' ? event.form : (undefined as never)),
            onDone: {
              target: 'closed',
              actions: [
                { type: 'announce', params: () => 'Bank account saved: payouts go to it.' },
                'clearProblem',
                raise({ type: 'summary.reload' }),
              ],
            },
            onError: {
              target: 'editing',
              actions: [
                {
                  type: 'logFailure',
                  params: ({ event }: { event: { error: unknown } }) => ({ what: 'bank account', error: event.error }),
                },
                { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
      },
    },
    details: {
      initial: 'closed',
      states: {
        closed: { on: { 'details.opened': 'loading' } },
        loading: {
          tags: ['loadingDetails'],
          invoke: {
            id: 'loadDetails',
            src: 'loadDetails',
            input: ({ event }) => ({ payoutId: event.type === 'details.opened' ? event.payoutId : 0 }),
            onDone: { target: 'open', actions: { type: 'storeDetails', params: ({ event }) => event.output } },
            onError: {
              target: 'failed',
              actions: { type: 'logFailure', params: ({ event }) => ({ what: 'details', error: event.error }) },
            },
          },
          // another payout clicked while this one loads: the last click wins (this load is stopped)
          on: { 'details.closed': 'closed', 'details.opened': { target: 'loading', reenter: true } },
        },
        open: {
          description: 'A payout with the orders it covers.',
          on: { 'details.closed': { target: 'closed', actions: 'forgetDetails' }, 'details.opened': 'loading' },
        },
        failed: { on: { 'details.closed': 'closed', 'details.opened': 'loading' } },
      },
    },
    export: {
      initial: 'idle',
      states: {
        idle: { on: { 'export.requested': 'exporting' } },
        exporting: {
          tags: ['exporting'],
          invoke: {
            id: 'exportFile',
            src: 'exportFile',
            input: ({ event }) => ({ format: event.type === 'export.requested' ? event.format : 'xlsx' }),
            onDone: { target: 'idle', actions: { type: 'deliverExport', params: ({ event }) => event.output } },
            onError: {
              target: 'idle',
              actions: { type: 'logFailure', params: ({ event }) => ({ what: 'export', error: event.error }) },
            },
          },
        },
      },
    },
  },
});
