import { assign, emit, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { requestFeatureBody } from '../openapi/valibot';
import { createFormMachine, fieldLimits } from './form.machine';
import type { NotifyEvent } from './notify';

export type FeatureRequest = DataOf<'/settings/request-feature', 'post'>;
export type FeatureCategory = components['schemas']['FeatureCategory'];

/** The confirmation toasted once a request is stored (the server answers the same words). */
export const FEATURE_REQUEST_SENT = 'Thank you! Your feature request has been sent to our product team.';

export interface FeatureRequestValues {
  title: string;
  description: string;
  /** '' until one is chosen (the schema then says 'Choose a category.'). */
  category: FeatureCategory | '';
}

const fields = requestFeatureBody(
  formMessages({
    title: {
      required: 'Enter a title.',
      minLength: 'Use at least 3 characters.',
      maxLength: 'Use at most 120 characters.',
    },
    description: {
      required: 'Describe the feature.',
      minLength: 'Use at least 10 characters.',
      maxLength: 'Use at most 2,000 characters.',
    },
    category: { enum: 'Choose a category.' },
  }),
);
export const featureRequestLimits = fieldLimits(fields);

export const EMPTY_FEATURE_REQUEST: FeatureRequestValues = { title: '', description: '', category: '' };

/** The form (the contract's FeatureRequestInput); a refusal (5 a day: 429) is toasted as well as shown. */
export const requestFeatureFormMachine = createFormMachine({
  id: 'requestFeatureForm',
  schema: fields,
  toastsRefusal: true,
  submit: async (body, signal): Promise<FeatureRequest> =>
    unwrap(
      await api.POST('/settings/request-feature', {
        body,
        params: { header: { 'Idempotency-Key': globalThis.crypto.randomUUID() } },
        signal,
      }),
    ),
});

export interface RequestFeatureContext {
  /** The request just sent (the confirmation names it), else null. */
  sent: FeatureRequest | null;
}

export type RequestFeatureEvent =
  | { type: 'another.requested' }
  | { type: 'xstate.done.actor.requestFeatureForm'; output: FeatureRequest };

/**
 * Settings › Request a Feature: the form (title, description, category) on the shared form machine; once the
 * server stores it, the confirmation is toasted and shown in place of the form, with 'Send another request'
 * for a new, empty form.
 */
export const requestFeatureMachine = setup({
  types: {
    context: {} as RequestFeatureContext,
    events: {} as RequestFeatureEvent,
    emitted: {} as NotifyEvent,
  },
  actors: { requestFeatureForm: requestFeatureFormMachine },
  actions: {
    storeSent: assign((_, sent: FeatureRequest) => ({ sent })),
    forgetSent: assign({ sent: null }),
    notifySent: emit({ type: 'notify', level: 'success', message: FEATURE_REQUEST_SENT } as const),
  },
}).createMachine({
  id: 'requestFeature',
  context: { sent: null },
  initial: 'editing',
  states: {
    editing: {
      description: 'The form, empty.',
      invoke: {
        id: 'requestFeatureForm',
        systemId: 'requestFeatureForm',
        src: 'requestFeatureForm',
        input: {
          values: EMPTY_FEATURE_REQUEST as unknown as { title: string; description: string; category: FeatureCategory },
        },
        onDone: {
          target: 'sent',
          actions: [{ type: 'storeSent', params: ({ event }) => event.output }, 'notifySent'],
        },
      },
    },
    sent: {
      description: 'The confirmation, with Send another request.',
      on: { 'another.requested': { target: 'editing', actions: 'forgetSent' } },
    },
  },
});
