import * as v from 'valibot';
import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import { api, unwrap } from '../openapi/client';
import { formMessages } from '../openapi/form-messages';
import type { components } from '../openapi/schema';
import { addAddressBody } from '../openapi/valibot';
import { createFormMachine, type FormEvent, fieldLimits } from './form.machine';
import { createListMachine } from './list.machine';
import { type NotifyEvent, notifyError } from './notify';
import { CITIES_ERROR, type City, type Country, loadCities } from './reference-api';

export { CITIES_ERROR, type City, type Country };

export type Address = components['schemas']['Address'];

/** The spec's toasts (section 8). */
export const ADDRESS_LOAD_ERROR = 'Failed to load address and payment details';
export const COUNTRIES_ERROR = 'Failed to fetch data';

const newKey = () => globalThis.crypto.randomUUID();
const header = () => ({ header: { 'Idempotency-Key': newKey() } });

/** The address book: every address of the caller's book (one call, no paging), the primary one first. */
export const addressListMachine = createListMachine<Address, Record<string, never>>({
  id: 'addressList',
  fetchPage: async (_request, signal) => {
    const items = unwrap(await api.GET('/settings/address-book', { signal }), ADDRESS_LOAD_ERROR);
    return { items, page: 1, lastPage: 1, total: items.length };
  },
  keyOf: (a) => a.id,
  errorMessage: () => ADDRESS_LOAD_ERROR,
  toastsErrors: () => true,
});

const fields = addAddressBody(
  formMessages({
    first_name: { required: 'Enter the first name.', maxLength: 'Use at most 100 characters.' },
    last_name: { required: 'Enter the last name.', maxLength: 'Use at most 100 characters.' },
    email: { required: 'Enter an email address.', format: 'Enter a valid email address, like name@example.com.' },
    country_id: { type: 'Choose a country.' },
    address: { required: 'Enter the street address.', maxLength: 'Use at most 300 characters.' },
    zip_code: { required: 'Enter the postal code.', maxLength: 'Use at most 20 characters.' },
  }),
);
export const addressLimits = fieldLimits(fields);

/** The form's values: the contract's AddressInput, plus the address being edited (null: a new one). */
export interface AddressValues {
  id: number | null;
  first_name: string;
  last_name: string;
  email: string;
  country_code: string;
  mobile_number: string;
  /** null until a country is chosen (the schema then says 'Choose a country.'). */
  country_id: number | null;
  city_id: number | null;
  address: string;
  zip_code: string;
  address_type: Address['address_type'];
  primary_address: 0 | 1;
}

export const EMPTY_ADDRESS: AddressValues = {
  id: null,
  first_name: '',
  last_name: '',
  email: '',
  country_code: '',
  mobile_number: '',
  country_id: null,
  city_id: null,
  address: '',
  zip_code: '',
  address_type: 'billing',
  primary_address: 0,
};

export const valuesOfAddress = (a: Address): AddressValues => ({
  id: a.id,
  first_name: a.first_name,
  last_name: a.last_name,
  email: a.email,
  country_code: a.country_code ?? '',
  mobile_number: a.mobile_number ?? '',
  country_id: a.country_id,
  city_id: a.city_id,
  address: a.address,
  zip_code: a.zip_code,
  address_type: a.address_type,
  primary_address: a.primary_address,
});

const addressSchema = v.strictObject({ ...fields.entries, id: v.nullable(v.number()) });
/** The form starts with no country (null), which its schema refuses until one is chosen. */
const formValues = (draft: AddressValues) => draft as unknown as v.InferInput<typeof addressSchema>;

/** Add (id null) or update one address: the contract's AddressInput with the id beside it. */
export const addressFormMachine = createFormMachine({
  id: 'addressForm',
  schema: addressSchema,
  submit: async ({ id, ...fields }, signal): Promise<Address> => {
    const body = { address_type: 'billing' as const, primary_address: 0 as const, ...fields };
    return id === null
      ? unwrap(await api.POST('/settings/address-book/add', { body, params: header(), signal }))
      : unwrap(await api.POST('/settings/address-book/update', { body: { id, ...body }, params: header(), signal }));
  },
});

export interface AddressBookContext {
  countries: Country[];
  /** What the form opens with: a new address, or the one being edited. */
  draft: AddressValues;
  /** The country the cities are (being) loaded for. */
  countryId: number | null;
  cities: City[];
  /** The address a delete or 'make primary' is about. */
  target: Address | null;
}

export type AddressBookEvent =
  | { type: 'address.adding' }
  | { type: 'address.editing'; address: Address }
  | { type: 'form.closed' }
  | { type: 'country.changed'; countryId: number | null }
  | { type: 'cities.retried' }
  | { type: 'countries.retried' }
  | { type: 'delete.requested'; address: Address }
  | { type: 'delete.confirmed' }
  | { type: 'delete.cancelled' }
  | { type: 'primary.requested'; address: Address }
  | { type: 'xstate.done.actor.addressForm'; output: Address };

/**
 * Settings › Address Book: the list (the shared list machine, child `addressList`), a form (the shared form
 * machine) to add or edit an address with the cities of its country, delete after a confirmation, and 'Make
 * primary'. The server keeps one primary address and refuses to delete it while others exist (409, its message
 * toasted). Every change reloads the list.
 */
export const addressBookMachine = setup({
  types: {
    context: {} as AddressBookContext,
    events: {} as AddressBookEvent,
    emitted: {} as NotifyEvent,
  },
  actors: {
    addressList: addressListMachine,
    addressForm: addressFormMachine,
    loadCountries: fromPromise<Country[]>(async ({ signal }) =>
      unwrap(await api.GET('/countries', { signal }), COUNTRIES_ERROR),
    ),
    loadCities,
    deleteAddress: fromPromise<unknown, number>(async ({ input, signal }) =>
      unwrap(
        await api.POST('/settings/address-book/delete/{id}', {
          params: { path: { id: input }, ...header() },
          signal,
        }),
      ),
    ),
    makePrimary: fromPromise<Address, number>(async ({ input, signal }) =>
      unwrap(
        await api.POST('/settings/address-book/update', {
          body: { id: input, primary_address: 1 },
          params: header(),
          signal,
        }),
      ),
    ),
  },
  guards: {
    hasCountry: ({ context }) => context.countryId !== null,
  },
  actions: {
    storeCountries: assign((_, countries: Country[]) => ({ countries })),
    startNew: assign({ draft: EMPTY_ADDRESS, countryId: null, cities: [] }),
    startEdit: assign(({ event }) =>
      event.type === 'address.editing'
        ? { draft: valuesOfAddress(event.address), countryId: event.address.country_id, cities: [] }
        : {},
    ),
    storeCities: assign((_, cities: City[]) => ({ cities })),
    rememberCountry: assign(({ event }) =>
      event.type === 'country.changed' ? { countryId: event.countryId, cities: [] } : {},
    ),
    // the form child as it runs (the test model has none to send to)
    setFormCountry: enqueueActions(({ enqueue, event, system }) => {
      const form = system.get('addressForm');
      if (!form || event.type !== 'country.changed') return;
      const country: FormEvent<AddressValues> = { type: 'field.changed', field: 'country_id', value: event.countryId };
      const city: FormEvent<AddressValues> = { type: 'field.changed', field: 'city_id', value: null };
      enqueue.sendTo(form, country);
      enqueue.sendTo(form, city);
    }),
    pickTarget: assign(({ event }) =>
      event.type === 'delete.requested' || event.type === 'primary.requested' ? { target: event.address } : {},
    ),
    forgetTarget: assign({ target: null }),
    reloadList: enqueueActions(({ enqueue, system }) => {
      const list = system.get('addressList');
      if (list) enqueue.sendTo(list, { type: 'list.refreshed' });
    }),
    notifySaved: emit({ type: 'notify', level: 'success', message: 'Address saved.' } as const),
    notifyDeleted: emit({ type: 'notify', level: 'success', message: 'Address deleted.' } as const),
    notifyPrimary: emit({ type: 'notify', level: 'success', message: 'Primary address changed.' } as const),
    notifyFailure: emit((_, error: unknown) =>
      notifyError(
        error instanceof Error && error.message
          ? error.message
          : 'An unexpected error occurred. Please try again later.',
      ),
    ),
    notifyCitiesError: emit(notifyError(CITIES_ERROR)),
    notifyCountriesError: emit(notifyError(COUNTRIES_ERROR)),
  },
}).createMachine({
  id: 'addressBook',
  context: { countries: [], draft: EMPTY_ADDRESS, countryId: null, cities: [], target: null },
  invoke: { id: 'addressList', systemId: 'addressList', src: 'addressList', input: { filters: {} } },
  initial: 'loadingCountries',
  states: {
    loadingCountries: {
      tags: ['loading'],
      invoke: {
        id: 'loadCountries',
        src: 'loadCountries',
        onDone: { target: 'browsing', actions: { type: 'storeCountries', params: ({ event }) => event.output } },
        onError: { target: 'countriesFailed', actions: 'notifyCountriesError' },
      },
    },
    countriesFailed: {
      description: 'The countries did not load: the list shows, adding and editing wait for Retry.',
      tags: ['countriesError'],
      on: { 'countries.retried': 'loadingCountries' },
    },
    browsing: {
      description: 'The list with Add, Edit, Delete and Make primary.',
      on: {
        'address.adding': { target: 'form', actions: 'startNew' },
        'address.editing': { target: 'form', actions: 'startEdit' },
        'delete.requested': { target: 'confirmingDelete', actions: 'pickTarget' },
        'primary.requested': { target: 'makingPrimary', actions: 'pickTarget' },
      },
    },
    form: {
      description: 'Adding or editing an address.',
      invoke: {
        id: 'addressForm',
        systemId: 'addressForm',
        src: 'addressForm',
        input: ({ context }) => ({ values: formValues(context.draft) }),
        onDone: { target: 'browsing', actions: ['notifySaved', 'reloadList'] },
      },
      on: {
        'form.closed': 'browsing',
        'country.changed': { target: '.deciding', actions: ['rememberCountry', 'setFormCountry'] },
      },
      initial: 'deciding',
      states: {
        deciding: { always: [{ guard: 'hasCountry', target: 'loadingCities' }, { target: 'noCountry' }] },
        noCountry: { description: 'No country chosen yet: no cities to choose from.' },
        loadingCities: {
          tags: ['loadingCities'],
          invoke: {
            id: 'loadCities',
            src: 'loadCities',
            input: ({ context }) => context.countryId as number,
            onDone: { target: 'citiesLoaded', actions: { type: 'storeCities', params: ({ event }) => event.output } },
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
    },
    confirmingDelete: {
      description: 'Delete this address? (Delete or Cancel)',
      on: {
        'delete.confirmed': 'deleting',
        'delete.cancelled': { target: 'browsing', actions: 'forgetTarget' },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteAddress',
        src: 'deleteAddress',
        input: ({ context }) => context.target?.id ?? 0,
        onDone: { target: 'browsing', actions: ['notifyDeleted', 'forgetTarget', 'reloadList'] },
        onError: {
          target: 'browsing',
          actions: [
            { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forgetTarget',
          ],
        },
      },
    },
    makingPrimary: {
      tags: ['busy'],
      invoke: {
        id: 'makePrimary',
        src: 'makePrimary',
        input: ({ context }) => context.target?.id ?? 0,
        onDone: { target: 'browsing', actions: ['notifyPrimary', 'forgetTarget', 'reloadList'] },
        onError: {
          target: 'browsing',
          actions: [
            { type: 'notifyFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
            'forgetTarget',
          ],
        },
      },
    },
  },
});
