import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { updateMyAccountBody } from '../openapi/valibot';
import { createFormMachine, type FormEvent, fieldLimits } from './form.machine';
import { type NotifyEvent, notifyError } from './notify';
import { CITIES_ERROR, type City, type Country, loadCities } from './reference-api';

export { CITIES_ERROR, type City, type Country };

export type Account = components['schemas']['Account'];
export type MyAccountValues = components['schemas']['MyAccountInput'];
export type Currency = DataOf<'/currencies', 'get'>[number];

/** The spec's toasts (section 8). */
export const ACCOUNT_LOAD_ERROR = 'Error loading account details';
export const ACCOUNT_SAVED = 'Your account details are saved.';

const fields = updateMyAccountBody(
  formMessages({
    first_name: { required: 'Enter your first name.', maxLength: 'Use at most 100 characters.' },
    last_name: { required: 'Enter your last name.', maxLength: 'Use at most 100 characters.' },
    phone_dialing_code: {
      format: 'Choose a dialing code from the list.',
      maxLength: 'Choose a dialing code from the list.',
    },
    phone_number: {
      format: 'Enter 5 to 20 digits (spaces allowed), without the dialing code.',
      maxLength: 'Enter 5 to 20 digits (spaces allowed), without the dialing code.',
    },
  }),
);
export const myAccountLimits = fieldLimits(fields);

/** My Account's form: the shared form machine on the contract's MyAccountInput. */
export const myAccountFormMachine = createFormMachine({
  id: 'myAccountForm',
  schema: fields,
  submit: async (body, signal): Promise<Account> =>
    unwrap(await api.PUT('/settings/update-my-account', { body, signal })),
});

/** The form's starting values: the account as stored (null for a phone it has not got). */
export function valuesOf(account: Account): MyAccountValues {
  return {
    first_name: account.first_name,
    last_name: account.last_name,
    phone_dialing_code: account.phone_dialing_code ?? null,
    phone_number: account.phone_number ?? null,
    country_id: account.country_id ?? null,
    city_id: account.city_id ?? null,
    currency: account.currency as MyAccountValues['currency'],
    language: account.language ?? 'en',
  };
}

export interface ReferenceData {
  account: Account;
  countries: Country[];
  currencies: Currency[];
}

export interface SettingsAccountContext {
  account: Account | null;
  countries: Country[];
  currencies: Currency[];
  /** The country the cities are (being) loaded for: the form's country. */
  countryId: number | null;
  cities: City[];
}

export type SettingsAccountEvent =
  | { type: 'retry' }
  | { type: 'country.changed'; countryId: number | null }
  | { type: 'cities.retried' }
  | { type: 'xstate.done.actor.myAccountForm'; output: Account };

/**
 * Settings › My Account: loads the account with the countries and currencies (one failure: 'Error loading
 * account details' with Retry), then edits it on the shared form machine. Choosing a country loads its cities
 * ('Failed to load cities' with Retry) and clears the city. A save updates the session's account (the header's
 * name) and starts the form again from what the server stored.
 */
export const settingsAccountMachine = setup({
  types: {
    context: {} as SettingsAccountContext,
    events: {} as SettingsAccountEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    myAccountForm: myAccountFormMachine,
    loadReference: fromPromise<ReferenceData>(async ({ signal }) => {
      const [account, countries, currencies] = await Promise.all([
        api.GET('/settings/my-account', { signal }).then((r) => unwrap(r, ACCOUNT_LOAD_ERROR)),
        api.GET('/countries', { signal }).then((r) => unwrap(r, ACCOUNT_LOAD_ERROR)),
        api.GET('/currencies', { signal }).then((r) => unwrap(r, ACCOUNT_LOAD_ERROR)),
      ]);
      return { account, countries, currencies };
    }),
    loadCities,
  },
  guards: {
    hasCountry: ({ context }) => context.countryId !== null,
  },
  actions: {
    storeReference: assign((_, data: ReferenceData) => ({
      account: data.account,
      countries: data.countries,
      currencies: data.currencies,
      countryId: data.account.country_id ?? null,
      cities: [],
    })),
    storeSaved: assign((_, account: Account) => ({ account, countryId: account.country_id ?? null })),
    storeCities: assign((_, cities: City[]) => ({ cities })),
    rememberCountry: assign(({ event }) =>
      event.type === 'country.changed' ? { countryId: event.countryId, cities: [] } : {},
    ),
    // the form child as it runs (the test model has none to send to)
    setFormCountry: enqueueActions(({ enqueue, event, system }) => {
      const form = system.get('myAccountForm');
      if (!form || event.type !== 'country.changed') return;
      const country: FormEvent<MyAccountValues> = {
        type: 'field.changed',
        field: 'country_id',
        value: event.countryId,
      };
      const city: FormEvent<MyAccountValues> = { type: 'field.changed', field: 'city_id', value: null };
      enqueue.sendTo(form, country);
      enqueue.sendTo(form, city);
    }),
    // the header's name reads the session's account: a view's actor is the session's child (useViewActor)
    tellSession: ({ self }, account: Account) => {
      self._parent?.send({ type: 'account.updated', account });
    },
    notifySaved: emit({ type: 'notify', level: 'success', message: ACCOUNT_SAVED } as const),
    notifyLoadError: emit(notifyError(ACCOUNT_LOAD_ERROR)),
    notifyCitiesError: emit(notifyError(CITIES_ERROR)),
  },
}).createMachine({
  id: 'settingsAccount',
  context: { account: null, countries: [], currencies: [], countryId: null, cities: [] },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadReference',
        src: 'loadReference',
        onDone: {
          target: 'editing',
          actions: { type: 'storeReference', params: ({ event }) => event.output },
        },
        onError: { target: 'failed', actions: 'notifyLoadError' },
      },
    },
    failed: {
      description: "'Error loading account details' with Retry.",
      tags: ['error'],
      on: { retry: 'loading' },
    },
    editing: {
      description: 'The form, with the cities of its country.',
      invoke: {
        id: 'myAccountForm',
        systemId: 'myAccountForm',
        src: 'myAccountForm',
        input: ({ context }) => ({ values: valuesOf(context.account as Account) }),
        onDone: {
          target: 'editing',
          reenter: true,
          actions: [
            { type: 'storeSaved', params: ({ event }) => event.output },
            { type: 'tellSession', params: ({ event }) => event.output },
            'notifySaved',
          ],
        },
      },
      initial: 'deciding',
      states: {
        deciding: {
          always: [{ guard: 'hasCountry', target: 'loadingCities' }, { target: 'noCountry' }],
        },
        noCountry: { description: 'No country chosen: no cities to choose from.' },
        loadingCities: {
          tags: ['loadingCities'],
          invoke: {
            id: 'loadCities',
            src: 'loadCities',
            input: ({ context }) => context.countryId as number,
            onDone: {
              target: 'citiesLoaded',
              actions: { type: 'storeCities', params: ({ event }) => event.output },
            },
            onError: { target: 'citiesFailed', actions: 'notifyCitiesError' },
          },
        },
        citiesLoaded: {},
        citiesFailed: {
          description: "'Failed to load cities' with Retry; the rest of the form works.",
          tags: ['citiesError'],
          on: { 'cities.retried': 'loadingCities' },
        },
      },
      on: {
        'country.changed': {
          target: '.deciding',
          actions: ['rememberCountry', 'setFormCountry'],
        },
      },
    },
  },
});
