import * as v from 'valibot';
import { type ActorRef, assign, emit, enqueueActions, fromPromise, type Snapshot, setup } from 'xstate';
import { ApiError, api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { upload } from '../openapi/upload';
import { sendDepositRequestBody } from '../openapi/valibot';
import { type FieldErrors, fieldLimits, issuesToErrors, serverErrorsToFields } from './form.machine';
import { type NotifyEvent, notifyError } from './notify';

export type CurrencyCode = components['schemas']['CurrencyCode'];
export type PaymentTransferBy = components['schemas']['PaymentTransferBy'];
export type Currency = DataOf<'/currencies', 'get'>[number];
export type BankDetails = DataOf<'/lmt-pay/bank-account-details', 'get'>['bank_account_details'];
export type Deposit = DataOf<'/lmt-pay/deposits/{deposit_id}', 'get'>;

/** The spec's toast when a deposit request is not saved (section 8). */
export const DEPOSIT_FAILED =
  'Unable to save deposit request. Please try again or reach out to support if the issue persists.';
/** What the page says of a request once it is sent (spec section 4). */
export const DEPOSIT_SENT = 'Deposit request submitted: pending admin approval';

/** The contract's payment_transfer_by values, in the contract's order (not a copy: read from the schema). */
export const PAYMENT_TRANSFER_BY = ['ONLINE', 'CASH', 'CHEQUE'] as const satisfies readonly PaymentTransferBy[];

/** The deposit form's checks: the contract's, with words for people. */
export const depositSchema = sendDepositRequestBody(
  formMessages({
    deposit_amount: {
      type: 'Enter the amount you transferred.',
      minimum: 'Enter an amount above zero.',
      maximum: 'A request can be at most 1,000,000.00.',
      integer: 'Enter the amount with at most two decimals.',
    },
    currency: { enum: 'Choose the currency.' },
    payment_transfer_by: { enum: 'Choose how you sent the money.' },
  }),
);
/** The length limits of the form's fields, from the contract (the notes' maxLength). */
export const DEPOSIT_LIMITS = fieldLimits(depositSchema);

export interface DepositValues {
  deposit_amount: number | null;
  currency: CurrencyCode | null;
  payment_transfer_by: PaymentTransferBy | null;
  notes: string;
  proof: File | null;
}
export type DepositField = keyof DepositValues;

export interface DepositInput {
  /** The currency to start with (the user's own), when the platform trades in it. */
  currency?: CurrencyCode | null;
  /** Makes an Idempotency-Key (one per intended deposit); default crypto.randomUUID. */
  makeKey?: () => string;
}

export interface DepositContext {
  makeKey: () => string;
  /** The key this deposit is sent with: a retry of the same values sends it again, changed values get a new one. */
  key: string;
  currencies: Currency[];
  values: DepositValues;
  /** Problems under the fields (the form's checks after a submit, then the server's 422). */
  errors: FieldErrors;
  /** 0 to 100 while the proof uploads, else null. */
  progress: number | null;
  bank: BankDetails | null;
  result: Deposit | null;
}

export type DepositEvent =
  | { type: 'field.changed'; field: DepositField; value: unknown }
  | { type: 'form.submitted' }
  | { type: 'upload.progressed'; fraction: number }
  | { type: 'currencies.retried' }
  | { type: 'bank.retried' };

export interface SubmitInput {
  values: DepositValues;
  key: string;
  /** The deposit actor: the upload reports its progress to it. */
  parent: ActorRef<Snapshot<unknown>, DepositEvent>;
}

const emptyValues = (currency: CurrencyCode | null): DepositValues => ({
  deposit_amount: null,
  currency,
  payment_transfer_by: null,
  notes: '',
  proof: null,
});

/** The values as the contract's multipart body reads them (no empty notes, no absent proof). */
export function toBody(values: DepositValues) {
  return {
    deposit_amount: values.deposit_amount ?? undefined,
    currency: values.currency ?? undefined,
    payment_transfer_by: values.payment_transfer_by ?? undefined,
    ...(values.notes.trim() ? { notes: values.notes.trim() } : {}),
    ...(values.proof ? { proof: values.proof } : {}),
  };
}

const check = (values: DepositValues) => v.safeParse(depositSchema, toBody(values), { abortPipeEarly: true });

/** Sends the request as multipart, with the upload's progress told to the deposit actor. */
async function sendDeposit({ values, key, parent }: SubmitInput, signal: AbortSignal): Promise<Deposit> {
  const form = new FormData();
  for (const [name, value] of Object.entries(toBody(values))) {
    if (value instanceof Blob) form.append(name, value, values.proof?.name ?? 'proof');
    else if (value !== undefined) form.append(name, String(value));
  }
  return upload('/api/send-deposit-request', form, {
    idempotencyKey: key,
    signal,
    onProgress: ({ fraction }) => parent.send({ type: 'upload.progressed', fraction }),
  });
}

/**
 * The 'Top up your SB pay Account' panel: the bank transfer details of the chosen currency (a skeleton while
 * they load, the reference to put on the transfer) beside the deposit request form (amount, currency, how the
 * money was sent, an optional proof, notes). Submit is possible once amount, currency and method are given;
 * the request goes as multipart with its upload progress; the server's 422 shows under the fields; any
 * failure toasts the spec's text. Once stored, the request is pending admin approval: the panel is done
 * (its output is the request) and the wallet, when it is open, hears of it through the actor system.
 */
export const depositMachine = setup({
  types: {
    context: {} as DepositContext,
    input: {} as DepositInput,
    events: {} as DepositEvent,
    emitted: {} as NotifyEvent,
    output: {} as Deposit,
  },
  actors: {
    loadCurrencies: fromPromise<Currency[]>(async ({ signal }) => unwrap(await api.GET('/currencies', { signal }))),
    loadBankDetails: fromPromise<BankDetails, { currency: CurrencyCode }>(async ({ input, signal }) => {
      const data = unwrap(
        await api.GET('/lmt-pay/bank-account-details', { params: { query: { currency: input.currency } }, signal }),
      );
      return data.bank_account_details;
    }),
    submitDeposit: fromPromise<Deposit, SubmitInput>(({ input, signal }) => sendDeposit(input, signal)),
  },
  guards: {
    isComplete: ({ context }) =>
      context.values.deposit_amount !== null &&
      context.values.currency !== null &&
      context.values.payment_transfer_by !== null,
    isValid: ({ context }) => check(context.values).success,
    changesCurrency: ({ context, event }) =>
      event.type === 'field.changed' && event.field === 'currency' && event.value !== context.bank?.currency,
    hasCurrency: ({ context }) => context.values.currency !== null,
    hasFieldErrors: (_, error: unknown) => error instanceof ApiError && error.status === 422 && error.errors.length > 0,
  },
  actions: {
    changeField: assign(({ context, event }) => {
      if (event.type !== 'field.changed') return {};
      const { [event.field]: _dropped, ...errors } = context.errors;
      return { values: { ...context.values, [event.field]: event.value }, errors };
    }),
    // the changed field's own problem went with the change; the others stay until their field changes
    recheck: assign(({ context }) => {
      const result = check(context.values);
      return { errors: { ...context.errors, ...(result.success ? {} : issuesToErrors(result.issues)) } };
    }),
    renewKey: assign({ key: ({ context }) => context.makeKey() }),
    storeCurrencies: assign((_, currencies: Currency[]) => ({ currencies })),
    storeBank: assign((_, bank: BankDetails) => ({ bank })),
    forgetBank: assign({ bank: null }),
    startProgress: assign({ progress: ({ context }) => (context.values.proof ? 0 : null) }),
    storeProgress: assign({
      progress: ({ context, event }) =>
        event.type === 'upload.progressed' && context.progress !== null
          ? Math.floor(Math.min(1, Math.max(0, event.fraction)) * 100)
          : context.progress,
    }),
    endProgress: assign({ progress: null }),
    storeServerErrors: assign(({ context }, error: unknown) => ({
      errors: serverErrorsToFields(error instanceof ApiError ? error.errors : [], Object.keys(context.values)),
    })),
    toastFailure: emit(notifyError(DEPOSIT_FAILED)),
    storeResult: assign((_, result: Deposit) => ({ result })),
    announceSent: emit({ type: 'notify', level: 'success', message: DEPOSIT_SENT } as const),
    // the wallet page, when it is open, reloads its balances and lists
    tellWallet: enqueueActions(({ system, enqueue }) => {
      const wallet = system.get('wallet');
      if (wallet) enqueue.sendTo(wallet, { type: 'wallet.refreshed' });
    }),
  },
}).createMachine({
  id: 'deposit',
  context: ({ input }) => {
    const makeKey = input.makeKey ?? (() => crypto.randomUUID());
    return {
      makeKey,
      key: makeKey(),
      currencies: [],
      values: emptyValues(input.currency ?? null),
      errors: {},
      progress: null,
      bank: null,
      result: null,
    };
  },
  initial: 'open',
  states: {
    open: {
      type: 'parallel',
      states: {
        currencies: {
          initial: 'loading',
          states: {
            loading: {
              tags: ['loadingCurrencies'],
              invoke: {
                id: 'loadCurrencies',
                src: 'loadCurrencies',
                onDone: {
                  target: 'ready',
                  actions: { type: 'storeCurrencies', params: ({ event }) => event.output },
                },
                onError: 'failed',
              },
            },
            ready: {},
            failed: {
              description: 'The currencies did not load: the message and Retry.',
              tags: ['currenciesFailed'],
              on: { 'currencies.retried': 'loading' },
            },
          },
        },
        bank: {
          description: 'The bank transfer details for the chosen currency, with the reference to put on the transfer.',
          initial: 'deciding',
          states: {
            deciding: { always: [{ guard: 'hasCurrency', target: 'loading' }, { target: 'waiting' }] },
            waiting: { description: 'No currency chosen yet.' },
            loading: {
              tags: ['loadingBank'],
              entry: 'forgetBank',
              invoke: {
                id: 'loadBankDetails',
                src: 'loadBankDetails',
                input: ({ context }) => ({ currency: context.values.currency ?? 'GBP' }),
                onDone: { target: 'shown', actions: { type: 'storeBank', params: ({ event }) => event.output } },
                onError: 'failed',
              },
            },
            shown: {},
            failed: { tags: ['bankFailed'], on: { 'bank.retried': 'loading' } },
          },
          on: {
            'field.changed': { guard: 'changesCurrency', target: '.deciding' },
          },
        },
        form: {
          initial: 'editing',
          states: {
            editing: {
              initial: 'pristine',
              states: {
                pristine: {
                  description: 'Not submitted yet: problems stay hidden.',
                  on: { 'field.changed': { actions: 'changeField' } },
                },
                checked: {
                  description: 'Submitted once: every change is checked again.',
                  on: { 'field.changed': { actions: ['changeField', 'recheck'] } },
                },
              },
              on: {
                'form.submitted': [
                  { guard: 'isValid', target: 'submitting' },
                  { guard: 'isComplete', target: '.checked', actions: 'recheck' },
                ],
              },
            },
            submitting: {
              description: 'Sent as multipart; the proof shows its upload progress.',
              tags: ['submitting'],
              entry: 'startProgress',
              exit: 'endProgress',
              invoke: {
                id: 'submitDeposit',
                src: 'submitDeposit',
                input: ({ context, self }) => ({ values: context.values, key: context.key, parent: self }),
                onDone: {
                  target: '#deposit.submitted',
                  actions: { type: 'storeResult', params: ({ event }) => event.output },
                },
                onError: [
                  {
                    guard: {
                      type: 'hasFieldErrors',
                      params: ({ event }: { event: { error: unknown } }) => event.error,
                    },
                    target: 'failed',
                    actions: [
                      { type: 'storeServerErrors', params: ({ event }: { event: { error: unknown } }) => event.error },
                      'renewKey',
                      'toastFailure',
                    ],
                  },
                  { target: 'failed', actions: 'toastFailure' },
                ],
              },
              on: { 'upload.progressed': { actions: 'storeProgress' } },
            },
            failed: {
              description: "Not saved: the spec's toast; the values stay, to correct or send again.",
              tags: ['error'],
              on: {
                // the values were valid when sent, and a change leaves this state: sending again needs no check
                'form.submitted': 'submitting',
                'field.changed': { target: 'editing.checked', actions: ['changeField', 'renewKey', 'recheck'] },
              },
            },
          },
        },
      },
    },
    submitted: {
      type: 'final',
      description: 'Stored, pending admin approval: the panel closes and the wallet reloads.',
      entry: ['announceSent', 'tellWallet'],
    },
  },
  output: ({ context }) => context.result as Deposit,
});

/** The currencies as dropdown options. */
export const selectCurrencyOptions = (s: { context: DepositContext }) =>
  s.context.currencies.map((c) => ({ label: `${c.code} (${c.name})`, value: c.code }));
