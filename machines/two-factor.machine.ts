import { assign, emit, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import { twoFactorDisableBody, twoFactorEnableBody } from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';
import type { NotifyEvent } from './notify';

export type TwoFactorStatus = DataOf<'/auth/two-factor', 'get'>;
export type TwoFactorSetup = DataOf<'/auth/two-factor/setup', 'post'>;
export type TwoFactorEnabled = DataOf<'/auth/two-factor/enable', 'post'>;

export const TWO_FACTOR_LOAD_ERROR = 'Failed to load two-factor authentication.';
const UNEXPECTED = 'An unexpected error occurred. Please try again later.';

/** The first code from the app; the constraints are the contract's (TwoFactorEnableRequest). */
export const enableSchema = twoFactorEnableBody(
  formMessages({
    code: { required: 'Enter the 6-digit code your app shows.', pattern: 'Enter the 6 digits your app shows.' },
  }),
);
/** Turning off: the password, or a code (TwoFactorDisableRequest). */
export const disableSchema = twoFactorDisableBody(
  formMessages({
    password: { minLength: 'Enter your password.', maxLength: 'A password has at most 128 characters.' },
    code: {
      minLength: 'Enter a code from your app or a recovery code.',
      maxLength: 'A code has at most 40 characters.',
    },
  }),
);
export const disableLimits = fieldLimits(disableSchema);

/** The first code from the app, which turns two-factor login on. */
export const enableFormMachine = createFormMachine({
  id: 'enableForm',
  schema: enableSchema,
  submit: async (body, signal) => unwrap(await api.POST('/auth/two-factor/enable', { body, signal })),
});
const disable = async (body: { password?: string; code?: string }, signal: AbortSignal) =>
  unwrap(await api.POST('/auth/two-factor/disable', { body, signal }));
/** Turning off with the current password. */
export const disableByPasswordForm = createFormMachine({
  id: 'disableByPassword',
  schema: disableSchema,
  submit: disable,
});
/** Turning off with a code from the app or a recovery code. */
export const disableByCodeForm = createFormMachine({ id: 'disableByCode', schema: disableSchema, submit: disable });

export interface TwoFactorContext {
  status: TwoFactorStatus | null;
  /** The pending secret while the user confirms it: QR code, base32 secret. */
  setup: TwoFactorSetup | null;
  /** The recovery codes, only between turning on and 'I saved them'. */
  recoveryCodes: readonly string[] | null;
  error: string | null;
}

export type TwoFactorEvent =
  | { type: 'retry' }
  | { type: 'setup.requested' }
  | { type: 'setup.cancelled' }
  | { type: 'codes.saved' }
  | { type: 'disable.requested' }
  | { type: 'disable.byCode' }
  | { type: 'disable.byPassword' }
  | { type: 'disable.cancelled' }
  | { type: 'xstate.done.actor.enableForm'; output: TwoFactorEnabled }
  | { type: 'xstate.done.actor.disableByPassword'; output: TwoFactorStatus }
  | { type: 'xstate.done.actor.disableByCode'; output: TwoFactorStatus };

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : UNEXPECTED);

/**
 * My Account › Two-factor authentication: the status loads; off → 'Turn on' asks the server for a new secret
 * (QR code and base32) → the first code from the app (`enableForm`) turns it on → the 10 recovery codes are
 * shown once, until 'I saved them' → on. 'Turn off' asks for the password (`disableByPassword`) or a code
 * (`disableByCode`).
 */
export const twoFactorMachine = setup({
  types: {
    context: {} as TwoFactorContext,
    events: {} as TwoFactorEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    loadStatus: fromPromise<TwoFactorStatus>(async ({ signal }) =>
      unwrap(await api.GET('/auth/two-factor', { signal }), TWO_FACTOR_LOAD_ERROR),
    ),
    startSetup: fromPromise<TwoFactorSetup>(async ({ signal }) =>
      unwrap(await api.POST('/auth/two-factor/setup', { signal })),
    ),
    enableForm: enableFormMachine,
    disableByPassword: disableByPasswordForm,
    disableByCode: disableByCodeForm,
  },
  guards: {
    isOn: ({ event }) => 'output' in event && (event.output as TwoFactorStatus).enabled,
  },
  actions: {
    keepStatus: assign(({ event }) =>
      'output' in event ? { status: event.output as TwoFactorStatus, error: null } : {},
    ),
    keepSetup: assign((_, setup: TwoFactorSetup) => ({ setup })),
    keepEnabled: assign(({ event }) =>
      event.type === 'xstate.done.actor.enableForm'
        ? { status: event.output.status, recoveryCodes: event.output.recovery_codes, setup: null }
        : {},
    ),
    keepDisabled: assign(({ event }) =>
      event.type === 'xstate.done.actor.disableByPassword' || event.type === 'xstate.done.actor.disableByCode'
        ? { status: event.output }
        : {},
    ),
    dropSetup: assign({ setup: null }),
    dropCodes: assign({ recoveryCodes: null }),
    recordError: assign(({ event }) => ('error' in event ? { error: messageOf(event.error) } : {})),
    notifyFailure: emit(({ event }) => ({
      type: 'notify' as const,
      level: 'error' as const,
      message: 'error' in event ? messageOf(event.error) : UNEXPECTED,
    })),
    notifyOn: emit({ type: 'notify', level: 'success', message: 'Two-factor authentication is on.' } as const),
    notifyOff: emit({ type: 'notify', level: 'success', message: 'Two-factor authentication is off.' } as const),
  },
}).createMachine({
  id: 'twoFactor',
  context: { status: null, setup: null, recoveryCodes: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadStatus',
        src: 'loadStatus',
        onDone: [
          { guard: 'isOn', target: 'on', actions: 'keepStatus' },
          { target: 'off', actions: 'keepStatus' },
        ],
        onError: { target: 'failed', actions: 'recordError' },
      },
    },
    failed: { tags: ['error'], on: { retry: 'loading' } },
    off: { description: "Off: 'Turn on'.", on: { 'setup.requested': 'startingSetup' } },
    startingSetup: {
      tags: ['busy'],
      invoke: {
        id: 'startSetup',
        src: 'startSetup',
        onDone: { target: 'confirming', actions: { type: 'keepSetup', params: ({ event }) => event.output } },
        // already on elsewhere (409), or the call failed: say so and show what is true now
        onError: { target: 'loading', actions: 'notifyFailure' },
      },
    },
    confirming: {
      description: 'The QR code and the secret; the first code from the app turns it on.',
      invoke: {
        id: 'enableForm',
        src: 'enableForm',
        input: { values: { code: '' } },
        onDone: { target: 'showingCodes', actions: ['keepEnabled', 'notifyOn'] },
      },
      on: { 'setup.cancelled': { target: 'off', actions: 'dropSetup' } },
    },
    showingCodes: {
      description: 'The 10 recovery codes, shown this once.',
      on: { 'codes.saved': { target: 'on', actions: 'dropCodes' } },
    },
    on: { description: "On: 'Turn off'.", on: { 'disable.requested': 'disabling' } },
    disabling: {
      description: 'Turning off needs the password or a code.',
      initial: 'byPassword',
      on: { 'disable.cancelled': 'on' },
      states: {
        byPassword: {
          invoke: {
            id: 'disableByPassword',
            src: 'disableByPassword',
            input: { values: { password: '' } },
            onDone: { target: '#twoFactor.off', actions: ['keepDisabled', 'notifyOff'] },
          },
          on: { 'disable.byCode': 'byCode' },
        },
        byCode: {
          invoke: {
            id: 'disableByCode',
            src: 'disableByCode',
            input: { values: { code: '' } },
            onDone: { target: '#twoFactor.off', actions: ['keepDisabled', 'notifyOff'] },
          },
          on: { 'disable.byPassword': 'byPassword' },
        },
      },
    },
  },
});
