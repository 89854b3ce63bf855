import { fromPromise } from 'xstate';
import { api, type DataOf, unwrap } from '../openapi/client';

/** The reference calls the settings forms share (countries and their cities). */
export type Country = DataOf<'/countries', 'get'>[number];
export type City = DataOf<'/cities', 'get'>[number];

/** The spec's toast when a country's cities do not load (section 8). */
export const CITIES_ERROR = 'Failed to load cities';

/** A country's cities, for a form's city field: input is the country's id. */
export const loadCities = fromPromise<City[], number>(async ({ input, signal }) =>
  unwrap(await api.GET('/cities', { params: { query: { country_id: input } }, signal }), CITIES_ERROR),
);
