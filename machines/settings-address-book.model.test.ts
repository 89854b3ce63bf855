import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  type Address,
  addressBookMachine,
  CITIES_ERROR,
  COUNTRIES_ERROR,
  EMPTY_ADDRESS,
  valuesOfAddress,
} from './settings-address-book.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const address: Address = {
  id: 5,
  address_id: 5,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  country_code: '+44',
  mobile_number: '7700900123',
  country_id: 1,
  country_name: 'England',
  city_id: 9,
  city_name: 'London',
  address: '12 Analytical Row',
  zip_code: 'AE1 1AA',
  address_type: 'billing',
  primary_address: 1,
};

const events = [
  { type: 'address.adding' },
  { type: 'address.editing', address },
  { type: 'form.closed' },
  { type: 'country.changed', countryId: 1 },
  { type: 'country.changed', countryId: null },
  { type: 'cities.retried' },
  { type: 'countries.retried' },
  { type: 'delete.requested', address },
  { type: 'delete.confirmed' },
  { type: 'delete.cancelled' },
  { type: 'primary.requested', address },
  {
    type: 'xstate.done.actor.loadCountries',
    output: [{ id: 1, name: 'England', short_name: 'EN', dialing_code: '+44', phone_code: 44 }],
  },
  { type: 'xstate.error.actor.loadCountries', error: new ApiError(500, COUNTRIES_ERROR) },
  { type: 'xstate.done.actor.loadCities', output: [{ id: 9, name: 'London', country_id: 1 }] },
  { type: 'xstate.error.actor.loadCities', error: new ApiError(500, CITIES_ERROR) },
  { type: 'xstate.done.actor.addressForm', output: address },
  { type: 'xstate.done.actor.deleteAddress', output: { deleted_id: 5, primary_address_id: null } },
  {
    type: 'xstate.error.actor.deleteAddress',
    error: new ApiError(409, 'Make another address primary before deleting this one.'),
  },
  { type: 'xstate.done.actor.makePrimary', output: address },
  { type: 'xstate.error.actor.makePrimary', error: new ApiError(404, 'Not found') },
];

describe('settings › address book statechart, model-based', () => {
  const paths = modelPaths(addressBookMachine, {
    events,
    settling: ['loadCountries', 'loadCities', 'addressForm', 'deleteAddress', 'makePrimary'],
    identity: ({ value, context }) => [value, context.countryId, context.draft.id, context.target?.id ?? null],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(addressBookMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('an address opens in the form as stored; a new one empty', () => {
    expect(valuesOfAddress(address)).toMatchObject({ id: 5, country_id: 1, city_id: 9, primary_address: 1 });
    expect(EMPTY_ADDRESS).toMatchObject({ id: null, country_id: null, city_id: null });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors([
        'addressList',
        'loadCountries',
        'loadCities',
        'addressForm',
        'deleteAddress',
        'makePrimary',
      ] as const);
      const toasts: string[] = [];
      const actor = createActor(addressBookMachine.provide({ actors: control.actors }));
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          if (real.hasTag('loadingCities')) expect(control.pending('loadCities')?.input).toBe(real.context.countryId);
          if (real.matches('deleting')) expect(control.pending('deleteAddress')?.input).toBe(5);
          if (real.matches('makingPrimary')) expect(control.pending('makePrimary')?.input).toBe(5);
          if (real.hasTag('citiesError')) expect(toasts).toContain(CITIES_ERROR);
        },
      );
      actor.stop();
      await flush();
    });
  }
});
