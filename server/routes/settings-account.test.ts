import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MY_ACCOUNT_MESSAGES } from '../domain/my-account';
import { freshServer } from '../test-support';
import { call, type Server } from './trade-testing';

// Settings › My Account (updateMyAccount): the caller's own details, checked against the reference data.

describe('my account', () => {
  let s: Server;
  let seller: string;
  let member: string;
  let place: { countryId: number; cityId: number; dialing: string; otherCityId: number };

  beforeAll(async () => {
    s = await freshServer();
    [seller, member] = await Promise.all([s.loginAs('seller@demo.test'), s.loginAs('member@demo.test')]);
    const city = await s.db
      .selectFrom('cities')
      .innerJoin('countries', 'countries.id', 'cities.country_id')
      .select(['cities.id', 'cities.country_id', 'countries.dialing_code'])
      .where('countries.dialing_code', '<>', '')
      .orderBy('cities.id')
      .executeTakeFirstOrThrow();
    const other = await s.db
      .selectFrom('cities')
      .select('id')
      .where('country_id', '<>', city.country_id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    place = { countryId: city.country_id, cityId: city.id, dialing: city.dialing_code, otherCityId: other.id };
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  const valid = () => ({
    first_name: 'Grace',
    last_name: 'Hopper',
    phone_dialing_code: place.dialing,
    phone_number: '7700 900123',
    country_id: place.countryId,
    city_id: place.cityId,
    currency: 'EUR',
    language: 'fr',
  });

  it('saves every field and getMyAccount answers them', async () => {
    const saved = await call(s, 'PUT', '/settings/update-my-account', seller, valid(), null);
    expect(saved.status).toBe(200);
    const read = await call(s, 'GET', '/settings/my-account', seller);
    expect(read.body.data).toMatchObject({ ...valid(), email: 'seller@demo.test' });
  });

  it('clears the phone, country and city with empty values', async () => {
    const body = { ...valid(), phone_dialing_code: null, phone_number: null, country_id: null, city_id: null };
    expect((await call(s, 'PUT', '/settings/update-my-account', seller, body, null)).status).toBe(200);
    const read = await call(s, 'GET', '/settings/my-account', seller);
    expect(read.body.data).toMatchObject({
      phone_dialing_code: null,
      phone_number: null,
      country_id: null,
      city_id: null,
    });
  });

  it('a team member edits its own account, not its seller', async () => {
    const body = { ...valid(), first_name: 'Member' };
    expect((await call(s, 'PUT', '/settings/update-my-account', member, body, null)).status).toBe(200);
    expect((await call(s, 'GET', '/settings/my-account', member)).body.data?.first_name).toBe('Member');
    expect((await call(s, 'GET', '/settings/my-account', seller)).body.data?.first_name).toBe('Grace');
  });

  it.each([
    ['an empty first name', { first_name: '' }, '/body/first_name', undefined],
    ['a first name of spaces', { first_name: '   ' }, '/body/first_name', 'must contain a letter or a digit'],
    [
      'a last name of a zero-width space',
      { last_name: '\u200b' },
      '/body/last_name',
      'must contain a letter or a digit',
    ],
    ['an empty phone number', { phone_number: '' }, '/body/phone_number', undefined],
    [
      'a number without a dialing code',
      { phone_dialing_code: null },
      '/body/phone_dialing_code',
      MY_ACCOUNT_MESSAGES.phonePair,
    ],
    ['a dialing code without a number', { phone_number: null }, '/body/phone_number', MY_ACCOUNT_MESSAGES.phonePair],
    [
      'a dialing code nobody has',
      { phone_dialing_code: '+9999' },
      '/body/phone_dialing_code',
      MY_ACCOUNT_MESSAGES.unknownDialingCode,
    ],
    ['letters in the number', { phone_number: '77OO 9OO' }, '/body/phone_number', undefined],
    [
      'an unknown country',
      { country_id: 2_000_000_000, city_id: null },
      '/body/country_id',
      MY_ACCOUNT_MESSAGES.unknownCountry,
    ],
    ['a city without a country', { country_id: null }, '/body/city_id', MY_ACCOUNT_MESSAGES.cityWithoutCountry],
    ['a city of another country', { city_id: -1 }, '/body/city_id', MY_ACCOUNT_MESSAGES.cityOfOtherCountry],
    ['an unknown currency', { currency: 'XXX' }, '/body/currency', undefined],
    ['an unknown language', { language: 'xx' }, '/body/language', undefined],
    ['an extra field', { email: 'evil@example.com' }, '/body', undefined],
  ])('refuses %s with 422 on its field and changes nothing', async (_name, change, path, message) => {
    const before = (await call(s, 'GET', '/settings/my-account', seller)).body.data;
    const patch = { ...change } as Record<string, unknown>;
    if (patch.city_id === -1) patch.city_id = place.otherCityId;
    const answer = await call(s, 'PUT', '/settings/update-my-account', seller, { ...valid(), ...patch }, null);
    expect(answer.status).toBe(422);
    const error = answer.body.errors?.find((e) => e.path.startsWith(path));
    expect(error, JSON.stringify(answer.body.errors)).toBeDefined();
    if (message) expect(error?.message).toBe(message);
    expect((await call(s, 'GET', '/settings/my-account', seller)).body.data).toEqual(before);
  });

  it('needs a login', async () => {
    const res = await s.json('PUT', '/settings/update-my-account', valid());
    expect(res.status).toBe(401);
  });
});
