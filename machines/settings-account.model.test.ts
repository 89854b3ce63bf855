import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError } from '../openapi/client';
import {
  ACCOUNT_LOAD_ERROR,
  type Account,
  CITIES_ERROR,
  type ReferenceData,
  settingsAccountMachine,
  valuesOf,
} from './settings-account.machine';
import { controllableActors, flush, modelPaths, replay, uncovered } from './testing/model';

const account = (country: number | null): Account => ({
  id: 7,
  email: 'seller@demo.test',
  first_name: 'Sam',
  last_name: 'Seller',
  user_type: 'sellers',
  kyc_status: 1,
  currency: 'GBP',
  user_token: 'u',
  team_owner_id: null,
  created_at: '2026-01-01T00:00:00.000Z',
  phone_dialing_code: null,
  phone_number: null,
  country_id: country,
  city_id: null,
  language: 'en',
});
const reference = (country: number | null): ReferenceData => ({
  account: account(country),
  countries: [{ id: 1, name: 'England', short_name: 'EN', dialing_code: '+44', phone_code: 44 }],
  currencies: [{ code: 'GBP', name: 'Pound', symbol: '£', minor_unit: 2 }] as ReferenceData['currencies'],
});

const events = [
  { type: 'retry' },
  { type: 'country.changed', countryId: 1 },
  { type: 'country.changed', countryId: null },
  { type: 'cities.retried' },
  { type: 'xstate.done.actor.loadReference', output: reference(null) },
  { type: 'xstate.done.actor.loadReference', output: reference(1) },
  { type: 'xstate.error.actor.loadReference', error: new ApiError(500, ACCOUNT_LOAD_ERROR) },
  { type: 'xstate.done.actor.loadCities', output: [{ id: 9, name: 'London', country_id: 1 }] },
  { type: 'xstate.error.actor.loadCities', error: new ApiError(500, CITIES_ERROR) },
  { type: 'xstate.done.actor.myAccountForm', output: { ...account(1), first_name: 'Saved' } },
];

describe('settings › my account statechart, model-based', () => {
  const paths = modelPaths(settingsAccountMachine, {
    events,
    identity: ({ value, context }) => [value, context.countryId, context.account?.first_name ?? null],
  });

  it('the generated paths reach every state and every transition', () => {
    expect(uncovered(settingsAccountMachine, paths)).toEqual({ missingStates: [], missingTransitions: [] });
  });

  it('the form starts from the account as stored', () => {
    expect(valuesOf(account(3))).toEqual({
      first_name: 'Sam',
      last_name: 'Seller',
      phone_dialing_code: null,
      phone_number: null,
      country_id: 3,
      city_id: null,
      currency: 'GBP',
      language: 'en',
    });
  });

  for (const path of paths) {
    it(path.description, async () => {
      const control = controllableActors(['loadReference', 'loadCities', 'myAccountForm'] as const);
      const told: string[] = [];
      const toasts: string[] = [];
      const actor = createActor(
        settingsAccountMachine.provide({
          actors: control.actors,
          actions: { tellSession: (_, saved: Account) => void told.push(saved.first_name) },
        }),
      );
      actor.on('notify', (e) => toasts.push(e.message));
      actor.start();
      await replay(
        path,
        actor,
        (event) => control.settle(event),
        (real) => {
          // the cities asked for are those of the chosen country
          if (real.hasTag('loadingCities')) expect(control.pending('loadCities')?.input).toBe(real.context.countryId);
          if (real.matches('failed')) expect(toasts).toContain(ACCOUNT_LOAD_ERROR);
          if (real.hasTag('citiesError')) expect(toasts).toContain(CITIES_ERROR);
          if (real.context.account?.first_name === 'Saved') expect(told).toContain('Saved');
        },
      );
      actor.stop();
      await flush();
    });
  }
});
