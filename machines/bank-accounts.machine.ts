import { assign, emit, fromPromise, setup } from 'xstate';
import { ApiError, api, type DataOf, type FieldError, messageOf, unwrap } from '../openapi/client';
import type { NotifyEvent } from './notify';
import { type BankForm, logPayoutFailure } from './payouts.machine';

export type SettingsBankAccount = DataOf<'/settings/bank-accounts', 'get'>['bank_accounts'][number];

/** What a password confirms: a new account, or making one the payout account, or removing one. */
export type BankChange =
  | { kind: 'add'; form: BankForm & { make_default: boolean } }
  | { kind: 'default'; id: number; password: string }
  | { kind: 'delete'; id: number; password: string };

export interface BankAccountsContext {
  /** The seller's accounts, then the removed ones the payout history names (`removed_at` set). */
  accounts: SettingsBankAccount[];
  /** The account a make-default or remove dialog is about. */
  target: number | null;
  problem: string | null;
  fieldErrors: FieldError[];
}

export type BankAccountsEvent =
  | { type: 'list.retried' }
  | { type: 'add.opened' }
  | { type: 'default.opened'; id: number }
  | { type: 'delete.opened'; id: number }
  | { type: 'change.submitted'; change: BankChange }
  | { type: 'change.cancelled' };

/**
 * Settings, bank accounts (/settings/bank-accounts): the seller's payout bank accounts, masked; add one, make one
 * the payout account, remove one; each change confirmed by the password. Failures are logged and shown in the
 * dialog (spec section 8: payout calls only log).
 */
export const bankAccountsMachine = setup({
  types: {
    context: {} as BankAccountsContext,
    events: {} as BankAccountsEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    // the seller's accounts, then the removed ones that payouts were made to (each with `removed_at`)
    loadAccounts: fromPromise<SettingsBankAccount[]>(async ({ signal }) => {
      const data = unwrap(await api.GET('/settings/bank-accounts', { signal }));
      return [...data.bank_accounts, ...data.removed_accounts];
    }),
    applyChange: fromPromise<SettingsBankAccount, BankChange>(async ({ input }) => {
      if (input.kind === 'add') return unwrap(await api.POST('/settings/bank-accounts/add', { body: input.form }));
      const params = { path: { bank_account_id: input.id } };
      const body = { password: input.password };
      return unwrap(
        input.kind === 'default'
          ? await api.POST('/settings/bank-accounts/default/{bank_account_id}', { params, body })
          : await api.POST('/settings/bank-accounts/delete/{bank_account_id}', { params, body }),
      );
    }),
  },
  actions: {
    storeAccounts: assign({ accounts: (_, accounts: SettingsBankAccount[]) => accounts }),
    pick: assign({
      target: ({ event }) => ('id' in event ? event.id : null),
      problem: null,
      fieldErrors: [],
    }),
    forget: assign({ target: null, problem: null, fieldErrors: [] }),
    storeProblem: assign({
      problem: (_, error: unknown) => messageOf(error),
      fieldErrors: (_, error: unknown) => (error instanceof ApiError ? [...error.errors] : []),
    }),
    logFailure: (_, error: unknown) => logPayoutFailure('bank accounts', error),
    announce: emit(() => ({ type: 'notify' as const, level: 'success' as const, message: 'Bank accounts updated' })),
  },
}).createMachine({
  id: 'bankAccounts',
  context: { accounts: [], target: null, problem: null, fieldErrors: [] },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadAccounts',
        src: 'loadAccounts',
        onDone: { target: 'ready', actions: { type: 'storeAccounts', params: ({ event }) => event.output } },
        onError: {
          target: 'failed',
          actions: { type: 'logFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
        },
      },
    },
    failed: { on: { 'list.retried': 'loading' } },
    ready: {
      on: {
        'add.opened': { target: 'adding', actions: 'pick' },
        'default.opened': { target: 'confirmingDefault', actions: 'pick' },
        'delete.opened': { target: 'confirmingDelete', actions: 'pick' },
      },
    },
    adding: {
      description: 'The new account form: holder, IBAN, SWIFT/BIC, payout account or not, the password.',
      on: { 'change.submitted': 'saving', 'change.cancelled': { target: 'ready', actions: 'forget' } },
    },
    confirmingDefault: {
      on: { 'change.submitted': 'saving', 'change.cancelled': { target: 'ready', actions: 'forget' } },
    },
    confirmingDelete: {
      on: { 'change.submitted': 'saving', 'change.cancelled': { target: 'ready', actions: 'forget' } },
    },
    saving: {
      tags: ['saving'],
      invoke: {
        id: 'applyChange',
        src: 'applyChange',
        input: ({ event }) =>
          event.type === 'change.submitted' ? event.change : { kind: 'delete' as const, id: 0, password: '' },
        onDone: { target: 'loading', actions: ['announce', 'forget'] },
        onError: [
          {
            // a refused new account keeps its form open, with what was typed and the errors beside the fields
            guard: ({ context }) => context.target === null,
            target: 'adding',
            actions: [
              { type: 'logFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
              { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
            ],
          },
          {
            target: 'ready',
            actions: [
              { type: 'logFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
              { type: 'storeProblem', params: ({ event }: { event: { error: unknown } }) => event.error },
            ],
          },
        ],
      },
    },
  },
});
