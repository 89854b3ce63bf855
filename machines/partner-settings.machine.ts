import { assign, emit, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { updatePartnerSettingBody } from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';
import { type NotifyEvent, notifyError } from './notify';

export type PartnerSettings = DataOf<'/settings/partner-setting', 'get'>;
export type PartnerSettingsValues = components['schemas']['PartnerSettingsInput'];

/** The spec's default toast for a failed read (section 8). */
export const PARTNER_LOAD_ERROR = 'Failed to fetch data';
export const PARTNER_SAVED = 'Partner settings saved.';

const WEBHOOK_WORDS = 'Enter an https address with a host name, like https://example.com/hooks/sb.';
const fields = updatePartnerSettingBody(
  formMessages({
    webhook_url: { pattern: WEBHOOK_WORDS, minLength: WEBHOOK_WORDS, maxLength: 'Use at most 500 characters.' },
    notification_email: {
      format: 'Enter a valid email address, like name@example.com.',
      maxLength: 'Use at most 254 characters.',
    },
  }),
);
export const partnerSettingsLimits = fieldLimits(fields);

/** The form of Partner Settings: the contract's PartnerSettingsInput, every field sent (null for none). */
export const partnerSettingsFormMachine = createFormMachine({
  id: 'partnerSettingsForm',
  schema: fields,
  submit: async (body, signal): Promise<PartnerSettings> =>
    unwrap(
      await api.POST('/settings/partner-setting/update', {
        body,
        params: { header: { 'Idempotency-Key': globalThis.crypto.randomUUID() } },
        signal,
      }),
    ),
});

export const valuesOf = (s: PartnerSettings): PartnerSettingsValues => ({
  api_access: s.api_access,
  webhook_url: s.webhook_url,
  notification_email: s.notification_email,
});

export interface PartnerSettingsContext {
  settings: PartnerSettings | null;
}

export type PartnerSettingsEvent =
  | { type: 'retry' }
  | { type: 'xstate.done.actor.partnerSettingsForm'; output: PartnerSettings };

/**
 * Settings › Partner Settings: loads the seller's settings ('Failed to fetch data' with Retry), then edits them on
 * the shared form machine; a save toasts 'Partner settings saved.' and starts the form again from what the
 * server stored. A refused webhook address shows the server's message under its field.
 */
export const partnerSettingsMachine = setup({
  types: {
    context: {} as PartnerSettingsContext,
    events: {} as PartnerSettingsEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    partnerSettingsForm: partnerSettingsFormMachine,
    loadSettings: fromPromise<PartnerSettings>(async ({ signal }) =>
      unwrap(await api.GET('/settings/partner-setting', { signal }), PARTNER_LOAD_ERROR),
    ),
  },
  actions: {
    store: assign((_, settings: PartnerSettings) => ({ settings })),
    notifySaved: emit({ type: 'notify', level: 'success', message: PARTNER_SAVED } as const),
    notifyLoadError: emit(notifyError(PARTNER_LOAD_ERROR)),
  },
}).createMachine({
  id: 'partnerSettings',
  context: { settings: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadSettings',
        src: 'loadSettings',
        onDone: { target: 'editing', actions: { type: 'store', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: 'notifyLoadError' },
      },
    },
    failed: {
      description: "'Failed to fetch data' with Retry.",
      tags: ['error'],
      on: { retry: 'loading' },
    },
    editing: {
      description: 'The form, from the settings as stored.',
      invoke: {
        id: 'partnerSettingsForm',
        systemId: 'partnerSettingsForm',
        src: 'partnerSettingsForm',
        input: ({ context }) => ({ values: valuesOf(context.settings as PartnerSettings) }),
        onDone: {
          target: 'editing',
          reenter: true,
          actions: [{ type: 'store', params: ({ event }) => event.output }, 'notifySaved'],
        },
      },
    },
  },
});
