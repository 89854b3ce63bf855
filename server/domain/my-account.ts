import type { components } from '../../openapi/schema';
import type { AuthUser } from '../auth/session';
import type { Db } from '../db/database';
import { prepared } from '../db/prepared';
import { HttpError, MESSAGES } from '../http/errors';

export type Account = components['schemas']['Account'];
export type MyAccountInput = components['schemas']['MyAccountInput'];
type Language = components['schemas']['LanguageCode'];
type KycStatus = components['schemas']['KycStatus'];

export const MY_ACCOUNT_MESSAGES = {
  phonePair: 'Give the dialing code and the number together, or neither.',
  unknownDialingCode: 'Choose a dialing code from the list.',
  unknownCountry: 'Choose a country from the list.',
  cityWithoutCountry: 'Choose a country before its city.',
  cityOfOtherCountry: 'Choose a city of the selected country.',
} as const;

const kyc = (n: number): KycStatus => (n === 1 || n === 2 ? n : 0);
const invalid = (path: string, message: string) => new HttpError(422, MESSAGES.validation, [{ path, message }]);

/** My Account's details of a user: built once, read on every opening of My Account and the profile. */
const accountDetails = prepared((db, $: { id: number }) =>
  db
    .selectFrom('users')
    .select([
      'first_name',
      'last_name',
      'currency',
      'phone_dialing_code',
      'phone_number',
      'country_id',
      'city_id',
      'language',
    ])
    .where('id', '=', $.id),
);

/** The caller's account as getMyAccount and updateMyAccount answer it (the session's user plus My Account's details). */
export async function myAccount(db: Db, user: AuthUser): Promise<Account> {
  const details = await accountDetails.takeFirst(db, { id: user.id });
  if (!details) throw new Error(`user ${user.id} has no row`);
  return {
    id: user.id,
    email: user.email,
    user_type: user.user_type,
    kyc_status: kyc(user.kyc_status),
    user_token: user.user_token,
    team_owner_id: user.team_owner_id,
    created_at: user.created_at,
    ...details,
    language: details.language as Language,
  };
}

/**
 * Saves My Account. Checks what the schema cannot: the phone's two parts together, a dialing code some country
 * has, a known country, a city of that country. Runs in the call's transaction.
 */
export async function updateMyAccount(db: Db, user: AuthUser, input: MyAccountInput): Promise<Account> {
  const dialing = input.phone_dialing_code;
  const number = input.phone_number;
  if ((dialing === null) !== (number === null))
    throw invalid(dialing === null ? '/body/phone_dialing_code' : '/body/phone_number', MY_ACCOUNT_MESSAGES.phonePair);
  if (dialing !== null) {
    const known = await db.selectFrom('countries').select('id').where('dialing_code', '=', dialing).executeTakeFirst();
    if (!known) throw invalid('/body/phone_dialing_code', MY_ACCOUNT_MESSAGES.unknownDialingCode);
  }
  if (input.country_id !== null) {
    const country = await db.selectFrom('countries').select('id').where('id', '=', input.country_id).executeTakeFirst();
    if (!country) throw invalid('/body/country_id', MY_ACCOUNT_MESSAGES.unknownCountry);
  }
  if (input.city_id !== null) {
    if (input.country_id === null) throw invalid('/body/city_id', MY_ACCOUNT_MESSAGES.cityWithoutCountry);
    const city = await db
      .selectFrom('cities')
      .select('id')
      .where('id', '=', input.city_id)
      .where('country_id', '=', input.country_id)
      .executeTakeFirst();
    if (!city) throw invalid('/body/city_id', MY_ACCOUNT_MESSAGES.cityOfOtherCountry);
  }
  await db
    .updateTable('users')
    .set({
      first_name: input.first_name.trim(),
      last_name: input.last_name.trim(),
      phone_dialing_code: dialing,
      phone_number: number,
      country_id: input.country_id,
      city_id: input.city_id,
      currency: input.currency,
      language: input.language,
    })
    .where('id', '=', user.id)
    .execute();
  return myAccount(db, user);
}
